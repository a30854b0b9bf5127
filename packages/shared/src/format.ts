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

export function maskSsn(lastFour: string | null | undefined): string | null {
  return lastFour ? `xxx-xx-${lastFour}` : null;
}
export function endingIn(lastFour: string | null | undefined): string | null {
  return lastFour ? `Ending in ${lastFour}` : null;
}
