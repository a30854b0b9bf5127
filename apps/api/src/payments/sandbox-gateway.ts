/**
 * The embedded default gateway: behaves like a card processor's test mode (CONTRACT.md).
 * - Luhn-valid numbers with a future expiry are accepted and charge successfully.
 * - 4000000000000002 is declined ("Your card was declined.").
 * - 4000000000000341 is accepted when saved but every charge on it is declined (as in
 *   Stripe's test mode): it exercises declined renewals.
 * - The expiry must not have passed, both when saving and when charging.
 *
 * It is stateless across restarts: the token carries the card's test behaviour and expiry
 * (nothing secret), so renewals keep working after the process restarts. Idempotency keys
 * are remembered in memory for the life of the process, like a processor's 24 h window.
 */
import crypto from 'node:crypto';
import { cardBrandOf, isLuhnValid, PAYMENT_MSG } from '@bountyhunt/shared/billing';
import type { Clock } from '../lib/clock';
import {
  CardError,
  type CardDetails,
  type CardToken,
  type ChargeRequest,
  type ChargeResult,
  type PaymentGateway,
  type RefundRequest,
} from './gateway';

export const SANDBOX_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  declinesCharges: '4000000000000341',
} as const;

type Behaviour = 'ok' | 'decline_charges';

const TOKEN_RE = /^sbtok_(ok|decline_charges)_(\d{4})(\d{2})_[0-9a-f]{24}$/;

/** True when the card's last valid day (end of the expiry month, UTC) has passed. */
export function isExpired(month: number, year: number, now: Date): boolean {
  const endOfMonth = Date.UTC(year, month, 1); // first instant of the following month
  return now.getTime() >= endOfMonth;
}

export class SandboxGateway implements PaymentGateway {
  readonly name = 'sandbox';
  private readonly charges = new Map<string, ChargeResult>();
  private readonly refunds = new Map<string, { reference: string }>();

  constructor(private readonly clock: Clock) {}

  async tokenize(card: CardDetails): Promise<CardToken> {
    const number = card.number.replace(/\s+/g, '');
    if (!/^\d{12,19}$/.test(number) || !isLuhnValid(number))
      throw new CardError('incorrect_number', PAYMENT_MSG.incorrectNumber);
    if (card.month < 1 || card.month > 12 || isExpired(card.month, card.year, this.clock.now()))
      throw new CardError('expired_card', PAYMENT_MSG.expired);
    if (number === SANDBOX_CARDS.declined)
      throw new CardError('card_declined', PAYMENT_MSG.declined);
    const behaviour: Behaviour =
      number === SANDBOX_CARDS.declinesCharges ? 'decline_charges' : 'ok';
    const exp = `${String(card.year).padStart(4, '0')}${String(card.month).padStart(2, '0')}`;
    return {
      token: `sbtok_${behaviour}_${exp}_${crypto.randomBytes(12).toString('hex')}`,
      brand: cardBrandOf(number),
      lastFour: number.slice(-4),
      expMonth: card.month,
      expYear: card.year,
    };
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const earlier = this.charges.get(request.idempotencyKey);
    if (earlier) return earlier;
    const result = this.decide(request);
    this.charges.set(request.idempotencyKey, result);
    return result;
  }

  async refund(request: RefundRequest): Promise<{ reference: string }> {
    const earlier = this.refunds.get(request.idempotencyKey);
    if (earlier) return earlier;
    if (!request.reference.startsWith('sbch_')) throw new Error('Unknown charge reference.');
    const result = { reference: `sbre_${crypto.randomBytes(12).toString('hex')}` };
    this.refunds.set(request.idempotencyKey, result);
    return result;
  }

  private decide(request: ChargeRequest): ChargeResult {
    const m = TOKEN_RE.exec(request.token);
    if (!m || !Number.isInteger(request.amountCents) || request.amountCents <= 0)
      return { status: 'declined', code: 'card_declined', message: PAYMENT_MSG.declined };
    if (isExpired(Number(m[3]), Number(m[2]), this.clock.now()))
      return { status: 'declined', code: 'expired_card', message: PAYMENT_MSG.expired };
    if (m[1] === 'decline_charges')
      return { status: 'declined', code: 'card_declined', message: PAYMENT_MSG.declined };
    return { status: 'succeeded', reference: `sbch_${crypto.randomBytes(12).toString('hex')}` };
  }
}
