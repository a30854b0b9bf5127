/** Demo videos: a few seconds of one of ffmpeg's test sources, tinted per variant. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** A short video with colour and motion from one of ffmpeg's test sources; null without ffmpeg. */
export async function makeVideo(
  ffmpeg: string,
  variant: number,
  dir: string,
): Promise<Buffer | null> {
  const sources = [
    'testsrc2=size=480x270:rate=25',
    'mandelbrot=size=480x270:rate=25',
    'life=size=480x270:rate=25:mold=10:ratio=0.1:death_color=#d83e86:life_color=#ffc947',
    'cellauto=size=480x270:rate=25:rule=110',
    'smptehdbars=size=480x270:rate=25',
  ];
  const file = path.join(dir, `demo-${variant}.mp4`);
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `${sources[variant % sources.length]!}`,
    '-t',
    '2',
    '-vf',
    `hue=h=${(variant * 67) % 360}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    file,
  ];
  const ok = await new Promise<boolean>((resolve) => {
    const p = spawn(ffmpeg, args, { stdio: 'ignore' });
    p.on('error', () => resolve(false));
    p.on('exit', (code) => resolve(code === 0));
  });
  if (!ok) return null;
  const bytes = fs.readFileSync(file);
  fs.rmSync(file, { force: true });
  return bytes;
}
