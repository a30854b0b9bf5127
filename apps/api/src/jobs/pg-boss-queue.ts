/**
 * The durable job queue: pg-boss in the application's own database (PGlite through its
 * `fromPglite` adapter, or PostgreSQL with a small pool of its own). Jobs are rows, so they
 * survive a restart; a job claimed by an instance that dies is retried once its heartbeat
 * stops; failures retry with exponential backoff; each job is claimed by exactly one worker
 * (SKIP LOCKED), and scheduled jobs use the `exclusive` policy so at most one of them is ever
 * queued or running across all API instances.
 */
import { PgBoss, fromPglite, type ConstructorOptions, type Job } from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../db/client';
import { runIn } from '../lib/request-context';
import type { JobDefinition, JobQueue, JobRunTotals, JobStats, SendOptions } from './types';

export const JOB_SCHEMA = 'pgboss';
export const DEFAULT_RETRY_LIMIT = 5;

export interface PgBossQueueOptions {
  /** Seconds without a heartbeat after which a running job counts as lost and is retried. */
  heartbeatSeconds?: number;
  /** How often the supervisor looks for lost and expired jobs. */
  superviseIntervalSeconds?: number;
  /** How often idle workers poll for new jobs. */
  pollingIntervalSeconds?: number;
  /** How often counts by state are logged (0: never). */
  statsIntervalSeconds?: number;
  /** Whether this instance runs cron schedules. */
  schedule?: boolean;
  /** Log lines written while a job runs name it (LOG_CONTEXT=1; lib/request-context.ts). */
  logContext?: boolean;
}

export type JobCounts = Record<string, Record<string, number>>;

export class PgBossJobQueue implements JobQueue {
  readonly boss: PgBoss;
  private readonly created = new Map<string, Promise<void>>();
  private readonly definitions = new Map<string, JobDefinition>();
  private readonly totals = new Map<string, { done: number; failed: number }>();
  /** This process's worker per queue (work()), woken when this process sends a job. */
  private readonly workerIds = new Map<string, string>();
  private statsTimer: NodeJS.Timeout | undefined;
  private started = false;
  private stopped = false;

  constructor(
    database: DatabaseHandle,
    private readonly log: FastifyBaseLogger,
    private readonly opts: PgBossQueueOptions = {},
  ) {
    const common: ConstructorOptions = {
      schema: JOB_SCHEMA,
      schedule: opts.schedule ?? true,
      superviseIntervalSeconds: opts.superviseIntervalSeconds ?? 30,
      monitorIntervalSeconds: opts.superviseIntervalSeconds ?? 30,
      warningSlowQuerySeconds: 30,
    };
    if (database.kind === 'pglite') {
      this.boss = new PgBoss({ ...common, db: fromPglite(database.pglite!), backend: 'pglite' });
    } else {
      const pool = database.pool!;
      const opt = pool.options as { connectionString?: string };
      this.boss = new PgBoss({ ...common, connectionString: opt.connectionString, max: 4 });
    }
    this.boss.on('error', (err: Error) =>
      this.log.error({ err: { message: err.message, name: err.name } }, 'job queue error'),
    );
    this.boss.on('warning', (w: { message?: string }) =>
      this.log.warn({ warning: w?.message }, 'job queue warning'),
    );
  }

  /** Installs or migrates the pg-boss schema; sending works after this, workers after work(). */
  async start(): Promise<void> {
    if (this.started) return;
    await this.boss.start();
    this.started = true;
  }

  private policyOf(def: JobDefinition | undefined) {
    if (def?.policy) return def.policy;
    return def?.schedule ? 'exclusive' : 'standard';
  }

  /** createQueue() before send() (STACK.md); once per name per process. */
  private ensureQueue(name: string): Promise<void> {
    let pending = this.created.get(name);
    if (!pending) {
      const def = this.definitions.get(name);
      pending = this.boss.createQueue(name, {
        policy: this.policyOf(def),
        retryLimit: def?.retryLimit ?? DEFAULT_RETRY_LIMIT,
        retryDelay: def?.retryDelaySeconds ?? 5,
        retryBackoff: def?.retryBackoff ?? true,
        retryDelayMax: 3600,
        heartbeatSeconds: this.opts.heartbeatSeconds ?? 30,
        expireInSeconds: def?.expireInSeconds ?? 30 * 60,
      });
      pending.catch(() => this.created.delete(name));
      this.created.set(name, pending);
    }
    return pending;
  }

  async send<P extends object>(name: string, payload: P, opts: SendOptions = {}): Promise<void> {
    await this.start();
    await this.ensureQueue(name);
    await this.boss.send(name, payload, {
      ...(opts.startAfter ? { startAfter: opts.startAfter } : {}),
      ...(opts.singletonKey ? { singletonKey: opts.singletonKey } : {}),
    });
    // A job due now starts at once when this process works its queue, instead of after up to
    // one polling interval (a video preview waited up to 2 s for an idle worker's next poll).
    // Other instances still find it by polling.
    const worker = opts.startAfter ? undefined : this.workerIds.get(name);
    if (worker) this.boss.notifyWorker(worker);
  }

  /**
   * Starts a worker for every definition and the cron schedules (the root's jobDefinitions).
   * A handler that throws fails the attempt; pg-boss retries it with backoff.
   */
  async work(definitions: readonly JobDefinition[]): Promise<void> {
    await this.start();
    for (const def of definitions) this.definitions.set(def.name, def);
    for (const def of definitions) {
      await this.ensureQueue(def.name);
      const workerId = await this.boss.work<object>(
        def.name,
        {
          pollingIntervalSeconds: this.opts.pollingIntervalSeconds ?? 2,
          localConcurrency: def.concurrency ?? 1,
        },
        async (jobs: Job<object>[]) => {
          for (const job of jobs) {
            const started = Date.now();
            const totals = this.totals.get(def.name) ?? { done: 0, failed: 0 };
            this.totals.set(def.name, totals);
            try {
              // Log lines written while it runs name the job (lib/request-context.ts).
              await runIn(this.opts.logContext ?? false, { job: `${def.name}:${job.id}` }, () =>
                def.handler(job.data ?? {}, {
                  attempt: job.retryCount + 1,
                  lastAttempt: job.retryCount >= (def.retryLimit ?? DEFAULT_RETRY_LIMIT),
                }),
              );
              totals.done += 1;
              this.log.info(
                {
                  job: def.name,
                  id: job.id,
                  attempt: job.retryCount + 1,
                  ms: Date.now() - started,
                },
                'job done',
              );
            } catch (err) {
              totals.failed += 1;
              this.log.warn(
                {
                  job: def.name,
                  id: job.id,
                  attempt: job.retryCount + 1,
                  err: { message: (err as Error).message },
                },
                'job failed; it will be retried while attempts remain',
              );
              throw err;
            }
          }
        },
      );
      this.workerIds.set(def.name, workerId);
      if (def.schedule) {
        await this.boss.schedule(def.name, def.schedule, {}, { tz: 'UTC' });
      }
    }
    for (const def of definitions) {
      if (def.runAtStart) await this.send(def.name, {}, { singletonKey: 'start' });
      if (def.runAfterStartSeconds !== undefined) {
        // Keyed by its due second, not by one fixed key: a start's run must never be dropped
        // for another start's run still waiting (due earlier, it would find what this start's
        // killed predecessor wrote still inside the grace period, and skip it). Instances whose
        // runs fall due in the same second share one run, due up to a second early: the media
        // sweep asks for its grace period plus one second, so that run still covers them.
        const due = Date.now() + def.runAfterStartSeconds * 1000;
        await this.send(
          def.name,
          {},
          { singletonKey: `after-start:${Math.ceil(due / 1000)}`, startAfter: new Date(due) },
        );
      }
    }
    // Schedules removed from the code must stop firing.
    const wanted = new Set(definitions.filter((d) => d.schedule).map((d) => d.name));
    for (const s of await this.boss.getSchedules()) {
      if (!wanted.has(s.name)) await this.boss.unschedule(s.name, s.key);
    }
    const every = this.opts.statsIntervalSeconds ?? 300;
    if (every > 0) {
      await this.logCounts();
      this.statsTimer = setInterval(() => void this.logCounts(), every * 1000);
      this.statsTimer.unref();
    }
  }

  runTotals(): JobRunTotals {
    return this.totals;
  }

  /** Jobs per queue and state, straight from the job table (observability). */
  async counts(): Promise<JobCounts> {
    await this.start();
    const { rows } = await this.boss
      .getDb()
      .executeSql(
        `select name, state::text as state, count(*)::int as n from ${JOB_SCHEMA}.job group by 1, 2 order by 1, 2`,
      );
    const out: JobCounts = {};
    for (const r of rows as { name: string; state: string; n: number }[]) {
      (out[r.name] ??= {})[r.state] = Number(r.n);
    }
    return out;
  }

  /** GET /admin/dashboard: jobs per state and the newest failures, from the job table. */
  async stats(): Promise<JobStats> {
    await this.start();
    const db = this.boss.getDb();
    const states = await db.executeSql(
      `select state::text as state, count(*)::int as n from ${JOB_SCHEMA}.job group by 1`,
    );
    const failed = await db.executeSql(
      `select id::text as id, name, completed_on as failed_at, output from ${JOB_SCHEMA}.job
        where state = 'failed' order by completed_on desc nulls last limit 10`,
    );
    const byState: Record<string, number> = {};
    for (const r of states.rows as { state: string; n: number }[]) byState[r.state] = Number(r.n);
    return {
      byState,
      failed: (
        failed.rows as {
          id: string;
          name: string;
          failed_at: Date | string | null;
          output: unknown;
        }[]
      ).map((r) => ({
        id: r.id,
        name: r.name,
        failedAt: r.failed_at ? new Date(r.failed_at).toISOString() : null,
        error: failureText(r.output),
      })),
    };
  }

  private async logCounts() {
    if (this.stopped) return;
    try {
      this.log.info({ jobs: await this.counts() }, 'job counts by state');
    } catch (err) {
      this.log.warn({ err: { message: (err as Error).message } }, 'job counts unavailable');
    }
  }

  /**
   * Stops fetching; waits up to `timeoutMs` for running handlers. A job still running after
   * that stays `active` in the table and is retried by a live instance once its heartbeat
   * stops, so nothing is lost.
   */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.statsTimer) clearInterval(this.statsTimer);
    if (!this.started) return;
    await this.boss.stop({ graceful: true, timeout: timeoutMs, close: true });
  }
}

/** pg-boss keeps a failed job's error as `{message, stack}` (or what the handler threw). */
function failureText(output: unknown): string | null {
  if (!output) return null;
  if (typeof output === 'object' && 'message' in output)
    return String((output as { message: unknown }).message).slice(0, 500);
  return JSON.stringify(output).slice(0, 500);
}
