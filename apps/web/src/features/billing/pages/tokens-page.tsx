/** /account/tokens: the silver balance, what the plan adds each month, and the history. */
import { PLANS, SILVER_REASON_LABEL, type SilverEntry } from '@bountyhunt/shared/billing';
import { API_MSG } from '@bountyhunt/shared/api';
import TollIcon from '@mui/icons-material/Toll';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Fragment, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { isActiveMember } from '../../../lib/access';
import { useSession } from '../../../lib/session';
import { useMembership } from '../api/get-membership';
import { useSilver } from '../api/get-silver';
import { BillingPage } from '../components/billing-page';

const dateFmt = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
});

function HistoryRow({ entry }: { entry: SilverEntry }) {
  const positive = entry.delta > 0;
  return (
    <Box
      component="li"
      sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 1.5 }}
      data-testid="silver-entry"
    >
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <Typography sx={{ fontWeight: 600 }}>
          {SILVER_REASON_LABEL[entry.reason] ?? entry.reason.replace(/_/g, ' ')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {dateFmt.format(new Date(entry.created))}
        </Typography>
      </Box>
      <Box sx={{ textAlign: 'right' }}>
        <Typography sx={{ fontWeight: 700, color: positive ? 'success.main' : 'text.primary' }}>
          {positive ? '+' : '−'}
          {Math.abs(entry.delta).toLocaleString('en-US')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Balance {entry.balanceAfter.toLocaleString('en-US')}
        </Typography>
      </Box>
    </Box>
  );
}

/** One page of history; the last page offers the next one. */
function HistoryPage({
  before,
  isLast,
  onMore,
}: {
  before?: number;
  isLast: boolean;
  onMore: (next: number) => void;
}) {
  const { data: res, isPending } = useSilver(before);
  if (isPending) return <CircularProgress size={24} aria-label="Loading history" sx={{ my: 2 }} />;
  if (!res || res.status !== 200)
    return <Alert severity="error">{API_MSG.formOther(res?.status ?? 500)}</Alert>;
  const { history, nextBefore } = res.data;
  if (history.length === 0 && before === undefined)
    return (
      <Typography color="text.secondary" sx={{ py: 2 }}>
        No silver yet. Your plan's silver arrives when your membership starts.
      </Typography>
    );
  return (
    <>
      {history.map((entry, i) => (
        <Fragment key={entry.id}>
          {(i > 0 || before !== undefined) && <Divider component="li" aria-hidden="true" />}
          <HistoryRow entry={entry} />
        </Fragment>
      ))}
      {isLast && nextBefore !== null && (
        <Box component="li" sx={{ pt: 2, textAlign: 'center' }}>
          <Button variant="outlined" color="secondary" onClick={() => onMore(nextBefore)}>
            Show older
          </Button>
        </Box>
      )}
    </>
  );
}

export default function TokensPage() {
  const { user } = useSession();
  const membership = useMembership();
  const [pages, setPages] = useState<(number | undefined)[]>([undefined]);
  if (!user) return null;
  const m = membership.data?.status === 200 ? membership.data.data : null;
  const plan = user.membership !== null ? PLANS[user.membership] : undefined;
  const pending = m?.pendingMembership != null ? PLANS[m.pendingMembership] : undefined;
  const active = isActiveMember(user);
  return (
    <BillingPage title="Silver" intro="Silver tokens pay for votes and bounties.">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2 }}>
        <TollIcon sx={{ fontSize: 48, color: '#c9ccd1' }} aria-hidden="true" />
        <Box>
          <Typography variant="body2" color="text.secondary">
            Balance
          </Typography>
          <Typography
            sx={{ fontSize: '2.5rem', fontWeight: 800, lineHeight: 1.1 }}
            data-testid="silver-balance"
          >
            {user.silver.toLocaleString('en-US')}
          </Typography>
        </Box>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="silver-plan">
        {active && plan && user.active ? (
          <>
            Your {plan.name} plan adds {plan.silver} silver on{' '}
            {dateFmt.format(new Date(user.active))}
            {pending ? ` (then ${pending.name}: ${pending.silver} silver a month)` : ''}.
          </>
        ) : (
          <>
            You have no running membership.{' '}
            <Link component={RouterLink} to={user.active ? '/join' : '/signup/plan'}>
              {user.active ? 'Restart Membership' : 'Choose a plan'}
            </Link>
          </>
        )}
      </Typography>
      <Divider />
      <Typography variant="h3" component="h2" sx={{ mt: 3, mb: 1 }}>
        History
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }} aria-label="Silver history">
        {pages.map((before, i) => (
          <HistoryPage
            key={before ?? 'first'}
            before={before}
            isLast={i === pages.length - 1}
            onMore={(next) => setPages((p) => [...p, next])}
          />
        ))}
      </Box>
    </BillingPage>
  );
}
