/**
 * Refunds (issue 18): an admin gives a member's membership payment back. The money goes back
 * to the card through the gateway first (nothing is recorded when that fails); then, in one
 * transaction, the refund's charge row, the plan's silver the member still holds taken back,
 * and the ledger: cash out, the silver no longer owed, and what hunters earned from the part
 * already spent taken back from them while unpaid (newest votes first). Audited.
 */
import { PLANS } from '@bountyhunt/shared/billing';
import { REFUND_MSG, type RefundAnswer } from '@bountyhunt/shared/admin-users';
import { MICROS_PER_CENT } from '@bountyhunt/shared/payouts';
import type { Actor, ServiceContext } from '../../context';
import { isUniqueViolation } from '../../db/errors';
import { conflict, notFound } from '../../errors';
import type { PaymentGateway } from '../../payments/gateway';
import type { UsersService } from '../users/users.service';
import type { AuditService } from '../admin/audit.service';
import { votesOfSince } from '../bounties/bounties.read';
import type { BountiesService } from '../bounties/bounties.service';
import { creatorPart, recordRefund, silverValueMicros } from '../payouts/ledger.service';
import { lockUser } from '../users/users.read';
import { findCharge, findChargeByKey, recordCharge, REFUND_KEY_PREFIX } from './billing.repository';
import { debitSilver } from './silver.service';

const REFUNDABLE = new Set(['membership_start', 'renewal']);

export class RefundService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly gateway: PaymentGateway,
    private readonly deps: { bounties: BountiesService; audit: AuditService; users: UsersService },
  ) {}

  /** POST /admin/users/{userId}/refund */
  async refund(
    actor: Actor,
    userId: number,
    input: { chargeId: number; reason: string },
    ip: string | null,
  ): Promise<RefundAnswer> {
    const db = this.ctx.db;
    const charge = await findCharge(db, input.chargeId);
    if (!charge || charge.userId !== userId)
      throw notFound(REFUND_MSG.notFound, 'CHARGE_NOT_FOUND');
    if (!REFUNDABLE.has(charge.kind) || charge.status !== 'succeeded' || !charge.gatewayRef)
      throw conflict(REFUND_MSG.notRefundable, 'NOT_REFUNDABLE');
    const key = `${REFUND_KEY_PREFIX}${charge.id}`;
    if (await findChargeByKey(db, key)) throw conflict(REFUND_MSG.already, 'ALREADY_REFUNDED');
    // The member's votes so far become ledger earnings first, so they can be taken back.
    await this.deps.bounties.settleEarnings();
    // The gateway answers a repeated key with the first refund: a retry never refunds twice.
    const result = await this.gateway.refund({
      reference: charge.gatewayRef,
      amountCents: charge.amountCents,
      idempotencyKey: key,
    });
    const now = this.ctx.clock.now();
    const plan = PLANS[charge.planIndex ?? 0] ?? PLANS[0];
    try {
      const refunded = await db.transaction(async (tx) => {
        await recordCharge(
          tx,
          {
            userId,
            idempotencyKey: key,
            kind: 'refund',
            planIndex: plan.index,
            amountCents: charge.amountCents,
            createdAt: now,
          },
          { status: 'succeeded', reference: result.reference },
        );
        const user = await lockUser(tx, userId);
        if (!user) throw notFound(REFUND_MSG.notFound, 'CHARGE_NOT_FOUND');
        const taken = Math.min(user.silver, plan.silver);
        if (taken > 0) await debitSilver(tx, userId, taken, 'refund', charge.id, { at: now });
        let left = plan.silver - taken;
        const spent: { claimId: number; hunterMicros: number }[] = [];
        for (const v of await votesOfSince(tx, userId, charge.createdAt)) {
          if (left <= 0) break;
          const k = Math.min(v.value, left);
          spent.push({
            claimId: v.claimId,
            hunterMicros: creatorPart(
              silverValueMicros(plan.index, k),
              this.ctx.config.CREATOR_SHARE,
            ),
          });
          left -= k;
        }
        const reversed = await recordRefund(tx, {
          chargeId: charge.id,
          cents: charge.amountCents,
          silverTakenMicros: silverValueMicros(plan.index, taken),
          spent,
          at: now,
        });
        const answer: RefundAnswer = {
          chargeId: charge.id,
          refundedCents: charge.amountCents,
          silverTaken: taken,
          earningsReversedCents: Math.floor(reversed / MICROS_PER_CENT),
        };
        await this.deps.audit.record(
          {
            actorId: actor.userId,
            action: 'user.refund',
            targetType: 'user',
            targetId: userId,
            before: { silver: user.silver },
            after: { silver: user.silver - taken, ...answer, reason: input.reason },
            ip,
          },
          tx,
        );
        return answer;
      });
      this.deps.users.changed([userId]);
      return refunded;
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(REFUND_MSG.already, 'ALREADY_REFUNDED');
      throw err;
    }
  }
}
