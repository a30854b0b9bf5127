/**
 * The operations dashboard (issue 17 part 2): counts from each owning module's read interface
 * and the job queue's states. Every count is one indexed statement.
 */
import { PLANS } from '@bountyhunt/shared/billing';
import type { DashboardAnswer } from '@bountyhunt/shared/admin';
import type { ServiceContext } from '../../context';
import { activitySince } from '../bounties/bounties.read';
import { countPendingIdentities } from '../identity/identity.read';
import { countReportedItems } from '../moderation/moderation.read';
import { userTotals } from '../users/users.read';

export class DashboardService {
  constructor(private readonly ctx: ServiceContext) {}

  async dashboard(): Promise<DashboardAnswer> {
    const now = this.ctx.clock.now();
    const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const db = this.ctx.db;
    const [totals, activity, openReports, pendingIdentities, jobs] = await Promise.all([
      userTotals(db, now),
      activitySince(db, since),
      countReportedItems(db),
      countPendingIdentities(db),
      this.ctx.jobs.stats(),
    ]);
    let activeMembers = 0;
    let mrrCents = 0;
    for (const [plan, n] of totals.activeByPlan) {
      activeMembers += n;
      mrrCents += n * (PLANS[plan]?.priceCents ?? 0);
    }
    return {
      users: totals.users,
      activeMembers,
      mrrCents,
      claimsToday: activity.claims,
      votesToday: activity.votes,
      openReports,
      pendingIdentities,
      jobs,
      since: since.toISOString(),
    };
  }
}
