/**
 * The session cache through the API (SESSION_CACHE_MS on): a signed-in request is served
 * from it, and every way a session ends or changes takes effect on the very next request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import { SESSION_IDLE_MS } from './auth.service';
import { touchSessions } from './sessions.repository';
import { createTestApp, PASSWORD, signUp, type TestApp } from '../../../test/helper';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { SESSION_CACHE_MS: '10000', RL_LOGIN_EMAIL: '1000/60' } });
});
afterAll(() => t.close());

/** The user's (one) session as stored: id, last use and expiry in epoch ms. */
async function storedSession(userId: number) {
  const [r] = await queryRows<{ id: number; used: string; expires: string }>(
    t.root.ctx.db,
    sql`select id, extract(epoch from last_used_at)::float8 * 1000 as used,
      extract(epoch from expires_at)::float8 * 1000 as expires
      from sessions where user_id = ${userId}`,
  );
  return { id: r!.id, used: Number(r!.used), expires: Number(r!.expires) };
}

const me = (auth: { authorization: string }) =>
  t.app.inject({ method: 'GET', url: '/user', headers: auth }).then((r) => r.statusCode);

async function signIn(email: string, password = PASSWORD) {
  const res = await t.app.inject({ method: 'POST', url: '/auth', payload: { email, password } });
  expect(res.statusCode).toBe(200);
  return { authorization: `Bearer ${res.json().token as string}` };
}

describe('session cache (SESSION_CACHE_MS)', () => {
  it('serves a session it has seen without looking it up again', async () => {
    const u = await signUp(t.app);
    expect(await me(u.auth)).toBe(200);
    // Behind the API's back (no instance is told): the cache still answers for a while.
    await queryRows(t.root.ctx.db, sql`delete from sessions where user_id = ${u.userId}`);
    expect(await me(u.auth)).toBe(200);
    t.root.services.auth.sessions.clear();
    expect(await me(u.auth)).toBe(401);
  });

  it('a sign-out ends the session at once', async () => {
    const u = await signUp(t.app);
    expect(await me(u.auth)).toBe(200);
    const token = u.auth.authorization.slice('Bearer '.length);
    const out = await t.app.inject({ method: 'DELETE', url: `/auth/${token}` });
    expect(out.statusCode).toBeLessThan(300);
    expect(await me(u.auth)).toBe(401);
  });

  it('a password change ends the other sessions at once and keeps this one', async () => {
    const u = await signUp(t.app);
    const other = await signIn(u.email);
    expect(await me(other)).toBe(200);
    expect(await me(u.auth)).toBe(200);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/user/password',
      headers: u.auth,
      payload: { oldPassword: PASSWORD, newPassword: 'Another-pass2!' },
    });
    expect(res.statusCode).toBe(204);
    expect(await me(other)).toBe(401);
    expect(await me(u.auth)).toBe(200);
  });

  it('a suspension ends every session at once', async () => {
    const admin = await signUp(t.app);
    const u = await signUp(t.app);
    expect(await me(u.auth)).toBe(200);
    await t.root.services.adminUsers.suspend(
      { userId: admin.userId, role: 5, sessionId: 0, secondFactor: true },
      u.userId,
      'test',
      null,
    );
    expect(await me(u.auth)).toBe(401);
  });

  it('never outlives the session: an expired session answers 401 though cached', async () => {
    const u = await signUp(t.app);
    expect(await me(u.auth)).toBe(200);
    t.clock.advance(31 * 24 * 3600 * 1000);
    expect(await me(u.auth)).toBe(401);
  });

  it('still records the session’s use every few minutes (idle expiry moves on)', async () => {
    const u = await signUp(t.app);
    expect(await me(u.auth)).toBe(200);
    const before = (await storedSession(u.userId)).used;
    t.clock.advance(6 * 60 * 1000);
    expect(await me(u.auth)).toBe(200);
    // Written with the uses of the same second, after the answer.
    await t.root.services.auth.flushTouches();
    expect((await storedSession(u.userId)).used).toBe(t.clock.now().getTime());
    expect(before).not.toBe(t.clock.now().getTime());
  });

  it('writes the uses of several sessions together, each at its own time, never back in time', async () => {
    const a = await signUp(t.app);
    const b = await signUp(t.app);
    expect(await me(a.auth)).toBe(200);
    expect(await me(b.auth)).toBe(200);
    t.clock.advance(6 * 60 * 1000);
    const atA = t.clock.now().getTime();
    expect(await me(a.auth)).toBe(200);
    t.clock.advance(1000);
    const atB = t.clock.now().getTime();
    expect(await me(b.auth)).toBe(200);
    await t.root.services.auth.flushTouches();
    const [ra, rb] = [await storedSession(a.userId), await storedSession(b.userId)];
    expect([ra.used, rb.used]).toEqual([atA, atB]);
    expect(ra.expires).toBe(atA + SESSION_IDLE_MS);
    expect(rb.expires).toBe(atB + SESSION_IDLE_MS);

    // A use written late (another instance's, older) does not move a session back; a session
    // ended meanwhile is no error.
    await touchSessions(t.root.ctx.db, [
      {
        sessionId: ra.id,
        at: new Date(atA - 60_000),
        expiresAt: new Date(atA - 60_000 + SESSION_IDLE_MS),
      },
      { sessionId: 2_000_000_000, at: new Date(atA), expiresAt: new Date(atA + SESSION_IDLE_MS) },
    ]);
    expect((await storedSession(a.userId)).used).toBe(atA);
    expect((await storedSession(a.userId)).expires).toBe(atA + SESSION_IDLE_MS);
  });

  it('answers while the use cannot be written, logs it, and records it on a later lookup', async () => {
    const u = await signUp(t.app);
    expect(await me(u.auth)).toBe(200);
    const used = async () => (await storedSession(u.userId)).used;
    const before = await used();
    // Every write of this user's session fails from here on; lookups still work.
    await queryRows(
      t.root.ctx.db,
      sql.raw(`create function refuse_touch() returns trigger language plpgsql as $$
        begin raise exception 'touch refused'; end $$`),
    );
    await queryRows(
      t.root.ctx.db,
      sql.raw(`create trigger refuse_touch before update on sessions for each row
        when (old.user_id = ${u.userId}) execute function refuse_touch()`),
    );
    try {
      t.clock.advance(6 * 60 * 1000);
      expect(await me(u.auth)).toBe(200);
      await t.root.services.auth.flushTouches();
      expect(await used()).toBe(before);
      expect(t.logs.join('\n')).toContain('session uses not recorded');
    } finally {
      await queryRows(t.root.ctx.db, sql`drop trigger refuse_touch on sessions`);
    }
    // Looked up again (past the cache's time, or on another instance: here the entry is
    // dropped), the session's old use is read and recorded.
    t.root.services.auth.sessions.forget({ userId: u.userId });
    t.clock.advance(1000);
    expect(await me(u.auth)).toBe(200);
    await t.root.services.auth.flushTouches();
    expect(await used()).toBe(t.clock.now().getTime());
  });
});
