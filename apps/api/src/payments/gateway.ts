/**
 * The payment gateway seam (CONTRACT.md "Money and tokens"). Billing talks to a processor
 * only through this interface, so a real one (Stripe, Adyen, Braintree…) plugs in by
 * implementing it; the embedded default is the sandbox in sandbox-gateway.ts.
 *
 * Card number and CVV enter through `tokenize` and go nowhere else: callers keep only
 * what `CardToken` carries (brand, last four, expiry and the gateway's token).
 */
export interface CardDetails {
  /** Digits only. */
  number: string;
  cvv: string;
  month: number;
  /** Four digits. */
  year: number;
  name: string;
  zip: string;
}

export interface CardToken {
  /** The gateway's reusable reference to the card; safe to store. */
  token: string;
  brand: string;
  lastFour: string;
  expMonth: number;
  expYear: number;
}

export interface ChargeRequest {
  token: string;
  amountCents: number;
  currency: 'usd';
  /** The processor answers a repeated key with the first result instead of charging again. */
  idempotencyKey: string;
  description: string;
}

export type ChargeResult =
  | { status: 'succeeded'; reference: string }
  | { status: 'declined'; code: CardErrorCode; message: string };

export interface RefundRequest {
  reference: string;
  amountCents: number;
  idempotencyKey: string;
}

export type CardErrorCode = 'card_declined' | 'expired_card' | 'incorrect_number';

/** A card the processor refuses to accept (answered as 402 with `message`). */
export class CardError extends Error {
  constructor(
    readonly code: CardErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CardError';
  }
}

export interface PaymentGateway {
  readonly name: string;
  /** Validates the card with the processor and returns a reusable token; throws CardError. */
  tokenize(card: CardDetails): Promise<CardToken>;
  /** Charges a tokenized card. A decline is a result, not an exception. */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  refund(request: RefundRequest): Promise<{ reference: string }>;
}
