/**
 * Memberships and cards (CONTRACT.md "Money and tokens", SPEC.md §4 Membership).
 *
 * Money rules:
 * - A charge goes through the payment gateway with an idempotency key and is recorded in
 *   `charges` in the same transaction that extends `active` and credits the plan's silver.
 *   The member's row is locked (SELECT … FOR UPDATE) for that transaction, so concurrent
 *   start requests or renewal workers charge once: the second sees the first's result.
 * - Start: POST /user/membership charges the plan price, sets `active` one month ahead and
 *   credits the plan's silver. A member who is already active is answered without a charge;
 *   a repeated `Idempotency-Key` gets the first answer (200 or the same 402).
 * - Renewal: renewal.service.ts.
 * - A plan change while active takes effect at the next renewal (`pendingMembership`).
 * - Card number and CVV go only to gateway.tokenize(); we keep brand, last four, expiry and
 *   the gateway's token.
 */
import crypto from 'node:crypto';
import {
  type CardInput,
  DEFAULT_PLAN_INDEX,
  type MembershipAnswer,
  PAYMENT_MSG,
  PLANS,
} from '@bountyhunt/shared/billing';
import { hasRole, ROLE } from '@bountyhunt/shared/roles';
import type { User } from '@bountyhunt/shared/users';
import type { Actor, ServiceContext } from '../../context';
import { type AppError, badRequest, forbidden, paymentRequired, unauthorized } from '../../errors';
import { isoOrNull } from '../../lib/dates';
import { CardError, type CardToken, type PaymentGateway } from '../../payments/gateway';
import { presentUser } from '../users/users.present';
import { findUserById, lockUser, type UserRow } from '../users/users.read';
import type { UsersService } from '../users/users.service';
import { findChargeByKey, recordCharge, type ChargeRow } from './billing.repository';
import { addMonths, MAX_RENEWAL_ATTEMPTS, RENEW_JOB } from './membership-terms';
import { recordMemberPayment } from '../payouts/ledger.service';
import { creditSilver, silverHistory } from './silver.service';

const CARD_ERROR_CODES: Record<CardError['code'], string> = {
  card_declined: 'CARD_DECLINED',
  expired_card: 'EXPIRED_CARD',
  incorrect_number: 'INCORRECT_NUMBER',
};

function cardFailure(code: CardError['code'], message: string): AppError {
  return paymentRequired(message, CARD_ERROR_CODES[code]);
}

function cardColumns(card: CardToken) {
  return {
    cardBrand: card.brand,
    cardLastFour: card.lastFour,
    cardExpMonth: card.expMonth,
    cardExpYear: card.expYear,
    cardToken: card.token,
  };
}

export class BillingService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly gateway: PaymentGateway,
    private readonly users: UsersService,
  ) {}

  private async member(actor: Actor): Promise<UserRow> {
    const user = await findUserById(this.ctx.db, actor.userId);
    if (!user) throw unauthorized();
    if (!hasRole(user.role, ROLE.member)) throw forbidden();
    return user;
  }

  private isActive(user: UserRow, now = this.ctx.clock.now()): boolean {
    return !!user.active && user.active.getTime() > now.getTime();
  }

  private async tokenize(card: CardInput): Promise<CardToken> {
    try {
      return await this.gateway.tokenize({
        number: card.number,
        cvv: card.cvv,
        month: card.month,
        year: card.year,
        name: card.name,
        zip: card.zip,
      });
    } catch (err) {
      if (err instanceof CardError) throw cardFailure(err.code, err.message);
      throw err;
    }
  }

  /**
   * PUT /user/membership/{planIndex}: chooses the plan. Not active: it is the plan the next
   * start charges. Active: it replaces the current plan at the next renewal.
   */
  async choosePlan(actor: Actor, planIndex: number): Promise<User> {
    if (!PLANS[planIndex]) throw badRequest(PAYMENT_MSG.planInvalid, 'PLAN_INVALID');
    const user = await this.member(actor);
    const values = this.isActive(user)
      ? { pendingMembership: planIndex === user.membership ? null : planIndex }
      : { membership: planIndex, pendingMembership: null };
    const row = await this.users.update(user.id, { ...values, updatedAt: this.ctx.clock.now() });
    return presentUser(row!);
  }

  /** POST /user/membership: starts (or restarts) the membership; see the file comment. */
  async startMembership(actor: Actor, card: CardInput, clientKey?: string): Promise<User> {
    const member = await this.member(actor);
    const key = `start:${member.id}:${clientKey ?? crypto.randomUUID()}`;
    if (clientKey) {
      const earlier = await findChargeByKey(this.ctx.db, key);
      if (earlier) return this.answerEarlier(earlier);
    }
    const token = await this.tokenize(card);

    const state: { charged?: { reference: string; amountCents: number } } = {};
    try {
      const outcome = await this.ctx.db.transaction(async (tx) => {
        const user = await lockUser(tx, member.id);
        if (!user) throw unauthorized();
        const earlier = clientKey ? await findChargeByKey(tx, key) : undefined;
        if (earlier) return { kind: 'earlier' as const, earlier };
        const now = this.ctx.clock.now();
        // Already a member (a retried or concurrent start that won): nothing to charge.
        if (this.isActive(user, now)) return { kind: 'user' as const, user };
        const planIndex = user.pendingMembership ?? user.membership ?? DEFAULT_PLAN_INDEX;
        const plan = PLANS[planIndex] ?? PLANS[DEFAULT_PLAN_INDEX];
        const result = await this.gateway.charge({
          token: token.token,
          amountCents: plan.priceCents,
          currency: 'usd',
          idempotencyKey: key,
          description: `BountyHunt ${plan.name} membership`,
        });
        const charge = await recordCharge(
          tx,
          {
            userId: user.id,
            idempotencyKey: key,
            kind: 'membership_start',
            planIndex: plan.index,
            amountCents: plan.priceCents,
            createdAt: now,
          },
          result,
        );
        if (result.status === 'declined') return { kind: 'declined' as const, declined: result };
        state.charged = { reference: result.reference, amountCents: plan.priceCents };
        const updated = await this.users.update(
          user.id,
          {
            ...cardColumns(token),
            membership: plan.index,
            pendingMembership: null,
            active: addMonths(now, 1),
            renewalFailures: 0,
            nextRenewalAttemptAt: null,
            updatedAt: now,
          },
          tx,
        );
        const silver = await creditSilver(tx, user.id, plan.silver, 'membership', charge.id, {
          at: now,
        });
        await recordMemberPayment(tx, {
          chargeId: charge.id,
          cents: plan.priceCents,
          kind: 'membership',
          at: now,
        });
        return { kind: 'user' as const, user: { ...updated!, silver } };
      });
      if (outcome.kind === 'earlier') return this.answerEarlier(outcome.earlier);
      if (outcome.kind === 'declined')
        throw cardFailure(outcome.declined.code, outcome.declined.message);
      return presentUser(outcome.user);
    } catch (err) {
      if (state.charged) await this.refundAfterFailure(member.id, key, state.charged);
      throw err;
    }
  }

  /** A repeated Idempotency-Key gets the first request's answer. */
  private async answerEarlier(charge: ChargeRow): Promise<User> {
    if (charge.status === 'declined')
      throw paymentRequired(charge.failureMessage ?? PAYMENT_MSG.declined, 'CARD_DECLINED');
    const user = await findUserById(this.ctx.db, charge.userId);
    if (!user) throw unauthorized();
    return presentUser(user);
  }

  /** The charge went through but recording it failed: give the money back. */
  private async refundAfterFailure(
    userId: number,
    key: string,
    charged: { reference: string; amountCents: number },
  ): Promise<void> {
    try {
      await this.gateway.refund({
        reference: charged.reference,
        amountCents: charged.amountCents,
        idempotencyKey: `refund:${key}`,
      });
      this.ctx.log.warn({ userId }, 'membership charge refunded after a failed transaction');
    } catch (refundErr) {
      this.ctx.log.error(
        { userId, gatewayRef: charged.reference, err: refundErr },
        'membership charge could not be refunded after a failed transaction',
      );
    }
  }

  /** PUT /user/card: replaces the card on file. A member whose renewal is being retried is retried now. */
  async replaceCard(actor: Actor, card: CardInput): Promise<void> {
    const member = await this.member(actor);
    const token = await this.tokenize(card);
    const now = this.ctx.clock.now();
    const retrying =
      member.renewalFailures > 0 &&
      member.renewalFailures < MAX_RENEWAL_ATTEMPTS &&
      member.nextRenewalAttemptAt !== null;
    await this.users.update(member.id, {
      ...cardColumns(token),
      ...(retrying ? { nextRenewalAttemptAt: now } : {}),
      updatedAt: now,
    });
    if (retrying) await this.ctx.jobs.send(RENEW_JOB, {}, { singletonKey: 'renew-now' });
  }

  /** GET /user/membership */
  async summary(actor: Actor): Promise<MembershipAnswer> {
    const user = await this.member(actor);
    return {
      status: !user.active ? 'none' : this.isActive(user) ? 'active' : 'expired',
      membership: user.membership,
      pendingMembership: user.pendingMembership,
      active: isoOrNull(user.active),
      card:
        user.cardToken && user.cardLastFour
          ? {
              brand: user.cardBrand ?? 'Card',
              lastFour: user.cardLastFour,
              expMonth: user.cardExpMonth ?? 0,
              expYear: user.cardExpYear ?? 0,
            }
          : null,
      renewalFailures: user.renewalFailures,
      nextRenewalAttemptAt: isoOrNull(user.nextRenewalAttemptAt),
    };
  }

  /** GET /user/silver */
  async silver(actor: Actor, query: { limit: number; before?: number }) {
    const user = await this.member(actor);
    return silverHistory(this.ctx.db, user.id, query);
  }
}
