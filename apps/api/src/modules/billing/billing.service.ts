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
 * - Renewal (billing.jobs.ts): due one day before `active` ends; success extends `active`
 *   by a month from its end and credits silver; a decline retries after 1, 2 and 2 days,
 *   then the membership lapses (the join page offers "Welcome back!") and the member is
 *   mailed. Deterministic keys (user, period end, attempt) make a re-run of a crashed job
 *   reuse the processor's first answer instead of charging again.
 * - A plan change while active takes effect at the next renewal (`pendingMembership`).
 * - Card number and CVV go only to gateway.tokenize(); we keep brand, last four, expiry and
 *   the gateway's token.
 */
import crypto from 'node:crypto';
import {
  type CardInput,
  DEFAULT_PLAN_INDEX,
  formatCents,
  type MembershipAnswer,
  PAYMENT_MSG,
  PLANS,
} from '@bountyhunt/shared/billing';
import { hasRole, ROLE } from '@bountyhunt/shared/roles';
import type { User } from '@bountyhunt/shared/users';
import type { Actor, ServiceContext } from '../../context';
import { type AppError, badRequest, forbidden, paymentRequired, unauthorized } from '../../errors';
import { CardError, type CardToken, type PaymentGateway } from '../../payments/gateway';
import { presentUser } from '../users/users.present';
import { findDueRenewals, findUserById, lockUser, type UserRow } from '../users/users.read';
import type { UsersService } from '../users/users.service';
import { findChargeByKey, insertCharge, type ChargeRow } from './billing.repository';
import { creditSilver, silverHistory } from './silver.service';

const DAY_MS = 24 * 3600 * 1000;
/** A renewal is attempted this long before `active` ends, so a success never interrupts access. */
export const RENEWAL_LEAD_MS = DAY_MS;
/** Wait before each retry of a declined renewal; attempts = 1 + RETRY_DELAYS_MS.length. */
export const RETRY_DELAYS_MS = [DAY_MS, 2 * DAY_MS, 2 * DAY_MS] as const;
export const MAX_RENEWAL_ATTEMPTS = 1 + RETRY_DELAYS_MS.length;
/** Memberships that ended longer ago than this are never charged automatically. */
export const AUTO_RENEW_WINDOW_MS = 14 * DAY_MS;

/** Calendar month ahead in UTC, clamped to the month's last day (Jan 31 → Feb 28/29). */
export function addMonths(date: Date, months: number): Date {
  const d = new Date(date.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

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

export interface RenewalOutcome {
  userId: number;
  result: 'renewed' | 'declined' | 'lapsed' | 'skipped';
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
        const charge = await insertCharge(tx, {
          userId: user.id,
          idempotencyKey: key,
          kind: 'membership_start',
          planIndex: plan.index,
          amountCents: plan.priceCents,
          status: result.status,
          gatewayRef: result.status === 'succeeded' ? result.reference : null,
          failureMessage: result.status === 'declined' ? result.message : null,
          createdAt: now,
        });
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
      active: user.active ? user.active.toISOString() : null,
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
      nextRenewalAttemptAt: user.nextRenewalAttemptAt?.toISOString() ?? null,
    };
  }

  /** GET /user/silver */
  async silver(actor: Actor, query: { limit: number; before?: number }) {
    const user = await this.member(actor);
    return silverHistory(this.ctx.db, user.id, query);
  }

  /** The renewal job: every due membership, each in its own transaction. */
  async renewDue(): Promise<RenewalOutcome[]> {
    const outcomes: RenewalOutcome[] = [];
    const seen: number[] = [];
    for (;;) {
      const now = this.ctx.clock.now();
      const due = await findDueRenewals(this.ctx.db, {
        now,
        dueBefore: new Date(now.getTime() + RENEWAL_LEAD_MS),
        oldest: new Date(now.getTime() - AUTO_RENEW_WINDOW_MS),
        maxFailures: MAX_RENEWAL_ATTEMPTS,
        skip: seen,
        limit: 100,
      });
      if (due.length === 0) break;
      for (const { id } of due) {
        seen.push(id);
        try {
          outcomes.push(await this.renewOne(id));
        } catch (err) {
          // One member's failure must not stop the others; the next run tries again.
          this.ctx.log.error({ userId: id, err }, 'membership renewal failed');
        }
      }
    }
    const counts = outcomes.reduce<Record<string, number>>((acc, o) => {
      acc[o.result] = (acc[o.result] ?? 0) + 1;
      return acc;
    }, {});
    if (outcomes.length > 0) this.ctx.log.info({ renewals: counts }, 'membership renewals ran');
    return outcomes;
  }

  private async renewOne(userId: number): Promise<RenewalOutcome> {
    const outcome = await this.ctx.db.transaction(async (tx) => {
      const user = await lockUser(tx, userId);
      const now = this.ctx.clock.now();
      // Re-check under the lock: another worker may have renewed it meanwhile.
      if (
        !user ||
        !user.active ||
        !user.cardToken ||
        user.membership === null ||
        !hasRole(user.role, ROLE.member) ||
        user.active.getTime() > now.getTime() + RENEWAL_LEAD_MS ||
        user.renewalFailures >= MAX_RENEWAL_ATTEMPTS ||
        (user.nextRenewalAttemptAt && user.nextRenewalAttemptAt.getTime() > now.getTime())
      )
        return { result: 'skipped' as const };
      const planIndex = user.pendingMembership ?? user.membership;
      const plan = PLANS[planIndex] ?? PLANS[DEFAULT_PLAN_INDEX];
      const attempt = user.renewalFailures + 1;
      const key = `renewal:${user.id}:${user.active.toISOString()}:${attempt}`;
      const result = await this.gateway.charge({
        token: user.cardToken,
        amountCents: plan.priceCents,
        currency: 'usd',
        idempotencyKey: key,
        description: `BountyHunt ${plan.name} membership renewal`,
      });
      const charge = await insertCharge(tx, {
        userId: user.id,
        idempotencyKey: key,
        kind: 'renewal',
        planIndex: plan.index,
        amountCents: plan.priceCents,
        status: result.status,
        gatewayRef: result.status === 'succeeded' ? result.reference : null,
        failureMessage: result.status === 'declined' ? result.message : null,
        createdAt: now,
      });
      if (result.status === 'succeeded') {
        const base = user.active.getTime() > now.getTime() ? user.active : now;
        await this.users.update(
          user.id,
          {
            membership: plan.index,
            pendingMembership: null,
            active: addMonths(base, 1),
            renewalFailures: 0,
            nextRenewalAttemptAt: null,
            updatedAt: now,
          },
          tx,
        );
        await creditSilver(tx, user.id, plan.silver, 'renewal', charge.id, { at: now });
        return { result: 'renewed' as const, user, plan };
      }
      const lapsed = attempt >= MAX_RENEWAL_ATTEMPTS;
      await this.users.update(
        user.id,
        {
          renewalFailures: attempt,
          nextRenewalAttemptAt: lapsed
            ? null
            : new Date(now.getTime() + RETRY_DELAYS_MS[attempt - 1]!),
          updatedAt: now,
        },
        tx,
      );
      return {
        result: lapsed ? ('lapsed' as const) : ('declined' as const),
        user,
        plan,
        attempt,
        message: result.message,
      };
    });
    if (outcome.result === 'lapsed') await this.mailLapsed(outcome.user, outcome.message);
    else if (outcome.result === 'declined' && outcome.attempt === 1)
      await this.mailDeclined(outcome.user, outcome.plan.priceCents, outcome.message);
    return { userId, result: outcome.result };
  }

  private async mailDeclined(user: UserRow, amountCents: number, reason: string): Promise<void> {
    const link = `${this.ctx.config.PUBLIC_WEB_URL}/account/payment`;
    await this.safeMail(user, {
      subject: 'Your BountyHunt payment was declined',
      lines: [
        `We could not renew your BountyHunt membership: the ${formatCents(amountCents)} charge to your card ending in ${user.cardLastFour ?? '????'} failed (${reason})`,
        'We will try again over the next few days. To keep your membership, update your card:',
      ],
      link,
      button: 'Update your card',
    });
  }

  private async mailLapsed(user: UserRow, reason: string): Promise<void> {
    const link = `${this.ctx.config.PUBLIC_WEB_URL}/join`;
    await this.safeMail(user, {
      subject: 'Your BountyHunt membership has ended',
      lines: [
        `We tried several times to renew your membership, but the charge to your card ending in ${user.cardLastFour ?? '????'} failed (${reason})`,
        'Your membership has ended. You can restart it at any time:',
      ],
      link,
      button: 'Restart Membership',
    });
  }

  private async safeMail(
    user: UserRow,
    m: { subject: string; lines: string[]; link: string; button: string },
  ): Promise<void> {
    const esc = (s: string) =>
      s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
    const text = `${m.lines.join('\n\n')}\n\n${m.link}\n\nBountyHunt`;
    const html = `<!doctype html><html><body style="margin:0;background:#303030;font-family:Arial,sans-serif;color:#ffffff">
<div style="max-width:520px;margin:0 auto;padding:32px 24px;background:#424242">
<h1 style="color:#d83e86;font-size:22px;margin:0 0 16px">BountyHunt</h1>
${m.lines.map((l) => `<p style="line-height:1.5">${esc(l)}</p>`).join('\n')}
<p style="margin:24px 0"><a href="${esc(m.link)}" style="background:#d83e86;color:#ffffff;padding:10px 18px;border-radius:4px;text-decoration:none">${esc(m.button)}</a></p>
</div></body></html>`;
    try {
      await this.ctx.mailer.send({ to: user.email, subject: m.subject, text, html });
    } catch (err) {
      this.ctx.log.error({ userId: user.id, err }, 'billing mail could not be sent');
    }
  }
}

export const RENEW_JOB = 'billing.renew-memberships';
