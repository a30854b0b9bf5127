/** Membership terms shared by starting a membership and renewing it (CONTRACT.md "Money and tokens"). */

export const RENEW_JOB = 'billing.renew-memberships';

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
