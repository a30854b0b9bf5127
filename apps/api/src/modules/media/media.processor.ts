/**
 * The one adapter around sharp and ffmpeg (GUIDE.md "Habits"): everything that decodes or
 * encodes media lives here, so services and most tests never start them directly.
 */
import { spawn } from 'node:child_process';
import type Sharp from 'sharp';
import { lazyImport } from '../../lib/lazy-import';

/** sharp (with libvips) is loaded by the first image, not by every process at start-up. */
export const loadSharp = lazyImport<typeof Sharp>(async () => (await import('sharp')).default);

export const FULL_LONG_SIDE = 1920;
export const THUMB_SIZE = 500;
export const PREVIEW_SECONDS = 10;
export const PREVIEW_SHORT_SIDE = 480;

/** Short side at most 480 px (even sizes for H.264), square pixels. */
const PREVIEW_SCALE =
  `scale=w='if(gt(iw,ih),-2,min(${PREVIEW_SHORT_SIDE},trunc(iw/2)*2))'` +
  `:h='if(gt(iw,ih),min(${PREVIEW_SHORT_SIDE},trunc(ih/2)*2),-2)',setsar=1`;

/** The preview's output options (before its file name): see VideoTools.makePreview. */
const PREVIEW_OUTPUT = [
  '-t',
  String(PREVIEW_SECONDS),
  '-an',
  '-sn',
  '-dn',
  '-fpsmax',
  '30',
  '-c:v',
  'libx264',
  '-preset',
  'veryfast',
  '-crf',
  '28',
  '-profile:v',
  'main',
  '-pix_fmt',
  'yuv420p',
  '-map_metadata',
  '-1',
  '-map_chapters',
  '-1',
  '-movflags',
  '+faststart',
  '-f',
  'mp4',
];

/** Width and height from a PNG's header (IHDR), or null when the bytes are not a PNG. */
export function pngSize(png: Buffer): { width: number; height: number } | null {
  const signature = '89504e470d0a1a0a';
  if (png.length < 24 || png.subarray(0, 8).toString('hex') !== signature) return null;
  if (png.subarray(12, 16).toString('latin1') !== 'IHDR') return null;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Input that cannot be used: mapped to a 4xx by the service. */
export class MediaInputError extends Error {
  constructor(
    readonly kind: 'unreadable' | 'too-many-pixels' | 'no-video',
    message: string,
  ) {
    super(message);
    this.name = 'MediaInputError';
  }
}

export interface ImageOutput {
  full: Buffer;
  thumb: Buffer;
  /** Size of the full derivative, EXIF orientation applied. */
  width: number;
  height: number;
}

/**
 * Full (long side ≤ 1920) and thumbnail (500 × 500 cover, cropped where the attention is) as
 * WebP, as two sharp pipelines on the same bytes running side by side (each decodes the input;
 * for a JPEG the thumbnail's decode shrinks on load to a quarter, so it costs little, and the
 * two run on two cores at once: measured faster than one shared decode followed by both encodes,
 * decision 0020). Images with more than `maxPixels` are refused from their header, before any
 * pixel is decoded (decompression bombs); `failOn: 'warning'` refuses truncated or corrupt
 * files. sharp writes no metadata unless asked, so EXIF (GPS, camera) never reaches a published
 * file; `.rotate()` applies the EXIF orientation first.
 */
export async function makeImageDerivatives(
  input: string | Buffer,
  maxPixels: number,
): Promise<ImageOutput> {
  const sharp = await loadSharp();
  try {
    const base = sharp(input, { limitInputPixels: maxPixels, failOn: 'warning' }).rotate();
    const [full, thumb] = await Promise.all([
      base
        .clone()
        .resize(FULL_LONG_SIDE, FULL_LONG_SIDE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 82, effort: 2 })
        .toBuffer({ resolveWithObject: true }),
      base
        .clone()
        .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'cover', position: 'attention' })
        .webp({ quality: 80, effort: 2 })
        .toBuffer(),
    ]);
    return { full: full.data, thumb, width: full.info.width, height: full.info.height };
  } catch (err) {
    if (/pixel limit/i.test((err as Error).message)) {
      throw new MediaInputError(
        'too-many-pixels',
        `The image is too large: at most ${maxPixels} pixels.`,
      );
    }
    throw new MediaInputError('unreadable', 'The file is not a readable image.');
  }
}

/** Poster frame (any image bytes ffmpeg gave us) as a 500 × 500 WebP. */
export async function makePoster(frame: Buffer): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(frame)
    .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'cover' })
    .webp({ quality: 80, effort: 2 })
    .toBuffer();
}

interface RunResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

function run(cmd: string, args: string[], timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < 20_000) err += d.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out), stderr: err });
    });
  });
}

export interface VideoProbe {
  durationSeconds: number | null;
  width: number;
  height: number;
  codec: string;
}

/** The last meaningful line of ffmpeg's complaint, without paths. */
function reason(stderr: string, file: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.split(file).join('input').trim())
    .filter(Boolean);
  return (lines.at(-1) ?? 'unknown error').slice(0, 300);
}

export class VideoTools {
  private available: Promise<boolean> | undefined;

  constructor(
    readonly ffmpegPath: string,
    readonly ffprobePath: string,
  ) {}

  /** Whether ffmpeg and ffprobe both run; checked once. */
  isAvailable(): Promise<boolean> {
    this.available ??= Promise.all([
      run(this.ffmpegPath, ['-version'], 10_000),
      run(this.ffprobePath, ['-version'], 10_000),
    ]).then(
      ([a, b]) => a.code === 0 && b.code === 0,
      () => false,
    );
    return this.available;
  }

  /** Refuses files ffprobe cannot read or that hold no video stream. */
  async probe(file: string): Promise<VideoProbe> {
    const res = await run(
      this.ffprobePath,
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
      30_000,
    );
    if (res.code !== 0)
      throw new MediaInputError(
        'unreadable',
        `The file is not a readable video (${reason(res.stderr, file)}).`,
      );
    let parsed: {
      format?: { duration?: string };
      streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number }[];
    };
    try {
      parsed = JSON.parse(res.stdout.toString());
    } catch {
      throw new MediaInputError('unreadable', 'The file is not a readable video.');
    }
    const video = parsed.streams?.find((s) => s.codec_type === 'video' && s.width && s.height);
    if (!video) throw new MediaInputError('no-video', 'The file holds no video stream.');
    const d = Number(parsed.format?.duration);
    return {
      durationSeconds: Number.isFinite(d) ? d : null,
      width: video.width!,
      height: video.height!,
      codec: video.codec_name ?? 'unknown',
    };
  }

  /**
   * Muted H.264 preview: the first 10 s, short side at most 480 px, at most 30 fps, no
   * metadata, moov atom first (faststart) so browsers start playing at once.
   */
  async makePreview(input: string, output: string): Promise<void> {
    const res = await run(
      this.ffmpegPath,
      [
        '-nostdin',
        '-y',
        '-v',
        'error',
        '-i',
        input,
        '-map',
        '0:v:0',
        '-vf',
        PREVIEW_SCALE,
        ...PREVIEW_OUTPUT,
        output,
      ],
      10 * 60_000,
    );
    if (res.code !== 0)
      throw new MediaInputError(
        'unreadable',
        `Video processing failed: ${reason(res.stderr, input)}`,
      );
  }

  /**
   * The preview (as makePreview, the same bytes) and its poster frame from one ffmpeg run: the
   * input is decoded and scaled once, and the first scaled frame at or after `posterAt` seconds
   * is also written as PNG. Returns that frame, or null when the video ended before
   * `posterAt` (then use frame() on the preview).
   */
  async makePreviewAndFrame(
    input: string,
    output: string,
    posterAt: number,
  ): Promise<Buffer | null> {
    const at = Math.max(0, posterAt).toFixed(3);
    const res = await run(
      this.ffmpegPath,
      [
        '-nostdin',
        '-y',
        '-v',
        'error',
        '-i',
        input,
        '-filter_complex',
        // format=yuv420p before split: both branches would otherwise be negotiated to the PNG
        // encoder's RGB, and every preview frame converted back (a third more CPU).
        `[0:v:0]${PREVIEW_SCALE},format=yuv420p,split=2[p][s];` +
          `[s]select='gte(t,${at})*isnan(prev_selected_t)'[f]`,
        '-map',
        '[p]',
        ...PREVIEW_OUTPUT,
        output,
        '-map',
        '[f]',
        '-frames:v',
        '1',
        '-f',
        'image2pipe',
        '-c:v',
        'png',
        'pipe:1',
      ],
      10 * 60_000,
    );
    if (res.code !== 0)
      throw new MediaInputError(
        'unreadable',
        `Video processing failed: ${reason(res.stderr, input)}`,
      );
    return res.stdout.length > 0 ? res.stdout : null;
  }

  /** One frame (PNG bytes) at `atSeconds`, or the first frame when the video is shorter. */
  async frame(input: string, atSeconds: number): Promise<Buffer> {
    const grab = (at: number) =>
      run(
        this.ffmpegPath,
        [
          '-nostdin',
          '-v',
          'error',
          '-ss',
          String(at),
          '-i',
          input,
          '-frames:v',
          '1',
          '-f',
          'image2pipe',
          '-vcodec',
          'png',
          '-',
        ],
        60_000,
      );
    let res = await grab(atSeconds);
    if ((res.code !== 0 || res.stdout.length === 0) && atSeconds > 0) res = await grab(0);
    if (res.code !== 0 || res.stdout.length === 0) {
      throw new MediaInputError(
        'unreadable',
        `No frame could be read: ${reason(res.stderr, input)}`,
      );
    }
    return res.stdout;
  }
}
