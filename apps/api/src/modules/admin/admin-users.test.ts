import { AUTH_MSG } from '@bountyhunt/shared/auth-texts';
import { ADMIN_USERS_CODES } from '@bountyhunt/shared/admin-users';
import { NEXT_CURSOR_HEADER } from '@bountyhunt/shared/api';
import { SILVER_REASON_LABEL } from '@bountyhunt/shared/billing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import type { Mailer, MailMessage } from '../../mail/mailer';
import { enrolledAdmin, type Auth } from '../../../test/admin-support';
import {
  activeMember,
  insertMediaRow,
  postBounty,
  postClaim,
  TEST_CARD,
} from '../../../test/factories';
import { createTestApp, PASSWORD, signUp, uniqueEmail, type TestApp } from '../../../test/helper';

const WEB = 'https://bountyhunt.example';
const SSN = '123456789';
const ACCOUNT = '9876543210';
const CARD = TEST_CARD;

class CapturingMailer implements Mailer {
  sent: MailMessage[] = [];
  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }
  async close(): Promise<void> {}
}

let t: TestApp;
let admin: Awaited<ReturnType<typeof enrolledAdmin>>;
const mailer = new CapturingMailer();

beforeAll(async () => {
  t = await createTestApp({
    env: { PUBLIC_WEB_URL: WEB, RL_REGISTER_IP: '1000/3600' },
    parts: { mailer },
  });
  admin = await enrolledAdmin(t);
});
afterAll(async () => {
  await t?.close();
});

const as = (headers: Auth) => ({
  get: (url: string) => t.app.inject({ method: 'GET', url, headers }),
  post: (url: string, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) }),
});
const login = (email: string, password = PASSWORD) =>
  t.app.inject({ method: 'POST', url: '/auth', payload: { email, password } });

async function setHandle(auth: Auth, handle: string) {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/user/handle',
    headers: auth,
    payload: { handle },
  });
  expect(res.statusCode).toBe(200);
}

async function auditOf(userId: number, action: string) {
  const res = await as(admin.auth).get(
    `/admin/audit?targetType=user&targetId=${userId}&action=${action}`,
  );
  expect(res.statusCode).toBe(200);
  return res.json() as { before: unknown; after: unknown; actorId: number; ip: string }[];
}

describe('GET /admin/users', () => {
  it('finds a user by id, by e-mail prefix and by handle prefix, case-insensitively', async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const a = await signUp(t.app, { email: `${tag}.alpha@example.com` });
    const b = await signUp(t.app, { email: uniqueEmail('plain') });
    await setHandle(b.auth, `${tag}Bee`);
    const ids = (res: { json(): unknown }) =>
      (res.json() as { userId: number }[]).map((u) => u.userId);

    const byId = await as(admin.auth).get(`/admin/users?q=${a.userId}`);
    expect(byId.statusCode).toBe(200);
    expect(ids(byId)).toContain(a.userId);
    expect(byId.json()[0]).toMatchObject({ userId: expect.any(Number), email: expect.any(String) });

    const byEmail = await as(admin.auth).get(`/admin/users?q=${tag.toUpperCase()}.AL`);
    expect(ids(byEmail)).toEqual([a.userId]);

    const byHandle = await as(admin.auth).get(`/admin/users?q=${tag}b`);
    expect(ids(byHandle)).toEqual([b.userId]);
    expect(byHandle.json()[0]).toMatchObject({ handle: `${tag}Bee`, suspended: null });

    // Both share the prefix: newest first.
    expect(ids(await as(admin.auth).get(`/admin/users?q=${tag}`))).toEqual([b.userId, a.userId]);
    // An e-mail-shaped term matches e-mails only.
    expect(ids(await as(admin.auth).get(`/admin/users?q=${tag}.alpha@`))).toEqual([a.userId]);
  });

  it('treats % and _ in the term as themselves', async () => {
    const tag = `pct${Date.now().toString(36)}`;
    const u = await signUp(t.app, { email: `${tag}_x@example.com` });
    await signUp(t.app, { email: `${tag}ax@example.com` });
    const res = await as(admin.auth).get(`/admin/users?q=${encodeURIComponent(`${tag}_`)}`);
    expect(res.json().map((r: { userId: number }) => r.userId)).toEqual([u.userId]);
    const none = await as(admin.auth).get(`/admin/users?q=${encodeURIComponent('%')}`);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual([]);
  });

  it('pages newest first through x-next-cursor, with and without a term', async () => {
    const tag = `pg${Date.now().toString(36)}`;
    const made: number[] = [];
    for (let i = 0; i < 5; i++)
      made.push((await signUp(t.app, { email: `${tag}${i}@example.com` })).userId);
    const seen: number[] = [];
    let url = `/admin/users?q=${tag}&limit=2`;
    for (let page = 0; page < 5; page++) {
      const res = await as(admin.auth).get(url);
      expect(res.statusCode).toBe(200);
      seen.push(...res.json().map((r: { userId: number }) => r.userId));
      const next = res.headers[NEXT_CURSOR_HEADER] as string | undefined;
      if (!next) break;
      url = `/admin/users?q=${tag}&limit=2&cursor=${next}`;
    }
    expect(seen).toEqual([...made].reverse());

    const all = await as(admin.auth).get('/admin/users?limit=3');
    const rows = all.json() as { userId: number }[];
    expect(rows.map((r) => r.userId)).toEqual([...rows.map((r) => r.userId)].sort((x, y) => y - x));
    expect(all.headers[NEXT_CURSOR_HEADER]).toBeTruthy();

    const bad = await as(admin.auth).get('/admin/users?cursor=nonsense');
    expect(bad.statusCode).toBe(400);
  });
});

describe('GET /admin/users/{userId}', () => {
  it('shows role, membership, silver, identity, masked tax/bank/card, sessions, votes, claims and posts, never a secret', async () => {
    const db = t.db.handle.db;
    const hunter = await signUp(t.app, { hunter: true });
    const hunterAuth = hunter.auth;
    await setHandle(hunterAuth, `hx${Date.now().toString(36)}`);
    const put = (url: string, payload?: object) =>
      t.app.inject({ method: 'PUT', url, headers: hunterAuth, ...(payload ? { payload } : {}) });
    expect((await put(`/user/ssn/${SSN}`)).statusCode).toBe(200);
    expect(
      (
        await put('/user/bank', {
          name: 'First Bank',
          accountType: 'checking',
          routingNumber: '021000021',
          accountNumber: ACCOUNT,
        })
      ).statusCode,
    ).toBe(200);
    expect((await put('/user/name', { firstName: 'Ada', lastName: 'Hunter' })).statusCode).toBe(
      200,
    );
    const member = await activeMember(t.app, db, t.clock.now(), 40);
    const card = await t.app.inject({
      method: 'PUT',
      url: '/user/card',
      headers: member.auth,
      payload: CARD,
    });
    expect(card.statusCode).toBe(204);
    const { bountyId } = await postBounty(t.app, member);
    const claimId = await postClaim(t.app, db, hunter, bountyId);
    const vote = await t.app.inject({
      method: 'POST',
      url: '/vote',
      headers: member.auth,
      payload: { claimId, votes: 4 },
    });
    expect(vote.statusCode).toBe(200);
    const file = await insertMediaRow(db, hunter.userId);
    const post = await t.app.inject({
      method: 'POST',
      url: '/post',
      headers: hunterAuth,
      payload: { text: 'hello', fileName: file },
    });
    expect(post.statusCode).toBe(200);

    const h = await as(admin.auth).get(`/admin/users/${hunter.userId}`);
    expect(h.statusCode).toBe(200);
    const hb = h.json();
    expect(hb).toMatchObject({
      userId: hunter.userId,
      email: hunter.email,
      role: 2,
      identityStatus: 'none',
      identityReason: null,
      suspended: null,
      hunterId: expect.any(Number),
      tax: { legalName: true, address: false, ssn: 'xxx-xx-6789', complete: false },
      bank: {
        name: 'First Bank',
        accountType: 'checking',
        routingNumber: true,
        account: 'Ending in 3210',
        complete: true,
      },
      card: null,
    });
    expect(hb.claims).toEqual([
      expect.objectContaining({ claimId, bountyId, roundId: 1, votes: 4, hidden: false }),
    ]);
    expect(hb.posts).toEqual([expect.objectContaining({ text: 'hello', file, hidden: false })]);
    expect(hb.sessions).toHaveLength(1);
    expect(hb.sessions[0]).toEqual({
      sessionId: expect.any(Number),
      created: expect.any(String),
      lastUsed: expect.any(String),
      expires: expect.any(String),
      secondFactor: false,
    });

    const m = await as(admin.auth).get(`/admin/users/${member.userId}`);
    const mb = m.json();
    expect(mb).toMatchObject({
      role: 1,
      membership: 2,
      active: expect.any(String),
      silver: 36,
      votes: 4,
      card: 'Ending in 4242',
      claims: [],
      posts: [],
      hunterId: null,
    });
    expect(mb.recentVotes).toEqual([
      expect.objectContaining({ claimId, bountyId, bountyTitle: 'Best sunset photo', value: 4 }),
    ]);
    expect(mb.silverHistory[0]).toMatchObject({ delta: -4, reason: 'vote', balanceAfter: 36 });

    // Nothing secret in either page: no SSN, account or card number, hash, token or ciphertext.
    const [row] = await db.select().from(users).where(eq(users.id, hunter.userId));
    for (const text of [h.body, m.body]) {
      for (const secret of [
        SSN,
        ACCOUNT,
        '4242424242424242',
        row!.passwordHash,
        row!.ssnEnc!,
        row!.bankAccountEnc!,
        hunter.token,
        member.token,
        'passwordHash',
        'tokenHash',
        'cardToken',
      ])
        expect(text).not.toContain(secret);
    }
  });

  it('answers 404 for an unknown user and 400 for an id that is not one', async () => {
    expect((await as(admin.auth).get('/admin/users/999999')).statusCode).toBe(404);
    expect((await as(admin.auth).get('/admin/users/abc')).statusCode).toBe(400);
    expect((await as(admin.auth).get('/admin/users/99999999999')).statusCode).toBe(400);
  });
});

describe('suspension', () => {
  it('ends every session at once, refuses sign-in with 403 SUSPENDED, hides the profile, and unsuspend lets the user in again', async () => {
    const u = await signUp(t.app, { hunter: true });
    const handle = `sx${Date.now().toString(36)}`;
    await setHandle(u.auth, handle);
    const second = await login(u.email);
    const other = { authorization: `Bearer ${second.json().token}` };
    expect((await as(u.auth).get('/user')).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: `/hunter/handle/${handle}` })).statusCode,
    ).toBe(200);

    const res = await as(admin.auth).post(`/admin/users/${u.userId}/suspend`, {
      reason: 'Spam claims',
    });
    expect(res.statusCode).toBe(204);

    expect((await as(u.auth).get('/user')).statusCode).toBe(401);
    expect((await as(other).get('/user')).statusCode).toBe(401);
    const denied = await login(u.email);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ code: 'SUSPENDED', message: AUTH_MSG.suspended });
    expect(denied.json().message).toBe('Your account is suspended. Contact support.');
    // A wrong password is still just a wrong password (the suspension is not revealed).
    expect((await login(u.email, 'Wrong-pass1!')).statusCode).toBe(400);

    // Its public profile and lists are gone; the admin still sees everything.
    const profile = await t.app.inject({ method: 'GET', url: `/hunter/handle/${handle}` });
    expect(profile.statusCode).toBe(404);
    const page = (await as(admin.auth).get(`/admin/users/${u.userId}`)).json();
    expect(page.suspended).toEqual(expect.any(String));
    expect(page.sessions).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: `/posts/${page.hunterId}` })).statusCode).toBe(
      404,
    );

    expect(
      (await as(admin.auth).post(`/admin/users/${u.userId}/suspend`, { reason: 'again' }))
        .statusCode,
    ).toBe(409);

    const [audit] = await auditOf(u.userId, 'user.suspend');
    expect(audit).toMatchObject({
      actorId: admin.userId,
      before: { suspendedAt: null },
      after: { suspendedAt: page.suspended, reason: 'Spam claims' },
    });

    const lift = await as(admin.auth).post(`/admin/users/${u.userId}/unsuspend`);
    expect(lift.statusCode).toBe(204);
    // The old tokens stay ended; a new sign-in works.
    expect((await as(u.auth).get('/user')).statusCode).toBe(401);
    const back = await login(u.email);
    expect(back.statusCode).toBe(200);
    expect(
      (await as({ authorization: `Bearer ${back.json().token}` }).get('/user')).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: `/hunter/handle/${handle}` })).statusCode,
    ).toBe(200);
    expect((await as(admin.auth).post(`/admin/users/${u.userId}/unsuspend`)).statusCode).toBe(409);
    const [un] = await auditOf(u.userId, 'user.unsuspend');
    expect(un).toMatchObject({
      before: { suspendedAt: page.suspended },
      after: { suspendedAt: null },
    });
  });

  it('refuses suspending one’s own account, and needs a reason', async () => {
    const self = await as(admin.auth).post(`/admin/users/${admin.userId}/suspend`, {
      reason: 'oops',
    });
    expect(self.statusCode).toBe(400);
    expect(self.json().code).toBe(ADMIN_USERS_CODES.suspendSelf);
    const u = await signUp(t.app);
    expect((await as(admin.auth).post(`/admin/users/${u.userId}/suspend`, {})).statusCode).toBe(
      400,
    );
    expect(
      (await as(admin.auth).post(`/admin/users/${u.userId}/suspend`, { reason: '   ' })).statusCode,
    ).toBe(400);
    expect((await as(u.auth).get('/user')).statusCode).toBe(200);
  });

  it('a token made by a sign-in racing the suspension does not work either', async () => {
    const u = await signUp(t.app);
    // The row is suspended but a session slipped in (as if created between check and commit).
    await t.db.handle.db
      .update(users)
      .set({ suspendedAt: t.clock.now() })
      .where(eq(users.id, u.userId));
    const token = await t.root.services.auth.createSession(u.userId);
    expect((await as({ authorization: `Bearer ${token}` }).get('/user')).statusCode).toBe(401);
  });
});

describe('POST /admin/users/{userId}/silver', () => {
  it('credits the balance with an admin_grant ledger entry the member sees, and audits it', async () => {
    const m = await activeMember(t.app, t.db.handle.db, t.clock.now(), 10);
    const res = await as(admin.auth).post(`/admin/users/${m.userId}/silver`, {
      amount: 25,
      reason: 'Sorry for the outage',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ silver: 35 });

    const history = await as(m.auth).get('/user/silver');
    expect(history.statusCode).toBe(200);
    expect(history.json().silver).toBe(35);
    expect(history.json().history[0]).toMatchObject({
      delta: 25,
      balanceAfter: 35,
      reason: 'admin_grant',
    });
    expect(SILVER_REASON_LABEL.admin_grant).toBe('Granted by BountyHunt');

    const [audit] = await auditOf(m.userId, 'user.grant_silver');
    expect(audit).toMatchObject({
      actorId: admin.userId,
      before: { silver: 10 },
      after: { silver: 35, amount: 25, reason: 'Sorry for the outage' },
    });
  });

  it('lands both of two grants made at once', async () => {
    const m = await activeMember(t.app, t.db.handle.db, t.clock.now(), 0);
    const results = await Promise.all(
      [7, 11, 13, 17].map((amount) =>
        as(admin.auth).post(`/admin/users/${m.userId}/silver`, { amount, reason: 'race' }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const history = (await as(m.auth).get('/user/silver')).json();
    expect(history.silver).toBe(48);
    expect(history.history).toHaveLength(4);
    // Each entry's balance follows the one before it.
    const asc = [...history.history].reverse();
    asc.reduce((prev: number, e: { delta: number; balanceAfter: number }) => {
      expect(e.balanceAfter).toBe(prev + e.delta);
      return e.balanceAfter;
    }, 0);
    expect(await auditOf(m.userId, 'user.grant_silver')).toHaveLength(4);
  });

  it('takes whole amounts from 1 to 10000 with a reason, and 404s an unknown user', async () => {
    const m = await signUp(t.app);
    for (const body of [
      { amount: 0, reason: 'x' },
      { amount: -5, reason: 'x' },
      { amount: 1.5, reason: 'x' },
      { amount: 10_001, reason: 'x' },
      { amount: 5 },
      { amount: 5, reason: '' },
    ])
      expect((await as(admin.auth).post(`/admin/users/${m.userId}/silver`, body)).statusCode).toBe(
        400,
      );
    expect(
      (await as(admin.auth).post('/admin/users/999999/silver', { amount: 5, reason: 'x' }))
        .statusCode,
    ).toBe(404);
    expect((await as(admin.auth).get(`/admin/users/${m.userId}`)).json().silverHistory).toEqual([]);
  });
});

describe('POST /admin/users/{userId}/mail', () => {
  it('sends the reset mail again (a working link), audits it, and is rate-limited per user', async () => {
    const u = await signUp(t.app);
    const seen = mailer.sent.length;
    const res = await as(admin.auth).post(`/admin/users/${u.userId}/mail`, { kind: 'reset' });
    expect(res.statusCode).toBe(204);
    const mail = mailer.sent[seen]!;
    expect(mail.to).toBe(u.email);
    expect(mail.subject).toBe('Reset your BountyHunt password');
    const code = new RegExp(`${WEB}/reset/([A-Za-z0-9_-]+)`).exec(mail.text)![1]!;
    const reset = await t.app.inject({
      method: 'PUT',
      url: '/user/reset',
      payload: { resetCode: code, newPassword: 'Another-pass2!' },
    });
    expect(reset.statusCode).toBe(204);
    expect((await login(u.email, 'Another-pass2!')).statusCode).toBe(200);

    const [audit] = await auditOf(u.userId, 'user.resend_mail');
    expect(audit).toMatchObject({ actorId: admin.userId, after: { kind: 'reset' } });
    // Nothing of the link reaches the audit log.
    expect(JSON.stringify(audit)).not.toContain(code);

    expect(
      (await as(admin.auth).post(`/admin/users/${u.userId}/mail`, { kind: 'welcome' })).statusCode,
    ).toBe(400);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await as(admin.auth).post(`/admin/users/${u.userId}/mail`, { kind: 'reset' })).statusCode,
      );
    expect(statuses).toContain(429);
  });
});
