/**
 * Media service: uploads, image derivatives, video previews (CONTRACT.md "Media").
 *
 * Other features use these functions with their ServiceContext (`app.ctx` in a routes plugin,
 * the `ctx` a job handler receives, or a seed script's context):
 *
 *   storeImage(ctx, bytes | stream, { ownerId, visibility?, contentType? }) → MediaRecord
 *       Validates and processes an image now; `{key}-f.webp` and `{key}-t.webp` exist when it
 *       returns (public), or only privately for `visibility: 'private'` (identity documents).
 *   storeVideo(ctx, stream | bytes, { ownerId, contentType }) → MediaRecord (status 'processing')
 *       Keeps the original privately and queues the `media.video-preview` job.
 *   requireMedia(ctx, key, { ownerId?, kind?, visibility?, allowProcessing? }) → MediaRecord
 *       For claims, posts, pictures and identity: throws 400 (AppError, code MEDIA_INVALID)
 *       unless the key exists, belongs to `ownerId`, has the kind and visibility asked for and
 *       is not failed (still-processing videos pass unless allowProcessing is false).
 *   getMedia(ctx, key) → MediaRecord | null
 *   mediaUrl(ctx.config, key, 'full' | 'thumb' | 'preview') → public URL (MEDIA_URL + key + suffix)
 *   readPrivate(ctx, key) → stream of a private image's cleaned full-size WebP (identity review)
 *   deleteMedia(ctx, key) → removes the row and every stored file
 *
 * Errors for bad input are AppErrors with the right status (400 empty, 413 too large, 415 not
 * an accepted or readable type, 503 video tools missing); nothing is stored when they happen.
 */
import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  IMAGE_TYPES,
  MEDIA_MSG,
  type MediaStatusAnswer,
  VIDEO_TYPES,
} from '@bountyhunt/shared/media';
import { MEDIA_SUFFIX, type MediaVariant } from '@bountyhunt/shared/media-keys';
import type { ServiceContext } from '../../context';
import { AppError, badRequest, payloadTooLarge, unavailable, unsupportedMedia } from '../../errors';
import { createStorage, mediaBaseUrl } from '../../storage/create-storage';
import { IMMUTABLE_CACHE, type MediaStorage, type Visibility } from '../../storage/storage';
import { lazyImport } from '../../lib/lazy-import';
import type { Config } from '../../env';
import {
  imageDimensions,
  makeImageDerivatives,
  makePoster,
  MediaInputError,
  VideoTools,
} from './media.processor';
import {
  deleteMediaRow,
  findMedia,
  insertMedia,
  updateMedia,
  type MediaRow,
} from './media.repository';

export const VIDEO_PREVIEW_JOB = 'media.video-preview';

export type MediaRecord = MediaRow;
export type MediaKind = 'image' | 'video';

interface MediaRuntime {
  storage: MediaStorage;
  video: VideoTools;
  tmpDir: string;
}

const runtimes = new WeakMap<object, MediaRuntime>();

/** Storage and video tools for this context's config, made once. */
export function mediaRuntime(ctx: ServiceContext): MediaRuntime {
  let rt = runtimes.get(ctx);
  if (!rt) {
    const tmpDir = path.join(ctx.config.dataDir, 'tmp');
    fs.mkdirSync(tmpDir, { recursive: true });
    rt = {
      storage: createStorage(ctx.config),
      video: new VideoTools(ctx.config.FFMPEG_PATH, ctx.config.FFPROBE_PATH),
      tmpDir,
    };
    runtimes.set(ctx, rt);
  }
  return rt;
}

/** Tests and the S3 set-up may swap the storage (e.g. a bucket started by the test). */
export function setMediaStorage(ctx: ServiceContext, storage: MediaStorage): void {
  const rt = mediaRuntime(ctx);
  rt.storage = storage;
}

export function mediaUrl(config: Config, key: string, variant: MediaVariant): string {
  return `${mediaBaseUrl(config)}${key}${MEDIA_SUFFIX[variant]}`;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
function randomId(): string {
  let s = '';
  for (let i = 0; i < 20; i++) s += ALPHABET[crypto.randomInt(ALPHABET.length)];
  return s;
}

const originalName = (key: string) => `originals/${key}`;

/** file-type (and its tokenizers) is loaded by the first upload, not at start-up. */
const loadFileType = lazyImport(() => import('file-type'));
async function fileTypeFromFile(file: string) {
  return (await loadFileType()).fileTypeFromFile(file);
}

// ---------------------------------------------------------------------------------------------
// Intake: declared type, size, detected type

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

/**
 * Streams the body to a temporary file, refusing it (413) as soon as it passes `limit`. The
 * request stream is never destroyed (that would reset the connection before the 413 is read):
 * the rest of an oversized body is read and discarded.
 */
async function spool(
  input: Buffer | Readable,
  tmpDir: string,
  limit: number,
  onTooLarge: () => AppError,
): Promise<{ file: string; bytes: number }> {
  const file = path.join(tmpDir, `up-${crypto.randomBytes(8).toString('hex')}`);
  const source = Buffer.isBuffer(input) ? Readable.from([input]) : input;
  const out = fs.createWriteStream(file, { mode: 0o600 });
  let bytes = 0;
  try {
    await once(out, 'open');
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      const finish = (err?: unknown) => {
        if (settled) return;
        settled = true;
        source.off('data', onData);
        source.off('end', onEnd);
        source.off('error', onError);
        source.off('aborted', onAborted);
        if (err) {
          source.resume(); // discard the rest
          out.destroy();
          reject(err);
        } else {
          out.end(() => resolve());
        }
      };
      const onData = (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > limit) return finish(onTooLarge());
        if (!out.write(chunk)) {
          source.pause();
          out.once('drain', () => source.resume());
        }
      };
      const onEnd = () => finish();
      const onError = () => finish(badRequest('The upload was interrupted.', 'UPLOAD_ABORTED'));
      const onAborted = onError;
      source.on('data', onData);
      source.once('end', onEnd);
      source.once('error', onError);
      source.once('aborted', onAborted);
      out.once('error', (err) => finish(err));
      source.resume();
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

/** The type from the bytes: must be accepted for `kind` and match the declared type. */
async function detect(kind: MediaKind, file: string, contentType: string | undefined) {
  const found = await fileTypeFromFile(file);
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

function inputError(err: unknown, kind: MediaKind, config: Config): never {
  if (err instanceof MediaInputError) {
    if (err.kind === 'too-many-pixels') {
      throw new AppError(413, 'TOO_MANY_PIXELS', err.message);
    }
    throw unsupportedMedia(
      kind === 'image' ? MEDIA_MSG.unreadableImage : MEDIA_MSG.unreadableVideo,
    );
  }
  void config;
  throw err;
}

// ---------------------------------------------------------------------------------------------
// Images

export interface StoreImageOptions {
  ownerId: number;
  visibility?: Visibility;
  /** The declared type; when omitted (server-made images) the detected type is trusted. */
  contentType?: string;
}

export async function storeImage(
  ctx: ServiceContext,
  input: Buffer | Readable,
  opts: StoreImageOptions,
): Promise<MediaRecord> {
  const rt = mediaRuntime(ctx);
  const visibility = opts.visibility ?? 'public';
  const { file, bytes } = await spool(input, rt.tmpDir, ctx.config.MAX_IMAGE_BYTES, () =>
    tooLarge('image', ctx.config),
  );
  const written: { key: string; visibility: Visibility }[] = [];
  try {
    const declared = opts.contentType ?? (await fileTypeFromFile(file))?.mime ?? '';
    const { mime } = await detect('image', file, declared);
    let out;
    try {
      await imageDimensions(file, ctx.config.MAX_IMAGE_PIXELS);
      out = await makeImageDerivatives(file, ctx.config.MAX_IMAGE_PIXELS);
    } catch (err) {
      inputError(err, 'image', ctx.config);
    }
    const key = `i-${randomId()}-${out.width}x${out.height}`;
    const put = async (name: string, body: Buffer, vis: Visibility) => {
      written.push({ key: name, visibility: vis });
      await rt.storage.put(name, body, {
        contentType: 'image/webp',
        visibility: vis,
        cacheControl: IMMUTABLE_CACHE,
      });
    };
    await Promise.all([
      put(`${key}${MEDIA_SUFFIX.full}`, out.full, visibility),
      put(`${key}${MEDIA_SUFFIX.thumb}`, out.thumb, visibility),
      (async () => {
        written.push({ key: originalName(key), visibility: 'private' });
        await rt.storage.putFile(originalName(key), file, {
          contentType: mime,
          visibility: 'private',
        });
      })(),
    ]);
    return await insertMedia(ctx.db, {
      key,
      ownerId: opts.ownerId,
      kind: 'image',
      visibility,
      status: 'ready',
      mime,
      bytes,
      width: out.width,
      height: out.height,
    });
  } catch (err) {
    await removeObjects(rt.storage, written);
    throw err;
  } finally {
    await fsp.rm(file, { force: true });
  }
}

async function removeObjects(
  storage: MediaStorage,
  objs: { key: string; visibility: Visibility }[],
) {
  for (const vis of ['public', 'private'] as const) {
    const keys = objs.filter((o) => o.visibility === vis).map((o) => o.key);
    if (keys.length) await storage.delete(keys, vis).catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------
// Videos

export interface StoreVideoOptions {
  ownerId: number;
  contentType?: string;
}

/** 503 with a message when ffmpeg/ffprobe are missing (checked before reading the body). */
export async function assertVideoAvailable(ctx: ServiceContext): Promise<void> {
  if (!(await mediaRuntime(ctx).video.isAvailable())) {
    throw unavailable(MEDIA_MSG.videoUnavailable, 'VIDEO_UNAVAILABLE');
  }
}

export async function storeVideo(
  ctx: ServiceContext,
  input: Buffer | Readable,
  opts: StoreVideoOptions,
): Promise<MediaRecord> {
  const rt = mediaRuntime(ctx);
  await assertVideoAvailable(ctx);
  const { file, bytes } = await spool(input, rt.tmpDir, ctx.config.MAX_VIDEO_BYTES, () =>
    tooLarge('video', ctx.config),
  );
  const key = `v-${randomId()}`;
  let stored = false;
  let inserted = false;
  try {
    const declared = opts.contentType ?? (await fileTypeFromFile(file))?.mime ?? '';
    const { mime } = await detect('video', file, declared);
    let probe;
    try {
      probe = await rt.video.probe(file);
    } catch (err) {
      inputError(err, 'video', ctx.config);
    }
    await rt.storage.putFile(originalName(key), file, { contentType: mime, visibility: 'private' });
    stored = true;
    const row = await insertMedia(ctx.db, {
      key,
      ownerId: opts.ownerId,
      kind: 'video',
      visibility: 'public',
      status: 'processing',
      mime,
      bytes,
      width: probe.width,
      height: probe.height,
    });
    inserted = true;
    await ctx.jobs.send(VIDEO_PREVIEW_JOB, { key }, { singletonKey: key });
    return row;
  } catch (err) {
    if (inserted) await deleteMediaRow(ctx.db, key).catch(() => undefined);
    if (stored) await rt.storage.delete([originalName(key)], 'private').catch(() => undefined);
    throw err;
  } finally {
    await fsp.rm(file, { force: true });
  }
}

export interface VideoJobInfo {
  /** True on the last attempt the queue will make. */
  lastAttempt?: boolean;
}

/**
 * The `media.video-preview` job: `{key}-p.mp4` and `{key}-t.webp` from the private original.
 * Bad input ends the media as failed with a reason (no retry); anything else (storage down,
 * ffmpeg killed) throws so the queue retries, and the last attempt marks it failed.
 */
export async function processVideo(
  ctx: ServiceContext,
  key: string,
  info: VideoJobInfo = {},
): Promise<void> {
  const row = await findMedia(ctx.db, key);
  if (!row || row.kind !== 'video' || row.status !== 'processing') return;
  const rt = mediaRuntime(ctx);
  const work = await fsp.mkdtemp(path.join(rt.tmpDir, 'job-'));
  const input = path.join(work, 'original');
  const output = path.join(work, 'preview.mp4');
  try {
    if (!(await rt.storage.download(originalName(key), 'private', input))) {
      await updateMedia(ctx.db, key, { status: 'failed', error: 'The uploaded file is missing.' });
      return;
    }
    let poster: Buffer;
    let probe;
    try {
      await rt.video.makePreview(input, output);
      probe = await rt.video.probe(output);
      const at = Math.min(1, (probe.durationSeconds ?? 0) / 2);
      poster = await makePoster(await rt.video.frame(output, at));
    } catch (err) {
      if (
        err instanceof MediaInputError ||
        /unsupported image|Input buffer/i.test((err as Error).message)
      ) {
        await updateMedia(ctx.db, key, {
          status: 'failed',
          error: (err as Error).message.slice(0, 500),
        });
        ctx.log.warn({ key, reason: (err as Error).message }, 'video processing failed');
        return;
      }
      throw err;
    }
    await rt.storage.putFile(`${key}${MEDIA_SUFFIX.preview}`, output, {
      contentType: 'video/mp4',
      visibility: 'public',
      cacheControl: IMMUTABLE_CACHE,
    });
    await rt.storage.put(`${key}${MEDIA_SUFFIX.thumb}`, poster, {
      contentType: 'image/webp',
      visibility: 'public',
      cacheControl: IMMUTABLE_CACHE,
    });
    await updateMedia(ctx.db, key, {
      status: 'ready',
      error: null,
      width: probe.width,
      height: probe.height,
    });
  } catch (err) {
    if (info.lastAttempt) {
      await updateMedia(ctx.db, key, {
        status: 'failed',
        error: 'Video processing failed. Please try again later.',
      }).catch(() => undefined);
    }
    throw err;
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Lookups for other features

export async function getMedia(ctx: ServiceContext, key: string): Promise<MediaRecord | null> {
  if (typeof key !== 'string' || key.length > 64) return null;
  return findMedia(ctx.db, key);
}

export interface RequireMediaOptions {
  ownerId?: number;
  kind?: MediaKind;
  visibility?: Visibility;
  /** Whether a video still being processed is accepted (default true). */
  allowProcessing?: boolean;
}

export async function requireMedia(
  ctx: ServiceContext,
  key: string,
  opts: RequireMediaOptions = {},
): Promise<MediaRecord> {
  const row = await getMedia(ctx, key);
  const invalid = (message: string) => new AppError(400, 'MEDIA_INVALID', message);
  if (!row) throw invalid(MEDIA_MSG.mediaUnknown);
  if (opts.ownerId !== undefined && row.ownerId !== opts.ownerId)
    throw invalid(MEDIA_MSG.mediaUnknown);
  if ((opts.visibility ?? 'public') !== row.visibility) throw invalid(MEDIA_MSG.mediaUnknown);
  if (opts.kind && row.kind !== opts.kind) {
    throw invalid(opts.kind === 'image' ? MEDIA_MSG.mediaNotImage : MEDIA_MSG.videoType);
  }
  if (row.status === 'failed') throw invalid(MEDIA_MSG.mediaFailed);
  if (row.status === 'processing' && opts.allowProcessing === false) {
    throw invalid(MEDIA_MSG.processing);
  }
  return row;
}

export function statusAnswer(row: MediaRecord): MediaStatusAnswer {
  return {
    key: row.key,
    kind: row.kind as MediaKind,
    status: row.status as MediaStatusAnswer['status'],
    error: row.error,
    width: row.width,
    height: row.height,
  };
}

/** A private image's cleaned full-size WebP (no metadata), for whoever reviews identity documents. */
export async function readPrivate(ctx: ServiceContext, key: string): Promise<Readable | null> {
  const row = await getMedia(ctx, key);
  if (!row || row.visibility !== 'private') return null;
  return mediaRuntime(ctx).storage.get(`${key}${MEDIA_SUFFIX.full}`, 'private');
}

export async function deleteMedia(ctx: ServiceContext, key: string): Promise<void> {
  const row = await getMedia(ctx, key);
  if (!row) return;
  const { storage } = mediaRuntime(ctx);
  const derived = Object.values(MEDIA_SUFFIX).map((s) => `${key}${s}`);
  await storage.delete(derived, row.visibility as Visibility);
  await storage.delete([originalName(key)], 'private');
  await deleteMediaRow(ctx.db, key);
}

export const ACCEPTED = { image: IMAGE_TYPES, video: VIDEO_TYPES };
