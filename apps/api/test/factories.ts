/**
 * Test factories: rows and calls the tests of several features start from (members with a
 * membership and silver, media rows, bounties, claims), made through the API where it can.
 */
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/db/client';
import { hunterBalances } from '../src/modules/payouts/payouts.repository';
import { media, users } from '../src/db/schema';
import { signUp } from './helper';

export type Session = Awaited<ReturnType<typeof signUp>>;

/** A member whose membership is valid for a month, holding `silver`. */
export async function activeMember(
  app: FastifyInstance,
  db: Db,
  now: Date,
  silver = 100,
): Promise<Session> {
  const s = await signUp(app);
  await db
    .update(users)
    .set({ active: new Date(now.getTime() + 30 * 86400_000), membership: 2, silver })
    .where(eq(users.id, s.userId));
  return s;
}

export async function postBounty(
  app: FastifyInstance,
  s: Session,
  body: Record<string, unknown> = {},
): Promise<{ bountyId: number; roundCount: number }> {
  const res = await app.inject({
    method: 'POST',
    url: '/bounty',
    headers: s.auth,
    payload: { title: 'Best sunset photo', seconds: 24 * 3600, ...body },
  });
  if (res.statusCode !== 200) throw new Error(`post bounty: ${res.statusCode} ${res.body}`);
  return res.json();
}

export async function postClaim(
  app: FastifyInstance,
  db: Db,
  hunter: Session,
  bountyId: number,
  roundId = 1,
  kind: 'image' | 'video' = 'image',
): Promise<number> {
  const key = await insertMediaRow(db, hunter.userId, { kind });
  const res = await app.inject({
    method: 'POST',
    url: '/claim',
    headers: hunter.auth,
    payload: { bountyId, roundId, media: key, multiple: true },
  });
  if (res.statusCode !== 200) throw new Error(`post claim: ${res.statusCode} ${res.body}`);
  return res.json().claimId;
}

/** `voter` votes `votes` stars on the claim; the vote must count. Its answer. */
export async function voteOn(
  app: FastifyInstance,
  voter: Session,
  claimId: number,
  votes: number,
): Promise<{ claimId: number; vote: number; votes: number; silver: number }> {
  const res = await app.inject({
    method: 'POST',
    url: '/vote',
    headers: voter.auth,
    payload: { claimId, votes },
  });
  if (res.statusCode !== 200) throw new Error(`vote: ${res.statusCode} ${res.body}`);
  return res.json();
}

export async function silverOf(db: Db, userId: number): Promise<{ silver: number; votes: number }> {
  const [row] = await db
    .select({ silver: users.silver, votes: users.votes })
    .from(users)
    .where(eq(users.id, userId));
  return row!;
}

/** Micro-dollars a Deluxe member's silver earns its hunter at the default 0.80 share. */
export const DELUXE_HUNTER_MICROS_PER_SILVER = 91_960;

/** A hunter's ledger balances in micro-dollars (positive: owed to the hunter). */
export const earningsOf = (db: Db, userId: number) => hunterBalances(db, userId);

/** A card the sandbox gateway accepts, as the membership form sends it. */
export const TEST_CARD = {
  number: '4242 4242 4242 4242',
  cvv: '987',
  month: '12',
  year: '30',
  name: 'Ada Lovelace',
  zip: '10001',
};

/** A media row as the upload endpoint leaves it (no files): for tests of what refers to media. */
export async function insertMediaRow(
  db: Db,
  ownerId: number,
  opts: { visibility?: 'public' | 'private'; kind?: 'image' | 'video'; status?: string } = {},
): Promise<string> {
  const kind = opts.kind ?? 'image';
  const key = `${kind === 'image' ? 'i-' : 'v-'}${crypto.randomBytes(8).toString('hex')}-500x500`;
  await db.insert(media).values({
    key,
    ownerId,
    kind,
    visibility: opts.visibility ?? 'public',
    status: opts.status ?? 'ready',
    mime: kind === 'image' ? 'image/jpeg' : 'video/mp4',
    bytes: 1234,
    width: 500,
    height: 500,
  });
  return key;
}
