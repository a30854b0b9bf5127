/**
 * /account/tax-forms (role 2): the hunter's Forms 1099-NEC by year, each a PDF download
 * (Copy B, the TIN masked as the IRS allows).
 */
import { API_MSG } from '@bountyhunt/shared/api';
import { formatCents, necThresholdCents } from '@bountyhunt/shared/payouts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { PageSpinner } from '../../../components/page-spinner';
import { downloadFile } from '../../../lib/download';
import { useTaxForms } from '../api/earnings';

export default function TaxFormsPage() {
  const { data: res, isPending } = useTaxForms();
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState('');
  if (isPending) return <PageSpinner />;
  const lastYear = new Date().getUTCFullYear() - 1;
  async function download(year: number) {
    setBusy(year);
    setError('');
    const status = await downloadFile(`/user/tax-forms/${year}/pdf`, `1099-NEC-${year}.pdf`);
    setBusy(null);
    if (status !== 200) setError(API_MSG.formOther(status));
  }
  return (
    <Box sx={{ maxWidth: 620, mx: 'auto', px: 2, py: { xs: 3, sm: 5 } }}>
      <Paper sx={{ p: { xs: 2.5, sm: 4 } }}>
        <Typography variant="h1" sx={{ fontSize: { xs: '1.6rem', sm: '2rem' }, mb: 2 }}>
          Tax forms
        </Typography>
        {!res || res.status !== 200 ? (
          <Alert severity="error">{res?.message || API_MSG.formOther(res?.status ?? 500)}</Alert>
        ) : res.data.forms.length === 0 ? (
          <Typography color="text.secondary" data-testid="no-tax-forms">
            No tax forms yet. Each January we issue a Form 1099-NEC for the year before to every
            hunter we paid at least {formatCents(necThresholdCents(lastYear))} that year.
          </Typography>
        ) : (
          <List aria-label="Tax forms">
            {res.data.forms.map((f) => (
              <ListItem
                key={f.year}
                divider
                data-testid="tax-form"
                sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, px: 0 }}
              >
                <ListItemText
                  sx={{ flex: '1 1 200px' }}
                  primary={`Form 1099-NEC ${f.year}`}
                  secondary={`Nonemployee compensation ${formatCents(f.amountCents)}`}
                />
                <Button
                  color="secondary"
                  startIcon={<DownloadIcon />}
                  onClick={() => void download(f.year)}
                  loading={busy === f.year}
                  aria-label={`Download PDF of Form 1099-NEC ${f.year}`}
                >
                  Download PDF
                </Button>
              </ListItem>
            ))}
          </List>
        )}
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
        <Typography sx={{ textAlign: 'center', mt: 3 }}>
          <Link component={RouterLink} to="/account/earnings">
            Earnings
          </Link>
          {' · '}
          <Link component={RouterLink} to="/account">
            Back to settings
          </Link>
        </Typography>
      </Paper>
    </Box>
  );
}
