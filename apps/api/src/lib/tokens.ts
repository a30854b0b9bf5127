import crypto from 'node:crypto';

/** An opaque bearer token or reset code: 32 random bytes, base64url. */
export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

/** Tokens and reset codes are stored only as this hash. */
export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}
