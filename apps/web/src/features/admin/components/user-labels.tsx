/** How the console names a user's role, plan and state. */
import { PLANS } from '@bountyhunt/shared/billing';
import { hasRole, ROLE } from '@bountyhunt/shared/roles';
import Chip from '@mui/material/Chip';

export function roleNames(role: number): string {
  const names = [
    hasRole(role, ROLE.member) && 'Member',
    hasRole(role, ROLE.hunter) && 'Hunter',
    hasRole(role, ROLE.admin) && 'Admin',
  ].filter(Boolean);
  return names.length ? names.join(', ') : '—';
}

/** The plan and whether it runs now: "Deluxe (active)", "Deluxe (ended)", or "—". */
export function membershipLabel(
  membership: number | null,
  active: string | null,
  now = Date.now(),
): string {
  if (membership === null) return '—';
  const plan = PLANS[membership]?.name ?? `Plan ${membership}`;
  if (!active) return plan;
  return `${plan} (${new Date(active).getTime() > now ? 'active' : 'ended'})`;
}

export function StatusChip({ suspended }: { suspended: string | null }) {
  return suspended ? (
    <Chip size="small" color="error" label="Suspended" />
  ) : (
    <Chip size="small" variant="outlined" label="Active" />
  );
}

const day = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A day, UTC, like the console's times: "Nov 24, 2026". */
export const formatDay = (iso: string) => day.format(new Date(iso));
