import { AUTH_MSG } from '@bountyhunt/shared/auth-texts';
import { resetSchema } from '@bountyhunt/shared/auth';
import { ACCOUNT_MSG } from '@bountyhunt/shared/account';
import { API_MSG } from '@bountyhunt/shared/api';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { useFeedback } from '../../../lib/feedback';
import { resetPassword } from '../api/reset-password';
import { AuthCard } from '../components/auth-card';

/** SPEC.md §2 /reset/{id}: the id is the reset code; §5 password rule; success → /login. */
export default function ResetPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { notify } = useFeedback();
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (loading) return;
    setError('');
    const parsed = resetSchema.safeParse({ resetCode: id, newPassword: password });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? AUTH_MSG.passwordCriteria);
      return;
    }
    setLoading(true);
    try {
      const res = await resetPassword(parsed.data);
      if (res.status === 204) {
        notify('Your password has been changed. Please sign in.', 'success');
        navigate('/login');
        return;
      }
      setError(
        res.status === 400 ? AUTH_MSG.resetCodeInvalid : ACCOUNT_MSG.passwordOther(res.status),
      );
    } catch (err) {
      setError(API_MSG.thrown(err instanceof Error ? err.message : String(err)));
    } finally {
      setLoading(false);
    }
  }

  return (
    <AuthCard title="Change Your Password" subtitle="Choose a new password for your account.">
      <Box component="form" noValidate onSubmit={submit}>
        <Stack spacing={2}>
          <TextField
            label="New Password"
            type="password"
            autoComplete="new-password"
            value={password}
            helperText="At least 8 characters, with uppercase and lowercase letters and a special character."
            onChange={(e) => {
              setPassword(e.target.value);
              setError('');
            }}
          />
          {error && (
            <Alert severity="error" data-testid="form-error">
              {error}
            </Alert>
          )}
          <Button type="submit" variant="contained" size="large" loading={loading} fullWidth>
            Change Password
          </Button>
        </Stack>
      </Box>
      <Typography variant="body2" sx={{ textAlign: 'center', mt: 3 }}>
        <Link component={RouterLink} to="/forgot">
          Request a new link
        </Link>
      </Typography>
    </AuthCard>
  );
}
