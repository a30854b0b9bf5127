/**
 * Votes that arrive while another statement of votes is running go together in the next one
 * (docs/decisions/0023-votes-in-batches.md): one statement and one commit for up to MAX_BATCH
 * votes instead of one each. A vote that finds nothing running goes alone, through the
 * one-vote statement, so a quiet API answers as fast as before.
 *
 * Up to MAX_RUNNING statements at a time per instance, on voters and claims no other running
 * statement of this instance has, and a voter at most once in a statement (their next vote
 * waits for the next one, and so do their later votes, in order): no two votes of one voter race
 * each other here, and no two statements of this instance write the same row (a claim's total, a
 * voter's silver), so they never wait on each other's locks. When a batch fails as a whole (its
 * voter voted at the same moment through another instance, a deadlock with another instance's
 * batch), its votes run again one by one, each with the answer it would have had alone.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { DbOrTx } from '../../db/client';
import { castVote, castVotes, type CastVote, type VoteToCast } from './votes.repository';

/** Votes in one statement at most. */
export const MAX_BATCH = 50;

/**
 * Statements of votes running at once at most (decision 0039): with one, PostgreSQL ran the
 * votes on one backend and waited between statements for the API to answer the last one and
 * send the next.
 */
export const MAX_RUNNING = 2;

interface Waiting {
  vote: VoteToCast;
  resolve(answer: CastVote | undefined): void;
  reject(err: unknown): void;
}

export class VoteBatcher {
  private waiting: Waiting[] = [];
  /** Statements running, and the voters and claims they have. */
  private running = 0;
  private readonly busyVoters = new Set<number>();
  private readonly busyClaims = new Set<number>();
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
    while (this.running < MAX_RUNNING && this.waiting.length > 0) {
      const batch: Waiting[] = [];
      const later: Waiting[] = [];
      const voters = new Set<number>();
      const claims = new Set<number>();
      // Voters with a vote left waiting: their later votes wait too, so a voter's votes keep
      // their order.
      const held = new Set<number>();
      for (const w of this.waiting) {
        const { userId, claimId } = w.vote;
        if (
          batch.length < MAX_BATCH &&
          !voters.has(userId) &&
          !held.has(userId) &&
          !this.busyVoters.has(userId) &&
          !this.busyClaims.has(claimId)
        ) {
          batch.push(w);
          voters.add(userId);
          claims.add(claimId);
        } else {
          later.push(w);
          held.add(userId);
        }
      }
      // Every waiting vote is on a voter or a claim a running statement has.
      if (batch.length === 0) return;
      this.waiting = later;
      this.running += 1;
      for (const v of voters) this.busyVoters.add(v);
      for (const c of claims) this.busyClaims.add(c);
      void this.run(batch).finally(() => {
        this.running -= 1;
        for (const v of voters) this.busyVoters.delete(v);
        for (const c of claims) this.busyClaims.delete(c);
        this.next();
      });
    }
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
