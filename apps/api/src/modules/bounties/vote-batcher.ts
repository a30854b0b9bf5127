/**
 * Votes that arrive while another statement of votes is running go together in the next one
 * (docs/decisions/0023-votes-in-batches.md): one statement and one commit for up to MAX_BATCH
 * votes instead of one each. A vote that finds nothing running goes alone, through the
 * one-vote statement, so a quiet API answers as fast as before.
 *
 * One statement at a time per instance, and a voter at most once in it (their next vote waits
 * for the next one): no two votes of one voter race each other here, and no two batches of this
 * instance wait on each other's rows. When a batch fails as a whole (its voter voted at the same
 * moment through another instance, a deadlock with another instance's batch), its votes run
 * again one by one, each with the answer it would have had alone.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { DbOrTx } from '../../db/client';
import { castVote, castVotes, type CastVote, type VoteToCast } from './votes.repository';

/** Votes in one statement at most. */
export const MAX_BATCH = 50;

interface Waiting {
  vote: VoteToCast;
  resolve(answer: CastVote | undefined): void;
  reject(err: unknown): void;
}

export class VoteBatcher {
  private waiting: Waiting[] = [];
  private running = false;
  /** Statements of more than one vote that counted, and batches that ran again one by one. */
  readonly stats = { batches: 0, batchedVotes: 0, fallbacks: 0 };

  constructor(
    private readonly db: DbOrTx,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
    /** The statements (tests put their own in, to fail a batch). */
    private readonly statements = { one: castVote, many: castVotes },
  ) {}

  /** The vote's answer, or undefined when one of its rules failed (the caller asks which). */
  cast(vote: VoteToCast): Promise<CastVote | undefined> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ vote, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.running || this.waiting.length === 0) return;
    const batch: Waiting[] = [];
    const later: Waiting[] = [];
    const voters = new Set<number>();
    for (const w of this.waiting) {
      if (batch.length < MAX_BATCH && !voters.has(w.vote.userId)) {
        batch.push(w);
        voters.add(w.vote.userId);
      } else later.push(w);
    }
    this.waiting = later;
    this.running = true;
    void this.run(batch).finally(() => {
      this.running = false;
      this.next();
    });
  }

  private async run(batch: Waiting[]): Promise<void> {
    if (batch.length > 1) {
      let answers: (CastVote | undefined)[] | undefined;
      try {
        answers = await this.statements.many(
          this.db,
          batch.map((w) => w.vote),
        );
      } catch (err) {
        // One by one below: each vote gets the answer (or the error) it would have had alone.
        this.stats.fallbacks += 1;
        this.log.warn(
          { err: { message: (err as Error).message, code: (err as { code?: string }).code } },
          'votes: a batch failed, casting its votes one by one',
        );
      }
      if (answers) {
        this.stats.batches += 1;
        this.stats.batchedVotes += batch.length;
        batch.forEach((w, i) => w.resolve(answers[i]));
        return;
      }
    }
    for (const w of batch) {
      try {
        w.resolve(await this.statements.one(this.db, w.vote));
      } catch (err) {
        w.reject(err);
      }
    }
  }
}
