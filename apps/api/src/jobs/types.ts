/**
 * Background jobs: names in one place, typed payloads, handlers as plain functions.
 * Each feature builds its definitions from its own service (modules/<feature>/<feature>.jobs.ts)
 * and the composition root collects them; the durable queue (pg-boss) runs them.
 */

export interface SendOptions {
  /** Run no earlier than this. */
  startAfter?: Date;
  /** At most one queued job with this key. */
  singletonKey?: string;
}

/** A job that failed for good (no attempts left), for the operations dashboard. */
export interface FailedJob {
  id: string;
  name: string;
  failedAt: string | null;
  error: string | null;
}

export interface JobStats {
  /** Jobs per state (created, retry, active, completed, failed, …) over all queues. */
  byState: Record<string, number>;
  /** The newest failures, newest first. */
  failed: FailedJob[];
}

/** Attempts this process has run per job name, since it started (GET /metrics). */
export type JobRunTotals = ReadonlyMap<string, { done: number; failed: number }>;

export interface JobQueue {
  send<P extends object>(name: string, payload: P, opts?: SendOptions): Promise<void>;
  stats(): Promise<JobStats>;
  /** Jobs per queue and state in the durable table (the queue depth), where there is one. */
  counts?(): Promise<Record<string, Record<string, number>>>;
  /** Attempts run by this process, by job name and outcome. */
  runTotals?(): JobRunTotals;
}

/** Which attempt this is (1-based) and whether the queue will try again after a failure. */
export interface JobRunInfo {
  attempt: number;
  lastAttempt: boolean;
}

export interface JobDefinition<P extends object = object> {
  name: string;
  handler(payload: P, info: JobRunInfo): Promise<void>;
  /** Cron expression (UTC) for scheduled jobs. */
  schedule?: string;
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /**
   * pg-boss queue policy. Default: `exclusive` for scheduled jobs (never two at once across
   * instances), `standard` otherwise. `exclusive` with a singletonKey: one job per key in flight.
   */
  policy?: 'standard' | 'exclusive' | 'singleton' | 'stately';
  /** A running attempt is failed (and retried) after this long. Default 30 minutes. */
  expireInSeconds?: number;
  /** Jobs this instance runs at once. Default 1. */
  concurrency?: number;
  /**
   * Also queued once when an instance starts (a scheduled job's catch-up: the media sweeper
   * cleans what a killed instance left behind without waiting for its schedule).
   */
  runAtStart?: boolean;
  /**
   * Also queued this many seconds after an instance starts (the sweeper again, once what a
   * killed instance wrote just before the restart is older than the sweep's grace period).
   */
  runAfterStartSeconds?: number;
}

/** A definition whose payload type is known, stored with the others. */
export function defineJob<P extends object>(def: JobDefinition<P>): JobDefinition {
  return def as unknown as JobDefinition;
}
