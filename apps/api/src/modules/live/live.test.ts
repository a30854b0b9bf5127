import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryRows } from '../../db/client';
import { activeMember, postBounty, postClaim, type Session } from '../../../test/factories';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';
import { giveHandle, listen, openStream } from '../../../test/live-support';

describe('GET /events', () => {
  let t: TestApp;
  let base: string;
  let member: Session;
  let hunter: Session;
  let hunterHandle: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { LIVE_HEARTBEAT_MS: '200' } });
    base = await listen(t.app);
    member = await activeMember(t.app, t.root.ctx.db, t.clock.now(), 1000);
    hunter = await signUp(t.app, { hunter: true });
    await giveHandle(t.app, member, 'm');
    hunterHandle = await giveHandle(t.app, hunter, 'h');
  });
  afterAll(() => t.close());

  const conversation = async () =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/conversations',
        headers: member.auth,
        payload: { handle: hunterHandle },
      })
    ).json().conversationId as number;
  const send = (s: Session, id: number, text: string) =>
    t.app.inject({
      method: 'POST',
      url: `/conversations/${id}/messages`,
      headers: s.auth,
      payload: { text },
    });

  /** A new member with 10 silver casts `votes` on the claim; the vote must count. */
  const voteAsNewMember = async (claimId: number, votes: number) => {
    const voter = await activeMember(t.app, t.root.ctx.db, t.clock.now(), 10);
    const res = await t.app.inject({
      method: 'POST',
      url: '/vote',
      headers: voter.auth,
      payload: { claimId, votes },
    });
    expect(res.statusCode).toBe(200);
  };

  it('is an event stream with a retry hint and heartbeats', async () => {
    const res = await fetch(`${base}/events`, {
      headers: { authorization: `Bearer ${member.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toMatch(/no-cache/);
    await res.body?.cancel();
    const s = await openStream(base, { token: member.token });
    await new Promise((r) => setTimeout(r, 500));
    expect(s.comments.filter((c) => c === 'ping').length).toBeGreaterThanOrEqual(1);
    s.close();
  });

  it('answers 401 to a bad token or ticket, and 400 to a bad watch list', async () => {
    expect(
      (await fetch(`${base}/events`, { headers: { authorization: 'Bearer nope' } })).status,
    ).toBe(401);
    expect((await fetch(`${base}/events?ticket=nope`)).status).toBe(401);
    expect((await fetch(`${base}/events?watch=1,x`)).status).toBe(400);
    const many = Array.from({ length: 21 }, (_, i) => i + 1).join(',');
    expect((await fetch(`${base}/events?watch=${many}`)).status).toBe(400);
  });

  it('delivers a message to both parties, then a read receipt to the sender', async () => {
    const id = await conversation();
    const hunterStream = await openStream(base, { token: hunter.token });
    const memberStream = await openStream(base, { token: member.token });
    const sent = (await send(member, id, 'Live hello')).json();
    const got = await hunterStream.next((e) => e.data.type === 'message');
    expect(got.data).toEqual({ type: 'message', conversationId: id, message: sent });
    await memberStream.next((e) => e.data.type === 'message');
    await t.app.inject({
      method: 'POST',
      url: `/conversations/${id}/read`,
      headers: hunter.auth,
      payload: { upTo: sent.messageId },
    });
    const receipt = await memberStream.next((e) => e.data.type === 'read');
    expect(receipt.data).toEqual({
      type: 'read',
      conversationId: id,
      userId: hunter.userId,
      upTo: sent.messageId,
    });
    hunterStream.close();
    memberStream.close();
  });

  it('resumes with Last-Event-ID: what was sent while away is replayed once, in order', async () => {
    const id = await conversation();
    const first = await openStream(base, { token: hunter.token });
    await send(member, id, 'one');
    const one = await first.next((e) => e.data.type === 'message');
    first.close();
    await send(member, id, 'two');
    await send(member, id, 'three');
    const again = await openStream(base, { token: hunter.token, lastEventId: one.id });
    await again.next((e) => e.data.message?.text === 'three');
    await send(member, id, 'four');
    await again.next((e) => e.data.message?.text === 'four');
    const texts = again.events
      .filter((e) => e.data.type === 'message')
      .map((e) => e.data.message.text);
    expect(texts).toEqual(['two', 'three', 'four']);
    const ids = again.events.map((e) => e.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    again.close();
  });

  it('a stream never sees another user’s events', async () => {
    const id = await conversation();
    const stranger = await signUp(t.app);
    const s = await openStream(base, { token: stranger.token });
    const mine = await openStream(base, { token: hunter.token });
    await send(member, id, 'private');
    await mine.next((e) => e.data.type === 'message');
    await new Promise((r) => setTimeout(r, 100));
    expect(s.events).toEqual([]);
    s.close();
    mine.close();
  });

  it('a ticket opens one stream once', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/events/ticket', headers: hunter.auth });
    expect(res.statusCode).toBe(200);
    const { ticket } = res.json();
    const s = await openStream(base, { ticket });
    expect(s.status).toBe(200);
    const id = await conversation();
    await send(member, id, 'via ticket');
    await s.next((e) => e.data.type === 'message');
    s.close();
    expect((await fetch(`${base}/events?ticket=${ticket}`)).status).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/events/ticket' })).statusCode).toBe(401);
  });

  it('watchers of a bounty (signed in or not) get new claims and coalesced tallies', async () => {
    const { bountyId } = await postBounty(t.app, member, { amount: 0 });
    const anon = await openStream(base, { watch: [bountyId] });
    const claimId = await postClaim(t.app, t.root.ctx.db, hunter, bountyId);
    const claim = await anon.next((e) => e.data.type === 'claim');
    expect(claim.data).toEqual({ type: 'claim', bountyId, roundId: 1, claimId });
    const voters = await Promise.all(
      Array.from({ length: 12 }, () => activeMember(t.app, t.root.ctx.db, t.clock.now(), 10)),
    );
    const from = anon.events.length;
    const started = Date.now();
    await Promise.all(
      voters.map((v) =>
        t.app.inject({
          method: 'POST',
          url: '/vote',
          headers: v.auth,
          payload: { claimId, votes: 1 },
        }),
      ),
    );
    const final = await anon.next(
      (e) =>
        e.data.type === 'tally' &&
        e.data.claims.some(
          (c: { claimId: number; votes: number }) => c.claimId === claimId && c.votes === 12,
        ),
      5000,
      from,
    );
    expect(final.data).toMatchObject({
      type: 'tally',
      bountyId,
      roundId: 1,
      claims: [{ claimId, votes: 12, rank: 1 }],
    });
    // Twelve votes, a few tallies: at most 4 a second (plus the first at once).
    const tallies = anon.events.slice(from).filter((e) => e.data.type === 'tally').length;
    const seconds = (Date.now() - started) / 1000;
    expect(tallies).toBeLessThanOrEqual(Math.ceil(seconds * 4) + 1);
    expect(tallies).toBeLessThan(12);
    // An anonymous stream gets nothing personal.
    expect(anon.events.every((e) => ['claim', 'tally'].includes(e.data.type))).toBe(true);
    anon.close();
  });

  it('votes on several bounties at once: each round gets its own tally, from one batch', async () => {
    const bounties = await Promise.all(
      [0, 1, 2].map(() => postBounty(t.app, member, { amount: 0 })),
    );
    const claims: number[][] = [];
    for (const { bountyId } of bounties)
      claims.push([
        await postClaim(t.app, t.root.ctx.db, hunter, bountyId),
        await postClaim(t.app, t.root.ctx.db, hunter, bountyId),
      ]);
    const watch = await openStream(base, { watch: bounties.map((b) => b.bountyId) });
    const voter = await activeMember(t.app, t.root.ctx.db, t.clock.now(), 30);
    // In each bounty the second claim gets more votes than the first: it ranks first.
    await Promise.all(
      claims.flatMap(([first, second], i) =>
        [
          [first!, 1 + i],
          [second!, 2 + i],
        ].map(([claimId, votes]) =>
          t.app.inject({
            method: 'POST',
            url: '/vote',
            headers: voter.auth,
            payload: { claimId, votes },
          }),
        ),
      ),
    );
    for (const [i, { bountyId }] of bounties.entries()) {
      const [first, second] = claims[i]!;
      const tally = await watch.next(
        (e) =>
          e.data.type === 'tally' &&
          e.data.bountyId === bountyId &&
          e.data.claims.length === 2 &&
          e.data.claims[0].votes === 2 + i &&
          e.data.claims[1].votes === 1 + i,
        5000,
      );
      expect(tally.data).toEqual({
        type: 'tally',
        bountyId,
        roundId: 1,
        claims: [
          { claimId: second, votes: 2 + i, rank: 1 },
          { claimId: first, votes: 1 + i, rank: 2 },
        ],
      });
    }
    watch.close();
  });

  it('a bounty hidden by moderators sends its watchers no tally', async () => {
    const { bountyId } = await postBounty(t.app, member, { amount: 0 });
    const claimId = await postClaim(t.app, t.root.ctx.db, hunter, bountyId);
    // The new claim's tally (made while the bounty was shown) has gone out before the hide.
    await t.root.services.bounties.talliesSettled();
    await t.root.services.bounties.setBountyHidden(bountyId, true);
    const anon = await openStream(base, { watch: [bountyId] });
    await voteAsNewMember(claimId, 2);
    await new Promise((r) => setTimeout(r, 600));
    expect(anon.events.filter((e) => e.data.type === 'tally')).toEqual([]);
    anon.close();
  });

  it('votes on a bounty nobody watches make no tally, yet show at once; its first watcher gets the tally (decision 0044)', async () => {
    const { bountyId } = await postBounty(t.app, member, { amount: 0 });
    const claimId = await postClaim(t.app, t.root.ctx.db, hunter, bountyId);
    const topic = `bounty:${bountyId}`;
    const live = t.root.services.live;
    // On a bus between instances every topic counts as watched until the others have answered.
    await vi.waitFor(() => expect(live.isWatched(topic)).toBe(false), { timeout: 10_000 });
    await t.root.services.bounties.talliesSettled();
    const lastId = async () =>
      Number(
        (
          await queryRows<{ id: number | string }>(
            t.root.ctx.db,
            sql`select coalesce(max(id), 0) as id from live_events`,
          )
        )[0]!.id,
      );
    const before = await lastId();
    await voteAsNewMember(claimId, 2);
    await voteAsNewMember(claimId, 2);
    await t.root.services.bounties.talliesSettled();
    const [stored] = await queryRows<{ n: number }>(
      t.root.ctx.db,
      sql`select count(*)::int as n from live_events where topic = ${topic} and id > ${before}`,
    );
    expect(stored!.n).toBe(0);
    const page = await t.app.inject({ method: 'GET', url: `/bounty/${bountyId}` });
    expect(page.json().rounds[0].claims).toMatchObject([{ claimId, votes: 4 }]);
    // A watcher resuming from before the votes replays nothing of them, and gets the tally.
    const watch = await openStream(base, { watch: [bountyId], lastEventId: before });
    const tally = await watch.next((e) => e.data.type === 'tally', 5000);
    expect(tally.data).toEqual({
      type: 'tally',
      bountyId,
      roundId: 1,
      claims: [{ claimId, votes: 4, rank: 1 }],
    });
    expect(live.isWatched(topic)).toBe(true);
    await voteAsNewMember(claimId, 1);
    const next = await watch.next(
      (e) => e.data.type === 'tally' && e.data.claims[0]?.votes === 5,
      5000,
    );
    expect(next.data).toMatchObject({ bountyId, claims: [{ claimId, votes: 5 }] });
    watch.close();
    // Gone, but still counted as watched a while: a reconnect misses nothing.
    await new Promise((r) => setTimeout(r, 50));
    expect(live.isWatched(topic)).toBe(true);
  });

  it('a server shutting down ends its streams (clients reconnect elsewhere)', async () => {
    const t2 = await createTestApp();
    const base2 = await listen(t2.app);
    const s = await openStream(base2, {});
    const closing = t2.close();
    await s.ended;
    await closing;
  });
});
