import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DecryptionError, FieldCipher, keyId, loadFieldCipher } from './crypto';

const k1 = crypto.randomBytes(32).toString('base64');
const k2 = crypto.randomBytes(32).toString('base64');

describe('FieldCipher', () => {
  it('round-trips, names its key, and never repeats a ciphertext', () => {
    const c = new FieldCipher(k1);
    const a = c.encrypt('123456789');
    const b = c.encrypt('123456789');
    expect(a).not.toBe(b);
    expect(a).not.toContain('123456789');
    expect(a.split(':')[0]).toBe(keyId(Buffer.from(k1, 'base64')));
    expect(c.decrypt(a)).toBe('123456789');
  });

  it('detects tampering and unknown keys', () => {
    const c = new FieldCipher(k1);
    const sealed = c.encrypt('secret');
    const [id, iv, tag, data] = sealed.split(':') as [string, string, string, string];
    const flipped = Buffer.from(data, 'base64');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => c.decrypt([id, iv, tag, flipped.toString('base64')].join(':'))).toThrow(
      DecryptionError,
    );
    expect(() => c.decrypt('garbage')).toThrow(DecryptionError);
    expect(() => new FieldCipher(k2).decrypt(sealed)).toThrow(/No key with id/);
  });

  it('rotates: the old key still decrypts, new ciphertexts use the new key', () => {
    const old = new FieldCipher(k1);
    const sealed = old.encrypt('987654321');
    const rotated = new FieldCipher(k2, [k1]);
    expect(rotated.decrypt(sealed)).toBe('987654321');
    expect(rotated.isStale(sealed)).toBe(true);
    const fresh = rotated.encrypt('987654321');
    expect(rotated.isStale(fresh)).toBe(false);
    expect(() => old.decrypt(fresh)).toThrow(DecryptionError);
  });

  it('without ENCRYPTION_KEY generates DATA_DIR/secret.key once (0600), with a warning', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-key-'));
    try {
      const warnings: string[] = [];
      const a = loadFieldCipher(
        { ENCRYPTION_KEY: undefined, ENCRYPTION_KEY_PREVIOUS: '', dataDir },
        (m) => warnings.push(m),
      );
      const file = path.join(dataDir, 'secret.key');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(warnings[0]).toMatch(/ENCRYPTION_KEY is not set/);
      const b = loadFieldCipher({ ENCRYPTION_KEY: '', ENCRYPTION_KEY_PREVIOUS: '', dataDir });
      expect(b.decrypt(a.encrypt('x'))).toBe('x');
      const c = loadFieldCipher({ ENCRYPTION_KEY: k1, ENCRYPTION_KEY_PREVIOUS: '', dataDir });
      expect(c.currentKeyId).toBe(keyId(Buffer.from(k1, 'base64')));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
