/**
 * Background jobs: names in one place, typed payloads, handlers as plain functions.
 * The durable queue (pg-boss) runs them; tests may run them by hand.
 */
import type { ServiceContext } from '../context';

export interface SendOptions {
  /** Run no earlier than this. */
  startAfter?: Date;
  /** At most one queued job with this key. */
  singletonKey?: string;
}

export interface JobQueue {
  send<P extends object>(name: string, payload: P, opts?: SendOptions): Promise<void>;
}

/** Which attempt this is (1-based) and whether the queue will try again after a failure. */
export interface JobRunInfo {
  attempt: number;
  lastAttempt: boolean;
}

export interface JobDefinition<P extends object = object> {
  name: string;
  handler(ctx: ServiceContext, payload: P, info?: JobRunInfo): Promise<void>;
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
}

/** Records what was sent; tests run the jobs with drain(). Not used in production. */
export class RecordingJobQueue implements JobQueue {
  readonly sent: { name: string; payload: object; opts?: SendOptions }[] = [];
  async send<P extends object>(name: string, payload: P, opts?: SendOptions): Promise<void> {
    this.sent.push({ name, payload, opts });
  }

  /** Runs every recorded job (and any they send) with its handler; returns how many ran. */
  async drain(ctx: ServiceContext, definitions: JobDefinition[]): Promise<number> {
    let ran = 0;
    while (this.sent.length > 0) {
      const job = this.sent.shift()!;
      const def = definitions.find((d) => d.name === job.name);
      if (!def) throw new Error(`no handler for job ${job.name}`);
      await def.handler(ctx, job.payload, { attempt: 1, lastAttempt: true });
      ran += 1;
    }
    return ran;
  }
}
