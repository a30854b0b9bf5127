/**
 * /account/earnings (role 2): what the hunter has earned in money, pending and available, by
 * week; each payout with its status; and what is still missing before payouts can start.
 */
import {
  formatCents,
  PAYOUT_REQUIREMENT_INFO,
  type EarningsAnswer,
} from '@bountyhunt/shared/payouts';
import { API_MSG } from '@bountyhunt/shared/api';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { PageSpinner } from '../../../components/page-spinner';
import { useEarnings } from '../api/earnings';
import { WeeklyChart } from '../components/weekly-chart';

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

function Figure({
  label,
  cents,
  note,
  testId,
}: {
  label: string;
  cents: number;
  note: string;
  testId: string;
}) {
  return (
    <Paper sx={{ p: 2, flex: '1 1 150px' }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography sx={{ fontSize: '1.6rem', fontWeight: 700 }} data-testid={testId}>
        {formatCents(cents)}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {note}
      </Typography>
    </Paper>
  );
}

function Missing({ e }: { e: EarningsAnswer }) {
  if (!e.missing.length)
    return (
      <Alert severity="success" data-testid="payout-ready">
        You are set up for direct deposit. The next payout run is {day(e.nextRunAt)}; we pay every
        available balance of {formatCents(e.minimumCents)} or more.
      </Alert>
    );
  return (
    <Alert severity="warning" data-testid="payout-missing">
      <AlertTitle>Before we can pay you</AlertTitle>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {e.missing.map((m) => (
          <li key={m}>
            <Link component={RouterLink} to={PAYOUT_REQUIREMENT_INFO[m].to}>
              {PAYOUT_REQUIREMENT_INFO[m].label}
            </Link>
          </li>
        ))}
      </Box>
    </Alert>
  );
}

function Payouts({ e }: { e: EarningsAnswer }) {
  if (!e.payouts.length)
    return (
      <Typography color="text.secondary" data-testid="no-payouts">
        No payouts yet.
      </Typography>
    );
  return (
    <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label="Payouts (scrolls)">
      <Table size="small" aria-label="Payouts">
        <TableHead>
          <TableRow>
            <TableCell>Date</TableCell>
            <TableCell align="right">Amount</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Account</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {e.payouts.map((p) => (
            <TableRow key={p.payoutId} data-testid="payout-row">
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{day(p.created)}</TableCell>
              <TableCell align="right">{formatCents(p.amountCents)}</TableCell>
              <TableCell>
                {p.status === 'sent' ? (
                  <Chip size="small" color="success" variant="outlined" label="Sent" />
                ) : (
                  <Box>
                    <Chip size="small" color="warning" variant="outlined" label="Returned" />
                    <Typography variant="caption" sx={{ display: 'block' }}>
                      {p.returnReason}
                    </Typography>
                  </Box>
                )}
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>Ending in {p.accountLastFour}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

export default function EarningsPage() {
  const { data: res, isPending } = useEarnings();
  if (isPending) return <PageSpinner />;
  return (
    <Box sx={{ maxWidth: 760, mx: 'auto', px: 2, py: { xs: 3, sm: 5 } }}>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.6rem', sm: '2rem' }, mb: 2 }}>
        Earnings
      </Typography>
      {!res || res.status !== 200 ? (
        <Alert severity="error">{res?.message || API_MSG.formOther(res?.status ?? 500)}</Alert>
      ) : (
        <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: 'minmax(0, 1fr)' }}>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
            <Figure
              label="Available"
              cents={res.data.availableCents}
              note="Paid in the next weekly run"
              testId="available"
            />
            <Figure
              label="Pending"
              cents={res.data.pendingCents}
              note={`Clears after ${res.data.holdDays} days`}
              testId="pending"
            />
            <Figure label="Paid out" cents={res.data.paidCents} note="All time" testId="paid" />
          </Box>
          <Missing e={res.data} />
          <Paper sx={{ p: 2 }}>
            <Typography variant="h2" sx={{ fontSize: '1.15rem', mb: 1 }}>
              Earnings by week
            </Typography>
            <WeeklyChart weeks={res.data.weeks} />
          </Paper>
          <Paper sx={{ p: 2 }}>
            <Typography variant="h2" sx={{ fontSize: '1.15rem', mb: 1 }}>
              Payouts
            </Typography>
            <Payouts e={res.data} />
          </Paper>
          <Typography sx={{ textAlign: 'center' }}>
            <Link component={RouterLink} to="/account/tax-forms">
              Tax forms
            </Link>
            {' · '}
            <Link component={RouterLink} to="/account">
              Back to settings
            </Link>
          </Typography>
        </Box>
      )}
    </Box>
  );
}
