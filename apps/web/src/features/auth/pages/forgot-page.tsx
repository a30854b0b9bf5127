import { AUTH_MSG } from '@bountyhunt/shared/auth-texts';
import { forgotSchema } from '@bountyhunt/shared/auth';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { forgotPassword } from '../api/forgot-password';
import { AuthCard } from '../components/auth-card';

type Outcome = { severity: 'success' | 'error'; text: string };

/** SPEC.md §2 /forgot, §4 Password reset, §8 Password reset request. */
export default function ForgotPage() {
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [loading, setLoading] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (loading) return;
    setOutcome(null);
    const parsed = forgotSchema.safeParse({ email });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? AUTH_MSG.emailInvalidLong);
      return;
    }
    setFieldError('');
    setLoading(true);
    try {
      const res = await forgotPassword(parsed.data);
      if (res.status === 204) setOutcome({ severity: 'success', text: AUTH_MSG.resetSent });
      else if (res.status === 404) setOutcome({ severity: 'error', text: AUTH_MSG.resetNotFound });
      else setOutcome({ severity: 'error', text: AUTH_MSG.resetOther(res.status) });
    } catch {
      setOutcome({ severity: 'error', text: AUTH_MSG.resetThrown });
    } finally {
      setLoading(false);
    }
  }

  return (
    <AuthCard
      title="Password Recovery"
      subtitle="Enter the email address of your account and we will send you a link to choose a new password."
    >
      <Box component="form" noValidate onSubmit={submit}>
        <Stack spacing={2}>
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            error={!!fieldError}
            helperText={fieldError || ' '}
            onChange={(e) => {
              setEmail(e.target.value);
              setFieldError('');
              setOutcome(null);
            }}
          />
          {outcome && (
            <Alert severity={outcome.severity} data-testid="form-result">
              {outcome.text}
              {outcome.text === AUTH_MSG.resetNotFound && (
                <>
                  {' '}
                  <Link
                    component={RouterLink}
                    to="/register/member"
                    color="inherit"
                    underline="always"
                  >
                    Sign up
                  </Link>
                </>
              )}
            </Alert>
          )}
          <Button type="submit" variant="contained" size="large" loading={loading} fullWidth>
            Send Reset Link
          </Button>
        </Stack>
      </Box>
      <Typography variant="body2" sx={{ textAlign: 'center', mt: 3 }}>
        Remembered it?{' '}
        <Link component={RouterLink} to="/login">
          Back to Sign In
        </Link>
      </Typography>
    </AuthCard>
  );
}
