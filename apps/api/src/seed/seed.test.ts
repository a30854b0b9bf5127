/** The demo seed fills a fresh database through the API, once, and the product answers with it. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper';
import { queryRows } from '../db/client';
import { loadConfig } from '../env';
import { ROLE } from '@bountyhunt/shared/roles';
import { DEMO_ADMIN_EMAIL, DEMO_HUNTER_EMAIL, DEMO_MEMBER_EMAIL, DEMO_PASSWORD } from './demo-data';
import { readNacha } from '../../test/nacha-reader';
import { ledgerRecount } from '../modules/payouts/ledger.service';
import { seedDemo, shouldSeedAtStart, type SeedResult } from './seed';

interface FeedBounty {
  bountyId: number;
  title: string;
  status: string;
  roundCount: number;
  rounds: {
    roundId: number;
    endDate: string | null;
    claims: { claimId: number; votes: number; media: string }[];
  }[];
}

describe('demo seed', () => {
  let t: TestApp;
  let result: SeedResult;
  const silent = { info: () => undefined, warn: () => undefined };

  beforeAll(async () => {
    t = await createTestApp();
    result = await seedDemo({ config: t.config, database: t.db.handle, log: silent, jobs: t.jobs });
    // With the media pipeline on main the seed really transcodes its videos: minutes when busy.
  }, 600_000);
  afterAll(async () => {
    await t?.close();
  });

  const withMedia = () => t.app.hasRoute({ method: 'POST', url: '/media/image' });
  const withBounties = () => t.app.hasRoute({ method: 'POST', url: '/bounty/search' });

  it('seeds members and hunters, in well under a minute of work', () => {
    expect(result.skipped).toBe(false);
    expect(result.counts.members).toBe(8);
    expect(result.counts.hunters).toBe(12);
    expect(result.counts.admins).toBe(1);
  });

  it('leaves three identities waiting for review in the operations console', async () => {
    if (!withMedia()) return;
    expect(result.counts.identities).toBe(3);
    const { dashboard } = t.root.services;
    expect((await dashboard.dashboard()).pendingIdentities).toBe(3);
  });

  it('leaves two reported claims in the reports queue, one reported three times', async () => {
    if (!withBounties() || !withMedia()) return;
    expect(result.counts.reports).toBe(4);
    expect((await t.root.services.dashboard.dashboard()).openReports).toBe(2);
  });

  it('lets the README accounts sign in; the member is active with silver left', async () => {
    for (const email of [DEMO_MEMBER_EMAIL, DEMO_HUNTER_EMAIL]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth',
        payload: { email, password: DEMO_PASSWORD },
      });
      expect(res.statusCode).toBe(200);
      if (email !== DEMO_MEMBER_EMAIL) continue;
      const me = await t.app.inject({
        method: 'GET',
        url: '/user',
        headers: { authorization: `Bearer ${res.json().token}` },
      });
      const user = me.json().user;
      expect(new Date(user.active).getTime()).toBeGreaterThan(Date.now());
      expect(user.silver).toBeGreaterThan(50);
    }
  });

  it('seeds the demo admin: the admin bit only, the demo password', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth',
      payload: { email: DEMO_ADMIN_EMAIL, password: DEMO_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.role).toBe(ROLE.admin);
  });

  it('answers a hunter profile with its seeded bio and stage name', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/hunter/handle/lunafox' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const hunter = body.hunter ?? body;
    expect(hunter.stagename).toBe('Luna Fox');
    expect(hunter.bio).toMatch(/Night skies/);
    if (withMedia()) expect(hunter.picture).toMatch(/^i-/);
  });

  it('fills the feed with bounties in every round state, and claims whose media exist', async () => {
    if (!withBounties()) return expect(result.notes.join(' ')).toMatch(/no bounties/);
    const res = await t.app.inject({
      method: 'POST',
      url: '/bounty/search',
      payload: { term: '', limit: 50 },
    });
    expect(res.statusCode).toBe(200);
    const feed = res.json() as FeedBounty[];
    expect(feed.length).toBeGreaterThanOrEqual(25);
    const now = Date.now();
    const lastRound = (b: FeedBounty) => b.rounds[b.rounds.length - 1]!;
    expect(feed.some((b) => b.status === 'decided')).toBe(true);
    expect(feed.some((b) => new Date(lastRound(b).endDate!).getTime() > now)).toBe(true);
    expect(feed.some((b) => b.roundCount === 2 && b.status === 'decided')).toBe(true);
    expect(feed.some((b) => b.roundCount === 2 && b.status === 'open')).toBe(true);
    const hours = await queryRows<{ h: number }>(
      t.db.handle.db,
      sql`select distinct round(extract(epoch from (r.end_date - r.created_at)) / 3600)::int as h
          from rounds r where r.number = 1`,
    );
    expect(hours.map((r) => r.h).sort((a, b) => a - b)).toEqual([8, 24, 168, 720]);
    if (!withMedia()) return;

    const claims = feed.flatMap((b) => b.rounds.flatMap((r) => r.claims));
    expect(claims.length).toBeGreaterThan(60);
    // Votes spread so ranks differ within rounds.
    const spread = feed.filter((b) => new Set(b.rounds[0]!.claims.map((c) => c.votes)).size > 1);
    expect(spread.length).toBeGreaterThan(10);
    const claim = claims.find((c) => c.media.startsWith('i-'))!;
    const page = await t.app.inject({ method: 'GET', url: `/claim/${claim.claimId}` });
    expect(page.statusCode).toBe(200);
    expect(page.json().media).toBe(claim.media);
    for (const suffix of ['-t.webp', '-f.webp']) {
      const file = await t.app.inject({ method: 'GET', url: `/media/${claim.media}${suffix}` });
      expect(file.statusCode).toBe(200);
    }
  });

  it('pays the demo hunter: last year a prize, its payout run and a 1099-NEC; this week a run; a balanced ledger', async () => {
    if (!withBounties() || !withMedia()) return;
    const auth = await t.app.inject({
      method: 'POST',
      url: '/auth',
      payload: { email: DEMO_HUNTER_EMAIL, password: DEMO_PASSWORD },
    });
    const headers = { authorization: `Bearer ${auth.json().token}` };
    const earnings = (await t.app.inject({ method: 'GET', url: '/user/earnings', headers })).json();
    expect(earnings.missing).toEqual([]);
    expect(earnings.paidCents).toBeGreaterThanOrEqual(60_000);
    expect(earnings.payouts[0]).toMatchObject({ status: 'sent' });
    const forms = (await t.app.inject({ method: 'GET', url: '/user/tax-forms', headers })).json();
    expect(forms.forms).toEqual([
      expect.objectContaining({
        year: new Date().getUTCFullYear() - 1,
        amountCents: earnings.paidCents,
      }),
    ]);
    const batches = await queryRows<{ n: number }>(
      t.db.handle.db,
      sql`select count(*)::int as n from payout_batches where count > 0`,
    );
    expect(batches[0]!.n).toBe(result.counts.payoutRuns);
    expect(result.counts.payoutRuns).toBeGreaterThanOrEqual(1);
    const recount = await ledgerRecount(t.db.handle.db);
    expect(recount.mismatched).toEqual([]);
    expect(recount).toMatchObject({ balanceSum: 0, unbalancedTransactions: 0 });
  });

  it("leaves this week's run to the admin: the preview has a payee, and the run's NACHA file balances", async () => {
    if (!withBounties() || !withMedia()) return;
    const { payouts } = t.root.services;
    const preview = await payouts.preview();
    expect(preview.count).toBeGreaterThanOrEqual(1);
    expect(preview.held.length).toBeGreaterThanOrEqual(1);
    const [admin] = await queryRows<{ id: number }>(
      t.db.handle.db,
      sql`select id from users where email = ${DEMO_ADMIN_EMAIL}`,
    );
    const actor = { userId: admin!.id, role: ROLE.admin, sessionId: 0, secondFactor: true };
    const batch = await payouts.runNow(actor, null);
    expect(batch).toMatchObject({ count: preview.count, totalCents: preview.totalCents });
    const file = readNacha((await payouts.batchFile(actor, batch.batchId, null)).text);
    expect(file.fileControl.totalCreditCents).toBe(preview.totalCents);
    expect(file.entries).toHaveLength(preview.count);
    expect(file.fileControl.entryHash).toBe(file.computedEntryHash);
    expect((await ledgerRecount(t.db.handle.db)).balanceSum).toBe(0);
  });

  it('leaves the demo hunter two conversations with unread messages, and notifications of claims', async () => {
    const auth = await t.app.inject({
      method: 'POST',
      url: '/auth',
      payload: { email: DEMO_HUNTER_EMAIL, password: DEMO_PASSWORD },
    });
    const headers = { authorization: `Bearer ${auth.json().token}` };
    const list = (await t.app.inject({ method: 'GET', url: '/conversations', headers })).json();
    expect(list.unread).toBe(2);
    expect(list.items).toHaveLength(2);
    expect(list.items[0]).toMatchObject({ unread: 1, lastMessage: { fromMe: false } });
    expect(list.items[1]).toMatchObject({
      unread: 1,
      lastMessage: { text: 'Great, posting it tonight.' },
    });
    if (!withBounties()) return;
    const member = await t.app.inject({
      method: 'POST',
      url: '/auth',
      payload: { email: DEMO_MEMBER_EMAIL, password: DEMO_PASSWORD },
    });
    const mine = await t.app.inject({
      method: 'GET',
      url: '/notifications',
      headers: { authorization: `Bearer ${member.json().token}` },
    });
    expect(mine.json().items.length).toBeGreaterThan(0);
  });

  it('does nothing the second time', async () => {
    const before = await queryRows<{ n: number }>(
      t.db.handle.db,
      sql`select count(*)::int as n from users`,
    );
    const again = await seedDemo({
      config: t.config,
      database: t.db.handle,
      log: silent,
      jobs: t.jobs,
    });
    expect(again.skipped).toBe(true);
    const after = await queryRows<{ n: number }>(
      t.db.handle.db,
      sql`select count(*)::int as n from users`,
    );
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('seeds at start-up only a brand-new embedded database, unless SEED_DEMO says otherwise', () => {
    const cfg = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/tmp/x', ...env });
    expect(shouldSeedAtStart(cfg({}), 'pglite', true)).toBe(true);
    expect(shouldSeedAtStart(cfg({}), 'pglite', false)).toBe(false);
    expect(shouldSeedAtStart(cfg({ SEED_DEMO: '0' }), 'pglite', true)).toBe(false);
    expect(shouldSeedAtStart(cfg({ DATABASE_URL: 'postgres://x@h/db' }), 'postgres', true)).toBe(
      false,
    );
    expect(
      shouldSeedAtStart(
        cfg({ DATABASE_URL: 'postgres://x@h/db', SEED_DEMO: '1' }),
        'postgres',
        true,
      ),
    ).toBe(true);
    expect(shouldSeedAtStart(cfg({ DATABASE_URL: 'memory://' }), 'pglite', true)).toBe(false);
  });
});
