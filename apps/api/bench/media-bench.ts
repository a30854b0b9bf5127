/**
 * `npm run bench:media [-- --images N] [--videos N]`
 *
 * Issue "Media" part 8, in one run on the same files:
 * - images per second for a 12-megapixel JPEG through POST /media/image (real HTTP, the whole
 *   pipeline: auth, streaming to a temp file, type detection, derivatives, storage, database)
 *   against sharp alone making the same two derivatives from the same bytes in memory;
 * - seconds per preview of a 10-second 1080p video, from upload until GET /media/{key}/status
 *   says ready (durable pg-boss queue, worker, ffmpeg, storage) against the ffmpeg commands
 *   alone (preview + poster frame) on the same file.
 * The app runs in-process on an in-memory PGlite with disk storage in a temporary DATA_DIR.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { buildApp, createLogger } from '../src/app';
import { createRoot } from '../src/composition';
import { createDatabase, runMigrations } from '../src/db/client';
import { loadConfig } from '../src/env';
import { PgBossJobQueue } from '../src/jobs/pg-boss-queue';
import { makeImageDerivatives, makePoster, VideoTools } from '../src/modules/media/media.processor';
import { FFMPEG, FFPROBE, makeVideo, photo } from '../test/media-fixtures';

const { values: args } = parseArgs({
  options: {
    images: { type: 'string', default: '12' },
    videos: { type: 'string', default: '3' },
  },
});
const IMAGES = Number(args.images);
const VIDEOS = Number(args.videos);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-bench-media-'));
const log = (...a: unknown[]) => console.log(...a);

async function main() {
  log(
    `cores ${os.cpus().length}, sharp concurrency ${sharp.concurrency()}, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );

  // --- fixtures -------------------------------------------------------------------------
  const jpeg = await photo(4000, 3000, 'jpeg');
  const jpegFile = path.join(dataDir, 'photo-12mp.jpg');
  fs.writeFileSync(jpegFile, jpeg);
  const video = path.join(dataDir, 'clip-1080p-10s.mp4');
  makeVideo(video, { seconds: 10, size: '1920x1080', rate: 30, preset: 'veryfast' });
  log(
    `12 MP JPEG: ${(jpeg.length / 1e6).toFixed(2)} MB; 10 s 1080p MP4: ${(fs.statSync(video).size / 1e6).toFixed(2)} MB`,
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
  const jobs = new PgBossJobQueue(database, createSilentLogger(), {
    pollingIntervalSeconds: 0.5,
    statsIntervalSeconds: 0,
  });
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

  // --- images ---------------------------------------------------------------------------
  const uploadImage = async () => {
    const res = await fetch(`${base}/media/image`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'image/jpeg' },
      body: fs.createReadStream(jpegFile) as never,
      duplex: 'half',
    } as RequestInit);
    if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { key: string }).key;
  };
  // Warm-up (JIT, libvips caches, first PGlite writes) for both sides.
  await makeImageDerivatives(jpeg, config.MAX_IMAGE_PIXELS);
  await uploadImage();

  const timeIt = async (n: number, fn: () => Promise<unknown>) => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await fn();
    return (performance.now() - t0) / 1000;
  };
  // Interleaved rounds so that load from other processes hits both sides alike.
  let sharpSec = 0;
  let apiSec = 0;
  const rounds = 3;
  const per = Math.max(1, Math.round(IMAGES / rounds));
  for (let r = 0; r < rounds; r++) {
    sharpSec += await timeIt(per, () => sharpAlone(jpeg));
    apiSec += await timeIt(per, uploadImage);
  }
  const sharpRate = (per * rounds) / sharpSec;
  const apiRate = (per * rounds) / apiSec;
  log(`\nImages (12 MP JPEG → -f.webp ≤1920 + -t.webp 500×500), ${per * rounds} each, sequential:`);
  log(
    `  sharp alone         ${sharpRate.toFixed(2)} images/s  (${((sharpSec / (per * rounds)) * 1000).toFixed(0)} ms each)`,
  );
  log(
    `  POST /media/image   ${apiRate.toFixed(2)} images/s  (${((apiSec / (per * rounds)) * 1000).toFixed(0)} ms each)`,
  );
  log(
    `  ratio               ${(apiRate / sharpRate).toFixed(2)}  (pipeline / sharp alone; aim ≥ 0.8)`,
  );

  // --- videos ---------------------------------------------------------------------------
  const tools = new VideoTools(FFMPEG, FFPROBE);
  const ffmpegAlone = async () => {
    const out = path.join(dataDir, `alone-${Date.now()}.mp4`);
    await tools.makePreview(video, out);
    await makePoster(await tools.frame(out, 1));
    fs.rmSync(out);
  };
  const uploadVideo = async () => {
    const res = await fetch(`${base}/media/video`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'video/mp4' },
      body: fs.createReadStream(video) as never,
      duplex: 'half',
    } as RequestInit);
    if (res.status !== 200)
      throw new Error(`video upload answered ${res.status}: ${await res.text()}`);
    const { key } = (await res.json()) as { key: string };
    const answeredAt = performance.now();
    for (;;) {
      const st = (await (await fetch(`${base}/media/${key}/status`)).json()) as {
        status: string;
        error: string | null;
      };
      if (st.status === 'ready') return answeredAt;
      if (st.status === 'failed') throw new Error(`video failed: ${st.error}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  let aloneSec = 0;
  let pipeSec = 0;
  let answerSec = 0;
  for (let i = 0; i < VIDEOS; i++) {
    aloneSec += await timeIt(1, ffmpegAlone);
    const t0 = performance.now();
    const answered = await uploadVideo();
    pipeSec += (performance.now() - t0) / 1000;
    answerSec += (answered - t0) / 1000;
  }
  log(
    `\nVideo (10 s 1080p MP4 → -p.mp4 ≤480p ≤10 s muted faststart + -t.webp poster), ${VIDEOS} each:`,
  );
  log(`  ffmpeg alone                 ${(aloneSec / VIDEOS).toFixed(2)} s per preview`);
  log(
    `  upload → status ready        ${(pipeSec / VIDEOS).toFixed(2)} s per preview (upload answered after ${((answerSec / VIDEOS) * 1000).toFixed(0)} ms)`,
  );
  log(
    `  ratio                        ${(aloneSec / pipeSec).toFixed(2)}  (ffmpeg alone / pipeline)`,
  );
  log(`\njob counts: ${JSON.stringify(await jobs.counts())}`);

  await app.close();
  await root.storage.close();
  await jobs.stop(5000);
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** The same two derivatives as the pipeline, straight from the bytes in memory. */
async function sharpAlone(input: Buffer) {
  const base = sharp(input).rotate();
  await Promise.all([
    base
      .clone()
      .resize(1920, 1920, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82, effort: 2 })
      .toBuffer(),
    base
      .clone()
      .resize(500, 500, { fit: 'cover', position: 'attention' })
      .webp({ quality: 80, effort: 2 })
      .toBuffer(),
  ]);
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
