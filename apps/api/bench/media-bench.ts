/**
 * `npm run bench:media [-- --images N] [--videos N]`
 *
 * Issue "Media" (targets: image uploads at ≥ 0.8 × the speed of sharp alone, video previews in
 * ≤ 1.2 × the time of the ffmpeg command alone), in one run on the same files:
 * - a 12-megapixel JPEG through POST /media/image (real HTTP with a hunter's session, the whole
 *   pipeline: auth, rate limit, reading the body, type detection, derivatives, storage writes of
 *   the original and both derivatives, the database row) against sharp alone making the same
 *   two derivatives from the same bytes in memory. sharp alone is timed two ways: the product's
 *   recipe (one pipeline per derivative, sharp clone(), side by side) and, for reference, one
 *   decode shared by both derivatives (decision 0015). The run checks that the endpoint stored the very bytes sharp alone
 *   makes, so both sides do the same work;
 * - a 10-second 1080p video from the start of its upload until GET /media/{key}/status says
 *   ready (durable pg-boss queue at its default polling, worker, ffmpeg, storage) against the
 *   single ffmpeg command that makes the same preview and poster frame, plus sharp for the
 *   poster, on the same file; the run checks the preview bytes are the same.
 * Sides are interleaved so load from other processes hits them alike. The app runs in-process
 * on an in-memory PGlite with disk storage in a temporary DATA_DIR; the client sends the bytes
 * from memory (as sharp alone gets them). Results: bench/results/media-<time>.{json,md}.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { buildApp, createLogger } from '../src/app';
import { createRoot } from '../src/composition';
import { createDatabase, runMigrations } from '../src/db/client';
import { loadConfig } from '../src/env';
import { PgBossJobQueue } from '../src/jobs/pg-boss-queue';
import { FFMPEG, FFPROBE, makeVideo, photo } from '../test/media-fixtures';

const { values: args } = parseArgs({
  options: {
    images: { type: 'string', default: '24' },
    videos: { type: 'string', default: '3' },
  },
});
const ROUNDS = 4;
const PER = Math.max(1, Math.round(Number(args.images) / ROUNDS));
const VIDEOS = Math.max(1, Number(args.videos));

const here = path.dirname(fileURLToPath(import.meta.url));
const resultsDir = path.resolve(here, '../../../bench/results');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-bench-media-'));
const log = (...a: unknown[]) => console.log(...a);
const load = () => os.loadavg().map((l) => Number(l.toFixed(2)));

// --- sharp alone ---------------------------------------------------------------------------

const FULL = { quality: 82, effort: 2 };
const THUMB = { quality: 80, effort: 2 };

/** For reference (decision 0015): decode once (fit 1920), both derivatives from those pixels. */
async function sharpOneDecode(input: Buffer) {
  const { data, info } = await sharp(input, { sequentialRead: true })
    .rotate()
    .resize(1920, 1920, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const [full, thumb] = await Promise.all([
    sharp(data, raw).webp(FULL).toBuffer(),
    sharp(data, raw)
      .resize(500, 500, { fit: 'cover', position: 'attention' })
      .webp(THUMB)
      .toBuffer(),
  ]);
  return { full, thumb };
}

/** The product's recipe: one pipeline per derivative (sharp clone()), side by side. */
async function sharpTwoPipelines(input: Buffer) {
  const base = sharp(input).rotate();
  const [full, thumb] = await Promise.all([
    base
      .clone()
      .resize(1920, 1920, { fit: 'inside', withoutEnlargement: true })
      .webp(FULL)
      .toBuffer(),
    base.clone().resize(500, 500, { fit: 'cover', position: 'attention' }).webp(THUMB).toBuffer(),
  ]);
  return { full, thumb };
}

// --- ffmpeg alone --------------------------------------------------------------------------

/**
 * The one ffmpeg command for a preview (first 10 s, short side ≤ 480, ≤ 30 fps, muted, no
 * metadata, faststart) and its poster frame (the first frame at or after 1 s, as PNG on
 * stdout), then sharp for the 500 × 500 WebP poster.
 */
async function ffmpegAlone(input: string, output: string): Promise<Buffer> {
  const scale =
    "scale=w='if(gt(iw,ih),-2,min(480,trunc(iw/2)*2))':h='if(gt(iw,ih),min(480,trunc(ih/2)*2),-2)',setsar=1";
  const argv = [
    ...['-nostdin', '-y', '-v', 'error', '-i', input],
    '-filter_complex',
    `[0:v:0]${scale},format=yuv420p,split=2[p][s];[s]select='gte(t,1)*isnan(prev_selected_t)'[f]`,
    ...['-map', '[p]', '-t', '10', '-an', '-sn', '-dn', '-fpsmax', '30'],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '28', '-profile:v', 'main'],
    ...['-pix_fmt', 'yuv420p', '-map_metadata', '-1', '-map_chapters', '-1'],
    ...['-movflags', '+faststart', '-f', 'mp4', output],
    ...['-map', '[f]', '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', 'pipe:1'],
  ];
  const frame = await new Promise<Buffer>((resolve, reject) => {
    const child = spawn(FFMPEG, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`ffmpeg ${code}: ${err}`)),
    );
  });
  return sharp(frame).resize(500, 500, { fit: 'cover' }).webp(THUMB).toBuffer();
}

// --- timing --------------------------------------------------------------------------------

interface Side {
  n: number;
  wallMs: number;
  cpuMs: number;
}
const side = (): Side => ({ n: 0, wallMs: 0, cpuMs: 0 });
async function timeInto(s: Side, n: number, fn: () => Promise<unknown>) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await fn();
  const c = process.cpuUsage(c0);
  s.wallMs += performance.now() - t0;
  s.cpuMs += (c.user + c.system) / 1000;
  s.n += n;
}
const each = (s: Side) => s.wallMs / s.n;
const cpuEach = (s: Side) => s.cpuMs / s.n;

async function main() {
  const loadAtStart = load();
  log(
    `cores ${os.cpus().length}, sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips}), concurrency ${sharp.concurrency()}, UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}, load ${loadAtStart.join(' ')}`,
  );

  // --- fixtures -------------------------------------------------------------------------
  const jpeg = await photo(4000, 3000, 'jpeg');
  const video = path.join(dataDir, 'clip-1080p-10s.mp4');
  makeVideo(video, { seconds: 10, size: '1920x1080', rate: 30, preset: 'veryfast' });
  const videoBytes = fs.readFileSync(video);
  log(
    `12 MP JPEG: ${(jpeg.length / 1e6).toFixed(2)} MB; 10 s 1080p MP4: ${(videoBytes.length / 1e6).toFixed(2)} MB`,
  );

  // --- the app --------------------------------------------------------------------------
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    DATABASE_URL: 'memory://',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ALLOW: '127.0.0.1,::1',
    FFMPEG_PATH: FFMPEG,
    FFPROBE_PATH: FFPROBE,
  });
  const database = await createDatabase(config.databaseUrl);
  await runMigrations(database);
  // The product's default polling interval: a job sent by this process wakes its worker.
  const jobs = new PgBossJobQueue(database, createSilentLogger(), { statsIntervalSeconds: 0 });
  await jobs.start();
  const appLog = createLogger(config, { write: () => true });
  const root = createRoot({ config, database, log: appLog, jobs });
  const app = await buildApp(root, appLog);
  await app.listen({ port: 0, host: '127.0.0.1' });
  await jobs.work(root.jobDefinitions);
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const email = 'bench-media@example.com';
  const password = 'Bench-pass1!';
  await fetch(`${base}/user`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, hunter: true }),
  });
  const { token } = (await (
    await fetch(`${base}/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    })
  ).json()) as { token: string };
  const auth = { authorization: `Bearer ${token}` };
  const publicFile = (name: string) => fs.readFileSync(path.join(dataDir, 'media', name));

  // --- images ---------------------------------------------------------------------------
  const uploadImage = async () => {
    const res = await fetch(`${base}/media/image`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'image/jpeg' },
      body: jpeg,
    });
    if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { key: string }).key;
  };
  // Warm-up (JIT, libvips, first PGlite writes) for every side, and the same-bytes check.
  const alone = await sharpOneDecode(jpeg);
  const two = await sharpTwoPipelines(jpeg);
  const firstKey = await uploadImage();
  const sameFull = publicFile(`${firstKey}-f.webp`).equals(two.full);
  const sameThumb = publicFile(`${firstKey}-t.webp`).equals(two.thumb);
  log(
    `endpoint's derivatives = sharp alone (two pipelines): full ${sameFull ? 'same bytes' : 'DIFFERENT'}, thumb ${sameThumb ? 'same bytes' : 'DIFFERENT'}; one decode: full ${two.full.equals(alone.full) ? 'same bytes' : 'different'}, thumb ${two.thumb.equals(alone.thumb) ? 'same bytes' : 'different (cut from the 1920 copy)'}`,
  );

  const oneDecode = side();
  const twoPipelines = side();
  const endpoint = side();
  const order: [Side, () => Promise<unknown>][] = [
    [oneDecode, () => sharpOneDecode(jpeg)],
    [endpoint, uploadImage],
    [twoPipelines, () => sharpTwoPipelines(jpeg)],
  ];
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < order.length; i++) {
      const [s, fn] = order[(i + r) % order.length]!;
      await timeInto(s, PER, fn);
    }
  }
  const images = {
    count: endpoint.n,
    sharpOneDecodeMs: each(oneDecode),
    sharpTwoPipelinesMs: each(twoPipelines),
    endpointMs: each(endpoint),
    cpuMsPerImage: {
      sharpOneDecode: cpuEach(oneDecode),
      sharpTwoPipelines: cpuEach(twoPipelines),
      endpoint: cpuEach(endpoint),
    },
    sameBytes: { full: sameFull, thumb: sameThumb },
    ratio: each(twoPipelines) / each(endpoint),
    ratioVsOneDecode: each(oneDecode) / each(endpoint),
  };
  const rate = (ms: number) => `${(1000 / ms).toFixed(2)} images/s  (${ms.toFixed(0)} ms each)`;
  log(
    `\nImages (12 MP JPEG → -f.webp ≤1920 + -t.webp 500×500), ${images.count} each, sequential, CPU ms per image in []:`,
  );
  log(
    `  sharp alone, one decode       ${rate(images.sharpOneDecodeMs)} [${images.cpuMsPerImage.sharpOneDecode.toFixed(0)}]`,
  );
  log(
    `  sharp alone, two pipelines    ${rate(images.sharpTwoPipelinesMs)} [${images.cpuMsPerImage.sharpTwoPipelines.toFixed(0)}]`,
  );
  log(
    `  POST /media/image             ${rate(images.endpointMs)} [${images.cpuMsPerImage.endpoint.toFixed(0)}]`,
  );
  log(
    `  ratio                         ${images.ratio.toFixed(2)}  (endpoint speed / sharp alone with the same recipe, two pipelines; aim ≥ 0.8)`,
  );
  log(
    `  ratio vs one decode           ${images.ratioVsOneDecode.toFixed(2)}  (endpoint speed / sharp alone, one shared decode)`,
  );

  // --- videos ---------------------------------------------------------------------------
  const uploadVideo = async () => {
    const res = await fetch(`${base}/media/video`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'video/mp4' },
      body: videoBytes,
    });
    if (res.status !== 200)
      throw new Error(`video upload answered ${res.status}: ${await res.text()}`);
    const { key } = (await res.json()) as { key: string };
    const answeredAt = performance.now();
    for (;;) {
      const st = (await (await fetch(`${base}/media/${key}/status`)).json()) as {
        status: string;
        error: string | null;
      };
      if (st.status === 'ready') return { key, answeredAt };
      if (st.status === 'failed') throw new Error(`video failed: ${st.error}`);
      // A client asking every 250 ms (it runs in this process: its requests cost CPU the
      // server's ffmpeg would otherwise get).
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const aloneOut = path.join(dataDir, 'alone-preview.mp4');
  const aloneSide = side();
  const pipeSide = side();
  let answerMs = 0;
  let samePreview = true;
  for (let i = 0; i < VIDEOS; i++) {
    const runAlone = () => timeInto(aloneSide, 1, () => ffmpegAlone(video, aloneOut));
    const runPipe = async () => {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const { key, answeredAt } = await uploadVideo();
      const c = process.cpuUsage(c0);
      pipeSide.wallMs += performance.now() - t0;
      pipeSide.cpuMs += (c.user + c.system) / 1000;
      pipeSide.n += 1;
      answerMs += answeredAt - t0;
      return key;
    };
    let key: string;
    if (i % 2 === 0) {
      await runAlone();
      key = await runPipe();
    } else {
      key = await runPipe();
      await runAlone();
    }
    samePreview &&= publicFile(`${key}-p.mp4`).equals(fs.readFileSync(aloneOut));
  }
  const videos = {
    count: VIDEOS,
    ffmpegAloneSeconds: each(aloneSide) / 1000,
    pipelineSeconds: each(pipeSide) / 1000,
    uploadAnsweredMs: answerMs / VIDEOS,
    samePreviewBytes: samePreview,
    cpuMsInProcess: { pipeline: cpuEach(pipeSide), ffmpegAlone: cpuEach(aloneSide) },
    ratio: each(pipeSide) / each(aloneSide),
  };
  log(
    `\nVideo (10 s 1080p MP4 → -p.mp4 ≤480p ≤10 s muted faststart + -t.webp poster), ${VIDEOS} each, alternating:`,
  );
  log(
    `  ffmpeg alone (one command)   ${videos.ffmpegAloneSeconds.toFixed(2)} s per preview (+ sharp poster)`,
  );
  log(
    `  upload → status ready        ${videos.pipelineSeconds.toFixed(2)} s per preview (upload answered after ${videos.uploadAnsweredMs.toFixed(0)} ms)`,
  );
  log(`  same preview bytes           ${samePreview ? 'yes' : 'NO'}`);
  log(
    `  CPU ms in this process        ${cpuEach(pipeSide).toFixed(0)} per pipeline video (client, server, database, job), ${cpuEach(aloneSide).toFixed(0)} per ffmpeg alone (sharp poster, idle app)`,
  );
  log(
    `  ratio                        ${videos.ratio.toFixed(2)}  (pipeline time / ffmpeg alone; aim ≤ 1.2)`,
  );
  log(`\njob counts: ${JSON.stringify(await jobs.counts())}`);

  await app.close();
  await root.storage.close();
  await jobs.stop(5000);
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });

  const loadAtEnd = load();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `media-${stamp}`);
  const machine = {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    node: process.version,
    sharp: sharp.versions.sharp,
    vips: sharp.versions.vips,
    sharpConcurrency: sharp.concurrency(),
    loadAtStart,
    loadAtEnd,
  };
  fs.writeFileSync(`${file}.json`, JSON.stringify({ machine, images, videos }, null, 2));
  const f2 = (n: number) => n.toFixed(2);
  fs.writeFileSync(
    `${file}.md`,
    [
      `# Media ${new Date().toISOString()}`,
      '',
      `Machine: ${machine.cores} × ${machine.cpu}, Node ${machine.node}, sharp ${machine.sharp} (libvips ${machine.vips}, concurrency ${machine.sharpConcurrency}), load average ${loadAtStart.join(',')} at the start and ${loadAtEnd.join(',')} at the end.`,
      '',
      '| measure | figure | target | met |',
      '|---|---|---|---|',
      `| image upload speed / sharp alone (same recipe, two pipelines) | ${f2(images.ratio)} (${images.endpointMs.toFixed(0)} vs ${images.sharpTwoPipelinesMs.toFixed(0)} ms) | ≥ 0.8 | ${images.ratio >= 0.8 ? 'yes' : 'no'} |`,
      `| image upload speed / sharp alone (one decode) | ${f2(images.ratioVsOneDecode)} (${images.endpointMs.toFixed(0)} vs ${images.sharpOneDecodeMs.toFixed(0)} ms) | – | – |`,
      `| video preview time / ffmpeg alone | ${f2(videos.ratio)} (${f2(videos.pipelineSeconds)} vs ${f2(videos.ffmpegAloneSeconds)} s) | ≤ 1.2 | ${videos.ratio <= 1.2 ? 'yes' : 'no'} |`,
      '',
      `Images: ${images.count} uploads of a 12 MP JPEG per side, interleaved in ${ROUNDS} rounds; CPU ms per image: sharp one decode ${images.cpuMsPerImage.sharpOneDecode.toFixed(0)}, two pipelines ${images.cpuMsPerImage.sharpTwoPipelines.toFixed(0)}, endpoint ${images.cpuMsPerImage.endpoint.toFixed(0)} (client, server, database, all in one process). Stored derivatives are the bytes sharp alone makes: full ${sameFull ? 'yes' : 'no'}, thumb ${sameThumb ? 'yes' : 'no'}.`,
      '',
      `Videos: ${VIDEOS} 10 s 1080p MP4s per side, alternating; the upload answered after ${videos.uploadAnsweredMs.toFixed(0)} ms on average; preview bytes equal to the command's: ${samePreview ? 'yes' : 'no'}.`,
      '',
    ].join('\n'),
  );
  log(`results: ${path.relative(process.cwd(), file)}.{json,md}`);
}

function createSilentLogger() {
  const noop = () => undefined;
  const l = {
    info: noop,
    warn: noop,
    error: noop,
    debug: noop,
    trace: noop,
    fatal: noop,
    child: () => l,
    level: 'silent',
    silent: noop,
  };
  return l as never;
}

main().catch((err) => {
  console.error(err);
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
});
