/**
 * /admin/payouts/:batchId: one payout run, its payouts, the NACHA file to download (audited),
 * and "Mark returned" for a payout the bank sent back (the amount is available again and the
 * hunter is mailed to check the bank details).
 */
import { API_MSG } from '@bountyhunt/shared/api';
import {
  formatCents,
  PAYOUT_RETURN_CODES,
  PAYOUT_RETURN_REASONS,
  type PayoutBatchDetailAnswer,
  type PayoutReturnCode,
} from '@bountyhunt/shared/payouts';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { PageSpinner } from '../../../components/page-spinner';
import { downloadFile } from '../../../lib/download';
import { useFeedback } from '../../../lib/feedback';
import { usePayoutBatch, useReturnPayout } from '../api/payouts';
import { formatDateTime } from '../components/format';

type Payout = PayoutBatchDetailAnswer['payouts'][number];

function ReturnDialog({ payout, onClose }: { payout: Payout; onClose: () => void }) {
  const markReturned = useReturnPayout();
  const { notify } = useFeedback();
  const [code, setCode] = useState<PayoutReturnCode>('R03');
  const [error, setError] = useState('');
  async function confirm() {
    const res = await markReturned.mutateAsync({ payoutId: payout.payoutId, code });
    if (res.status !== 200) return setError(res.message || API_MSG.formOther(res.status));
    notify(`Payout to ${payout.legalName} marked returned.`, 'success');
    onClose();
  }
  return (
    <Dialog open onClose={onClose} aria-labelledby="return-title" fullWidth maxWidth="sm">
      <DialogTitle id="return-title">Mark {formatCents(payout.amountCents)} returned?</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          The bank sent the payout to {payout.legalName} (ending in {payout.accountLastFour}) back.
          The amount becomes available again and the hunter is mailed to check their bank details.
        </DialogContentText>
        <TextField
          select
          fullWidth
          label="Return reason"
          value={code}
          onChange={(e) => setCode(e.target.value as PayoutReturnCode)}
        >
          {PAYOUT_RETURN_CODES.map((c) => (
            <MenuItem key={c} value={c}>
              {c}: {PAYOUT_RETURN_REASONS[c]}
            </MenuItem>
          ))}
        </TextField>
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
        <Button
          variant="contained"
          color="warning"
          onClick={() => void confirm()}
          loading={markReturned.isPending}
        >
          Mark returned
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function Batch({ batch }: { batch: PayoutBatchDetailAnswer }) {
  const [returning, setReturning] = useState<Payout | null>(null);
  const [error, setError] = useState('');
  async function download() {
    setError('');
    const status = await downloadFile(
      `/admin/payouts/batches/${batch.batchId}/file`,
      batch.fileName,
    );
    if (status !== 200) setError(API_MSG.formOther(status));
  }
  return (
    <Box>
      <Link
        component={RouterLink}
        to="/admin/payouts"
        variant="body2"
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mb: 1 }}
      >
        <ArrowBackIcon fontSize="inherit" /> All payouts
      </Link>
      <Typography variant="h1" sx={{ mb: 0.5 }}>
        Payout run #{batch.batchId}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {batch.kind === 'scheduled' ? `Weekly run, week of ${batch.weekOf}` : 'Run now'} ·{' '}
        {formatDateTime(batch.created)} · {batch.count} payouts · {formatCents(batch.totalCents)}
        {batch.returnedCents ? ` · ${formatCents(batch.returnedCents)} returned` : ''}
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <Button variant="contained" startIcon={<DownloadIcon />} onClick={() => void download()}>
          Download NACHA file
        </Button>
        <Typography variant="body2" color="text.secondary">
          <code>{batch.fileName}</code>
        </Typography>
      </Box>
      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      )}
      <Paper sx={{ p: 2 }}>
        <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label="Payouts (scrolls)">
          <Table size="small" aria-label="Payouts">
            <TableHead>
              <TableRow>
                {['Payout', 'Hunter', 'Legal name', 'Amount', 'Account', 'Status', ''].map((h) => (
                  <TableCell key={h} sx={{ fontWeight: 700 }}>
                    {h}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {batch.payouts.map((p) => (
                <TableRow key={p.payoutId} data-testid="batch-payout">
                  <TableCell>#{p.payoutId}</TableCell>
                  <TableCell>
                    <Link component={RouterLink} to={`/admin/users/${p.userId}`}>
                      {p.handle ? `@${p.handle}` : `#${p.userId}`}
                    </Link>
                  </TableCell>
                  <TableCell>{p.legalName}</TableCell>
                  <TableCell>{formatCents(p.amountCents)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>Ending in {p.accountLastFour}</TableCell>
                  <TableCell>
                    {p.status === 'sent' ? (
                      <Chip size="small" color="success" variant="outlined" label="Sent" />
                    ) : (
                      <Chip
                        size="small"
                        color="warning"
                        variant="outlined"
                        label={`Returned (${p.returnReason})`}
                      />
                    )}
                  </TableCell>
                  <TableCell>
                    {p.status === 'sent' && (
                      <Button size="small" color="warning" onClick={() => setReturning(p)}>
                        Mark returned
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      </Paper>
      {returning && <ReturnDialog payout={returning} onClose={() => setReturning(null)} />}
    </Box>
  );
}

export default function PayoutBatchPage() {
  const batchId = Number(useParams().batchId);
  const valid = Number.isSafeInteger(batchId) && batchId > 0;
  const { data: res, isPending } = usePayoutBatch(batchId, valid);
  if (!valid) return <Alert severity="error">Payout run not found.</Alert>;
  if (isPending) return <PageSpinner />;
  if (!res || res.status !== 200)
    return <Alert severity="error">{res?.message || API_MSG.formOther(res?.status ?? 500)}</Alert>;
  return <Batch batch={res.data} />;
}
