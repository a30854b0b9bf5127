import { AUTH_MSG } from '@bountyhunt/shared/auth-texts';
import { API_MSG } from '@bountyhunt/shared/api';
import type { RegisterInput } from '@bountyhunt/shared/auth';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Link from '@mui/material/Link';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { Navigate, Link as RouterLink, useNavigate, useParams } from 'react-router';
import { useSession } from '../../../lib/session';
import { postLogin } from '../api/login';
import { register } from '../api/register';
import { AuthCard } from '../components/auth-card';

type Role = 'member' | 'creator';

/**
 * The form's schema (zod, ~26 KB gzipped) is needed at Next, not to show the page: it loads
 * when the visitor first focuses the form, and at the latest on submit.
 */
const loadSchema = () => import('@bountyhunt/shared/auth').then((m) => m.registerSchema);

/**
 * SPEC.md §2 /register/{role}: 'Step 1 of 4' (creator) / 'Step 1 of 5' (member), the
 * Member / Content Creator radio, email, password, Next. §4 Onboarding: create the account,
 * authenticate, store the token, load the user, then /enrollment/handle or /signup/plan.
 */
export default function RegisterPage() {
  const { role: param } = useParams();
  const navigate = useNavigate();
  const { login } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(false);

  if (param !== 'member' && param !== 'creator') return <Navigate to="/register/member" replace />;
  const role: Role = param;
  const creator = role === 'creator';

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (loading) return;
    setError('');
    let schema: Awaited<ReturnType<typeof loadSchema>>;
    try {
      schema = await loadSchema();
    } catch (err) {
      return setError(API_MSG.thrown(err instanceof Error ? err.message : String(err)));
    }
    const parsed = schema.safeParse({ email, password, hunter: creator });
    if (!parsed.success) {
      const errs: { email?: string; password?: string } = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0];
        if ((key === 'email' || key === 'password') && !errs[key]) errs[key] = issue.message;
      }
      setFieldErrors(errs);
      return;
    }
    setFieldErrors({});
    setLoading(true);
    try {
      const input: RegisterInput = parsed.data;
      const created = await register(input);
      if (created.status === 406) return setError(AUTH_MSG.emailExists);
      if (created.status !== 200) return setError(AUTH_MSG.createAccount(created.status));
      const auth = await postLogin({
        email: parsed.data.email,
        password: parsed.data.password,
      });
      if (auth.status !== 200 || !auth.data?.token)
        return setError(AUTH_MSG.authenticate(auth.status));
      const me = await login(auth.data.token);
      if (me.status !== 200) return setError(AUTH_MSG.loginUserLoad);
      navigate(creator ? '/enrollment/handle' : '/signup/plan');
    } catch (err) {
      setError(API_MSG.thrown(err instanceof Error ? err.message : String(err)));
    } finally {
      setLoading(false);
    }
  }

  return (
    <AuthCard
      title={creator ? 'Become a Content Creator' : 'Create Your Account'}
      step={creator ? 'Step 1 of 4' : 'Step 1 of 5'}
      subtitle={
        creator
          ? 'Claim bounties with your photos and videos, and get paid every week.'
          : 'Post bounties, vote on the best claims and follow your favourite hunters.'
      }
    >
      <Box component="form" noValidate onSubmit={submit} onFocus={() => void loadSchema()}>
        <Stack spacing={2}>
          <FormControl>
            <FormLabel id="register-role" sx={{ mb: 0.5 }}>
              I am joining as
            </FormLabel>
            <RadioGroup
              row
              aria-labelledby="register-role"
              name="role"
              value={role}
              onChange={(e) => {
                setError('');
                navigate(`/register/${e.target.value}`, { replace: true });
              }}
            >
              <FormControlLabel value="member" control={<Radio />} label="Member" />
              <FormControlLabel value="creator" control={<Radio />} label="Content Creator" />
            </RadioGroup>
          </FormControl>
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            error={!!fieldErrors.email}
            helperText={fieldErrors.email || ' '}
            onChange={(e) => {
              setEmail(e.target.value);
              setFieldErrors((f) => ({ ...f, email: undefined }));
              setError('');
            }}
          />
          <TextField
            label="Password"
            type="password"
            autoComplete="new-password"
            value={password}
            error={!!fieldErrors.password}
            helperText={
              fieldErrors.password ||
              'At least 8 characters, with uppercase and lowercase letters and a special character.'
            }
            onChange={(e) => {
              setPassword(e.target.value);
              setFieldErrors((f) => ({ ...f, password: undefined }));
              setError('');
            }}
          />
          {error && (
            <Alert severity="error" data-testid="form-error">
              {error}
              {error === AUTH_MSG.emailExists && (
                <>
                  {' '}
                  <Link component={RouterLink} to="/login" color="inherit" underline="always">
                    Sign in
                  </Link>
                </>
              )}
            </Alert>
          )}
          <Button type="submit" variant="contained" size="large" loading={loading} fullWidth>
            Next
          </Button>
        </Stack>
      </Box>
      <Typography variant="body2" sx={{ textAlign: 'center', mt: 3 }}>
        Already have an account?{' '}
        <Link component={RouterLink} to="/login">
          Sign in
        </Link>
      </Typography>
    </AuthCard>
  );
}
