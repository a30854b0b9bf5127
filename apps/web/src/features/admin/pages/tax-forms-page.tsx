/**
 * /admin/tax-forms: a year's Forms 1099-NEC (made by the January job, or here with "Generate"),
 * and their CSV for the e-filing service (TINs masked; audited).
 */
import { API_MSG } from '@bountyhunt/shared/api';
import { formatCents } from '@bountyhunt/shared/payouts';
import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
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
import { Link as RouterLink } from 'react-router';
import Link from '@mui/material/Link';
import { PageSpinner } from '../../../components/page-spinner';
import { downloadFile } from '../../../lib/download';
import { useFeedback } from '../../../lib/feedback';
import { useAdminTaxForms, useGenerateTaxForms } from '../api/payouts';
import { formatDateTime } from '../components/format';

export default function TaxFormsAdminPage() {
  const thisYear = new Date().getUTCFullYear();
  const [year, setYear] = useState(thisYear - 1);
  const { data: res, isPending } = useAdminTaxForms(year);
  const generate = useGenerateTaxForms(year);
  const { notify } = useFeedback();
  const [error, setError] = useState('');
  const years = Array.from({ length: thisYear - 2019 }, (_, i) => thisYear - i);
  async function make() {
    setError('');
    const r = await generate.mutateAsync();
    if (r.status !== 200) return setError(r.message || API_MSG.formOther(r.status));
    notify(`${r.data.count} forms for ${year}.`, 'success');
  }
  async function csv() {
    setError('');
    const status = await downloadFile(`/admin/tax-forms/${year}/csv`, `1099-NEC-${year}.csv`);
    if (status !== 200) setError(API_MSG.formOther(status));
  }
  return (
    <Box>
      <Typography variant="h1" sx={{ mb: 1 }}>
        Tax forms
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Form 1099-NEC for every hunter paid at least the year's threshold. A job makes last year's
        forms on January 2nd; hunters download Copy B from their settings.
      </Typography>
      <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <TextField
          select
          size="small"
          label="Tax year"
          value={year}
          onChange={(e) => setYear(Number(e.target.value))}
          sx={{ minWidth: 140 }}
        >
          {years.map((y) => (
            <MenuItem key={y} value={y}>
              {y}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="contained" onClick={() => void make()} loading={generate.isPending}>
          Generate 1099-NEC forms
        </Button>
        <Button color="secondary" startIcon={<DownloadIcon />} onClick={() => void csv()}>
          Download CSV
        </Button>
      </Box>
      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      )}
      {isPending ? (
        <PageSpinner />
      ) : !res || res.status !== 200 ? (
        <Alert severity="error">{res?.message || API_MSG.formOther(res?.status ?? 500)}</Alert>
      ) : (
        <Paper sx={{ p: 2 }}>
          <Typography sx={{ mb: 1 }} data-testid="tax-summary">
            {res.data.forms.length} forms for {res.data.year} (threshold{' '}
            {formatCents(res.data.thresholdCents)})
          </Typography>
          {res.data.forms.length > 0 && (
            <Box
              sx={{ overflowX: 'auto' }}
              tabIndex={0}
              role="region"
              aria-label="Forms 1099-NEC (scrolls)"
            >
              <Table size="small" aria-label="Forms 1099-NEC">
                <TableHead>
                  <TableRow>
                    {['Hunter', 'Legal name', 'Box 1', 'Made'].map((h) => (
                      <TableCell key={h} sx={{ fontWeight: 700 }}>
                        {h}
                      </TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {res.data.forms.map((f) => (
                    <TableRow key={f.userId}>
                      <TableCell>
                        <Link component={RouterLink} to={`/admin/users/${f.userId}`}>
                          {f.handle ? `@${f.handle}` : `#${f.userId}`}
                        </Link>
                      </TableCell>
                      <TableCell>{f.legalName}</TableCell>
                      <TableCell>{formatCents(f.amountCents)}</TableCell>
                      <TableCell>{formatDateTime(f.created)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
          )}
        </Paper>
      )}
    </Box>
  );
}
