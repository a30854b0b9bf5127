/**
 * Field encryption for SSNs and bank account numbers (AES-256-GCM). Each ciphertext names the
 * key that made it ("keyId:iv:tag:data", base64 parts), so ENCRYPTION_KEY can rotate: the old
 * key moves to ENCRYPTION_KEY_PREVIOUS, reads keep working, and a job re-encrypts rows.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../env';

interface Key {
  id: string;
  bytes: Buffer;
}

/** A short, stable, non-secret name for a key: the first 8 hex digits of its SHA-256. */
export function keyId(bytes: Buffer): string {
  return crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 8);
}

function toKey(base64: string): Key {
  const bytes = Buffer.from(base64.trim(), 'base64');
  if (bytes.length !== 32) throw new Error('An encryption key must be 32 bytes, base64-encoded.');
  return { id: keyId(bytes), bytes };
}

export class DecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecryptionError';
  }
}

export class FieldCipher {
  private readonly current: Key;
  private readonly byId = new Map<string, Key>();

  /** current and previous are base64 32-byte keys. */
  constructor(current: string, previous: string[] = []) {
    this.current = toKey(current);
    for (const k of [this.current, ...previous.map(toKey)])
      if (!this.byId.has(k.id)) this.byId.set(k.id, k);
  }

  get currentKeyId(): string {
    return this.current.id;
  }

  /** Whether values sealed with this key id can be opened (the current or a previous key). */
  knows(id: string): boolean {
    return this.byId.has(id);
  }

  encrypt(plain: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.current.bytes, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [
      this.current.id,
      iv.toString('base64'),
      tag.toString('base64'),
      data.toString('base64'),
    ].join(':');
  }

  decrypt(sealed: string): string {
    const parts = sealed.split(':');
    if (parts.length !== 4) throw new DecryptionError('Malformed ciphertext.');
    const [id, iv, tag, data] = parts as [string, string, string, string];
    const key = this.byId.get(id);
    if (!key) throw new DecryptionError(`No key with id ${id} is configured.`);
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', key.bytes, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([
        decipher.update(Buffer.from(data, 'base64')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new DecryptionError('Ciphertext failed authentication.');
    }
  }

  /**
   * A key for another purpose (e.g. signing short-lived URLs), derived from the current key
   * with HKDF-SHA256 so the field key itself never signs anything. Every instance with the
   * same ENCRYPTION_KEY derives the same bytes.
   */
  deriveKey(purpose: string): Buffer {
    return Buffer.from(
      crypto.hkdfSync('sha256', this.current.bytes, Buffer.alloc(0), `bountyhunt:${purpose}`, 32),
    );
  }

  /** The key id a ciphertext was made with (null when malformed). */
  static keyIdOf(sealed: string): string | null {
    const parts = sealed.split(':');
    return parts.length === 4 ? parts[0]! : null;
  }

  /** True when the ciphertext was made with an older key and should be re-encrypted. */
  isStale(sealed: string): boolean {
    return FieldCipher.keyIdOf(sealed) !== this.current.id;
  }
}

/**
 * The configured cipher. Without ENCRYPTION_KEY a key is generated once into
 * DATA_DIR/secret.key (mode 0600) and reused, with a warning: fine for one machine, not for
 * several instances or a deployment that loses its data directory.
 */
export function loadFieldCipher(
  config: Pick<Config, 'ENCRYPTION_KEY' | 'ENCRYPTION_KEY_PREVIOUS' | 'dataDir'>,
  warn: (message: string) => void = () => undefined,
): FieldCipher {
  const previous = config.ENCRYPTION_KEY_PREVIOUS.split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  if (config.ENCRYPTION_KEY) return new FieldCipher(config.ENCRYPTION_KEY, previous);
  const file = path.join(config.dataDir, 'secret.key');
  let key: string;
  if (fs.existsSync(file)) {
    key = fs.readFileSync(file, 'utf8').trim();
  } else {
    fs.mkdirSync(config.dataDir, { recursive: true });
    key = crypto.randomBytes(32).toString('base64');
    try {
      fs.writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another process wrote it first: use theirs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      key = fs.readFileSync(file, 'utf8').trim();
    }
  }
  warn(
    `ENCRYPTION_KEY is not set: using the key in ${file}. Set ENCRYPTION_KEY in production and keep it safe.`,
  );
  return new FieldCipher(key, previous);
}
