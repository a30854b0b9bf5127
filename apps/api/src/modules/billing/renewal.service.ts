/**
 * Membership renewals (the billing.renew-memberships job): due one day before `active` ends;
 * success extends `active` by a month from its end and credits silver; a decline retries after
 * 1, 2 and 2 days, then the membership lapses (the join page offers "Welcome back!") and the
 * member is mailed. Each member renews in its own transaction with its row locked, and
 * deterministic idempotency keys (user, period end, attempt) make a re-run of a crashed job
 * reuse the processor's first answer instead of charging again.
 */
import { DEFAULT_PLAN_INDEX, formatCents, PLANS } from '@bountyhunt/shared/billing';
import { hasRole, ROLE } from '@bountyhunt/shared/roles';
import type { ServiceContext } from '../../context';
import type { PaymentGateway } from '../../payments/gateway';
import { findDueRenewals, lockUser, type UserRow } from '../users/users.read';
import type { UsersService } from '../users/users.service';
import { recordCharge } from './billing.repository';
import {
  addMonths,
  AUTO_RENEW_WINDOW_MS,
  MAX_RENEWAL_ATTEMPTS,
  RENEWAL_LEAD_MS,
  RETRY_DELAYS_MS,
} from './membership-terms';
import { recordMemberPayment } from '../payouts/ledger.service';
import { creditSilver } from './silver.service';

export interface RenewalOutcome {
  userId: number;
  result: 'renewed' | 'declined' | 'lapsed' | 'skipped';
}

export class RenewalService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly gateway: PaymentGateway,
    private readonly users: UsersService,
  ) {}

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
      const charge = await recordCharge(
        tx,
        {
          userId: user.id,
          idempotencyKey: key,
          kind: 'renewal',
          planIndex: plan.index,
          amountCents: plan.priceCents,
          createdAt: now,
        },
        result,
      );
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
        await recordMemberPayment(tx, {
          chargeId: charge.id,
          cents: plan.priceCents,
          kind: 'renewal',
          at: now,
        });
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
