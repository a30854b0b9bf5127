import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolledAdmin, nextCode, signIn, type Auth } from '../../../test/admin-support';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';
import { maskSecrets } from './audit.service';

describe('audit log', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const audit = (headers: Auth, query = '') =>
    t.app.inject({ method: 'GET', url: `/admin/audit${query}`, headers });

  it('records every admin sign-in and second factor, with the IP; members are not logged', async () => {
    const a = await enrolledAdmin(t);
    const member = await signUp(t.app);
    const again = await signIn(t, a.email);
    const verified = await t.app.inject({
      method: 'POST',
      url: '/admin/totp/verify',
      headers: again,
      payload: { code: nextCode(t, a.totp) },
    });
    expect(verified.statusCode).toBe(204);
    const res = await audit(a.auth, `?actorId=${a.userId}`);
    expect(res.statusCode).toBe(200);
    const actions = (res.json() as { action: string }[]).map((e) => e.action);
    // Newest first: the second sign-in and its code, then the enrolment (the first sign-in
    // happened before the account was an admin).
    expect(actions).toEqual(['admin.totp_verified', 'admin.sign_in', 'admin.totp_enrolled']);
    const first = res.json()[0];
    expect(first).toMatchObject({
      actorId: a.userId,
      actorEmail: a.email,
      targetType: 'user',
      targetId: String(a.userId),
      ip: '127.0.0.1',
    });
    expect(new Date(first.created).getTime()).not.toBeNaN();
    const memberRows = await audit(a.auth, `?actorId=${member.userId}`);
    expect(memberRows.json()).toEqual([]);
  });

  it('filters by action and pages with x-next-cursor', async () => {
    const a = await enrolledAdmin(t);
    for (let i = 0; i < 3; i++) await signIn(t, a.email);
    const first = await audit(a.auth, `?actorId=${a.userId}&action=admin.sign_in&limit=2`);
    expect(first.json()).toHaveLength(2);
    const cursor = first.headers['x-next-cursor'] as string;
    expect(cursor).toBeTruthy();
    const second = await audit(
      a.auth,
      `?actorId=${a.userId}&action=admin.sign_in&limit=2&cursor=${cursor}`,
    );
    // Three sign-ins as an admin, two per page, no overlap.
    expect(second.json()).toHaveLength(1);
    expect(second.headers['x-next-cursor']).toBeUndefined();
    const ids = [...first.json(), ...second.json()].map((e: { auditId: number }) => e.auditId);
    expect(new Set(ids).size).toBe(3);
    expect([...ids].sort((x, y) => y - x)).toEqual(ids);
    expect((await audit(a.auth, '?cursor=garbage')).statusCode).toBe(400);
    expect((await audit(a.auth, '?action=no.such')).statusCode).toBe(400);
  });

  it('is append-only: the database refuses to change or delete a row', async () => {
    const a = await enrolledAdmin(t);
    const refusal = (statement: Promise<unknown>) =>
      statement.then(
        () => 'accepted',
        (err: Error) => String((err.cause as Error | undefined)?.message ?? err.message),
      );
    expect(
      await refusal(
        t.root.ctx.db.execute(sql`update audit_log set action = 'x' where actor_id = ${a.userId}`),
      ),
    ).toMatch(/append-only/);
    expect(
      await refusal(t.root.ctx.db.execute(sql`delete from audit_log where actor_id = ${a.userId}`)),
    ).toMatch(/append-only/);
    const rows = await audit(a.auth, `?actorId=${a.userId}`);
    expect(rows.json().length).toBeGreaterThan(0);
  });

  it('masks secrets in before/after', () => {
    expect(
      maskSecrets({
        silver: 10,
        bankAccount: '000123456789',
        ssn: '123-45-6789',
        passwordHash: '$argon2id$v=19$…',
        reason: 'blurry photo',
        bankAccountType: 'checking',
      }),
    ).toEqual({
      silver: 10,
      bankAccount: '•••• 6789',
      ssn: '•••• 6789',
      passwordHash: '•••• 19$…',
      reason: 'blurry photo',
      bankAccountType: 'checking',
    });
  });
});
