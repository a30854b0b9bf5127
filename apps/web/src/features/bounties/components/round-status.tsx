/** SPEC.md §4 round status, as a chip with the end date. */
import { formatDayTime, roundStatus, ROUND_STATUS } from '@bountyhunt/shared/format';
import Chip from '@mui/material/Chip';

export const ROUND_STATUS_LABEL: Record<number, string> = {
  [ROUND_STATUS.unknown]: 'Unknown',
  [ROUND_STATUS.pending]: 'Pending',
  [ROUND_STATUS.inactive]: 'Inactive',
  [ROUND_STATUS.active]: 'Active',
};

export function roundStatusText(
  round: { roundId?: number | null; endDate?: string | null } | null | undefined,
  now = new Date(),
): string {
  const status = roundStatus(round, now);
  const label = ROUND_STATUS_LABEL[status] ?? 'Unknown';
  if (status === ROUND_STATUS.active && round?.endDate)
    return `${label} · ends ${formatDayTime(round.endDate)}`;
  if (status === ROUND_STATUS.inactive && round?.endDate)
    return `${label} · ended ${formatDayTime(round.endDate)}`;
  return label;
}

export function RoundStatusChip({
  round,
}: {
  round: { roundId?: number | null; endDate?: string | null } | null | undefined;
}) {
  const status = roundStatus(round);
  return (
    <Chip
      size="small"
      data-testid="round-status"
      data-status={status}
      label={roundStatusText(round)}
      color={status === ROUND_STATUS.active ? 'success' : 'default'}
      variant={status === ROUND_STATUS.active ? 'filled' : 'outlined'}
    />
  );
}
