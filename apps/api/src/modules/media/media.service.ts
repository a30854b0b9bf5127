/**
 * Media service: uploads, image derivatives, video previews (CONTRACT.md "Media").
 *
 * One instance per running API, built by the composition root with its storage and video
 * tools; other features receive it (or call the lookups below with their ServiceContext):
 *
 *   media.storeImage(bytes | stream, { ownerId, visibility?, contentType? }) → MediaRecord
 *       Validates and processes an image now; `{key}-f.webp` and `{key}-t.webp` exist when it
 *       returns (public), or only privately for `visibility: 'private'` (identity documents).
 *   media.storeVideo(stream | bytes, { ownerId, contentType }) → MediaRecord ('processing')
 *       Keeps the original privately and queues the `media.video-preview` job.
 *   media.readPrivate(key) → stream of a private image's cleaned full-size WebP (identity review)
 *   media.deleteMedia(key) → removes the row and every stored file
 *   storedObjects(row) → the storage objects a media row needs (backups check they exist)
 *   requireMedia(ctx, key, { ownerId?, kind?, visibility?, allowProcessing? }) → MediaRecord
 *       For claims, posts, pictures and identity: throws 400 (AppError, code MEDIA_INVALID)
 *       unless the key exists, belongs to `ownerId`, has the kind and visibility asked for and
 *       is not failed (still-processing videos pass unless allowProcessing is false).
 *   getMedia(ctx, key) → MediaRecord | null
 *   mediaUrl(config, key, 'full' | 'thumb' | 'preview') → public URL (MEDIA_URL + key + suffix)
 *
 * What an upload must be (types, sizes, spooling) is in media.intake.ts; sharp and ffmpeg sit
 * behind media.processor.ts. Errors for bad input are AppErrors with the right status (400
 * empty, 413 too large, 415 not an accepted or readable type, 503 video tools missing); nothing
 * is stored when they happen.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { MEDIA_MSG, type MediaStatusAnswer } from '@bountyhunt/shared/media';
import { MEDIA_KEY, MEDIA_SUFFIX, type MediaVariant } from '@bountyhunt/shared/media-keys';
import type { ServiceContext } from '../../context';
import type { Config } from '../../env';
import { AppError, RETRY_AFTER_UNAVAILABLE_S, unavailable } from '../../errors';
import { mediaBaseUrl } from '../../storage/create-storage';
import { IMMUTABLE_CACHE, type MediaStorage, type Visibility } from '../../storage/storage';
import {
  collect,
  detect,
  fileTypeFromFile,
  fileTypeOf,
  inputError,
  originalName,
  randomId,
  spool,
  tooLarge,
  type MediaKind,
} from './media.intake';
import {
  makeImageDerivatives,
  makePoster,
  MediaInputError,
  pngSize,
  PREVIEW_SECONDS,
  type VideoTools,
} from './media.processor';
import {
  deleteMediaRow,
  existingKeys,
  findMedia,
  insertMedia,
  processingVideosBefore,
  setProcessingSize,
  updateMedia,
  type MediaRow,
} from './media.repository';

export const VIDEO_PREVIEW_JOB = 'media.video-preview';

/** Every public object a media key may have (`{key}-f.webp`, `{key}-t.webp`, `{key}-p.mp4`). */
function derivedNames(key: string): string[] {
  return Object.values(MEDIA_SUFFIX).map((s) => `${key}${s}`);
}
export const SWEEP_JOB = 'media.sweep';

/** A stored object's media key: `originals/{key}`, `{key}-f.webp`, `{key}-t.webp`, `{key}-p.mp4`. */
export function mediaKeyOfObject(name: string): string | null {
  let base = name.startsWith('originals/') ? name.slice('originals/'.length) : name;
  for (const suffix of Object.values(MEDIA_SUFFIX)) {
    if (base.endsWith(suffix)) {
      base = base.slice(0, -suffix.length);
      break;
    }
  }
  return MEDIA_KEY.test(base) ? base : null;
}

export interface SweepResult {
  /** Objects deleted because no media row names them. */
  deleted: number;
  /** Videos whose preview job was queued again. */
  requeued: number;
}

export type MediaRecord = MediaRow;

export function mediaUrl(config: Config, key: string, variant: MediaVariant): string {
  return `${mediaBaseUrl(config)}${key}${MEDIA_SUFFIX[variant]}`;
}

/**
 * The objects a media row refers to in storage, with what they were written with: a ready
 * image has its two derivatives (in the row's visibility) and its private original; a video
 * has its original until it failed, and its preview and poster once ready.
 */
export function storedObjects(row: {
  key: string;
  kind: string;
  visibility: string;
  status: string;
  mime: string;
}): { key: string; visibility: Visibility; contentType: string; cacheControl?: string }[] {
  const vis = row.visibility as Visibility;
  const original = {
    key: originalName(row.key),
    visibility: 'private' as const,
    contentType: row.mime,
  };
  const derived = (variant: MediaVariant, contentType: string, visibility: Visibility) => ({
    key: `${row.key}${MEDIA_SUFFIX[variant]}`,
    visibility,
    contentType,
    cacheControl: IMMUTABLE_CACHE,
  });
  if (row.kind === 'image') {
    if (row.status !== 'ready') return [];
    return [derived('full', 'image/webp', vis), derived('thumb', 'image/webp', vis), original];
  }
  if (row.status === 'failed') return [];
  if (row.status !== 'ready') return [original];
  return [
    original,
    derived('preview', 'video/mp4', 'public'),
    derived('thumb', 'image/webp', 'public'),
  ];
}

export interface StoreImageOptions {
  ownerId: number;
  visibility?: Visibility;
  /** The declared type; when omitted (server-made images) the detected type is trusted. */
  contentType?: string;
}

export interface StoreVideoOptions {
  ownerId: number;
  contentType?: string;
}

export interface VideoJobInfo {
  /** True on the last attempt the queue will make. */
  lastAttempt?: boolean;
  /**
   * The original's length, where the poster frame is taken, when the sender knew it (jobs
   * queued before uploads stopped waiting for ffprobe; uploads now queue only the key).
   */
  seconds?: number;
}

/** Where files go and how videos are made: handed in by the composition root. */
export interface MediaRuntime {
  storage: MediaStorage;
  video: VideoTools;
  /** Uploads are spooled here (DATA_DIR/tmp). */
  tmpDir: string;
}

// ---------------------------------------------------------------------------------------------
// Lookups for other features (the database only)

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

/** The bucket (or disk) could not take the files: 503, the client may try again shortly. */
function storageUnavailable(ctx: ServiceContext, err: unknown): AppError {
  if (err instanceof AppError) return err;
  ctx.log.warn({ err: { message: (err as Error).message } }, 'media storage unreachable');
  return unavailable(
    MEDIA_MSG.storageUnavailable,
    'STORAGE_UNAVAILABLE',
    RETRY_AFTER_UNAVAILABLE_S,
  );
}

/** Runs storage writes side by side and waits for all of them, so none is left in flight. */
async function allWritten(ctx: ServiceContext, writes: Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(writes);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw storageUnavailable(ctx, failed.reason);
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

export class MediaService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly rt: MediaRuntime,
  ) {}

  get storage(): MediaStorage {
    return this.rt.storage;
  }

  get video(): VideoTools {
    return this.rt.video;
  }

  async storeImage(input: Buffer | Readable, opts: StoreImageOptions): Promise<MediaRecord> {
    const { ctx, rt } = this;
    const visibility = opts.visibility ?? 'public';
    // In memory (at most MAX_IMAGE_BYTES): no temporary file to write, read back and copy.
    const body = await collect(input, ctx.config.MAX_IMAGE_BYTES, () =>
      tooLarge('image', ctx.config),
    );
    const declared = opts.contentType ?? (await fileTypeOf(body))?.mime ?? '';
    const { mime } = await detect('image', body, declared);
    let out;
    try {
      out = await makeImageDerivatives(body, ctx.config.MAX_IMAGE_PIXELS);
    } catch (err) {
      inputError(err, 'image');
    }
    const key = `i-${randomId()}-${out.width}x${out.height}`;
    const written: { key: string; visibility: Visibility }[] = [];
    const put = async (name: string, bytes: Buffer, vis: Visibility, contentType: string) => {
      written.push({ key: name, visibility: vis });
      await rt.storage.put(name, bytes, {
        contentType,
        visibility: vis,
        ...(contentType === 'image/webp' ? { cacheControl: IMMUTABLE_CACHE } : {}),
      });
    };
    try {
      // Files first, then the row: a row never names a missing file. If this process dies in
      // between, the files have no row and the sweeper (sweep()) deletes them later.
      await allWritten(ctx, [
        put(`${key}${MEDIA_SUFFIX.full}`, out.full, visibility, 'image/webp'),
        put(`${key}${MEDIA_SUFFIX.thumb}`, out.thumb, visibility, 'image/webp'),
        put(originalName(key), body, 'private', mime),
      ]);
      return await insertMedia(ctx.db, {
        key,
        ownerId: opts.ownerId,
        kind: 'image',
        visibility,
        status: 'ready',
        mime,
        bytes: body.length,
        width: out.width,
        height: out.height,
      });
    } catch (err) {
      await removeObjects(rt.storage, written);
      throw err;
    }
  }

  /** 503 with a message when ffmpeg/ffprobe are missing (checked before reading the body). */
  async assertVideoAvailable(): Promise<void> {
    if (!(await this.rt.video.isAvailable())) {
      throw unavailable(MEDIA_MSG.videoUnavailable, 'VIDEO_UNAVAILABLE');
    }
  }

  async storeVideo(input: Buffer | Readable, opts: StoreVideoOptions): Promise<MediaRecord> {
    const { ctx, rt } = this;
    await this.assertVideoAvailable();
    const { file, bytes } = await spool(input, rt.tmpDir, ctx.config.MAX_VIDEO_BYTES, () =>
      tooLarge('video', ctx.config),
    );
    const key = `v-${randomId()}`;
    let stored = false;
    let inserted = false;
    try {
      const declared = opts.contentType ?? (await fileTypeFromFile(file))?.mime ?? '';
      const { mime } = await detect('video', file, declared);
      // The preview job is queued before ffprobe reads the upload, and runs while it does
      // (~0.2 s of a 2–3 s pipeline): the upload still answers 415 for a file ffprobe cannot
      // read, and then removes its row and every file (a preview the job wrote after that has
      // no row, so the sweep deletes it). The job needs nothing the probe gives: it takes the
      // poster frame 1 s in, or probes what it made when the video was shorter.
      stored = true;
      await allWritten(ctx, [
        rt.storage.putFile(originalName(key), file, { contentType: mime, visibility: 'private' }),
      ]);
      const row = await insertMedia(ctx.db, {
        key,
        ownerId: opts.ownerId,
        kind: 'video',
        visibility: 'public',
        status: 'processing',
        mime,
        bytes,
      });
      inserted = true;
      await ctx.jobs.send(VIDEO_PREVIEW_JOB, { key }, { singletonKey: key });
      let probe;
      try {
        probe = await rt.video.probe(file);
      } catch (err) {
        inputError(err, 'video');
      }
      // The original's size until the job records the preview's (unless it already has).
      const sized = await setProcessingSize(ctx.db, key, probe.width, probe.height);
      return sized ?? row;
    } catch (err) {
      if (inserted) await deleteMediaRow(ctx.db, key).catch(() => undefined);
      if (stored) {
        await rt.storage.delete([originalName(key)], 'private').catch(() => undefined);
        if (inserted) await rt.storage.delete(derivedNames(key), 'public').catch(() => undefined);
      }
      throw err;
    } finally {
      await fsp.rm(file, { force: true });
    }
  }

  /**
   * The `media.video-preview` job: `{key}-p.mp4` and `{key}-t.webp` from the private original.
   * Bad input ends the media as failed with a reason (no retry); anything else (storage down,
   * ffmpeg killed) throws so the queue retries, and the last attempt marks it failed.
   */
  async processVideo(key: string, info: VideoJobInfo = {}): Promise<void> {
    const { ctx, rt } = this;
    const row = await findMedia(ctx.db, key);
    if (!row || row.kind !== 'video' || row.status !== 'processing') return;
    const work = await fsp.mkdtemp(path.join(rt.tmpDir, 'job-'));
    const input = path.join(work, 'original');
    const output = path.join(work, 'preview.mp4');
    try {
      if (!(await rt.storage.download(originalName(key), 'private', input))) {
        await updateMedia(ctx.db, key, {
          status: 'failed',
          error: 'The uploaded file is missing.',
        });
        return;
      }
      let poster: Buffer;
      let size: { width: number; height: number };
      try {
        // One ffmpeg run makes the preview and grabs the poster frame (1 s in, or the middle
        // of a shorter video); the frame's size is the preview's.
        const length = Math.min(PREVIEW_SECONDS, info.seconds ?? PREVIEW_SECONDS);
        let frame = await rt.video.makePreviewAndFrame(input, output, Math.min(1, length / 2));
        let frameSize = frame && pngSize(frame);
        if (!frame || !frameSize) {
          // Shorter than its upload said (or its length unknown): probe what was made.
          const probe = await rt.video.probe(output);
          frame = await rt.video.frame(output, Math.min(1, (probe.durationSeconds ?? 0) / 2));
          frameSize = pngSize(frame) ?? { width: probe.width, height: probe.height };
        }
        size = frameSize;
        poster = await makePoster(frame);
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
        width: size.width,
        height: size.height,
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

  async readPrivate(key: string): Promise<Readable | null> {
    const row = await getMedia(this.ctx, key);
    if (!row || row.visibility !== 'private') return null;
    return this.rt.storage.get(`${key}${MEDIA_SUFFIX.full}`, 'private');
  }

  async deleteMedia(key: string): Promise<void> {
    const row = await getMedia(this.ctx, key);
    if (!row) return;
    const { storage } = this.rt;
    const derived = derivedNames(key);
    // The row first: files without a row are swept later, a row without its files never is.
    await deleteMediaRow(this.ctx.db, key);
    await storage.delete(derived, row.visibility as Visibility);
    await storage.delete([originalName(key)], 'private');
  }

  /**
   * The `media.sweep` job (hourly and at every start): deletes stored media objects that no
   * media row names and that are older than MEDIA_SWEEP_GRACE_SECONDS (an instance killed
   * between writing an upload's files and recording its row), and queues the preview job again
   * for videos still processing after the grace period (killed between recording the row and
   * queueing the job; a job already queued or running for the key makes this a no-op).
   */
  /** Objects younger than this are never swept (an upload may still be writing them). */
  get sweepGraceSeconds(): number {
    return this.ctx.config.MEDIA_SWEEP_GRACE_SECONDS;
  }

  async sweep(): Promise<SweepResult> {
    const { ctx, rt } = this;
    const cutoff = new Date(
      ctx.clock.now().getTime() - ctx.config.MEDIA_SWEEP_GRACE_SECONDS * 1000,
    );
    let deleted = 0;
    for (const visibility of ['public', 'private'] as const) {
      let batch: { name: string; key: string }[] = [];
      const flush = async () => {
        const known = await existingKeys(ctx.db, [...new Set(batch.map((b) => b.key))]);
        const orphans = batch.filter((b) => !known.has(b.key)).map((b) => b.name);
        batch = [];
        if (orphans.length === 0) return;
        await rt.storage.delete(orphans, visibility);
        deleted += orphans.length;
        ctx.log.warn(
          { visibility, objects: orphans.slice(0, 20), count: orphans.length },
          'media sweep: deleted objects no media row names',
        );
      };
      for await (const obj of rt.storage.list(visibility)) {
        if (obj.modified >= cutoff) continue;
        const key = mediaKeyOfObject(obj.key);
        if (!key) continue; // not a media file: never ours to delete
        batch.push({ name: obj.key, key });
        if (batch.length >= 500) await flush();
      }
      await flush();
    }
    const stuck = await processingVideosBefore(ctx.db, cutoff);
    for (const key of stuck) await ctx.jobs.send(VIDEO_PREVIEW_JOB, { key }, { singletonKey: key });
    return { deleted, requeued: stuck.length };
  }

  /** Spool files and job folders older than the grace period (left by a killed process). */
  async cleanTmp(): Promise<void> {
    const { ctx, rt } = this;
    const cutoff = ctx.clock.now().getTime() - ctx.config.MEDIA_SWEEP_GRACE_SECONDS * 1000;
    const entries = await fsp.readdir(rt.tmpDir).catch(() => [] as string[]);
    for (const name of entries) {
      const p = path.join(rt.tmpDir, name);
      const st = await fsp.stat(p).catch(() => null);
      if (st && st.mtimeMs < cutoff) await fsp.rm(p, { recursive: true, force: true });
    }
  }
}
