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

export interface JobDefinition<P extends object = object> {
  name: string;
  handler(ctx: ServiceContext, payload: P): Promise<void>;
  /** Cron expression (UTC) for scheduled jobs. */
  schedule?: string;
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
}

/** Records what was sent; tests run the jobs with drain(). Not used in production. */
export class RecordingJobQueue implements JobQueue {
  readonly sent: { name: string; payload: object; opts?: SendOptions }[] = [];
  async send<P extends object>(name: string, payload: P, opts?: SendOptions): Promise<void> {
    this.sent.push({ name, payload, opts });
  }
}
