import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, createLogger } from '../app';
import { createRoot } from '../composition';
import { createTestDatabase, signUp, testConfig, type TestDatabase } from '../../test/helper';
import { FFMPEG, FFPROBE, makeVideo, tmpFile } from '../../test/media-fixtures';
import { VIDEO_PREVIEW_JOB } from '../modules/media/media.service';
import { PgBossJobQueue, type PgBossQueueOptions } from './pg-boss-queue';
import type { JobDefinition, JobRunInfo } from './types';

const fast = {
  pollingIntervalSeconds: 0.5,
  heartbeatSeconds: 10,
  superviseIntervalSeconds: 1,
  statsIntervalSeconds: 0,
};

function quietLog() {
  const lines: string[] = [];
  const log = createLogger(
    testConfig(),
    new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }),
  );
  return { log, lines };
}

async function waitFor<T>(
  fn: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 60_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 200));
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

async function setup(
  opts: PgBossQueueOptions = {},
): Promise<{ db: TestDatabase; queue: PgBossJobQueue; lines: string[] }> {
  const db = await createTestDatabase();
  const { log, lines } = quietLog();
  const queue = new PgBossJobQueue(db.handle, log as never, { ...fast, ...opts });
  cleanups.push(() => db.drop());
  cleanups.push(() => queue.stop(1000));
  return { db, queue, lines };
}

// pg-boss installs its schema per fresh database: seconds on PGlite, more on a busy machine.
describe('PgBossJobQueue', { timeout: 180_000 }, () => {
  it('runs sent jobs once, with their payload, and counts them by state', async () => {
    const { queue, lines } = await setup({ logContext: true });
    const seen: object[] = [];
    const serviceLog = createLogger(
      testConfig({ LOG_CONTEXT: '1' }),
      new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }),
    );
    const def: JobDefinition = {
      name: 'test.echo',
      handler: async (p) => {
        seen.push(p);
        // A service's own logger: the line still names the job it runs for (LOG_CONTEXT=1).
        serviceLog.info({ n: (p as { n: number }).n }, 'echo ran');
      },
    };
    await queue.work([def]);
    await queue.send('test.echo', { n: 1 });
    await queue.send('test.echo', { n: 2 }, { startAfter: new Date(Date.now() + 1500) });
    await waitFor(() => seen.length === 2);
    expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
    const counts = await waitFor(async () => {
      const c = await queue.counts();
      return c['test.echo']?.completed === 2 && c;
    });
    expect(queue.runTotals().get('test.echo')).toEqual({ done: 2, failed: 0 });
    const echoed = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'echo ran');
    expect(echoed).toHaveLength(2);
    for (const l of echoed) expect(l.job).toMatch(/^test\.echo:[0-9a-f-]{36}$/);
    expect(counts['test.echo']).toEqual({ completed: 2 });
  });

  it('a job sent by the process that works its queue starts at once, not at the next poll', async () => {
    const db = await createTestDatabase();
    const { log } = quietLog();
    const queue = new PgBossJobQueue(db.handle, log as never, {
      ...fast,
      pollingIntervalSeconds: 30,
    });
    cleanups.push(() => db.drop());
    cleanups.push(() => queue.stop(1000));
    const started: number[] = [];
    await queue.work([{ name: 'test.wake', handler: async () => void started.push(Date.now()) }]);
    // The worker's first fetch (at work()) has come back empty: it now waits 30 s.
    await new Promise((r) => setTimeout(r, 1000));
    const sent = Date.now();
    await queue.send('test.wake', {});
    await waitFor(() => started.length === 1, 20_000);
    expect(started[0]! - sent).toBeLessThan(15_000);
  });

  it('retries a failing job with backoff and tells the handler its last attempt', async () => {
    const { queue } = await setup();
    const attempts: (JobRunInfo & { at: number })[] = [];
    const def: JobDefinition = {
      name: 'test.flaky',
      retryLimit: 2,
      retryDelaySeconds: 1,
      retryBackoff: true,
      handler: async (_p, info) => {
        attempts.push({ ...info, at: Date.now() });
        throw new Error('boom');
      },
    };
    await queue.work([def]);
    await queue.send('test.flaky', {});
    await waitFor(async () => (await queue.counts())['test.flaky']?.failed === 1);
    expect(attempts.map((a) => [a.attempt, a.lastAttempt])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    // Backoff: at least the base delay between attempts.
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(900);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(900);
    // The operations dashboard sees the failure, with the handler's error.
    const stats = await queue.stats();
    expect(stats.byState.failed).toBe(1);
    expect(stats.failed).toEqual([
      { id: expect.any(String), name: 'test.flaky', failedAt: expect.any(String), error: 'boom' },
    ]);
  });

  it('an exclusive queue holds one job per key: duplicates are dropped, never run twice at once', async () => {
    const { queue } = await setup();
    let running = 0;
    let maxRunning = 0;
    let runs = 0;
    const def: JobDefinition = {
      name: 'test.exclusive',
      policy: 'exclusive',
      concurrency: 3,
      handler: async () => {
        running += 1;
        runs += 1;
        maxRunning = Math.max(maxRunning, running);
        await new Promise((r) => setTimeout(r, 800));
        running -= 1;
      },
    };
    await queue.work([def]);
    await Promise.all(
      [1, 2, 3, 4].map(() => queue.send('test.exclusive', {}, { singletonKey: 'k1' })),
    );
    await waitFor(async () => (await queue.counts())['test.exclusive']?.completed === 1);
    await new Promise((r) => setTimeout(r, 1500));
    expect(runs).toBe(1);
    expect(maxRunning).toBe(1);
  });

  it("a run after start is never dropped for an earlier start's run still waiting", async () => {
    // Two instances (or one restarted) start 1.5 s apart: each start's delayed run must happen,
    // the second after its own delay. Under one fixed key the second was dropped while the
    // first still waited, and the only run came too early for what the second start needed.
    const { db } = await setup();
    const runs: number[] = [];
    const def = (): JobDefinition => ({
      name: 'test.after-start',
      schedule: '0 0 1 1 *',
      runAfterStartSeconds: 3,
      handler: async () => void runs.push(Date.now()),
    });
    const queue1 = new PgBossJobQueue(db.handle, quietLog().log as never, fast);
    cleanups.push(() => queue1.stop(1000));
    const first = Date.now();
    await queue1.work([def()]);
    await new Promise((r) => setTimeout(r, 1500));
    const queue2 = new PgBossJobQueue(db.handle, quietLog().log as never, fast);
    cleanups.push(() => queue2.stop(1000));
    const second = Date.now();
    await queue2.work([def()]);
    await waitFor(() => runs.length >= 2, 30_000);
    expect(runs[0]! - first).toBeGreaterThanOrEqual(3000);
    expect(runs[1]! - second).toBeGreaterThanOrEqual(3000);
  });

  it('a restart during video processing loses no job', async () => {
    const db = await createTestDatabase();
    cleanups.push(() => db.drop());
    const config = testConfig({ FFMPEG_PATH: FFMPEG, FFPROBE_PATH: FFPROBE });
    cleanups.push(async () => fs.rmSync(config.dataDir, { recursive: true, force: true }));

    // First "process": the worker picks the job up, then the process dies mid-way.
    const first = quietLog();
    const queue1 = new PgBossJobQueue(db.handle, first.log as never, fast);
    await queue1.start();
    const log1 = createLogger(config, new Writable({ write: (_c, _e, cb) => cb() }));
    const root1 = createRoot({ config, database: db.handle, log: log1, jobs: queue1 });
    const app1 = await buildApp(root1, log1);
    await app1.ready();
    let picked = false;
    const preview = (r: typeof root1) =>
      r.jobDefinitions.filter((d) => d.name === VIDEO_PREVIEW_JOB);
    const dying = preview(root1).map((d) => ({
      ...d,
      handler: async () => {
        picked = true;
        await new Promise(() => undefined); // ffmpeg still running when the process dies
      },
    }));
    await queue1.work(dying);
    const u = await signUp(app1);
    const res = await app1.inject({
      method: 'POST',
      url: '/media/video',
      headers: { ...u.auth, 'content-type': 'video/mp4' },
      payload: makeVideo(tmpFile('r.mp4'), { seconds: 3 }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const { key } = res.json();
    await waitFor(() => picked);
    expect((await queue1.counts())['media.video-preview']).toEqual({ active: 1 });
    // Crash: no graceful wait, no completion; the job row stays active.
    await queue1.boss.stop({ graceful: false, close: true, timeout: 1 });

    // Second "process" on the same database: the lost job is retried and finishes.
    const second = quietLog();
    const queue2 = new PgBossJobQueue(db.handle, second.log as never, fast);
    cleanups.push(() => queue2.stop(5000));
    await queue2.start();
    const log2 = createLogger(config, new Writable({ write: (_c, _e, cb) => cb() }));
    const root2 = createRoot({ config, database: db.handle, log: log2, jobs: queue2 });
    const app2 = await buildApp(root2, log2);
    cleanups.push(() => app2.close());
    await app2.ready();
    await queue2.work(preview(root2).map((d) => ({ ...d, retryDelaySeconds: 1 })));
    const status = await waitFor(async () => {
      const r = await app2.inject({ method: 'GET', url: `/media/${key}/status` });
      return r.json().status !== 'processing' && r.json();
    }, 90_000);
    expect(status).toMatchObject({ key, status: 'ready' });
    expect(fs.existsSync(path.join(config.dataDir, 'media', `${key}-p.mp4`))).toBe(true);
    // The handler has returned; pg-boss marks the job completed right after.
    await waitFor(async () => (await queue2.counts())['media.video-preview']?.completed === 1);
    expect((await queue2.counts())['media.video-preview']).toEqual({ completed: 1 });
    await app1.close();
  });
});
