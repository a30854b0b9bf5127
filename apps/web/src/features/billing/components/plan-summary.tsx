import {
  CARD_ENTRY_FEE_TEXT,
  DEFAULT_PLAN_INDEX,
  formatCents,
  PLANS,
} from '@bountyhunt/shared/billing';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';

/**
 * What Start Membership charges. SPEC.md §9 states a $4.99 monthly fee at card entry (it
 * disagrees with the plan prices; both are stated), so the page shows that text and, so
 * nobody is surprised, the chosen plan's price that is actually charged.
 */
export function PlanSummary({
  planIndex,
  changeTo,
  nextCharge,
}: {
  planIndex: number | null;
  changeTo?: string;
  /** An active member: when the next renewal charges the card (instead of "today"). */
  nextCharge?: string;
}) {
  const plan = PLANS[planIndex ?? DEFAULT_PLAN_INDEX] ?? PLANS[DEFAULT_PLAN_INDEX];
  const when = nextCharge
    ? new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(
        new Date(nextCharge),
      )
    : null;
  return (
    <Box
      sx={{
        my: 2,
        p: 2,
        borderRadius: 2,
        border: '1px solid',
        borderColor: 'divider',
        bgcolor: 'rgba(255,255,255,0.03)',
      }}
      data-testid="plan-summary"
    >
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          columnGap: 2,
          justifyContent: 'space-between',
          alignItems: 'baseline',
        }}
      >
        <Typography component="span" sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}>
          {plan.name} plan
          {changeTo && (
            <Link component={RouterLink} to={changeTo} sx={{ ml: 1, fontSize: '0.875rem' }}>
              Change
            </Link>
          )}
        </Typography>
        <Typography component="span" sx={{ fontWeight: 700 }}>
          {formatCents(plan.priceCents)}/month
        </Typography>
      </Box>
      <Typography variant="body2" color="text.secondary">
        {plan.resolution} · {plan.silver} silver and {plan.gold.toLocaleString('en-US')} gold tokens
        every month
      </Typography>
      <Typography variant="body2" sx={{ mt: 1 }} data-testid="fee-text">
        Monthly fee: {CARD_ENTRY_FEE_TEXT}.{' '}
        {when
          ? `Your next charge is ${formatCents(plan.priceCents)} for ${plan.name} on ${when}.`
          : `Today you pay ${formatCents(plan.priceCents)} for ${plan.name}, then the same each month.`}
      </Typography>
    </Box>
  );
}
