/** What every service gets: the database, the clock, the config and a logger. */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db/client';
import type { Config } from './env';
import type { JobQueue } from './jobs/types';
import type { Clock } from './lib/clock';
import type { Mailer } from './mail/mailer';

export interface ServiceContext {
  db: Db;
  /**
   * The same database for a request's follow-up statements: they wait for a connection ahead
   * of statements already waiting (decision 0039). Statements and transactions alike.
   */
  dbAhead: Db;
  dbKind: 'pglite' | 'postgres';
  clock: Clock;
  config: Config;
  log: FastifyBaseLogger;
  mailer: Mailer;
  jobs: JobQueue;
}

/** Who is asking: resolved from the bearer token by plugins/auth. */
export interface Actor {
  userId: number;
  role: number;
  sessionId: number;
  /** The session passed the admin second factor (TOTP); false or absent otherwise. */
  secondFactor?: boolean;
}
