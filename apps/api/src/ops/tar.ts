/**
 * Just enough of the POSIX ustar format for backups: regular files only, written one after
 * another with their sha256, read back by offset. `tar -tvf` and `tar -xf` read what this
 * writes.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';

const BLOCK = 512;

export interface TarEntry {
  name: string;
  size: number;
  /** Where the entry's bytes start in the archive. */
  offset: number;
}

function header(name: string, size: number, mtime: Date): Buffer {
  const h = Buffer.alloc(BLOCK);
  let prefix = '';
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100)
      throw new Error(`name too long for a tar entry: ${name}`);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  const octal = (v: number, len: number) => v.toString(8).padStart(len - 1, '0') + '\0';
  h.write(base, 0, 100, 'utf8');
  h.write(octal(0o600, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

/** Appends entries to a new archive file; `close()` writes the end marker. */
export class TarWriter {
  private pos = 0;
  private readonly mtime = new Date();

  private constructor(private readonly handle: fsp.FileHandle) {}

  static async create(file: string): Promise<TarWriter> {
    return new TarWriter(await fsp.open(file, 'wx', 0o600));
  }

  private async write(buf: Buffer): Promise<void> {
    let done = 0;
    while (done < buf.length) {
      const { bytesWritten } = await this.handle.write(buf, done, buf.length - done, this.pos);
      done += bytesWritten;
      this.pos += bytesWritten;
    }
  }

  private async pad(size: number): Promise<void> {
    const rest = size % BLOCK;
    if (rest) await this.write(Buffer.alloc(BLOCK - rest));
  }

  /**
   * Writes an entry of `size` bytes from a stream; returns its sha256 (hex). Throws when the
   * stream gives a different number of bytes (an object changed while it was copied).
   */
  async addStream(
    name: string,
    size: number,
    body: Readable | AsyncIterable<Buffer> | Iterable<Buffer>,
  ) {
    await this.write(header(name, size, this.mtime));
    const hash = crypto.createHash('sha256');
    let seen = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      seen += chunk.length;
      if (seen > size) break;
      hash.update(chunk);
      await this.write(chunk);
    }
    if (seen !== size) throw new Error(`${name}: expected ${size} bytes, read ${seen}`);
    await this.pad(size);
    return hash.digest('hex');
  }

  async addBuffer(name: string, data: Buffer): Promise<string> {
    return this.addStream(name, data.length, [data]);
  }

  async addFile(name: string, file: string): Promise<string> {
    const { size } = await fsp.stat(file);
    return this.addStream(name, size, fs.createReadStream(file));
  }

  /** The end-of-archive marker (two empty blocks), then the file is synced and closed. */
  async close(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
    await this.handle.sync();
    await this.handle.close();
  }

  async abort(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}

function readString(h: Buffer, start: number, len: number): string {
  const raw = h.subarray(start, start + len);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? len : end).toString('utf8');
}

/** The regular-file entries of an archive, in order. Refuses anything that is not ustar. */
export async function listTar(file: string): Promise<TarEntry[]> {
  const handle = await fsp.open(file, 'r');
  try {
    const { size: total } = await handle.stat();
    const entries: TarEntry[] = [];
    const h = Buffer.alloc(BLOCK);
    let pos = 0;
    while (pos + BLOCK <= total) {
      await handle.read(h, 0, BLOCK, pos);
      if (h.every((b) => b === 0)) return entries;
      let sum = 0;
      for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
      if (parseInt(readString(h, 148, 8).trim(), 8) !== sum || readString(h, 257, 6) !== 'ustar')
        throw new Error(`not a backup archive (bad tar header at byte ${pos})`);
      const size = parseInt(readString(h, 124, 12).trim(), 8);
      const prefix = readString(h, 345, 155);
      const base = readString(h, 0, 100);
      const type = readString(h, 156, 1);
      if (type === '0' || type === '')
        entries.push({ name: prefix ? `${prefix}/${base}` : base, size, offset: pos + BLOCK });
      pos += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
      if (pos > total) throw new Error('the backup archive is truncated');
    }
    throw new Error('the backup archive is truncated (no end marker)');
  } finally {
    await handle.close();
  }
}

/** An entry's bytes as a stream. */
export function entryStream(file: string, entry: TarEntry): Readable {
  if (entry.size === 0) return Readable.from([]);
  return fs.createReadStream(file, { start: entry.offset, end: entry.offset + entry.size - 1 });
}

export async function entrySha256(file: string, entry: TarEntry): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of entryStream(file, entry)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function entryBuffer(file: string, entry: TarEntry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of entryStream(file, entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
