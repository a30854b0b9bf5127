/**
 * The authorization matrix (issue 17 part 7): every /admin endpoint of the OpenAPI document ×
 * every kind of caller → the expected status. The endpoint list comes from the app itself, so
 * a new admin endpoint without a row here fails this test.
 */
import { ADMIN_CODES } from '@bountyhunt/shared/admin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolledAdmin, newAdmin, type Auth } from '../../../test/admin-support';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';

type Caller = 'anonymous' | 'member' | 'hunter' | 'pending' | 'suspended' | 'admin';
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What an admin who has passed the second factor gets, per endpoint, with the request the
 * matrix sends (path parameters are 999999, an id nothing has: the gate is what is tested).
 * `pending` is an admin whose session has not passed TOTP: 403 SECOND_FACTOR_REQUIRED
 * everywhere but the /admin/totp calls, which give their own answers. `suspended` is an
 * admin who had passed the second factor and was then suspended through the API: the
 * suspension ended the session, so its token answers 401 everywhere.
 */
const ROWS: Record<string, { body?: object; query?: string; admin: number; pending?: number }> = {
  'GET /admin/me': { admin: 200 },
  'GET /admin/audit': { admin: 200 },
  'GET /admin/dashboard': { admin: 200 },
  'GET /admin/totp/status': { admin: 200, pending: 200 },
  'GET /admin/identities': { admin: 200 },
  'GET /admin/identities/{id}': { admin: 404 },
  'POST /admin/identities/{id}/approve': { admin: 404 },
  'POST /admin/identities/{id}/reject': { body: { reason: 'blurry' }, admin: 404 },
  // The enrolled admin already has a factor: 409; the pending admin may enrol.
  'POST /admin/totp/enrol': { admin: 409, pending: 200 },
  'POST /admin/totp/confirm': { body: { code: '000000' }, admin: 409, pending: 400 },
  'POST /admin/totp/verify': { body: { recoveryCode: 'nope-nope' }, admin: 400, pending: 400 },
  'GET /admin/users': { admin: 200 },
  'GET /admin/users/{userId}': { admin: 404 },
  'POST /admin/users/{userId}/suspend': { body: { reason: 'matrix' }, admin: 404 },
  'POST /admin/users/{userId}/unsuspend': { admin: 404 },
  'POST /admin/users/{userId}/silver': { body: { amount: 1, reason: 'matrix' }, admin: 404 },
  'POST /admin/users/{userId}/mail': { body: { kind: 'reset' }, admin: 404 },
  'POST /admin/users/{userId}/refund': { body: { chargeId: 1, reason: 'matrix' }, admin: 404 },
  // Moderation: the matrix's 999999 is no target type (400); an unknown item is a 404.
  'GET /admin/reports': { admin: 200 },
  'GET /admin/reports/{targetType}/{targetId}': { admin: 400 },
  'POST /admin/reports/{targetType}/{targetId}/hide': { admin: 400 },
  'POST /admin/reports/{targetType}/{targetId}/keep': { admin: 400 },
  // Payouts: nobody to pay in an empty ledger (409); 999999 is no year (400).
  'GET /admin/payouts/preview': { admin: 200 },
  'POST /admin/payouts/run': { admin: 409 },
  'GET /admin/payouts/batches': { admin: 200 },
  'GET /admin/payouts/batches/{id}': { admin: 404 },
  'GET /admin/payouts/batches/{id}/file': { admin: 404 },
  'POST /admin/payouts/{id}/return': { body: { code: 'R01' }, admin: 404 },
  'GET /admin/tax-forms/{year}': { admin: 400 },
  'POST /admin/tax-forms/{year}/generate': { admin: 400 },
  'GET /admin/tax-forms/{year}/csv': { admin: 400 },
};

describe('admin authorization matrix', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  function adminEndpoints(): string[] {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    return Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/admin'))
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
  }

  it('has a row for every /admin endpoint', () => {
    const endpoints = adminEndpoints();
    expect(endpoints.length).toBeGreaterThan(0);
    expect(endpoints).toEqual(Object.keys(ROWS).sort());
  });

  it('answers every cell', async () => {
    const member = await signUp(t.app);
    const hunter = await signUp(t.app, { hunter: true });
    const pending = await newAdmin(t);
    const admin = await enrolledAdmin(t);
    const suspended = await enrolledAdmin(t);
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/users/${suspended.userId}/suspend`,
      headers: admin.auth,
      payload: { reason: 'matrix' },
    });
    expect(res.statusCode).toBe(204);
    const who: Record<Caller, Auth | undefined> = {
      anonymous: undefined,
      member: member.auth,
      hunter: hunter.auth,
      pending: pending.auth,
      suspended: suspended.auth,
      admin: admin.auth,
    };
    const SF = ADMIN_CODES.secondFactorRequired;
    const cells: { endpoint: string; caller: Caller; status: number; code?: string }[] = [];
    const wanted: typeof cells = [];
    for (const endpoint of adminEndpoints()) {
      const row = ROWS[endpoint];
      if (!row) continue;
      const [method, path] = endpoint.split(' ') as [Method, string];
      const url = path.replace(/\{[^}]+\}/g, '999999') + (row.query ? `?${row.query}` : '');
      const expected: Record<Caller, { status: number; code?: string }> = {
        anonymous: { status: 401 },
        member: { status: 403, code: 'FORBIDDEN' },
        hunter: { status: 403, code: 'FORBIDDEN' },
        pending: row.pending === undefined ? { status: 403, code: SF } : { status: row.pending },
        suspended: { status: 401 },
        admin: { status: row.admin },
      };
      for (const caller of Object.keys(expected) as Caller[]) {
        const res = await t.app.inject({
          method,
          url,
          headers: who[caller],
          ...(row.body && method !== 'GET' ? { payload: row.body } : {}),
        });
        const want = expected[caller];
        const got: (typeof cells)[number] = { endpoint, caller, status: res.statusCode };
        if (want.code) got.code = res.json().code;
        cells.push(got);
        wanted.push({ endpoint, caller, ...want });
        if (res.statusCode >= 400)
          expect(res.json()).toMatchObject({ message: expect.any(String) });
      }
    }
    expect(cells).toEqual(wanted);
  });
});
