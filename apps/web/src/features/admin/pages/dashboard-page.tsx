/** /admin: the operations dashboard (refreshes every 30 seconds). */
import { formatCents } from '@bountyhunt/shared/billing';
import { API_MSG } from '@bountyhunt/shared/api';
import { formatCount } from '@bountyhunt/shared/format';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { PageSpinner } from '../../../components/page-spinner';
import { useDashboard } from '../api/get-dashboard';
import { formatDateTime } from '../components/format';

function Stat({ label, value, to }: { label: string; value: string; to?: string }) {
  return (
    <Paper
      variant="outlined"
      {...(to ? { component: RouterLink, to } : {})}
      sx={{ p: 2, textDecoration: 'none', color: 'inherit', display: 'block' }}
      data-testid={`stat-${label.toLowerCase().replace(/\W+/g, '-')}`}
    >
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography sx={{ fontSize: '1.8rem', fontWeight: 700 }}>{value}</Typography>
    </Paper>
  );
}

export default function DashboardPage() {
  const { data: res, isPending } = useDashboard();
  if (isPending) return <PageSpinner />;
  if (!res || res.status !== 200)
    return <Alert severity="error">{res?.message || API_MSG.formOther(res?.status ?? 500)}</Alert>;
  const d = res.data;
  const states = Object.entries(d.jobs.byState).sort(([a], [b]) => a.localeCompare(b));
  return (
    <Box>
      <Typography variant="h1" sx={{ mb: 2 }}>
        Dashboard
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))',
          mb: 3,
        }}
      >
        <Stat label="Users" value={formatCount(d.users)} to="/admin/users" />
        <Stat label="Active members" value={formatCount(d.activeMembers)} />
        <Stat label="Monthly recurring revenue" value={formatCents(d.mrrCents)} />
        <Stat label="Claims today" value={formatCount(d.claimsToday)} />
        <Stat label="Votes today" value={formatCount(d.votesToday)} />
        <Stat label="Open reports" value={formatCount(d.openReports)} to="/admin/reports" />
        <Stat
          label="Pending identities"
          value={formatCount(d.pendingIdentities)}
          to="/admin/identities"
        />
      </Box>
      <Typography variant="h2" sx={{ mb: 1 }}>
        Jobs
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2 }} data-testid="job-states">
        {states.length === 0 && <Typography color="text.secondary">No jobs yet.</Typography>}
        {states.map(([state, n]) => (
          <Chip
            key={state}
            label={`${state}: ${formatCount(n)}`}
            color={state === 'failed' && n > 0 ? 'error' : 'default'}
            variant="outlined"
          />
        ))}
      </Box>
      <Typography variant="h3" component="h3" sx={{ mb: 1 }}>
        Failed jobs
      </Typography>
      {d.jobs.failed.length === 0 ? (
        <Typography color="text.secondary">No failed jobs.</Typography>
      ) : (
        <Paper variant="outlined">
          <Table size="small" aria-label="Failed jobs">
            <TableHead>
              <TableRow>
                <TableCell>Job</TableCell>
                <TableCell>Failed</TableCell>
                <TableCell>Error</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {d.jobs.failed.map((j) => (
                <TableRow key={j.id}>
                  <TableCell>{j.name}</TableCell>
                  <TableCell>{formatDateTime(j.failedAt)}</TableCell>
                  <TableCell sx={{ wordBreak: 'break-word' }}>{j.error ?? '—'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      )}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
        “Today” began {formatDateTime(d.since)}.
      </Typography>
    </Box>
  );
}
