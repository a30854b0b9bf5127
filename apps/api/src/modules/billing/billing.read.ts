/** What other modules read of billing: a user's payments, for the admin console. */
import type { AdminUserPayment } from '@bountyhunt/shared/admin-users';
import type { DbOrTx } from '../../db/client';
import { iso } from '../../lib/dates';
import { listCharges, refundedChargeIds } from './billing.repository';

const MEMBERSHIP_KINDS = new Set(['membership_start', 'renewal']);

/** Every charge and refund of the user, newest first, with whether it can still be refunded. */
export async function paymentsOf(db: DbOrTx, userId: number): Promise<AdminUserPayment[]> {
  const [rows, refunded] = await Promise.all([
    listCharges(db, userId),
    refundedChargeIds(db, userId),
  ]);
  return rows.reverse().map((c) => {
    const isRefunded = refunded.has(c.id);
    return {
      chargeId: c.id,
      kind: c.kind,
      planIndex: c.planIndex,
      amountCents: c.amountCents,
      status: c.status,
      refunded: isRefunded,
      refundable:
        MEMBERSHIP_KINDS.has(c.kind) && c.status === 'succeeded' && !!c.gatewayRef && !isRefunded,
      created: iso(c.createdAt),
    };
  });
}
