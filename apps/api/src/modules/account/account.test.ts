import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ACCOUNT_MSG } from '@bountyhunt/shared/account';
import { AUTH_MSG } from '@bountyhunt/shared/auth-texts';
import { users } from '../../db/schema';
import { createTestApp, PASSWORD, signUp, uniqueEmail, type TestApp } from '../../../test/helper';
import { insertMediaRow } from '../../../test/factories';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RL_REGISTER_IP: '1000/3600' } });
});
afterAll(() => t.close());

const put = (url: string, auth: object, payload?: object) =>
  t.app.inject({ method: 'PUT', url, headers: auth as Record<string, string>, payload });

async function dbUser(id: number) {
  const [row] = await t.app.root.ctx.db.select().from(users).where(eq(users.id, id));
  return row!;
}

describe('PUT /user/handle', () => {
  it('sets the handle of a member and of a creator (shown on the hunter too)', async () => {
    const m = await signUp(t.app);
    const res = await put('/user/handle', m.auth, { handle: `Mem${m.userId}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.handle).toBe(`Mem${m.userId}`);
    expect(res.json().hunter).toBeNull();

    const h = await signUp(t.app, { hunter: true });
    const r2 = await put('/user/handle', h.auth, { handle: `Hun${h.userId}` });
    expect(r2.statusCode).toBe(200);
    expect(r2.json().hunter.handle).toBe(`Hun${h.userId}`);
    const me = await t.app.inject({ method: 'GET', url: '/user', headers: h.auth });
    expect(me.json().hunter.handle).toBe(`Hun${h.userId}`);
  });

  it.each([
    ['empty', '', ACCOUNT_MSG.handleRequired],
    ['missing', undefined, ACCOUNT_MSG.handleRequired],
    ['a space', 'ab cd', ACCOUNT_MSG.handleChars],
    ['punctuation', 'abc_d', ACCOUNT_MSG.handleChars],
    ['16 characters', 'a'.repeat(16), ACCOUNT_MSG.tooLong('A handle', 15)],
  ])('refuses %s (400, saying what is wrong)', async (_what, handle, message) => {
    const m = await signUp(t.app);
    const res = await put('/user/handle', m.auth, { handle });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('accepts 15 characters and no minimum', async () => {
    const m = await signUp(t.app);
    expect((await put('/user/handle', m.auth, { handle: 'x' })).statusCode).toBe(200);
    const long = `L${m.userId}`.padEnd(15, 'z');
    expect((await put('/user/handle', m.auth, { handle: long })).statusCode).toBe(200);
  });

  it('answers 409 when another user has it, whatever its case; keeping your own is fine', async () => {
    const a = await signUp(t.app);
    const b = await signUp(t.app);
    const handle = `Taken${a.userId}`;
    expect((await put('/user/handle', a.auth, { handle })).statusCode).toBe(200);
    expect((await put('/user/handle', a.auth, { handle })).statusCode).toBe(200);
    const res = await put('/user/handle', b.auth, { handle: handle.toUpperCase() });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: ACCOUNT_MSG.handleTaken, code: 'HANDLE_TAKEN' });
  });

  it('two users racing for one handle: exactly one 200 and one 409', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = await Promise.all([signUp(t.app), signUp(t.app, { hunter: true })]);
      const handle = `Race${a.userId}x${round}`;
      const results = await Promise.all([
        put('/user/handle', a.auth, { handle }),
        put('/user/handle', b.auth, { handle: handle.toLowerCase() }),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const winners = await Promise.all([dbUser(a.userId), dbUser(b.userId)]);
      expect(winners.filter((u) => u.handle?.toLowerCase() === handle.toLowerCase())).toHaveLength(
        1,
      );
    }
  });
});

describe('PUT /user/email/{email}', () => {
  it('changes the e-mail; the new one signs in and the old one no longer does', async () => {
    const m = await signUp(t.app);
    const next = uniqueEmail('moved');
    const res = await put(`/user/email/${encodeURIComponent(next.toUpperCase())}`, m.auth);
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe(next.toLowerCase());
    const ok = await t.app.inject({
      method: 'POST',
      url: '/auth',
      payload: { email: next, password: PASSWORD },
    });
    expect(ok.statusCode).toBe(200);
    const old = await t.app.inject({
      method: 'POST',
      url: '/auth',
      payload: { email: m.email, password: PASSWORD },
    });
    expect(old.statusCode).toBe(400);
  });

  it.each(['no-at-sign', 'a@b', 'a b@c.de', `${'a'.repeat(320)}@x.io`])(
    'answers 400 with the SPEC.md message for %s',
    async (bad) => {
      const m = await signUp(t.app);
      const res = await put(`/user/email/${encodeURIComponent(bad)}`, m.auth);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(ACCOUNT_MSG.emailChangeInvalid);
    },
  );

  it('answers 406 when another account uses it', async () => {
    const a = await signUp(t.app);
    const b = await signUp(t.app);
    const res = await put(`/user/email/${encodeURIComponent(a.email.toUpperCase())}`, b.auth);
    expect(res.statusCode).toBe(406);
    expect(res.json().message).toBe(ACCOUNT_MSG.emailChangeTaken);
  });

  it('needs a session', async () => {
    const res = await put(`/user/email/x%40example.com`, {});
    expect(res.statusCode).toBe(401);
  });
});

describe('PUT /user/password', () => {
  it('changes the password, keeps this session and ends the others', async () => {
    const m = await signUp(t.app);
    const other = await t.app.inject({
      method: 'POST',
      url: '/auth',
      payload: { email: m.email, password: PASSWORD },
    });
    const otherAuth = { authorization: `Bearer ${other.json().token}` };
    const newPassword = 'Another-pass2?';
    const res = await put('/user/password', m.auth, { oldPassword: PASSWORD, newPassword });
    expect(res.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/user', headers: m.auth })).statusCode).toBe(
      200,
    );
    expect(
      (await t.app.inject({ method: 'GET', url: '/user', headers: otherAuth })).statusCode,
    ).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth',
      payload: { email: m.email, password: newPassword },
    });
    expect(login.statusCode).toBe(200);
  });

  it('answers 400 with the SPEC.md message for a wrong current password', async () => {
    const m = await signUp(t.app);
    const res = await put('/user/password', m.auth, {
      oldPassword: 'Wrong-pass1!',
      newPassword: 'Another-pass2?',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(ACCOUNT_MSG.passwordWrong);
  });

  it('checks the new password rule and the current password presence', async () => {
    const m = await signUp(t.app);
    const weak = await put('/user/password', m.auth, {
      oldPassword: PASSWORD,
      newPassword: 'short',
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toBe(AUTH_MSG.passwordCriteria);
    const none = await put('/user/password', m.auth, {
      oldPassword: '',
      newPassword: 'Another-pass2?',
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(ACCOUNT_MSG.currentPasswordRequired);
  });

  it('stops guessing the current password after the sign-in failure limit (429)', async () => {
    const m = await signUp(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const r = await put('/user/password', m.auth, {
        oldPassword: `Wrong-pass${i}!`,
        newPassword: 'Another-pass2?',
      });
      statuses.push(r.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe('hunter profile: bio, stage name, picture', () => {
  it('sets and clears the bio (empty or the text null are stored as no bio)', async () => {
    const h = await signUp(t.app, { hunter: true });
    const set = await put('/hunter/bio', h.auth, { bio: 'I hunt bounties.' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ bio: 'I hunt bounties.', userId: h.userId });
    expect((await put('/hunter/bio', h.auth, { bio: 'null' })).json().bio).toBeNull();
    await put('/hunter/bio', h.auth, { bio: 'again' });
    expect((await put('/hunter/bio', h.auth, { bio: '' })).json().bio).toBeNull();
    expect((await put('/hunter/bio', h.auth, { bio: 'b'.repeat(200) })).statusCode).toBe(200);
    expect((await put('/hunter/bio', h.auth, { bio: 'b'.repeat(201) })).statusCode).toBe(400);
  });

  it('sets and clears the stage name (30 at most)', async () => {
    const h = await signUp(t.app, { hunter: true });
    const res = await put('/hunter/stagename', h.auth, { stagename: 'The Hunter' });
    expect(res.statusCode).toBe(200);
    expect(res.json().stagename).toBe('The Hunter');
    expect(
      (await put('/hunter/stagename', h.auth, { stagename: 'null' })).json().stagename,
    ).toBeNull();
    expect((await put('/hunter/stagename', h.auth, { stagename: 's'.repeat(30) })).statusCode).toBe(
      200,
    );
    expect((await put('/hunter/stagename', h.auth, { stagename: 's'.repeat(31) })).statusCode).toBe(
      400,
    );
  });

  it('sets the picture to an uploaded image of the user', async () => {
    const h = await signUp(t.app, { hunter: true });
    const key = await insertMediaRow(t.db.handle.db, h.userId);
    const res = await put('/hunter/picture', h.auth, { picture: key });
    expect(res.statusCode).toBe(200);
    expect(res.json().picture).toBe(key);
  });

  it('refuses a missing, foreign, unfinished, private or video key', async () => {
    const h = await signUp(t.app, { hunter: true });
    const other = await signUp(t.app, { hunter: true });
    const keys = [
      'i-doesnotexist',
      await insertMediaRow(t.db.handle.db, other.userId),
      await insertMediaRow(t.db.handle.db, h.userId, { status: 'processing' }),
      await insertMediaRow(t.db.handle.db, h.userId, { visibility: 'private' }),
      await insertMediaRow(t.db.handle.db, h.userId, { kind: 'video' }),
    ];
    for (const key of keys) {
      const res = await put('/hunter/picture', h.auth, { picture: key });
      expect(res.statusCode, key).toBe(400);
    }
    const empty = await put('/hunter/picture', h.auth, { picture: '' });
    expect(empty.json().message).toBe(ACCOUNT_MSG.pictureRequired);
  });
});

describe('tax information: name, address, SSN', () => {
  it('sets the legal name, with SPEC.md limits and messages', async () => {
    const h = await signUp(t.app, { hunter: true });
    const ok = await put('/user/name', h.auth, { firstName: ' Ada ', lastName: 'Lovelace' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
    const blank = await put('/user/name', h.auth, { firstName: '  ', lastName: 'L' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe(ACCOUNT_MSG.firstNameRequired);
    const noLast = await put('/user/name', h.auth, { firstName: 'A', lastName: '' });
    expect(noLast.json().message).toBe(ACCOUNT_MSG.lastNameRequired);
    expect(
      (await put('/user/name', h.auth, { firstName: 'a'.repeat(31), lastName: 'L' })).statusCode,
    ).toBe(400);
  });

  it('sets the address, with SPEC.md limits and messages', async () => {
    const h = await signUp(t.app, { hunter: true });
    const address = { street: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' };
    const ok = await put('/user/address', h.auth, address);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.taxAddress).toEqual(address);
    const noStreet = await put('/user/address', h.auth, { ...address, street: ' ' });
    expect(noStreet.statusCode).toBe(400);
    expect(noStreet.json().message).toBe(ACCOUNT_MSG.streetRequired);
    expect((await put('/user/address', h.auth, { ...address, city: '' })).json().message).toBe(
      ACCOUNT_MSG.cityRequired,
    );
    expect((await put('/user/address', h.auth, { ...address, state: '' })).json().message).toBe(
      ACCOUNT_MSG.stateRequired,
    );
    expect((await put('/user/address', h.auth, { ...address, zip: '' })).json().message).toBe(
      ACCOUNT_MSG.zipRequired,
    );
    expect(
      (await put('/user/address', h.auth, { ...address, street: 's'.repeat(51) })).statusCode,
    ).toBe(400);
    expect(
      (await put('/user/address', h.auth, { ...address, state: 's'.repeat(21) })).json().message,
    ).toBe(ACCOUNT_MSG.tooLong('State', 20));
    // Missing or null: the blank field's message, not the validator's words.
    const { street: _street, ...noStreetField } = address;
    expect((await put('/user/address', h.auth, noStreetField)).json().message).toBe(
      ACCOUNT_MSG.streetRequired,
    );
    expect((await put('/user/address', h.auth, { ...address, zip: null })).json().message).toBe(
      ACCOUNT_MSG.zipRequired,
    );
  });

  it('stores the SSN encrypted and returns only the last four', async () => {
    const h = await signUp(t.app, { hunter: true });
    const ssn = '987654321';
    const res = await put(`/user/ssn/${ssn}`, h.auth);
    expect(res.statusCode).toBe(200);
    expect(res.json().user.ssnLastFour).toBe('4321');
    expect(res.body).not.toContain(ssn);
    const row = await dbUser(h.userId);
    expect(row.ssnEnc).toMatch(/^[0-9a-f]{8}:[^:]+:[^:]+:[^:]+$/);
    expect(row.ssnEnc).not.toContain(ssn);
    const me = await t.app.inject({ method: 'GET', url: '/user', headers: h.auth });
    expect(me.body).not.toContain(ssn);
    expect(me.body).not.toContain(row.ssnEnc!);
  });

  it.each(['12345678', '1234567890', '12345678a', '123-45-678'])(
    'refuses the SSN %s with the SPEC.md message',
    async (bad) => {
      const h = await signUp(t.app, { hunter: true });
      const res = await put(`/user/ssn/${encodeURIComponent(bad)}`, h.auth);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(ACCOUNT_MSG.ssnIncomplete);
    },
  );
});

describe('PUT /user/bank', () => {
  const good = {
    name: 'First Bank',
    accountType: 'savings',
    routingNumber: '011000015',
    accountNumber: '000123456789',
  };

  it('stores the account number encrypted and returns the last four', async () => {
    const h = await signUp(t.app, { hunter: true });
    const res = await put('/user/bank', h.auth, good);
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      bankAccountLastFour: '6789',
      bankInfo: { name: 'First Bank', accountType: 'savings', routingNumber: '011000015' },
    });
    expect(res.body).not.toContain(good.accountNumber);
    const row = await dbUser(h.userId);
    expect(row.bankAccountEnc).not.toContain(good.accountNumber);
    expect(t.app.root.ctx.config).toBeDefined();
  });

  it('defaults the account type to checking', async () => {
    const h = await signUp(t.app, { hunter: true });
    const { accountType: _omit, ...rest } = good;
    const res = await put('/user/bank', h.auth, rest);
    expect(res.json().user.bankInfo.accountType).toBe('checking');
  });

  it.each([
    [
      'a routing number with a bad check digit',
      { routingNumber: '011000016' },
      ACCOUNT_MSG.routingInvalid,
    ],
    ['an 8-digit routing number', { routingNumber: '01100001' }, ACCOUNT_MSG.routingInvalid],
    ['a 4-digit account number', { accountNumber: '1234' }, ACCOUNT_MSG.accountInvalid],
    ['a 21-digit account number', { accountNumber: '1'.repeat(21) }, ACCOUNT_MSG.accountInvalid],
    ['letters in the account number', { accountNumber: '12345a' }, ACCOUNT_MSG.accountInvalid],
    ['no bank name', { name: ' ' }, ACCOUNT_MSG.bankNameRequired],
    ['a 51-character bank name', { name: 'b'.repeat(51) }, ACCOUNT_MSG.tooLong('Bank name', 50)],
    // Missing or null: what the blank field answers (SPEC.md §5), not the validator's words.
    ['a missing bank name', { name: undefined }, ACCOUNT_MSG.bankNameRequired],
    ['a null routing number', { routingNumber: null }, ACCOUNT_MSG.routingInvalid],
    ['a missing account number', { accountNumber: undefined }, ACCOUNT_MSG.accountInvalid],
  ])('refuses %s', async (_what, change, message) => {
    const h = await signUp(t.app, { hunter: true });
    const res = await put('/user/bank', h.auth, { ...good, ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('accepts 5 and 20 digits', async () => {
    const h = await signUp(t.app, { hunter: true });
    expect((await put('/user/bank', h.auth, { ...good, accountNumber: '12345' })).statusCode).toBe(
      200,
    );
    expect(
      (await put('/user/bank', h.auth, { ...good, accountNumber: '1'.repeat(20) })).statusCode,
    ).toBe(200);
  });
});

describe('PUT /user/identity', () => {
  it('records two private uploads and sets the status to pending', async () => {
    const h = await signUp(t.app, { hunter: true });
    const idFront = await insertMediaRow(t.db.handle.db, h.userId, { visibility: 'private' });
    const idSelfie = await insertMediaRow(t.db.handle.db, h.userId, { visibility: 'private' });
    const res = await put('/user/identity', h.auth, { idFront, idSelfie, ageConfirmed: true });
    expect(res.statusCode).toBe(204);
    const me = await t.app.inject({ method: 'GET', url: '/user', headers: h.auth });
    expect(me.json().user.identityStatus).toBe('pending');
    expect(me.body).not.toContain(idFront);
  });

  it('needs both photos, private uploads of the user (the age confirmation is optional: identity.test.ts)', async () => {
    const h = await signUp(t.app, { hunter: true });
    const other = await signUp(t.app, { hunter: true });
    const priv = await insertMediaRow(t.db.handle.db, h.userId, { visibility: 'private' });
    const priv2 = await insertMediaRow(t.db.handle.db, h.userId, { visibility: 'private' });
    const pub = await insertMediaRow(t.db.handle.db, h.userId);
    const foreign = await insertMediaRow(t.db.handle.db, other.userId, { visibility: 'private' });
    const cases: [object, string | null][] = [
      [{ idSelfie: priv, ageConfirmed: true }, ACCOUNT_MSG.idFrontRequired],
      [{ idFront: priv, idSelfie: '', ageConfirmed: true }, ACCOUNT_MSG.idSelfieRequired],
      [{ idFront: priv, idSelfie: priv2, ageConfirmed: 'yes' }, null],
      [{ idFront: pub, idSelfie: priv2, ageConfirmed: true }, null],
      [{ idFront: foreign, idSelfie: priv2, ageConfirmed: true }, ACCOUNT_MSG.idFrontRequired],
      [{ idFront: priv, idSelfie: priv, ageConfirmed: true }, ACCOUNT_MSG.idSelfieRequired],
    ];
    for (const [body, message] of cases) {
      const res = await put('/user/identity', h.auth, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      if (message) expect(res.json().message).toBe(message);
    }
    expect((await dbUser(h.userId)).identityStatus).toBe('none');
  });
});

describe('secrets', () => {
  it('no SSN, account number or password appears in any log line of this file', async () => {
    const h = await signUp(t.app, { hunter: true });
    await put('/user/ssn/123454321', h.auth);
    await put('/user/ssn/12345432', h.auth);
    await put('/user/bank', h.auth, {
      name: 'Log Bank',
      routingNumber: '011000015',
      accountNumber: '55554444333322',
    });
    await put('/user/bank', h.auth, {
      name: 'Log Bank',
      routingNumber: '011000015',
      accountNumber: '5555444433332x',
    });
    const log = t.logs.join('');
    expect(log).toContain('/user/ssn/[REDACTED]');
    for (const secret of ['123454321', '12345432', '55554444333322', '5555444433332x', PASSWORD])
      expect(log).not.toContain(secret);
  });
});
