/** Media on local disk: public files under DATA_DIR/media (served at /media/), private ones beside it. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertObjectName,
  OBJECT_NAME,
  type MediaStorage,
  type PutOptions,
  type StoredObject,
  type Visibility,
} from './storage';

export class DiskStorage implements MediaStorage {
  readonly kind = 'disk' as const;
  readonly publicDir: string;
  readonly privateDir: string;

  constructor(dataDir: string) {
    this.publicDir = path.join(dataDir, 'media');
    this.privateDir = path.join(dataDir, 'media-private');
    fs.mkdirSync(this.publicDir, { recursive: true });
    fs.mkdirSync(this.privateDir, { recursive: true, mode: 0o700 });
  }

  private pathOf(key: string, visibility: Visibility): string {
    assertObjectName(key);
    return path.join(visibility === 'public' ? this.publicDir : this.privateDir, key);
  }

  /** Written to a temporary name in the same directory, then renamed: never half a file. */
  private async writeAtomically(target: string, write: (tmp: string) => Promise<void>) {
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const tmp = path.join(
      path.dirname(target),
      `.tmp-${crypto.randomBytes(6).toString('hex')}-${path.basename(target)}`,
    );
    try {
      await write(tmp);
      await fsp.rename(tmp, target);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }

  async put(key: string, body: Buffer | Readable, opts: PutOptions): Promise<void> {
    const target = this.pathOf(key, opts.visibility);
    await this.writeAtomically(target, async (tmp) => {
      if (Buffer.isBuffer(body)) await fsp.writeFile(tmp, body, { mode: 0o644 });
      else await pipeline(body, fs.createWriteStream(tmp, { mode: 0o644 }));
    });
  }

  async putFile(key: string, file: string, opts: PutOptions): Promise<void> {
    const target = this.pathOf(key, opts.visibility);
    await this.writeAtomically(target, (tmp) => fsp.copyFile(file, tmp));
  }

  async get(key: string, visibility: Visibility): Promise<Readable | null> {
    const p = this.pathOf(key, visibility);
    try {
      const handle = await fsp.open(p, 'r');
      return handle.createReadStream();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async download(key: string, visibility: Visibility, file: string): Promise<boolean> {
    try {
      await fsp.copyFile(this.pathOf(key, visibility), file);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  async exists(key: string, visibility: Visibility): Promise<boolean> {
    try {
      const st = await fsp.stat(this.pathOf(key, visibility));
      return st.isFile();
    } catch {
      return false;
    }
  }

  /** Files under the visibility's folder, one level of sub-folder deep (`originals/…`). */
  async *list(visibility: Visibility): AsyncIterable<StoredObject> {
    const root = visibility === 'public' ? this.publicDir : this.privateDir;
    const walk = async function* (dir: string, prefix: string): AsyncGenerator<StoredObject> {
      let entries: fs.Dirent[];
      try {
        entries = await fsp.readdir(dir, { withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw err;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const e of entries) {
        // A write in progress (writeAtomically) is not an object yet.
        if (e.name.startsWith('.')) continue;
        const full = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (!prefix) yield* walk(full, `${e.name}/`);
        } else if (e.isFile()) {
          const key = `${prefix}${e.name}`;
          // Only names the product makes (never a stray file someone left in the folder).
          if (!OBJECT_NAME.test(key)) continue;
          try {
            const st = await fsp.stat(full);
            yield { key, size: st.size, modified: st.mtime };
          } catch (err) {
            // Deleted while listing.
            if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
          }
        }
      }
    };
    yield* walk(root, '');
  }

  async delete(keys: string[], visibility: Visibility): Promise<void> {
    await Promise.all(keys.map((k) => fsp.rm(this.pathOf(k, visibility), { force: true })));
  }

  async close(): Promise<void> {}
}
