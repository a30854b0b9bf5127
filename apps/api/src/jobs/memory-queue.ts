/**
 * A job queue held in memory, run by hand: `runPending()` runs every queued job (and any they
 * queue) with its definition, in order. The demo seed uses it to make video previews before the
 * server starts; tests use it to run jobs at the moment they choose. Nothing survives the
 * process: the server's queue is the durable PgBossJobQueue.
 */
import type { FailedJob, JobDefinition, JobQueue, JobStats, SendOptions } from './types';

export interface QueuedJob {
  name: string;
  payload: object;
  opts?: SendOptions;
}

export class MemoryJobQueue implements JobQueue {
  readonly sent: QueuedJob[] = [];
  private completed = 0;
  private readonly failures: FailedJob[] = [];

  /** Queued jobs are `created`; jobs run by `runPending` are `completed` or `failed`. */
  async stats(): Promise<JobStats> {
    const byState: Record<string, number> = {};
    if (this.sent.length) byState.created = this.sent.length;
    if (this.completed) byState.completed = this.completed;
    if (this.failures.length) byState.failed = this.failures.length;
    return { byState, failed: this.failures.slice(-10).reverse() };
  }

  async send<P extends object>(name: string, payload: P, opts?: SendOptions): Promise<void> {
    this.sent.push({ name, payload, opts });
  }

  /**
   * Runs the queued jobs that `pick` accepts (default: all) with their definitions, including
   * jobs they queue; leaves the others queued. Returns how many ran.
   */
  async runPending(
    definitions: readonly JobDefinition[],
    pick: (job: QueuedJob) => boolean = () => true,
  ): Promise<number> {
    let ran = 0;
    for (;;) {
      const index = this.sent.findIndex(pick);
      if (index < 0) return ran;
      const [job] = this.sent.splice(index, 1);
      const def = definitions.find((d) => d.name === job!.name);
      if (!def) throw new Error(`no handler for job ${job!.name}`);
      try {
        await def.handler(job!.payload, { attempt: 1, lastAttempt: true });
        this.completed += 1;
      } catch (err) {
        this.failures.push({
          id: String(this.completed + this.failures.length + 1),
          name: job!.name,
          failedAt: new Date().toISOString(),
          error: (err as Error).message,
        });
        throw err;
      }
      ran += 1;
    }
  }
}
