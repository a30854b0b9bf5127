/**
 * /admin/payouts: who the next weekly run would pay (and who is held back, and why), "Run
 * payouts now" with a confirmation, and every run so far (newest first) with its file.
 */
import { API_MSG } from '@bountyhunt/shared/api';
import {
  formatCents,
  PAYOUT_REQUIREMENT_INFO,
  type PayoutBatchItem,
  type PayoutPreviewAnswer,
} from '@bountyhunt/shared/payouts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PageSpinner } from '../../../components/page-spinner';
import { useFeedback } from '../../../lib/feedback';
import { usePayoutPreview, useRunPayouts } from '../api/payouts';
import { useTablePage } from '../api/use-table-page';
import { formatDateTime } from '../components/format';
import { PagedTable, timeColumn, type Column } from '../components/paged-table';

const HELD_LABEL = (r: string) =>
  r === 'minimum'
    ? 'Under the minimum'
    : (PAYOUT_REQUIREMENT_INFO[r as keyof typeof PAYOUT_REQUIREMENT_INFO]?.label ?? r) + ' missing';

const batchColumns: Column<PayoutBatchItem>[] = [
  timeColumn('created', 'Run', (b) => b.created),
  {
    key: 'kind',
    label: 'Kind',
    render: (b) => (b.kind === 'scheduled' ? `Weekly (week of ${b.weekOf})` : 'Run now'),
  },
  { key: 'count', label: 'Payouts', render: (b) => b.count },
  { key: 'total', label: 'Total', render: (b) => formatCents(b.totalCents) },
  {
    key: 'returned',
    label: 'Returned',
    render: (b) => (b.returnedCents ? formatCents(b.returnedCents) : '—'),
  },
  { key: 'file', label: 'File', render: (b) => <code>{b.fileName}</code> },
];

function SmallTable({
  label,
  head,
  rows,
}: {
  label: string;
  head: string[];
  rows: React.ReactNode[][];
}) {
  return (
    <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={`${label} (scrolls)`}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {head.map((h) => (
              <TableCell key={h} sx={{ fontWeight: 700 }}>
                {h}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r, i) => (
            <TableRow key={i}>
              {r.map((c, j) => (
                <TableCell key={j}>{c}</TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

function RunDialog({ preview, onClose }: { preview: PayoutPreviewAnswer; onClose: () => void }) {
  const run = useRunPayouts();
  const { notify } = useFeedback();
  const navigate = useNavigate();
  const [error, setError] = useState('');
  async function confirm() {
    const res = await run.mutateAsync();
    if (res.status !== 200) return setError(res.message || API_MSG.formOther(res.status));
    notify(`Sent ${res.data.count} payouts, ${formatCents(res.data.totalCents)}.`, 'success');
    onClose();
    navigate(`/admin/payouts/${res.data.batchId}`);
  }
  return (
    <Dialog open onClose={onClose} aria-labelledby="run-title" fullWidth maxWidth="sm">
      <DialogTitle id="run-title">Run payouts now?</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {preview.count} hunters will be paid {formatCents(preview.totalCents)} by direct deposit,
          in one NACHA file for the bank. This does not wait for the weekly run.
        </DialogContentText>
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => void confirm()} loading={run.isPending}>
          Pay {formatCents(preview.totalCents)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default function PayoutsPage() {
  const navigate = useNavigate();
  const { data: res, isPending } = usePayoutPreview();
  const table = useTablePage<PayoutBatchItem>('/admin/payouts/batches', {});
  const [running, setRunning] = useState(false);
  return (
    <Box>
      <Typography variant="h1" sx={{ mb: 1 }}>
        Payouts
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Hunters are paid every week by direct deposit when their available balance reaches the
        minimum and their identity, tax and bank details are complete.
      </Typography>
      {isPending ? (
        <PageSpinner />
      ) : !res || res.status !== 200 ? (
        <Alert severity="error">{res?.message || API_MSG.formOther(res?.status ?? 500)}</Alert>
      ) : (
        <Paper sx={{ p: 2, mb: 3 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', mb: 1 }}>
            <Typography variant="h2" sx={{ fontSize: '1.2rem', flex: 1 }}>
              Next run: {formatDateTime(res.data.runAt)}
            </Typography>
            <Button
              variant="contained"
              disabled={res.data.count === 0}
              onClick={() => setRunning(true)}
            >
              Run payouts now
            </Button>
          </Box>
          <Typography sx={{ mb: 2 }} data-testid="preview-summary">
            {res.data.count} hunters, {formatCents(res.data.totalCents)} (minimum{' '}
            {formatCents(res.data.minimumCents)})
          </Typography>
          {res.data.payees.length > 0 && (
            <SmallTable
              label="Payees"
              head={['Hunter', 'Legal name', 'Amount', 'Account']}
              rows={res.data.payees.map((p) => [
                p.handle ? `@${p.handle}` : `#${p.userId}`,
                p.legalName,
                formatCents(p.amountCents),
                `Ending in ${p.accountLastFour}`,
              ])}
            />
          )}
          {res.data.held.length > 0 && (
            <>
              <Typography variant="h3" sx={{ fontSize: '1rem', fontWeight: 700, mt: 2, mb: 1 }}>
                Held back
              </Typography>
              <SmallTable
                label="Held back"
                head={['Hunter', 'Available', 'Why']}
                rows={res.data.held.map((h) => [
                  h.handle ? `@${h.handle}` : `#${h.userId}`,
                  formatCents(h.availableCents),
                  <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
                    {h.reasons.map((r) => (
                      <Chip key={r} size="small" variant="outlined" label={HELD_LABEL(r)} />
                    ))}
                  </Box>,
                ])}
              />
            </>
          )}
          {running && <RunDialog preview={res.data} onClose={() => setRunning(false)} />}
        </Paper>
      )}
      <Typography variant="h2" sx={{ fontSize: '1.2rem', mb: 1 }}>
        Payout runs
      </Typography>
      <PagedTable
        label="Payout runs"
        columns={batchColumns}
        table={table}
        rowKey={(b) => b.batchId}
        empty="No payouts have been sent yet."
        onRowClick={(b) => navigate(`/admin/payouts/${b.batchId}`)}
      />
    </Box>
  );
}
