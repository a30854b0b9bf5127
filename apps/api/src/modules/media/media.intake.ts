/**
 * Media intake: what an upload must be before anything is stored (CONTRACT.md "Media"). The
 * declared type is checked before a byte is read, the body is read (images: into memory, at
 * most MAX_IMAGE_BYTES; videos: spooled to a temporary file) with the size limit enforced as it
 * arrives, and the type detected from the bytes must be accepted and match the declared one.
 * Pure functions of their inputs and the config.
 */
import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { IMAGE_TYPES, MEDIA_MSG, VIDEO_TYPES } from '@bountyhunt/shared/media';
import type { Config } from '../../env';
import { AppError, badRequest, payloadTooLarge, unsupportedMedia } from '../../errors';
import { lazyImport } from '../../lib/lazy-import';
import { MediaInputError } from './media.processor';

export type MediaKind = 'image' | 'video';

export const ACCEPTED = { image: IMAGE_TYPES, video: VIDEO_TYPES };

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export function randomId(): string {
  let s = '';
  for (let i = 0; i < 20; i++) s += ALPHABET[crypto.randomInt(ALPHABET.length)];
  return s;
}

export const originalName = (key: string) => `originals/${key}`;

/** file-type (and its tokenizers) is loaded by the first upload, not at start-up. */
const loadFileType = lazyImport(() => import('file-type'));
export async function fileTypeFromFile(file: string) {
  return (await loadFileType()).fileTypeFromFile(file);
}
/** The type of bytes in memory (reads only their first few kilobytes). */
export async function fileTypeOf(input: string | Buffer) {
  if (typeof input === 'string') return fileTypeFromFile(input);
  return (await loadFileType()).fileTypeFromBuffer(input);
}

type Family = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif' | 'mp4' | 'webm';

const DECLARED: Record<string, Family> = {
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/pjpeg': 'jpeg',
  'image/png': 'png',
  'image/apng': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'video/mp4': 'mp4',
  'video/quicktime': 'mp4',
  'video/x-m4v': 'mp4',
  'video/webm': 'webm',
};
const DETECTED: Record<string, Family> = { ...DECLARED };
const IMAGE_FAMILIES = new Set<Family>(['jpeg', 'png', 'webp', 'gif', 'avif']);
const VIDEO_FAMILIES = new Set<Family>(['mp4', 'webm']);

/** `image/jpeg; charset=x` → `image/jpeg`. */
export function normaliseType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** 415 before any byte is read when the declared type is not one this endpoint takes. */
export function assertDeclaredType(kind: MediaKind, contentType: string | undefined): void {
  const family = DECLARED[normaliseType(contentType)];
  const ok = family && (kind === 'image' ? IMAGE_FAMILIES : VIDEO_FAMILIES).has(family);
  if (!ok) throw unsupportedMedia(kind === 'image' ? MEDIA_MSG.imageType : MEDIA_MSG.videoType);
}

export function tooLarge(kind: MediaKind, config: Config): AppError {
  const max = kind === 'image' ? config.MAX_IMAGE_BYTES : config.MAX_VIDEO_BYTES;
  const mb = Math.floor(max / (1024 * 1024)) || 1;
  return payloadTooLarge(kind === 'image' ? MEDIA_MSG.imageTooBig(mb) : MEDIA_MSG.videoTooBig(mb));
}

export function maxBytes(kind: MediaKind, config: Config): number {
  return kind === 'image' ? config.MAX_IMAGE_BYTES : config.MAX_VIDEO_BYTES;
}

/** Where `readLimited` puts the body: a file being written, or chunks kept in memory. */
interface Sink {
  /** Takes a chunk; false asks to pause the body until the sink's `drain`. */
  write(chunk: Buffer): boolean;
  once?(event: 'drain', listener: () => void): unknown;
  /** The body is complete. */
  end(): Promise<void>;
  /** The body was refused or broke off: drop what was taken. */
  abort(): void;
  /** The sink's own failure fails the read. */
  onError?(listener: (err: unknown) => void): void;
}

/**
 * Reads `source` into `sink`, refusing it (413) as soon as it passes `limit` and failing on an
 * interrupted upload; resolves to its length. The request stream is never destroyed (that
 * would reset the connection before the 413 is read): the rest of a refused body is read and
 * discarded.
 */
function readLimited(
  source: Readable,
  limit: number,
  onTooLarge: () => AppError,
  sink: Sink,
): Promise<number> {
  let bytes = 0;
  return new Promise<number>((resolve, reject) => {
    let settled = false;
    const finish = (err?: unknown) => {
      if (settled) return;
      settled = true;
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('aborted', onError);
      if (err) {
        source.resume(); // discard the rest
        sink.abort();
        reject(err);
      } else sink.end().then(() => resolve(bytes), reject);
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limit) return finish(onTooLarge());
      if (!sink.write(chunk)) {
        source.pause();
        sink.once?.('drain', () => source.resume());
      }
    };
    const onEnd = () => finish();
    const onError = () => finish(badRequest('The upload was interrupted.', 'UPLOAD_ABORTED'));
    source.on('data', onData);
    source.once('end', onEnd);
    source.once('error', onError);
    source.once('aborted', onError);
    sink.onError?.((err) => finish(err));
    source.resume();
  });
}

/** Streams the body to a temporary file (videos), refusing it (413) past `limit`. */
export async function spool(
  input: Buffer | Readable,
  tmpDir: string,
  limit: number,
  onTooLarge: () => AppError,
): Promise<{ file: string; bytes: number }> {
  const file = path.join(tmpDir, `up-${crypto.randomBytes(8).toString('hex')}`);
  const source = Buffer.isBuffer(input) ? Readable.from([input]) : input;
  const out = fs.createWriteStream(file, { mode: 0o600 });
  let bytes: number;
  try {
    await once(out, 'open');
    bytes = await readLimited(source, limit, onTooLarge, {
      write: (chunk) => out.write(chunk),
      once: (event, listener) => out.once(event, listener),
      end: () => new Promise<void>((resolve) => out.end(() => resolve())),
      abort: () => out.destroy(),
      onError: (listener) => out.once('error', listener),
    });
  } catch (err) {
    await new Promise<void>((r) => (out.closed ? r() : out.once('close', () => r())));
    await fsp.rm(file, { force: true });
    throw err;
  }
  if (bytes === 0) {
    await fsp.rm(file, { force: true });
    throw badRequest(MEDIA_MSG.empty, 'EMPTY_UPLOAD');
  }
  return { file, bytes };
}

/**
 * Reads the body into memory (images, at most MAX_IMAGE_BYTES), refusing it (413) as soon as
 * it passes `limit`: no temporary file to write, read back, copy and delete.
 */
export async function collect(
  input: Buffer | Readable,
  limit: number,
  onTooLarge: () => AppError,
): Promise<Buffer> {
  let body: Buffer;
  if (Buffer.isBuffer(input)) {
    if (input.length > limit) throw onTooLarge();
    body = input;
  } else {
    const chunks: Buffer[] = [];
    const bytes = await readLimited(input, limit, onTooLarge, {
      write: (chunk) => chunks.push(chunk) > 0,
      end: async () => {},
      abort: () => {
        chunks.length = 0;
      },
    });
    body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, bytes);
  }
  if (body.length === 0) throw badRequest(MEDIA_MSG.empty, 'EMPTY_UPLOAD');
  return body;
}

/** The type from the bytes: must be accepted for `kind` and match the declared type. */
export async function detect(
  kind: MediaKind,
  input: string | Buffer,
  contentType: string | undefined,
) {
  const found = await fileTypeOf(input);
  const family = found ? DETECTED[found.mime] : undefined;
  const allowed = kind === 'image' ? IMAGE_FAMILIES : VIDEO_FAMILIES;
  if (!family || !allowed.has(family)) {
    throw unsupportedMedia(kind === 'image' ? MEDIA_MSG.imageType : MEDIA_MSG.videoType);
  }
  if (family !== DECLARED[normaliseType(contentType)]) {
    throw unsupportedMedia(MEDIA_MSG.mismatch);
  }
  return { family, mime: found!.mime === 'image/apng' ? 'image/png' : found!.mime };
}

export function inputError(err: unknown, kind: MediaKind): never {
  if (err instanceof MediaInputError) {
    if (err.kind === 'too-many-pixels') {
      throw new AppError(413, 'TOO_MANY_PIXELS', err.message);
    }
    throw unsupportedMedia(
      kind === 'image' ? MEDIA_MSG.unreadableImage : MEDIA_MSG.unreadableVideo,
    );
  }
  throw err;
}
