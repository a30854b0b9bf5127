/** Media files for browser tests, made with Debian's ffmpeg (no binary fixtures in the repo). */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const FFMPEG = process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg';

function out(name: string): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bh-e2e-media-')), name);
}

/** A 1600×1200 JPEG photo-like test card. */
export function jpegFile(): string {
  const file = out('photo.jpg');
  execFileSync(FFMPEG, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=1600x1200',
    '-frames:v',
    '1',
    '-q:v',
    '3',
    file,
  ]);
  return file;
}

/** A 3-second 640×360 H.264 MP4 with sound (the preview must come out muted). */
export function mp4File(): string {
  const file = out('clip.mp4');
  execFileSync(FFMPEG, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=640x360:rate=25',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440',
    '-t',
    '3',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    file,
  ]);
  return file;
}
