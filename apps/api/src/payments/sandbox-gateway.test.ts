import { describe, expect, it } from 'vitest';
import { ManualClock } from '../lib/clock';
import { CardError } from './gateway';
import { SANDBOX_CARDS, SandboxGateway, isExpired } from './sandbox-gateway';

const clock = new ManualClock(new Date('2026-11-23T12:00:00Z'));
const card = (over: Partial<Parameters<SandboxGateway['tokenize']>[0]> = {}) => ({
  number: SANDBOX_CARDS.success,
  cvv: '123',
  month: 12,
  year: 2030,
  name: 'Ada Lovelace',
  zip: '10001',
  ...over,
});

async function cardError(p: Promise<unknown>): Promise<CardError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof CardError) return err;
    throw err;
  }
  throw new Error('expected a CardError');
}

describe('sandbox gateway (a card processor test mode)', () => {
  it('tokenizes a Luhn-valid card with a future expiry, keeping only brand, last four and expiry', async () => {
    const gw = new SandboxGateway(clock);
    const t = await gw.tokenize(card());
    expect(t).toMatchObject({ brand: 'Visa', lastFour: '4242', expMonth: 12, expYear: 2030 });
    expect(t.token).not.toContain('4242424242424242');
    // Nothing but brand, last four, expiry and a token of fixed shape: no name, zip or CVV.
    // (The token's 24 random hex digits may hold any three digits, so the shape is checked.)
    expect(Object.keys(t).sort()).toEqual(['brand', 'expMonth', 'expYear', 'lastFour', 'token']);
    expect(t.token).toMatch(/^sbtok_ok_203012_[0-9a-f]{24}$/);
    const mc = await gw.tokenize(card({ number: '5555555555554444' }));
    expect(mc.brand).toBe('Mastercard');
  });

  it('refuses a Luhn-invalid number, a past expiry and the declined test card', async () => {
    const gw = new SandboxGateway(clock);
    expect((await cardError(gw.tokenize(card({ number: '4242424242424241' })))).code).toBe(
      'incorrect_number',
    );
    const expired = await cardError(gw.tokenize(card({ month: 10, year: 2026 })));
    expect(expired).toMatchObject({ code: 'expired_card', message: 'Your card has expired.' });
    // The expiry month itself is still valid.
    await expect(gw.tokenize(card({ month: 11, year: 2026 }))).resolves.toBeTruthy();
    const declined = await cardError(gw.tokenize(card({ number: SANDBOX_CARDS.declined })));
    expect(declined).toMatchObject({ code: 'card_declined', message: 'Your card was declined.' });
  });

  it('charges, answers a repeated idempotency key with the first result, and refunds', async () => {
    const gw = new SandboxGateway(clock);
    const { token } = await gw.tokenize(card());
    const req = { token, amountCents: 2299, currency: 'usd' as const, description: 'x' };
    const a = await gw.charge({ ...req, idempotencyKey: 'k1' });
    const b = await gw.charge({ ...req, idempotencyKey: 'k1' });
    const c = await gw.charge({ ...req, idempotencyKey: 'k2' });
    expect(a.status).toBe('succeeded');
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    if (a.status !== 'succeeded') throw new Error('unreachable');
    const r1 = await gw.refund({ reference: a.reference, amountCents: 2299, idempotencyKey: 'r' });
    const r2 = await gw.refund({ reference: a.reference, amountCents: 2299, idempotencyKey: 'r' });
    expect(r1).toEqual(r2);
  });

  it('declines charges on the "declines charges" test card and on a card that expired since', async () => {
    const local = new ManualClock(new Date('2026-11-23T12:00:00Z'));
    const gw = new SandboxGateway(local);
    const bad = await gw.tokenize(card({ number: SANDBOX_CARDS.declinesCharges }));
    const req = { amountCents: 699, currency: 'usd' as const, description: 'x' };
    expect(await gw.charge({ ...req, token: bad.token, idempotencyKey: 'a' })).toMatchObject({
      status: 'declined',
      code: 'card_declined',
    });
    const soon = await gw.tokenize(card({ month: 12, year: 2026 }));
    expect((await gw.charge({ ...req, token: soon.token, idempotencyKey: 'b' })).status).toBe(
      'succeeded',
    );
    local.set(new Date('2027-01-01T00:00:00Z'));
    expect(await gw.charge({ ...req, token: soon.token, idempotencyKey: 'c' })).toMatchObject({
      status: 'declined',
      code: 'expired_card',
    });
    expect((await gw.charge({ ...req, token: 'tok_forged', idempotencyKey: 'd' })).status).toBe(
      'declined',
    );
  });

  it('treats a card as valid through the last instant of its expiry month', () => {
    expect(isExpired(2, 2028, new Date('2028-02-29T23:59:59Z'))).toBe(false);
    expect(isExpired(2, 2028, new Date('2028-03-01T00:00:00Z'))).toBe(true);
    expect(isExpired(12, 2027, new Date('2027-12-31T23:00:00Z'))).toBe(false);
    expect(isExpired(12, 2027, new Date('2028-01-01T00:00:00Z'))).toBe(true);
  });
});
