import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailMessage, Mailer } from '../../mail/mailer';
import { activeMember, postBounty, postClaim, type Session } from '../../../test/factories';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';
import { giveHandle, listen, openStream } from '../../../test/live-support';
import { CLOSE_ROUNDS_JOB } from '../bounties/bounties.jobs';

const mails: MailMessage[] = [];
const mailer: Mailer = {
  async send(m) {
    mails.push(m);
  },
  async close() {},
};

describe('notifications', () => {
  let t: TestApp;
  let base: string;
  let member: Session;
  let hunter: Session;

  beforeAll(async () => {
    t = await createTestApp({ parts: { mailer } });
    base = await listen(t.app);
    member = await activeMember(t.app, t.root.ctx.db, t.clock.now(), 1000);
    hunter = await signUp(t.app, { hunter: true });
    await giveHandle(t.app, hunter, 'h');
  });
  afterAll(() => t.close());

  const list = (s: Session, q = '') =>
    t.app.inject({ method: 'GET', url: `/notifications${q}`, headers: s.auth });

  it('a claim on my bounty: in the list, on my stream with the unread count, and by mail', async () => {
    const { bountyId } = await postBounty(t.app, member, { title: 'Best sunset', amount: 0 });
    const stream = await openStream(base, { token: member.token });
    const claimId = await postClaim(t.app, t.root.ctx.db, hunter, bountyId);
    const pushed = await stream.next((e) => e.data.type === 'notification');
    expect(pushed.data).toMatchObject({
      type: 'notification',
      unread: 1,
      notification: {
        type: 'claim_new',
        title: 'New claim on “Best sunset”',
        link: `/claim/${claimId}`,
        read: false,
      },
    });
    stream.close();
    const res = await list(member);
    expect(res.json()).toMatchObject({
      unread: 1,
      nextBefore: null,
      items: [{ type: 'claim_new' }],
    });
    const mail = mails.find((m) => m.to === member.email && m.subject.includes('Best sunset'))!;
    expect(mail.text).toContain(`/claim/${claimId}`);
    expect(mail.headers?.['List-Unsubscribe']).toMatch(
      /^<http.*\/notifications\/unsubscribe\?u=\d+&t=claim_new&s=[\w-]+>$/,
    );
    const read = await t.app.inject({
      method: 'POST',
      url: '/notifications/read',
      headers: member.auth,
      payload: {},
    });
    expect(read.json()).toEqual({ unread: 0 });
    expect((await list(member)).json().items[0].read).toBe(true);
  });

  it('settings per type: off in app, off by mail', async () => {
    const m = await activeMember(t.app, t.root.ctx.db, t.clock.now(), 1000);
    const settings = await t.app.inject({
      method: 'GET',
      url: '/notifications/settings',
      headers: m.auth,
    });
    expect(settings.json().settings).toHaveLength(9);
    expect(settings.json().settings[0]).toEqual({ type: 'claim_new', inApp: true, email: true });
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/notifications/settings',
      headers: m.auth,
      payload: { settings: [{ type: 'claim_new', inApp: false, email: false }] },
    });
    expect(saved.json().settings[0]).toEqual({ type: 'claim_new', inApp: false, email: false });
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/notifications/settings',
      headers: m.auth,
      payload: { settings: [{ type: 'nope', inApp: false, email: false }] },
    });
    expect(bad.statusCode).toBe(400);
    // A type named twice (found by the fuzz test: it was a 500): the last value counts.
    const twice = await t.app.inject({
      method: 'PUT',
      url: '/notifications/settings',
      headers: m.auth,
      payload: {
        settings: [
          { type: 'round_ended', inApp: true, email: true },
          { type: 'round_ended', inApp: false, email: false },
        ],
      },
    });
    expect(twice.statusCode).toBe(200);
    expect(twice.json().settings[1]).toEqual({ type: 'round_ended', inApp: false, email: false });
    const before = mails.length;
    const { bountyId } = await postBounty(t.app, m, { amount: 0 });
    await postClaim(t.app, t.root.ctx.db, hunter, bountyId);
    expect((await list(m)).json()).toMatchObject({ unread: 0, items: [] });
    expect(mails.slice(before).filter((x) => x.to === m.email)).toHaveLength(0);
  });

  it('one-click unsubscribe works without signing in; a forged link does not', async () => {
    const m = await activeMember(t.app, t.root.ctx.db, t.clock.now(), 1000);
    const { bountyId } = await postBounty(t.app, m, { amount: 0, title: 'Unsub test' });
    await postClaim(t.app, t.root.ctx.db, hunter, bountyId);
    const mail = mails.find((x) => x.to === m.email)!;
    const url = new URL(mail.headers!['List-Unsubscribe']!.slice(1, -1));
    const path = `${url.pathname}${url.search}`;
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('A new claim on your bounty');
    // Viewing the page changes nothing (mail scanners open links).
    expect(
      (
        await t.app.inject({ method: 'GET', url: '/notifications/settings', headers: m.auth })
      ).json().settings[0].email,
    ).toBe(true);
    const post = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(post.statusCode).toBe(200);
    expect(post.body).toContain('You will no longer get e-mails');
    const after = await t.app.inject({
      method: 'GET',
      url: '/notifications/settings',
      headers: m.auth,
    });
    expect(after.json().settings[0]).toEqual({ type: 'claim_new', inApp: true, email: false });
    const forged = path.replace(/s=[\w-]+/, 's=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect((await t.app.inject({ method: 'POST', url: forged })).statusCode).toBe(404);
    const otherType = path.replace('t=claim_new', 't=claim_won');
    expect((await t.app.inject({ method: 'GET', url: otherType })).statusCode).toBe(404);
  });

  it('rounds ending and a bounty decided tell the poster; the winner hears they won', async () => {
    const m = await activeMember(t.app, t.root.ctx.db, t.clock.now(), 1000);
    const { bountyId } = await postBounty(t.app, m, {
      amount: 50,
      title: 'Two rounds',
      seconds: 8 * 3600,
    });
    const claimId = await postClaim(t.app, t.root.ctx.db, hunter, bountyId);
    t.clock.advance(9 * 3600_000);
    await t.runJob(CLOSE_ROUNDS_JOB);
    const poster = (await list(m)).json().items.map((n: { type: string }) => n.type);
    expect(poster).toEqual(['bounty_decided', 'round_ended', 'claim_new']);
    const won = (await list(hunter)).json().items[0];
    expect(won).toMatchObject({
      type: 'claim_won',
      title: 'Your claim won “Two rounds”',
      link: `/claim/${claimId}`,
    });
  });

  it('pages newest first', async () => {
    const m = await activeMember(t.app, t.root.ctx.db, t.clock.now(), 1000);
    const { bountyId } = await postBounty(t.app, m, { amount: 0 });
    for (let i = 0; i < 3; i++) await postClaim(t.app, t.root.ctx.db, hunter, bountyId);
    const first = (await list(m, '?limit=2')).json();
    expect(first.items).toHaveLength(2);
    expect(first.unread).toBe(3);
    const rest = (await list(m, `?limit=2&before=${first.nextBefore}`)).json();
    expect(rest).toMatchObject({ nextBefore: null });
    expect(rest.items).toHaveLength(1);
    expect(rest.items[0].notificationId).toBeLessThan(first.items[1].notificationId);
    expect((await t.app.inject({ method: 'GET', url: '/notifications' })).statusCode).toBe(401);
  });
});
