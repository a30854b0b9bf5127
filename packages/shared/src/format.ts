/** SPEC.md §9 relative dates and ordinals, shared so the API and the web agree. */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function relativeDate(value: string | Date, now: Date = new Date()): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  const seconds = Math.max(0, (now.getTime() - date.getTime()) / 1000);
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 10) return `${days}d`;
  if (days < 365) return `${MONTHS[date.getMonth()]} ${date.getDate()}`;
  return `${date.getMonth() + 1}/${date.getDate()}/${String(date.getFullYear()).slice(-2)}`;
}

export function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  switch (n % 10) {
    case 1:
      return `${n}st`;
    case 2:
      return `${n}nd`;
    case 3:
      return `${n}rd`;
    default:
      return `${n}th`;
  }
}

/** SPEC.md §4 round status. */
export const ROUND_STATUS = { unknown: 0, pending: 1, inactive: 2, active: 3 } as const;
export function roundStatus(
  round: { roundId?: number | null; endDate?: string | null } | null | undefined,
  now: Date = new Date(),
): number {
  if (!round || round.roundId == null) return ROUND_STATUS.unknown;
  if (!round.endDate) return ROUND_STATUS.pending;
  return new Date(round.endDate).getTime() >= now.getTime()
    ? ROUND_STATUS.active
    : ROUND_STATUS.inactive;
}

/** SSN shown on the settings page: xxx-xx- plus the last four digits. */
export function maskSsn(lastFour: string | null | undefined): string | null {
  return lastFour ? `xxx-xx-${lastFour}` : null;
}
/** Bank account or card: 'Ending in' plus the last four digits. */
export function endingIn(lastFour: string | null | undefined): string | null {
  return lastFour ? `Ending in ${lastFour}` : null;
}

/**
 * A count with thousands separators, as en-US writes it ("12,345"), without Intl: the first
 * Intl call of a page loads locale data, tens of milliseconds on a phone's main thread.
 */
export function formatCount(n: number): string {
  const [whole = '0', fraction] = String(Math.abs(n)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${n < 0 ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** Month, day and time in local time, as en-US writes it ("Jan 10, 1:05 PM"), without Intl. */
export function formatDayTime(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  const h = date.getHours();
  const minutes = String(date.getMinutes()).padStart(2, '0');
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${h % 12 || 12}:${minutes} ${h < 12 ? 'AM' : 'PM'}`;
}
