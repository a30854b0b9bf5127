import { AUTH_MSG } from '@bountyhunt/shared/auth-texts';
import { hasRole, ROLE } from '@bountyhunt/shared/roles';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { Navigate, Link as RouterLink } from 'react-router';
import { PageSpinner } from '../../../components/page-spinner';
import { useSession } from '../../../lib/session';
import { postLogin } from '../api/login';
import { AuthCard } from '../components/auth-card';

/** SPEC.md §2 /login, §4 Login, §8 Login messages. No client-side validation (§5). */
export default function LoginPage() {
  const { status, user, ended, login } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(false);

  // Admins go to the operations console (which asks for their second factor).
  if (status === 'signed-in')
    return <Navigate to={hasRole(user?.role ?? 0, ROLE.admin) ? '/admin' : '/'} replace />;
  if (status === 'unresolved') return <PageSpinner />;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (loading) return;
    setError('');
    setLoading(true);
    try {
      const res = await postLogin({ email, password });
      if (res.status === 400) return setError(AUTH_MSG.loginInvalid);
      // 403 {code: "SUSPENDED"} is the one refusal of a right password (CONTRACT.md).
      if (res.status === 403) return setError(AUTH_MSG.suspended);
      if (res.status !== 200 || !res.data?.token) return setError(AUTH_MSG.loginOther(res.status));
      const me = await login(res.data.token);
      // On success the session is signed in and the redirect above takes the user to /.
      if (me.status !== 200) setError(AUTH_MSG.loginUserLoad);
    } catch (err) {
      setError(AUTH_MSG.loginThrown(err instanceof Error ? err.message : String(err)));
    } finally {
      setLoading(false);
    }
  }

  return (
    <AuthCard title="Sign In" subtitle="Welcome back, hunter.">
      <Box component="form" noValidate onSubmit={submit}>
        <Stack spacing={2}>
          {ended && !error && (
            <Alert severity="info" data-testid="session-ended">
              {AUTH_MSG.sessionEnded}
            </Alert>
          )}
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setError('');
            }}
          />
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              setError('');
            }}
          />
          <Box sx={{ textAlign: 'right', mt: '4px !important' }}>
            <Link component={RouterLink} to="/forgot" variant="body2">
              Forgot password?
            </Link>
          </Box>
          {error && (
            <Alert severity="error" data-testid="form-error">
              {error}
            </Alert>
          )}
          <Button type="submit" variant="contained" size="large" loading={loading} fullWidth>
            Sign In
          </Button>
        </Stack>
      </Box>
      <Divider sx={{ my: 3 }} />
      <Stack spacing={1} sx={{ textAlign: 'center' }}>
        <Typography variant="body2">
          New to BountyHunt?{' '}
          <Link component={RouterLink} to="/register/member">
            Sign up
          </Link>
        </Typography>
        <Typography variant="body2">
          Want to earn from your content?{' '}
          <Link component={RouterLink} to="/register/creator">
            Become a creator
          </Link>
        </Typography>
      </Stack>
    </AuthCard>
  );
}
