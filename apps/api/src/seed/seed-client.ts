/**
 * How the demo seed talks to the product: an app instance built from the composition root on
 * the seeded database, with the seed's manual clock, an in-memory job queue (video previews are
 * made at once; every other job goes to the server's durable queue) and no rate limits, called
 * through HTTP injection like any client. seed.ts tells the story; this file is the hands.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp, createLogger } from '../app';
import { createRoot, type Root } from '../composition';
import type { DatabaseHandle } from '../db/client';
import type { Config } from '../env';
import { MemoryJobQueue } from '../jobs/memory-queue';
import type { JobQueue } from '../jobs/types';
import type { ManualClock } from '../lib/clock';
import { hashPassword } from '../lib/password';
import { MemoryRateStore, RateLimiter } from '../lib/rate-limiter';
import { ROLE } from '@bountyhunt/shared/roles';
import { artJpeg } from './art';
import { DEMO_PASSWORD } from './demo-data';
import { makeVideo } from './demo-video';

export interface Actor {
  email: string;
  token: string;
  userId: number;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface SeedClientOptions {
  config: Config;
  database: DatabaseHandle;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  clock: ManualClock;
  /** Where jobs the seed does not run itself go (the server's durable queue). */
  serverJobs: JobQueue;
  /** Counts what was made, by kind. */
  bump(kind: string): void;
  /** Things the seed could not do, said once at the end. */
  notes: string[];
}

export class SeedClient {
  private readonly jobs: MemoryJobQueue;
  private readonly tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-seed-'));
  private artSeed = 1;
  private videoVariant = 0;
  private videoOk: boolean;

  private constructor(
    private readonly opts: SeedClientOptions,
    private readonly root: Root,
    private readonly app: FastifyInstance,
    jobs: MemoryJobQueue,
  ) {
    this.jobs = jobs;
    this.videoOk = this.has('POST', '/media/video');
  }

  static async start(opts: SeedClientOptions): Promise<SeedClient> {
    const jobs = new MemoryJobQueue();
    const config: Config = { ...opts.config, LOG_LEVEL: 'warn' };
    const log = createLogger(config, { write: () => true });
    const root = createRoot({
      config,
      database: opts.database,
      log,
      clock: opts.clock,
      jobs,
      // The seed is one client doing the work of many: no limits for it.
      rateLimiter: new RateLimiter(new MemoryRateStore(opts.clock), ['127.0.0.1', '::1']),
    });
    const app = await buildApp(root, log);
    await app.ready();
    return new SeedClient(opts, root, app, jobs);
  }

  readonly has = (method: Method, url: string): boolean => this.app.hasRoute({ method, url });

  readonly call = async <T>(
    method: Method,
    url: string,
    o: { token?: string; body?: unknown; raw?: Buffer; type?: string } = {},
  ): Promise<T> => {
    const res = await this.app.inject({
      method,
      url,
      headers: {
        ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
        ...(o.type ? { 'content-type': o.type } : {}),
      },
      ...(o.raw ? { payload: o.raw } : o.body !== undefined ? { payload: o.body as object } : {}),
    });
    if (res.statusCode >= 300)
      throw new ApiError(
        res.statusCode,
        `${method} ${url} answered ${res.statusCode}: ${res.body}`,
      );
    return (res.body ? res.json() : undefined) as T;
  };

  /** Runs the queued media jobs now (previews must exist); hands the rest to the server's queue. */
  readonly runJobs = async (): Promise<void> => {
    await this.jobs.runPending(this.root.jobDefinitions, (job) => job.name.startsWith('media.'));
    for (const job of this.jobs.sent.splice(0)) {
      await this.opts.serverJobs.send(job.name, job.payload, job.opts);
    }
  };

  /** What the close-rounds job does every minute on the server, at the seed's time. */
  readonly closeRounds = async (): Promise<void> => {
    await this.root.services.bounties.closeDueRounds();
  };

  /** What the earnings job does every minute on the server, at the seed's time. */
  readonly settleEarnings = async (): Promise<void> => {
    await this.root.services.bounties.settleEarnings();
  };

  /** The admin's acts the console would make (each audited like the console's). */
  readonly asAdmin = (adminId: number) => {
    const actor = { userId: adminId, role: ROLE.admin, sessionId: 0, secondFactor: true };
    const { identity, adminUsers } = this.root.services;
    return {
      grantSilver: (userId: number, amount: number, reason: string) =>
        adminUsers.grantSilver(actor, userId, { amount, reason }, null),
      approveIdentityOf: async (userId: number) => {
        const queue = await identity.queue({ limit: 200 });
        const item = queue.items.find((i) => i.userId === userId);
        if (item) await identity.approve(actor, item.submissionId, null);
      },
    };
  };

  /** The weekly payout job and the hourly release, at the seed's time. */
  readonly payouts = () => this.root.services.payouts;

  /** A new session (its token) for a demo account. */
  readonly signIn = async (email: string): Promise<string> => {
    const { token } = await this.call<{ token: string }>('POST', '/auth', {
      body: { email, password: DEMO_PASSWORD },
    });
    return token;
  };

  readonly signUp = async (email: string, hunter: boolean): Promise<Actor> => {
    const user = await this.call<{ userId: number }>('POST', '/user', {
      body: { email, password: DEMO_PASSWORD, hunter },
    });
    const { token } = await this.call<{ token: string }>('POST', '/auth', {
      body: { email, password: DEMO_PASSWORD },
    });
    return { email, token, userId: user.userId };
  };

  /** The public API never grants the admin bit: the users service makes the demo admin. */
  readonly createAdmin = async (email: string): Promise<number> => {
    const row = await this.root.services.users.createWithRole(
      email,
      await hashPassword(DEMO_PASSWORD),
      ROLE.admin,
    );
    return row.id;
  };

  readonly uploadImage = async (
    actor: Actor,
    w: number,
    h: number,
    caption?: string,
    endpoint: '/media/image' | '/media/identity' = '/media/image',
  ): Promise<string> => {
    const jpeg = await artJpeg(this.artSeed++, w, h, caption);
    const { key } = await this.call<{ key: string }>('POST', endpoint, {
      token: actor.token,
      raw: jpeg,
      type: 'image/jpeg',
    });
    this.opts.bump('images');
    return key;
  };

  /** A generated video through the upload endpoint and its job; null when videos can't be made. */
  readonly uploadVideo = async (actor: Actor): Promise<string | null> => {
    if (!this.videoOk) return null;
    const bytes = await makeVideo(this.opts.config.FFMPEG_PATH, this.videoVariant++, this.tmp);
    if (!bytes) {
      this.videoOk = false;
      this.opts.notes.push(
        'ffmpeg is missing or failed: video claims and posts were made as images',
      );
      this.opts.log.warn(
        'demo seed: ffmpeg not available; video claims and posts are images instead',
      );
      return null;
    }
    try {
      const { key } = await this.call<{ key: string }>('POST', '/media/video', {
        token: actor.token,
        raw: bytes,
        type: 'video/mp4',
      });
      await this.runJobs();
      this.opts.bump('videos');
      return key;
    } catch (err) {
      if (err instanceof ApiError && err.status === 503) {
        this.videoOk = false;
        this.opts.notes.push(
          'video uploads are unavailable (503): video claims were made as images',
        );
        return null;
      }
      throw err;
    }
  };

  async close(): Promise<void> {
    await this.app.close();
    await this.root.storage.close();
    fs.rmSync(this.tmp, { recursive: true, force: true });
  }
}
