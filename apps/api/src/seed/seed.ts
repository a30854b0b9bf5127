/**
 * Demo data (CONTRACT.md SEED_DEMO; issue "First start shows a living product").
 *
 * Everything goes through the product's own HTTP API, injected into an app instance built
 * on the same database with a clock the seed moves through about twelve days of history:
 * members register and start memberships (sandbox card), hunters fill in their profiles and
 * upload pictures, banners, posts and claims through the media pipeline (so every
 * derivative exists), members post bounties and vote while rounds run, and the round job
 * closes rounds and decides bounties as time passes. Nothing is written behind the
 * features' backs, so the data obeys every rule they enforce.
 *
 * Idempotent: when the demo member exists, the seed does nothing.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { queryRows, type DatabaseHandle } from '../db/client';
import type { Config } from '../env';
import type { JobQueue } from '../jobs/types';
import { ManualClock } from '../lib/clock';
import {
  DEMO_ADMIN_EMAIL,
  DEMO_BOUNTIES,
  DEMO_HUNTERS,
  DEMO_MEMBER_EMAIL,
  DEMO_MEMBERS,
  DEMO_POST_TEXTS,
  type DemoBounty,
} from './demo-data';
import { rng } from './random';
import { ApiError, SeedClient, type Actor } from './seed-client';

const HOUR = 3_600_000;
/** Luhn-valid number the sandbox gateway accepts (CONTRACT.md "Money and tokens"). */
const SANDBOX_CARD = '4242 4242 4242 4242';

export interface SeedOptions {
  config: Config;
  database: DatabaseHandle;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** The server's durable queue: jobs the seed does not run itself are handed to it. */
  jobs: JobQueue;
  /** The end of the seeded history (default: now). */
  now?: Date;
}

export interface SeedResult {
  skipped: boolean;
  seconds: number;
  counts: Record<string, number>;
  notes: string[];
}

export { isBrandNew, shouldSeedAtStart } from './seed-at-start';

export async function alreadySeeded(database: DatabaseHandle): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    database.db,
    sql`select id from users where lower(email) = ${DEMO_MEMBER_EMAIL} limit 1`,
  );
  return rows.length > 0;
}

export async function seedDemo(opts: SeedOptions): Promise<SeedResult> {
  const started = performance.now();
  const notes: string[] = [];
  const counts: Record<string, number> = {};
  const bump = (k: string) => (counts[k] = (counts[k] ?? 0) + 1);
  if (await alreadySeeded(opts.database)) {
    opts.log.info('demo data already present; nothing to seed');
    return { skipped: true, seconds: 0, counts, notes };
  }
  const end = opts.now ?? new Date();
  const rand = rng(2023);
  const historyHours = Math.max(...DEMO_BOUNTIES.map((b) => b.postedHoursAgo)) + 24;
  const clock = new ManualClock(new Date(end.getTime() - historyHours * HOUR));
  const client = await SeedClient.start({
    config: opts.config,
    database: opts.database,
    log: opts.log,
    clock,
    serverJobs: opts.jobs,
    bump,
    notes,
  });
  const { call, signUp, createAdmin, uploadImage, uploadVideo, runJobs, closeRounds, has } = client;

  const canMedia = has('POST', '/media/image');
  const canBounties = has('POST', '/bounty') && has('POST', '/claim') && has('POST', '/vote');
  if (!canMedia) notes.push('POST /media/image is not available: no pictures, posts or claims');
  if (!canBounties) notes.push('POST /bounty, /claim or /vote is not available: no bounties');
  for (const n of notes) opts.log.warn(`demo seed: ${n}`);

  try {
    // ---- last year: the demo hunter's first prize, payout and Form 1099-NEC ----------
    // Hunters joined last December. A patron (a member who funds big prizes) posted a
    // "photo of the year" bounty with 7,000 silver (a launch promotion granted by the admin);
    // the demo hunter won it, was paid in the weekly run and got a 1099-NEC in January.
    const prologue = new Date(Date.UTC(end.getUTCFullYear() - 1, 11, 1, 10));
    const taxDay = new Date(Date.UTC(end.getUTCFullYear(), 0, 2, 6));
    const withHistory = taxDay.getTime() < clock.now().getTime();
    const historyStart = clock.now();
    if (withHistory) clock.set(prologue);
    const hunters: (Actor & { hunterId: number; appeal: number })[] = [];
    for (const h of DEMO_HUNTERS) {
      const a = await signUp(h.email, true);
      const me = await call<{ hunter: { hunterId: number } }>('GET', '/user', { token: a.token });
      if (has('PUT', '/user/handle'))
        await call('PUT', '/user/handle', { token: a.token, body: { handle: h.handle } });
      if (has('PUT', '/hunter/stagename'))
        await call('PUT', '/hunter/stagename', {
          token: a.token,
          body: { stagename: h.stagename },
        });
      if (has('PUT', '/hunter/bio'))
        await call('PUT', '/hunter/bio', { token: a.token, body: { bio: h.bio } });
      if (canMedia && has('PUT', '/hunter/picture')) {
        const picture = await uploadImage(a, 400, 400, h.stagename.split(' ')[0]);
        await call('PUT', '/hunter/picture', { token: a.token, body: { picture } });
      }
      if (canMedia && has('PUT', '/hunter/banner')) {
        const banner = await uploadImage(a, 1200, 400);
        await call('PUT', '/hunter/banner', { token: a.token, body: { banner } });
      }
      hunters.push({ ...a, hunterId: me.hunter.hunterId, appeal: h.appeal });
      bump('hunters');
    }

    const adminId = await createAdmin(DEMO_ADMIN_EMAIL);
    bump('admins');
    const asAdmin = client.asAdmin(adminId);

    // Payout details: every hunter but the three whose identity waits for review has a legal
    // name, a tax address, an SSN and a bank account, and an approved identity.
    const canPayouts =
      canMedia &&
      has('PUT', '/user/bank') &&
      has('PUT', '/user/identity') &&
      has('GET', '/user/earnings');
    if (canPayouts) {
      for (const [i, h] of hunters.entries()) {
        const demo = DEMO_HUNTERS[i]!;
        const [first, ...rest] = demo.stagename.split(' ');
        await call('PUT', '/user/name', {
          token: h.token,
          body: { firstName: first, lastName: rest.join(' ') || 'Hunter' },
        });
        await call('PUT', '/user/address', {
          token: h.token,
          body: {
            street: `${120 + i * 7} Harbor Lane`,
            city: 'Portland',
            state: 'OR',
            zip: '97201',
          },
        });
        await call('PUT', `/user/ssn/${String(500_000_000 + i * 1_234_567 + 1001).slice(0, 9)}`, {
          token: h.token,
        });
        await call('PUT', '/user/bank', {
          token: h.token,
          body: {
            name: 'Pacific Credit Union',
            accountType: i % 3 === 2 ? 'savings' : 'checking',
            routingNumber: '123000220',
            accountNumber: `${40_000_100 + i * 7_919}`,
          },
        });
        if (i >= 1 && i <= 3) continue; // their documents wait for review (below)
        const idFront = await uploadImage(h, 1000, 630, 'ID CARD', '/media/identity');
        const idSelfie = await uploadImage(h, 720, 960, 'SELFIE', '/media/identity');
        await call('PUT', '/user/identity', {
          token: h.token,
          body: { idFront, idSelfie, ageConfirmed: true },
        });
        await asAdmin.approveIdentityOf(h.userId);
        bump('approvedIdentities');
      }
    }

    if (withHistory && canPayouts && canBounties) {
      const patron = await signUp('patron@bountyhunt.demo', false);
      await call('PUT', '/user/membership/2', { token: patron.token });
      await call('POST', '/user/membership', {
        token: patron.token,
        body: {
          number: SANDBOX_CARD,
          cvv: '123',
          month: 12,
          year: end.getUTCFullYear() + 3,
          name: 'Patron',
          zip: '10001',
        },
      });
      await asAdmin.grantSilver(patron.userId, 7000, 'Launch partner prize fund');
      const prize = await call<{ bountyId: number }>('POST', '/bounty', {
        token: patron.token,
        body: {
          title: `Photo of the year ${prologue.getUTCFullYear()}`,
          seconds: 7 * 24 * 3600,
          amount: 7000,
          mediaType: 1,
        },
      });
      bump('bounties');
      clock.set(new Date(prologue.getTime() + 6 * HOUR));
      const media = await uploadImage(hunters[0]!, 960, 720, 'Photo of the year');
      await call('POST', '/claim', {
        token: hunters[0]!.token,
        body: { bountyId: prize.bountyId, roundId: 1, media, multiple: false },
      });
      bump('claims');
      // Decided after a week; paid in the weekly run after the seven-day hold.
      clock.set(new Date(prologue.getTime() + 7 * 24 * HOUR + HOUR));
      await closeRounds();
      const payouts = client.payouts();
      clock.set(new Date(Date.UTC(prologue.getUTCFullYear(), 11, 22, 9)));
      const first = await payouts.runScheduled();
      if (first) bump('payoutRuns');
      clock.set(taxDay);
      await payouts.generateLastYear();
      bump('taxYears');
    }
    if (withHistory) {
      // Sessions of last December have expired: the hunters sign in again.
      clock.set(historyStart);
      for (const h of hunters) h.token = await client.signIn(h.email);
    } else notes.push("too early in the year for last year's payout history");

    const members: (Actor & { keenness: number; silver: number })[] = [];
    for (const m of DEMO_MEMBERS) {
      const a = await signUp(m.email, false);
      if (has('PUT', '/user/handle'))
        await call('PUT', '/user/handle', { token: a.token, body: { handle: m.handle } });
      await call('PUT', '/user/membership/2', { token: a.token });
      const user = await call<{ silver: number }>('POST', '/user/membership', {
        token: a.token,
        body: {
          number: SANDBOX_CARD,
          cvv: '123',
          month: 12,
          year: end.getUTCFullYear() + 3,
          name: m.handle,
          zip: '10001',
        },
      });
      members.push({ ...a, keenness: m.keenness, silver: user.silver });
      bump('members');
    }

    // A launch promotion: the admin granted every early member 500 silver.
    for (const m of members) {
      await asAdmin.grantSilver(m.userId, 500, 'Launch bonus for early members');
      m.silver += 500;
    }

    // ---- the history, as timed events ------------------------------------------------
    type Event = { at: number; run: () => Promise<void> };
    const events: Event[] = [];
    const roundEnds: number[] = [];
    const now = end.getTime();

    if (canMedia && has('POST', '/post')) {
      for (const [i, h] of hunters.entries()) {
        for (let p = 0; p < 2; p++) {
          const at = now - (historyHours - 20) * HOUR * rand();
          const video = p === 1 && i % 5 === 2;
          events.push({
            at,
            run: async () => {
              const file =
                (video ? await uploadVideo(h) : null) ?? (await uploadImage(h, 720, 720));
              await call('POST', '/post', {
                token: h.token,
                body: { text: DEMO_POST_TEXTS[(i + p) % DEMO_POST_TEXTS.length], fileName: file },
              });
              bump('posts');
            },
          });
        }
      }
    }

    const claimsMade: { claimId: number; hunterIndex: number }[] = [];

    /** Hunters for a round, the likeable ones more often; never the demo hunter in active rounds. */
    function pickHunters(count: number, allowDemo: boolean) {
      const pool = hunters.filter((_, i) => allowDemo || i !== 0);
      const chosen: typeof hunters = [];
      while (chosen.length < Math.min(count, pool.length)) {
        const h = pool[Math.floor(rand() * pool.length)]!;
        if (!chosen.includes(h) && rand() < 0.3 + h.appeal * 0.7) chosen.push(h);
      }
      return chosen;
    }

    function planRound(
      b: DemoBounty,
      state: { bountyId?: number; round: number },
      number: number,
      start: number,
      hours: number,
      claims: number,
    ) {
      const finish = start + hours * HOUR;
      roundEnds.push(finish);
      // Claims carry media: without the media pipeline there are none.
      if (!canMedia) return;
      const open = Math.min(finish, now) - start;
      const video = b.mediaType === 2 || b.mediaType === 4;
      for (const [k, h] of pickHunters(claims, finish < now).entries()) {
        const at = start + open * (0.1 + (0.6 * (k + rand() * 0.5)) / Math.max(1, claims));
        const claim: { id?: number } = {};
        events.push({
          at,
          run: async () => {
            if (state.bountyId === undefined || state.round !== number) return;
            const media =
              (video && k % 2 === 0 ? await uploadVideo(h) : null) ??
              (await uploadImage(h, 960, 720, b.title));
            const c = await call<{ claimId: number }>('POST', '/claim', {
              token: h.token,
              body: { bountyId: state.bountyId, roundId: number, media, multiple: false },
            });
            claim.id = c.claimId;
            claimsMade.push({ claimId: c.claimId, hunterIndex: hunters.indexOf(h) });
            bump('claims');
          },
        });
        // Voters come while the round runs; likeable hunters please more of them, more.
        for (const m of members) {
          if (rand() > m.keenness * (0.35 + 0.65 * h.appeal)) continue;
          const voteAt = at + (Math.min(finish, now) - at) * (0.05 + 0.9 * rand());
          const value = Math.max(1, Math.min(5, Math.round(1 + h.appeal * 3 + (rand() - 0.5) * 2)));
          events.push({
            at: voteAt,
            run: async () => {
              if (claim.id === undefined || m.silver < value) return;
              try {
                const r = await call<{ silver?: number }>('POST', '/vote', {
                  token: m.token,
                  body: { claimId: claim.id, votes: value },
                });
                m.silver = typeof r?.silver === 'number' ? r.silver : m.silver - value;
                bump('votes');
              } catch (err) {
                // Out of silver or the round just closed: a real voter would shrug too.
                if (!(err instanceof ApiError) || ![402, 409].includes(err.status)) throw err;
              }
            },
          });
        }
      }
    }

    if (canBounties) {
      for (const [i, b] of DEMO_BOUNTIES.entries()) {
        const posted = now - b.postedHoursAgo * HOUR;
        const poster = members[i % 7 === 3 ? 0 : 1 + (i % (members.length - 1))]!;
        const state: { bountyId?: number; round: number } = { round: 1 };
        events.push({
          at: posted,
          run: async () => {
            if (poster.silver < (b.amount ?? 0)) return;
            const bounty = await call<{ bountyId: number }>('POST', '/bounty', {
              token: poster.token,
              body: {
                title: b.title,
                seconds: b.hours * 3600,
                amount: b.amount ?? 0,
                mediaType: b.mediaType ?? 1,
              },
            });
            poster.silver -= b.amount ?? 0;
            state.bountyId = bounty.bountyId;
            bump('bounties');
          },
        });
        planRound(b, state, 1, posted, b.hours, b.claims);
        if (b.furtherRound) {
          const fr = b.furtherRound;
          const start = posted + (b.hours + fr.afterHours) * HOUR;
          if (start < now) {
            events.push({
              at: start,
              run: async () => {
                if (state.bountyId === undefined) return;
                await call('POST', `/bounty/${state.bountyId}/round`, {
                  token: poster.token,
                  body: { seconds: fr.hours * 3600 },
                });
                state.round = 2;
                bump('furtherRounds');
              },
            });
            planRound(b, state, 2, start + 60_000, fr.hours, fr.claims);
          }
        }
      }
    }

    events.sort((a, b) => a.at - b.at);
    roundEnds.sort((a, b) => a - b);
    let nextEnd = 0;
    let settled = events[0]?.at ?? now;
    for (const e of events) {
      // The server settles votes into earnings every minute; the seed every two hours of its time.
      if (e.at - settled >= 2 * HOUR) {
        clock.set(new Date(e.at));
        await client.settleEarnings();
        settled = e.at;
      }
      clock.set(new Date(e.at));
      if (nextEnd < roundEnds.length && roundEnds[nextEnd]! <= e.at) {
        while (nextEnd < roundEnds.length && roundEnds[nextEnd]! <= e.at) nextEnd++;
        await closeRounds();
      }
      await e.run();
    }
    clock.set(end);
    await closeRounds();
    await client.settleEarnings();
    // What cleared the hold is available: the console's Payouts page has a run to make (the
    // winner of the early 600-silver prize is over the $20 minimum).
    if (has('GET', '/user/earnings')) await client.payouts().releaseDue();
    await runJobs();

    // ---- waiting for the operations console ------------------------------------------
    // Three hunters (not the README's demo hunter) sent an ID photo and a selfie: the
    // identity review queue has work, oldest first.
    if (canMedia && has('POST', '/media/identity') && has('PUT', '/user/identity')) {
      for (const [i, h] of hunters.slice(1, 4).entries()) {
        clock.set(new Date(end.getTime() - (3 - i) * HOUR));
        const idFront = await uploadImage(h, 1000, 630, 'ID CARD', '/media/identity');
        const idSelfie = await uploadImage(h, 720, 960, 'SELFIE', '/media/identity');
        await call('PUT', '/user/identity', {
          token: h.token,
          body: { idFront, idSelfie, ageConfirmed: true },
        });
        bump('identities');
      }
      clock.set(end);
    }

    // Members reported two claims (not the demo hunter's): the reports queue has work, one item
    // reported three times.
    if (has('POST', '/report')) {
      const reported = claimsMade.filter((c) => c.hunterIndex !== 0).slice(-2);
      const reasons = [
        { reason: 'spam', text: 'Same picture posted on every bounty.' },
        { reason: 'copyright', text: 'This photo is from a stock site.' },
        { reason: 'other' },
      ];
      for (const [i, c] of reported.entries()) {
        for (const [j, m] of members.slice(0, i === 0 ? 3 : 1).entries()) {
          await call('POST', '/report', {
            token: m.token,
            body: { targetType: 'claim', targetId: c.claimId, ...reasons[(i + j) % 3]! },
          });
          bump('reports');
        }
      }
    }

    // Direct messages (issue 19): two members wrote to the demo hunter, who answered one; each
    // member's last message is still unread (the hunter's Messages badge shows 2).
    if (has('POST', '/conversations') && hunters[0]) {
      const h0 = DEMO_HUNTERS[0]!.handle;
      const talk = async (
        from: Actor,
        to: Actor,
        lines: [boolean, string][],
        minutesAgo: number,
      ) => {
        const { conversationId } = await call<{ conversationId: number }>(
          'POST',
          '/conversations',
          {
            token: from.token,
            body: { handle: h0 },
          },
        );
        for (const [i, [mine, text]] of lines.entries()) {
          clock.set(new Date(end.getTime() - (minutesAgo - i * 3) * 60_000));
          const m = await call<{ messageId: number }>(
            'POST',
            `/conversations/${conversationId}/messages`,
            { token: (mine ? from : to).token, body: { text } },
          );
          // Whoever answers has read what came before.
          await call('POST', `/conversations/${conversationId}/read`, {
            token: (mine ? from : to).token,
            body: { upTo: m.messageId },
          });
          bump('messages');
        }
      };
      if (members[0])
        await talk(
          members[0],
          hunters[0],
          [
            [true, 'Loved your sunset claim! Do you take requests for a bounty?'],
            [false, 'Thank you! Sure, post it and I will have a look this week.'],
            [true, 'Great, posting it tonight.'],
          ],
          180,
        );
      if (members[1])
        await talk(
          members[1],
          hunters[0],
          [[true, 'Hi! Which camera do you shoot with? Your night photos are so clean.']],
          25,
        );
      clock.set(end);
    }

    // Sessions made for seeding end here; the README's accounts sign in with their password.
    for (const a of [...members, ...hunters])
      await call('DELETE', `/auth/${encodeURIComponent(a.token)}`, { token: a.token });
  } finally {
    await client.close();
  }
  const seconds = (performance.now() - started) / 1000;
  opts.log.info(
    { counts, seconds: Math.round(seconds * 10) / 10 },
    'demo data seeded (README: demo accounts)',
  );
  return { skipped: false, seconds, counts, notes };
}
