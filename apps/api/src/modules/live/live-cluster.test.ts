/**
 * Two API instances on one PostgreSQL database (issue 19): a message sent through one reaches a
 * stream held on the other, through PostgreSQL LISTEN/NOTIFY and, with TEST_REDIS_URL, through
 * Redis pub/sub. Runs with TEST_DATABASE_URL (PostgreSQL); PGlite is one process by nature.
 */
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { buildApp, createLogger } from '../../app';
import { createEventBusFor, createRoot } from '../../composition';
import { createEventBus, redisChannelFor } from './live.bus';
import { createDatabase, queryRows, type DatabaseHandle } from '../../db/client';
import { MemoryJobQueue } from '../../jobs/memory-queue';
import { activeMember, postBounty, postClaim, type Session } from '../../../test/factories';
import { createTestDatabase, signUp, testConfig, type TestDatabase } from '../../../test/helper';
import { giveHandle, listen, openStream } from '../../../test/live-support';
import type { FastifyInstance } from 'fastify';

const onPostgres = inject('dbMode') === 'postgres';
const redisUrl = process.env.TEST_REDIS_URL;

interface Instance {
  app: FastifyInstance;
  base: string;
  database: DatabaseHandle;
  root: ReturnType<typeof createRoot>;
  close(): Promise<void>;
}

async function instance(url: string, bus: 'postgres' | 'redis'): Promise<Instance> {
  const config = testConfig({
    DATABASE_URL: url,
    LIVE_BUS: bus,
    SESSION_CACHE_MS: '10000',
    USER_CACHE_MS: '10000',
    // Cached long enough that only the messages between instances can explain a fresh page.
    FEED_CACHE_MS: '60000',
    PAGE_CACHE_MS: '60000',
    ...(bus === 'redis' ? { REDIS_URL: redisUrl! } : {}),
  });
  const log = createLogger(config, new Writable({ write: (_c, _e, cb) => cb() }));
  const database = await createDatabase(url, { poolSize: 5 });
  const root = createRoot({
    config,
    database,
    log,
    jobs: new MemoryJobQueue(),
    bus: await createEventBusFor(config, database, log),
  });
  const app = await buildApp(root, log);
  const base = await listen(app);
  return {
    app,
    base,
    database,
    root,
    async close() {
      await app.close();
      await root.services.live.close();
      await root.storage.close();
      await database.close();
    },
  };
}

for (const bus of ['postgres', 'redis'] as const) {
  describe.runIf(onPostgres && (bus === 'postgres' || redisUrl))(
    `two API instances, one database, bus: ${bus}`,
    () => {
      let db: TestDatabase;
      let a: Instance;
      let b: Instance;
      let member: Session;
      let hunter: Session;
      let hunterHandle: string;

      beforeAll(async () => {
        db = await createTestDatabase();
        a = await instance(db.url, bus);
        b = await instance(db.url, bus);
        member = await activeMember(a.app, a.database.db, new Date(), 100);
        hunter = await signUp(a.app, { hunter: true });
        await giveHandle(a.app, member, 'm');
        hunterHandle = await giveHandle(a.app, hunter, 'h');
      });
      afterAll(async () => {
        await a?.close();
        await b?.close();
        await db?.drop();
      });

      /** What `read` gives on B once it passes `ok`, within two seconds (the bus carries it). */
      const soon = async <T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> => {
        const until = Date.now() + 2000;
        let v = await read();
        while (!ok(v) && Date.now() < until) {
          await new Promise((r) => setTimeout(r, 10));
          v = await read();
        }
        return v;
      };

      /** `voter` (by default a new member) votes on A; the vote must count. */
      const voteOnA = async (claimId: number, votes: number, voter?: Session) => {
        voter ??= await activeMember(a.app, a.database.db, new Date(), 10);
        const res = await a.app.inject({
          method: 'POST',
          url: '/vote',
          headers: voter.auth,
          payload: { claimId, votes },
        });
        expect(res.statusCode).toBe(200);
      };

      it('a message sent through A reaches a stream held on B, and the reply comes back', async () => {
        const onB = await openStream(b.base, { token: hunter.token });
        const onA = await openStream(a.base, { token: member.token });
        const id = (
          await a.app.inject({
            method: 'POST',
            url: '/conversations',
            headers: member.auth,
            payload: { handle: hunterHandle },
          })
        ).json().conversationId as number;
        const sent = await a.app.inject({
          method: 'POST',
          url: `/conversations/${id}/messages`,
          headers: member.auth,
          payload: { text: 'across instances' },
        });
        expect(sent.statusCode).toBe(200);
        const got = await onB.next((e) => e.data.type === 'message');
        expect(got.data).toMatchObject({ message: { text: 'across instances' } });
        await b.app.inject({
          method: 'POST',
          url: `/conversations/${id}/messages`,
          headers: hunter.auth,
          payload: { text: 'and back' },
        });
        await onA.next((e) => e.data.message?.text === 'and back');
        onA.close();
        onB.close();
      });

      it('a sign-out or password change on A ends the sessions B has cached', async () => {
        const me = (i: Instance, auth: { authorization: string }) =>
          i.app.inject({ method: 'GET', url: '/user', headers: auth }).then((r) => r.statusCode);
        /** B forgets within a moment (the bus carries it); never a second 200 after that. */
        const goneOn = async (i: Instance, auth: { authorization: string }) => {
          const until = Date.now() + 2000;
          while ((await me(i, auth)) === 200 && Date.now() < until)
            await new Promise((r) => setTimeout(r, 10));
          return me(i, auth);
        };
        const u = await signUp(a.app);
        expect(await me(b, u.auth)).toBe(200);
        const token = u.auth.authorization.slice('Bearer '.length);
        await a.app.inject({ method: 'DELETE', url: `/auth/${token}` });
        expect(await goneOn(b, u.auth)).toBe(401);

        const v = await signUp(a.app);
        const login = await b.app.inject({
          method: 'POST',
          url: '/auth',
          payload: { email: v.email, password: v.password },
        });
        const other = { authorization: `Bearer ${login.json().token as string}` };
        expect(await me(b, other)).toBe(200);
        const changed = await a.app.inject({
          method: 'PUT',
          url: '/user/password',
          headers: v.auth,
          payload: { oldPassword: v.password, newPassword: 'Another-pass2!' },
        });
        expect(changed.statusCode).toBe(204);
        expect(await goneOn(b, other)).toBe(401);
        expect(await me(b, v.auth)).toBe(200);
      });

      it("a vote or a new stage name on A shows on B's cached GET /user within a moment", async () => {
        type Me = { user: { silver: number }; hunter: { stagename: string } };
        const me = (auth: { authorization: string }) => () =>
          b.app.inject({ method: 'GET', url: '/user', headers: auth }).then((r) => r.json() as Me);
        const voter = await activeMember(a.app, a.database.db, new Date(), 10);
        const { bountyId } = await postBounty(a.app, member, { amount: 0 });
        const claimId = await postClaim(a.app, a.database.db, hunter, bountyId);
        expect((await me(voter.auth)()).user.silver).toBe(10);
        // B keeps what it read: a change nobody announces is not seen there.
        await a.database.db.execute(sql`update users set silver = 9 where id = ${voter.userId}`);
        expect((await me(voter.auth)()).user.silver).toBe(10);
        await a.database.db.execute(sql`update users set silver = 10 where id = ${voter.userId}`);
        await voteOnA(claimId, 3, voter);
        expect((await soon(me(voter.auth), (v) => v.user.silver === 7)).user.silver).toBe(7);

        await me(hunter.auth)();
        const named = await a.app.inject({
          method: 'PUT',
          url: '/hunter/stagename',
          headers: hunter.auth,
          payload: { stagename: `Cached ${bus}` },
        });
        expect(named.statusCode).toBe(200);
        const renamed = await soon(me(hunter.auth), (v) => v.hunter.stagename === `Cached ${bus}`);
        expect(renamed.hunter.stagename).toBe(`Cached ${bus}`);
      });

      it('feed, bounty and claim pages B has cached show a bounty, a claim and votes made on A', async () => {
        const feed = () =>
          b.app
            .inject({ method: 'POST', url: '/bounty/search', payload: {} })
            .then((r) => (r.json() as { bountyId: number }[]).map((x) => x.bountyId));
        const page = (id: number) =>
          b.app
            .inject({ method: 'GET', url: `/bounty/${id}`, headers: member.auth })
            .then(
              (r) => r.json() as { rounds: { claims: { claimId: number; votes: number }[] }[] },
            );
        await feed();
        const { bountyId } = await postBounty(a.app, member, { amount: 0 });
        expect(await soon(feed, (ids) => ids.includes(bountyId))).toContain(bountyId);

        expect((await page(bountyId)).rounds[0]!.claims).toEqual([]);
        const claimId = await postClaim(a.app, a.database.db, hunter, bountyId);
        const withClaim = await soon(
          () => page(bountyId),
          (p) => p.rounds[0]!.claims.length === 1,
        );
        expect(withClaim.rounds[0]!.claims).toMatchObject([{ claimId, votes: 0 }]);

        await voteOnA(claimId, 2);
        const voted = await soon(
          () => page(bountyId),
          (p) => p.rounds[0]!.claims[0]?.votes === 2,
        );
        expect(voted.rounds[0]!.claims).toMatchObject([{ claimId, votes: 2 }]);
        const claimOnB = () =>
          b.app
            .inject({ method: 'GET', url: `/claim/${claimId}` })
            .then((r) => r.json() as { votes: number });
        expect(await claimOnB()).toMatchObject({ votes: 2 });
        await voteOnA(claimId, 3);
        expect(await soon(claimOnB, (c) => c.votes === 5)).toMatchObject({ votes: 5 });
      });

      it("a round closed on A shows in B's kept searches, bounty page and claim page (decision 0030)", async () => {
        const { bountyId } = await postBounty(a.app, member, { title: 'Ptarmigan tundra dusk' });
        const claimId = await postClaim(a.app, a.database.db, hunter, bountyId);
        const searchOnB = () =>
          b.app
            .inject({ method: 'POST', url: '/bounty/search', payload: { term: 'ptarmigan' } })
            .then((r) => (r.json() as { bountyId: number; status: string }[])[0]);
        const pageOnB = () =>
          b.app
            .inject({ method: 'GET', url: `/bounty/${bountyId}` })
            .then((r) => r.json() as { status: string; winnerClaimId: number | null });
        const claimOnB = () =>
          b.app
            .inject({ method: 'GET', url: `/claim/${claimId}` })
            .then((r) => r.json() as { round: { endDate: string } });
        expect(await soon(searchOnB, (x) => x?.bountyId === bountyId)).toMatchObject({
          status: 'open',
        });
        expect((await pageOnB()).status).toBe('open');
        const endBefore = (await claimOnB()).round.endDate;
        await a.database.db.execute(
          sql`update rounds set end_date = now() - interval '1 minute' where bounty_id = ${bountyId}`,
        );
        expect(await a.root.services.bounties.closeDueRounds()).toMatchObject({ decided: 1 });
        expect(await soon(searchOnB, (x) => x?.status === 'decided')).toMatchObject({
          bountyId,
          status: 'decided',
        });
        expect(await soon(pageOnB, (p) => p.status === 'decided')).toMatchObject({
          winnerClaimId: claimId,
        });
        expect((await soon(claimOnB, (c) => c.round.endDate !== endBefore)).round.endDate).not.toBe(
          endBefore,
        );
      });

      it('a stream resumed on the other instance replays what it missed', async () => {
        const onA = await openStream(a.base, { token: hunter.token });
        const id = (
          await a.app.inject({
            method: 'POST',
            url: '/conversations',
            headers: member.auth,
            payload: { handle: hunterHandle },
          })
        ).json().conversationId as number;
        const send = (text: string) =>
          a.app.inject({
            method: 'POST',
            url: `/conversations/${id}/messages`,
            headers: member.auth,
            payload: { text },
          });
        await send('first');
        const first = await onA.next((e) => e.data.type === 'message');
        onA.close();
        await send('while away');
        const onB = await openStream(b.base, { token: hunter.token, lastEventId: first.id });
        const missed = await onB.next((e) => e.data.type === 'message');
        expect(missed.data).toMatchObject({ message: { text: 'while away' } });
        onB.close();
      });

      it('a vote on A moves the tally on a stream watching the bounty on B', async () => {
        const { bountyId } = await postBounty(a.app, member, { amount: 0 });
        const watch = await openStream(b.base, { watch: [bountyId] });
        const claimId = await postClaim(a.app, a.database.db, hunter, bountyId);
        await watch.next((e) => e.data.type === 'claim');
        await voteOnA(claimId, 3);
        const tally = await watch.next(
          (e) => e.data.type === 'tally' && e.data.claims[0]?.votes === 3,
        );
        expect(tally.data).toMatchObject({ bountyId, claims: [{ claimId, votes: 3, rank: 1 }] });
        watch.close();
      });

      it('votes on A on a bounty nobody watches: no tally, yet B drops its page; a watcher on B gets the tally (decision 0044)', async () => {
        const { bountyId } = await postBounty(a.app, member, { amount: 0 });
        const claimId = await postClaim(a.app, a.database.db, hunter, bountyId);
        const topic = `bounty:${bountyId}`;
        const watchedOn = (i: Instance) => i.root.services.live.isWatched(topic);
        await vi.waitFor(() => expect(watchedOn(a) || watchedOn(b)).toBe(false), {
          timeout: 10_000,
        });
        await a.root.services.bounties.talliesSettled();
        const pageOnB = () =>
          b.app
            .inject({ method: 'GET', url: `/bounty/${bountyId}` })
            .then((r) => r.json() as { rounds: { claims: { votes: number }[] }[] });
        expect((await pageOnB()).rounds[0]!.claims).toMatchObject([{ votes: 0 }]);
        const [last] = await queryRows<{ id: number | string }>(
          a.database.db,
          sql`select coalesce(max(id), 0) as id from live_events`,
        );
        const before = Number(last!.id);
        await voteOnA(claimId, 4);
        await a.root.services.bounties.talliesSettled();
        expect(
          (await soon(pageOnB, (p) => p.rounds[0]!.claims[0]?.votes === 4)).rounds[0]!.claims,
        ).toMatchObject([{ votes: 4 }]);
        const [stored] = await queryRows<{ n: number }>(
          a.database.db,
          sql`select count(*)::int as n from live_events where topic = ${topic} and id > ${before}`,
        );
        expect(stored!.n).toBe(0);

        const watch = await openStream(b.base, { watch: [bountyId], lastEventId: before });
        const first = await watch.next((e) => e.data.type === 'tally');
        expect(first.data).toMatchObject({ bountyId, claims: [{ claimId, votes: 4, rank: 1 }] });
        // A hears of the watcher on B, and tallies its votes again.
        await vi.waitFor(() => expect(watchedOn(a)).toBe(true), { timeout: 2000 });
        await voteOnA(claimId, 1);
        const next = await watch.next(
          (e) => e.data.type === 'tally' && e.data.claims[0]?.votes === 5,
        );
        expect(next.data).toMatchObject({ bountyId, claims: [{ claimId, votes: 5 }] });
        watch.close();
      });

      it("an instance started later asks what the others watch, and hears B's watcher (decision 0044)", async () => {
        const { bountyId } = await postBounty(a.app, member, { amount: 0 });
        const watch = await openStream(b.base, { watch: [bountyId] });
        const c = await instance(db.url, bus);
        try {
          const live = c.root.services.live;
          // Past its first moments (every topic counted as watched), only B's answer explains it.
          await new Promise((r) => setTimeout(r, 3500));
          expect(live.isWatched(`bounty:${bountyId}`)).toBe(true);
          expect(live.isWatched(`bounty:${bountyId + 100_000}`)).toBe(false);
        } finally {
          watch.close();
          await c.close();
        }
      });

      it('a control message too big for the bus reaches B as lost: B trusts nothing it kept', async () => {
        const { bountyId } = await postBounty(a.app, member, { amount: 0 });
        const claimId = await postClaim(a.app, a.database.db, hunter, bountyId);
        const votesOnB = () =>
          b.app
            .inject({ method: 'GET', url: `/claim/${claimId}` })
            .then((r) => (r.json() as { votes: number }).votes);
        expect(await soon(votesOnB, (v) => v === 0)).toBe(0);
        // Behind every cache's back: only a message can make B read it again.
        await a.database.db.execute(sql`update claims set votes = 7 where id = ${claimId}`);
        expect(await votesOnB()).toBe(0);
        // 10,000 bounty ids: more than a NOTIFY (8,000 bytes) or this Redis bus (64,000) carries.
        const many = Array.from({ length: 10_000 }, (_, i) => 1_000_000 + i);
        await a.root.services.live.control('pages', { bounties: many });
        expect(await soon(votesOnB, (v) => v === 7)).toBe(7);
      });
    },
  );
}

describe.runIf(redisUrl)('two deployments sharing one Redis', () => {
  it('never wake each other: the channel names the database, not its password', async () => {
    const log = createLogger(testConfig(), new Writable({ write: (_c, _e, cb) => cb() }));
    const load = async () => [];
    const bus = (databaseUrl: string) =>
      createEventBus({ choice: 'redis', redisUrl, databaseUrl, load }, log);
    const one = await bus('postgres://app:first@db.internal:5432/shop');
    const sameDb = await bus('postgres://app:rotated@db.internal:5432/shop');
    const other = await bus('postgres://app:first@db.internal:5432/shop_staging');
    try {
      const heard = { sameDb: 0, other: 0 };
      sameDb.listen((events) => (heard.sameDb += events.length));
      other.listen((events) => (heard.other += events.length));
      const event = { id: 1, userId: 7, topic: null, type: 'message', data: {} };
      await one.publish([event as never]);
      const until = Date.now() + 5_000;
      while (heard.sameDb === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300));
      expect(heard).toEqual({ sameDb: 1, other: 0 });
      expect(redisChannelFor('postgres://a:b@h:5432/x')).toBe(
        redisChannelFor('postgres://c:d@h:5432/x'),
      );
    } finally {
      await Promise.all([one.close(), sameDb.close(), other.close()]);
    }
  });
});
