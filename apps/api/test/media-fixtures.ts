/**
 * Real media files made on the fly (sharp and ffmpeg), so the API tests, the browser tests and
 * the benchmarks need no binary fixtures in the repository. The one place test media is made.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

export const FFMPEG = process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg';
export const FFPROBE = process.env.FFPROBE_PATH ?? '/usr/bin/ffprobe';

/** A photo-like gradient with noise, so encoders do real work. */
export async function photo(
  width: number,
  height: number,
  format: 'jpeg' | 'png' | 'webp' | 'gif' | 'avif',
  opts: { exifGps?: boolean; orientation?: number } = {},
): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = (x * 255) / width;
      raw[i + 1] = (y * 255) / height;
      raw[i + 2] = ((x ^ y) & 0xff) / 2 + ((x * 7 + y * 13) % 64);
    }
  }
  let img = sharp(raw, { raw: { width, height, channels: 3 } });
  if (opts.exifGps || opts.orientation) {
    img = img.withExif({
      IFD0: {
        Make: 'BountyCam',
        Model: 'SecretModel-42',
      },
      ...(opts.exifGps
        ? {
            IFD3: {
              GPSLatitudeRef: 'N',
              GPSLatitude: '48/1 51/1 2955/100',
              GPSLongitudeRef: 'E',
              GPSLongitude: '2/1 17/1 4025/100',
            },
          }
        : {}),
    });
    if (opts.orientation) img = img.withMetadata({ orientation: opts.orientation });
  }
  switch (format) {
    case 'jpeg':
      return img.jpeg({ quality: 90 }).toBuffer();
    case 'png':
      return img.png().toBuffer();
    case 'webp':
      return img.webp().toBuffer();
    case 'gif':
      return img.gif({ effort: 1, colours: 32, dither: 0 }).toBuffer();
    case 'avif':
      return img.avif({ effort: 0 }).toBuffer();
  }
}

/**
 * A test-card video with a 440 Hz tone (the preview must come out muted) and location and title
 * metadata (which must not survive), written to `file` and returned.
 */
export function makeVideo(
  file: string,
  opts: {
    seconds?: number;
    size?: string;
    format?: 'mp4' | 'webm' | 'mov';
    rate?: number;
    /** Without the sound track. */
    silent?: boolean;
    /** The index (moov) first, as streaming sites write it. */
    faststart?: boolean;
    /** x264 preset (default ultrafast; the media benchmark wants a realistic file). */
    preset?: string;
  } = {},
): Buffer {
  const seconds = opts.seconds ?? 2;
  const size = opts.size ?? '320x240';
  const format = opts.format ?? 'mp4';
  const codec =
    format === 'webm'
      ? [
          '-c:v',
          'libvpx',
          '-deadline',
          'realtime',
          '-cpu-used',
          '8',
          '-b:v',
          '300k',
          '-c:a',
          'libvorbis',
        ]
      : [
          '-c:v',
          'libx264',
          '-preset',
          opts.preset ?? 'ultrafast',
          '-pix_fmt',
          'yuv420p',
          '-c:a',
          'aac',
        ];
  const res = spawnSync(
    FFMPEG,
    [
      '-nostdin',
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${size}:rate=${opts.rate ?? 25}`,
      ...(opts.silent ? [] : ['-f', 'lavfi', '-i', 'sine=frequency=440']),
      '-t',
      String(seconds),
      ...codec,
      ...(opts.faststart ? ['-movflags', '+faststart'] : []),
      '-metadata',
      'location=+48.8566+002.3522/',
      '-metadata',
      'title=secret-title',
      ...(format === 'mov' ? ['-f', 'mov'] : format === 'webm' ? ['-f', 'webm'] : ['-f', 'mp4']),
      file,
    ],
    { encoding: 'utf8' },
  );
  if (res.status !== 0) throw new Error(`ffmpeg failed: ${res.stderr}`);
  return fs.readFileSync(file);
}

export function tmpFile(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-fx-'));
  return path.join(dir, name);
}

/** Every file under `dir`, recursively (relative paths). */
export function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .sort();
}
