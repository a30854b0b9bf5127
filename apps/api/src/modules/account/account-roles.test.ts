/**
 * Access table of SPEC.md §6 for the account endpoints: everyone signed in may change e-mail,
 * password and handle; only role 2 the public profile, tax and bank details; anonymous → 401.
 * Each row sends a valid request, so the status shows the access decision alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PASSWORD, signUp, uniqueEmail, type TestApp } from '../../../test/helper';
import { insertMediaRow } from '../../../test/factories';

type Who = 'anonymous' | 'member' | 'hunter';
interface Session {
  userId: number;
  auth: Record<string, string>;
}

let t: TestApp;
const sessions: Partial<Record<Who, Session>> = {};
beforeAll(async () => {
  t = await createTestApp({ env: { RL_REGISTER_IP: '1000/3600' } });
});
afterAll(() => t.close());

interface Row {
  name: string;
  method: 'PUT' | 'POST';
  url: (s: Session | undefined) => string;
  body?: (s: Session | undefined) => Promise<object | undefined> | object | undefined;
  expect: Record<Who, number>;
}

const everyone = (ok: number) => ({ anonymous: 401, member: ok, hunter: ok });
const hunterOnly = (ok: number) => ({ anonymous: 401, member: 403, hunter: ok });

const table: Row[] = [
  {
    name: 'PUT /user/handle',
    method: 'PUT',
    url: () => '/user/handle',
    body: (s) => ({ handle: `H${s?.userId ?? 0}x${Math.floor(Math.random() * 1e6)}` }),
    expect: everyone(200),
  },
  {
    name: 'PUT /user/email/{email}',
    method: 'PUT',
    url: () => `/user/email/${encodeURIComponent(uniqueEmail('role'))}`,
    expect: everyone(200),
  },
  {
    name: 'PUT /user/password',
    method: 'PUT',
    url: () => '/user/password',
    body: () => ({ oldPassword: PASSWORD, newPassword: PASSWORD }),
    expect: everyone(204),
  },
  {
    name: 'PUT /hunter/bio',
    method: 'PUT',
    url: () => '/hunter/bio',
    body: () => ({ bio: 'bio' }),
    expect: hunterOnly(200),
  },
  {
    name: 'PUT /hunter/stagename',
    method: 'PUT',
    url: () => '/hunter/stagename',
    body: () => ({ stagename: 'Stage Name' }),
    expect: hunterOnly(200),
  },
  {
    name: 'PUT /hunter/picture',
    method: 'PUT',
    url: () => '/hunter/picture',
    body: async (s) => ({ picture: s ? await insertMediaRow(t.db.handle.db, s.userId) : 'i-none' }),
    expect: hunterOnly(200),
  },
  {
    name: 'PUT /user/name',
    method: 'PUT',
    url: () => '/user/name',
    body: () => ({ firstName: 'Ada', lastName: 'Lovelace' }),
    expect: hunterOnly(200),
  },
  {
    name: 'PUT /user/address',
    method: 'PUT',
    url: () => '/user/address',
    body: () => ({ street: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' }),
    expect: hunterOnly(200),
  },
  {
    name: 'PUT /user/ssn/{ssn}',
    method: 'PUT',
    url: () => '/user/ssn/123456789',
    expect: hunterOnly(200),
  },
  {
    name: 'PUT /user/bank',
    method: 'PUT',
    url: () => '/user/bank',
    body: () => ({ name: 'Bank', routingNumber: '011000015', accountNumber: '123456789' }),
    expect: hunterOnly(200),
  },
  {
    name: 'PUT /user/identity',
    method: 'PUT',
    url: () => '/user/identity',
    body: async (s) => ({
      idFront: s
        ? await insertMediaRow(t.db.handle.db, s.userId, { visibility: 'private' })
        : 'i-a',
      idSelfie: s
        ? await insertMediaRow(t.db.handle.db, s.userId, { visibility: 'private' })
        : 'i-b',
      ageConfirmed: true,
    }),
    expect: hunterOnly(204),
  },
];

const cases = table.flatMap((row) =>
  (['anonymous', 'member', 'hunter'] as Who[]).map(
    (who) => [row.name, who, row.expect[who], row] as const,
  ),
);

describe('role × endpoint → status', () => {
  it.each(cases)('%s as %s → %i', async (_name, who, expected, row) => {
    let s: Session | undefined;
    if (who !== 'anonymous') {
      s = sessions[who] ??= await signUp(t.app, { hunter: who === 'hunter' });
    }
    const payload = await row.body?.(s);
    const res = await t.app.inject({
      method: row.method,
      url: row.url(s),
      headers: s?.auth ?? {},
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, res.body).toBe(expected);
  });

  it('a wrong role is refused before the body is read (403, not 400)', async () => {
    const m = (sessions.member ??= await signUp(t.app));
    const res = await t.app.inject({
      method: 'PUT',
      url: '/user/bank',
      headers: m.auth,
      payload: {},
    });
    expect(res.statusCode).toBe(403);
    const anon = await t.app.inject({ method: 'PUT', url: '/user/ssn/1', payload: {} });
    expect(anon.statusCode).toBe(401);
  });

  it('the reset endpoints need no session', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/email/password/${encodeURIComponent(uniqueEmail('anon'))}`,
    });
    expect(res.statusCode).toBe(404);
    const put = await t.app.inject({
      method: 'PUT',
      url: '/user/reset',
      payload: { resetCode: 'nope', newPassword: PASSWORD },
    });
    expect(put.statusCode).toBe(400);
  });
});
