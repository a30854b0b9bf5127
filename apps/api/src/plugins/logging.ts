/**
 * Log options that keep secrets out (CONTRACT.md): no Authorization header, and the
 * path segments SPEC.md puts secrets in (SSN, e-mail, session token, reset code) redacted.
 */
import type { FastifyRequest } from 'fastify';

const REDACTED = '[REDACTED]';

const SECRET_PATHS: RegExp[] = [
  /^(\/user\/ssn\/)[^/?#]+/i,
  /^(\/user\/email\/)[^/?#]+/i,
  /^(\/email\/password\/)[^/?#]+/i,
  /^(\/auth\/)[^/?#]+/i,
  /^(\/reset\/)[^/?#]+/i,
];
// `ticket`: a GET /events ticket; `s`: an unsubscribe link's signature.
const SECRET_QUERY = /([?&](?:token|code|email|ssn|password|key|ticket|s)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  let out = url;
  for (const re of SECRET_PATHS) out = out.replace(re, `$1${REDACTED}`);
  return out.replace(SECRET_QUERY, `$1${REDACTED}`);
}

/** Pino paths removed wherever they appear in a logged object. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'password',
  'newPassword',
  'oldPassword',
  'token',
  'resetCode',
  'ssn',
  'accountNumber',
  'number',
  'cvv',
  '*.password',
  '*.newPassword',
  '*.oldPassword',
  '*.token',
  '*.resetCode',
  '*.ssn',
  '*.accountNumber',
  '*.cvv',
];

export const requestSerializers = {
  req(req: FastifyRequest) {
    return {
      method: req.method,
      url: redactUrl(req.url),
      remoteAddress: req.ip,
    };
  },
};

/**
 * Error messages can carry query parameters (Drizzle's "Failed query … params: …"):
 * keep only the statement shape.
 */
export function sanitizeErrorMessage(message: string): string {
  const idx = message.indexOf('\nparams:');
  const cut = idx >= 0 ? message.slice(0, idx) + '\nparams: [REDACTED]' : message;
  return redactUrl(cut);
}
