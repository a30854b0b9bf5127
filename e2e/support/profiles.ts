/**
 * Helpers of the profiles specs: media fixtures made at test time (a gradient PNG written by
 * hand, an MP4 from ffmpeg's test source) and seeding through the real API.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { API_URL } from './env';
import { api } from './api';

const fixtures = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-e2e-profiles-'));

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A width × height RGB PNG with a diagonal gradient between two colours. */
export function gradientPng(
  name: string,
  width = 640,
  height = 480,
  from: [number, number, number] = [216, 62, 134],
  to: [number, number, number] = [255, 201, 71],
): string {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0;
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      for (let c = 0; c < 3; c++)
        raw[row + 1 + x * 3 + c] = Math.round(from[c]! + (to[c]! - from[c]!) * t);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  const file = path.join(fixtures, `${name}.png`);
  fs.writeFileSync(file, png);
  return file;
}

export function hasFfmpeg(): boolean {
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A short H.264 MP4 of ffmpeg's moving test pattern. */
export function testVideo(name: string, seconds = 2): string {
  const file = path.join(fixtures, `${name}.mp4`);
  execFileSync('ffmpeg', [
    '-y',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=320x240:rate=24:duration=${seconds}`,
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    '-movflags',
    '+faststart',
    file,
  ]);
  return file;
}

/** Whether the product under test has the upload endpoints (401 without a token; 404 if not). */
export async function mediaAvailable(): Promise<boolean> {
  try {
    const res = await fetch(`${API_URL}/media/image`, { method: 'POST' });
    return res.status !== 404;
  } catch {
    return false;
  }
}

/** Uploads a file through POST /media/image or /media/video; resolves with its key. */
export async function upload(token: string, file: string): Promise<string> {
  const video = file.endsWith('.mp4');
  const res = await fetch(`${API_URL}/media/${video ? 'video' : 'image'}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': video ? 'video/mp4' : 'image/png',
    },
    body: fs.readFileSync(file),
  });
  const body = (await res.json()) as { key?: string };
  if (res.status !== 200 || !body.key) throw new Error(`upload answered ${res.status}`);
  return body.key;
}

/** Waits until a video's preview is ready (the media pipeline makes it in the background). */
export async function waitForMedia(key: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await api<{ status: string }>('GET', `/media/${encodeURIComponent(key)}/status`);
    if (res.status === 200 && res.data.status === 'ready') return;
    if (res.status === 200 && res.data.status === 'failed') throw new Error(`${key} failed`);
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${key} not ready after ${timeoutMs} ms`);
}

/** Sets the signed-in hunter's stage name and biography through the account endpoints. */
export async function setPublicProfile(token: string, stagename: string, bio: string) {
  for (const [path, body] of [
    ['/hunter/stagename', { stagename }],
    ['/hunter/bio', { bio }],
  ] as const) {
    const res = await api('PUT', path, body, token);
    if (res.status !== 200) throw new Error(`PUT ${path} answered ${res.status}`);
  }
}
