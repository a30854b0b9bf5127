/** The disk storage's listing (backups): what is there, by visibility, never a write in progress. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DeferredStorage } from './deferred-storage';
import { DiskStorage } from './disk-storage';
import type { MediaStorage, StoredObject, Visibility } from './storage';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-disk-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Keys and sizes, sorted; each object's write time is checked to be a recent date. */
async function list(
  s: MediaStorage,
  visibility: Visibility,
): Promise<Omit<StoredObject, 'modified'>[]> {
  const out: Omit<StoredObject, 'modified'>[] = [];
  for await (const { modified, ...o } of s.list(visibility)) {
    expect(Math.abs(Date.now() - modified.getTime())).toBeLessThan(600_000);
    out.push(o);
  }
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

describe('DiskStorage.list', () => {
  it('lists public and private objects with their sizes, skipping unfinished writes', async () => {
    const s = new DiskStorage(dir);
    expect(await list(s, 'public')).toEqual([]);
    await s.put('a-f.webp', Buffer.from('full'), {
      contentType: 'image/webp',
      visibility: 'public',
    });
    await s.put('a-t.webp', Buffer.from('t'), { contentType: 'image/webp', visibility: 'public' });
    await s.put('originals/a', Buffer.from('original'), {
      contentType: 'image/jpeg',
      visibility: 'private',
    });
    await s.put('p-f.webp', Buffer.from('secret'), {
      contentType: 'image/webp',
      visibility: 'private',
    });
    // A write in progress, as writeAtomically names it, is not an object.
    fs.writeFileSync(path.join(s.publicDir, '.tmp-abc-b-f.webp'), 'half');
    fs.writeFileSync(path.join(s.privateDir, 'originals', '.tmp-abc-b'), 'half');

    expect(await list(s, 'public')).toEqual([
      { key: 'a-f.webp', size: 4 },
      { key: 'a-t.webp', size: 1 },
    ]);
    expect(await list(s, 'private')).toEqual([
      { key: 'originals/a', size: 8 },
      { key: 'p-f.webp', size: 6 },
    ]);
    // Every listed key reads back.
    for (const o of await list(s, 'private')) expect(await s.exists(o.key, 'private')).toBe(true);

    await s.delete(['a-t.webp'], 'public');
    const deferred = new DeferredStorage('disk', Promise.resolve(s));
    expect(await list(deferred, 'public')).toEqual([{ key: 'a-f.webp', size: 4 }]);
    await deferred.close();
  });
});
