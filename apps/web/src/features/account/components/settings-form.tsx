import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { FormEvent, ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import type { FormFlow } from './form-flow';

interface Props {
  title: string;
  /** 'Step 3 of 4' in the onboarding flows. */
  step?: string;
  intro?: ReactNode;
  flow: FormFlow;
  submitLabel: string;
  onSubmit: () => void;
  /** Shows 'Skip for Now' (only when the form has a next route, or `forceSkip`). */
  skippable?: boolean;
  children: ReactNode;
}

/**
 * The frame every settings and onboarding form shares: heading, optional step, fields, the
 * error alert above the button, the submit button with its loading state, Skip for Now when a
 * next target is given, and a way back to the settings home otherwise.
 */
export function SettingsForm({
  title,
  step,
  intro,
  flow,
  submitLabel,
  onSubmit,
  skippable,
  children,
}: Props) {
  const handle = (e: FormEvent) => {
    e.preventDefault();
    if (!flow.loading) onSubmit();
  };
  return (
    <Box sx={{ maxWidth: 560, mx: 'auto', px: 2, py: { xs: 3, sm: 6 } }}>
      <Paper component="form" noValidate onSubmit={handle} sx={{ p: { xs: 2.5, sm: 4 } }}>
        {step && (
          <Typography
            variant="overline"
            color="secondary"
            component="p"
            sx={{ letterSpacing: 1.2, fontWeight: 700 }}
          >
            {step}
          </Typography>
        )}
        <Typography variant="h1" sx={{ fontSize: { xs: '1.6rem', sm: '2rem' }, mb: 1 }}>
          {title}
        </Typography>
        {intro && (
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {intro}
          </Typography>
        )}
        <Stack spacing={2.5} sx={{ mt: intro ? 0 : 3 }}>
          {children}
          {flow.error && (
            <Alert severity="error" role="alert" data-testid="form-error">
              {flow.error}
            </Alert>
          )}
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={flow.loading}
            aria-busy={flow.loading}
            startIcon={flow.loading ? <CircularProgress size={18} color="inherit" /> : undefined}
          >
            {submitLabel}
          </Button>
          {skippable && flow.next && (
            <Button variant="text" color="secondary" onClick={flow.skip} disabled={flow.loading}>
              Skip for Now
            </Button>
          )}
          {!flow.next && (
            <Typography sx={{ textAlign: 'center' }}>
              <Link component={RouterLink} to="/account">
                Back to settings
              </Link>
            </Typography>
          )}
        </Stack>
      </Paper>
    </Box>
  );
}
