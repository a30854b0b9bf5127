/**
 * /admin/sign-in: the second factor. An admin without an authenticator sets one up (QR code,
 * the secret for typing in, ten recovery codes shown once, then a first code); an enrolled
 * admin enters the current code or a recovery code. Either way the session may then use the
 * console.
 */
import { ADMIN_MSG, totpConfirmSchema, type TotpEnrolAnswer } from '@bountyhunt/shared/admin';
import { API_MSG } from '@bountyhunt/shared/api';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Navigate, useNavigate } from 'react-router';
import { z } from 'zod';
import { Logo } from '../../../components/logo';
import { PageSpinner } from '../../../components/page-spinner';
import { useConfirmCode, useEnrol, useTotpStatus, useVerifyCode } from '../api/totp';

const recoverySchema = z.object({
  recoveryCode: z.string().trim().min(1, 'Enter a recovery code.'),
});

function failure(status: number, message: string) {
  if (status === 429) return message;
  if (status === 400) return ADMIN_MSG.codeInvalid;
  return message || API_MSG.formOther(status);
}

/** The six-digit code form, for confirming an enrolment or passing the factor. */
function CodeForm({
  submit,
  label,
}: {
  submit: (code: string) => Promise<{ status: number; message: string }>;
  label: string;
}) {
  const [error, setError] = useState('');
  const form = useForm<{ code: string }>({
    resolver: zodResolver(totpConfirmSchema),
    defaultValues: { code: '' },
  });
  return (
    <Box
      component="form"
      noValidate
      onSubmit={form.handleSubmit(async ({ code }) => {
        setError('');
        const res = await submit(code);
        if (res.status !== 204) setError(failure(res.status, res.message));
      })}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
    >
      <TextField
        {...form.register('code')}
        label={label}
        autoComplete="one-time-code"
        autoFocus
        error={!!form.formState.errors.code}
        helperText={form.formState.errors.code ? 'Enter the 6 digits.' : ' '}
        slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }}
      />
      {error && <Alert severity="error">{error}</Alert>}
      <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
        Continue
      </Button>
    </Box>
  );
}

function RecoveryForm({ onDone }: { onDone: () => void }) {
  const verify = useVerifyCode();
  const [error, setError] = useState('');
  const form = useForm<{ recoveryCode: string }>({
    resolver: zodResolver(recoverySchema),
    defaultValues: { recoveryCode: '' },
  });
  return (
    <Box
      component="form"
      noValidate
      onSubmit={form.handleSubmit(async (v) => {
        setError('');
        const res = await verify.mutateAsync(v);
        if (res.status === 204) onDone();
        else setError(failure(res.status, res.message));
      })}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
    >
      <TextField
        {...form.register('recoveryCode')}
        label="Recovery code"
        autoComplete="off"
        autoFocus
        error={!!form.formState.errors.recoveryCode}
        helperText={form.formState.errors.recoveryCode?.message ?? 'Each code works once.'}
      />
      {error && <Alert severity="error">{error}</Alert>}
      <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
        Continue
      </Button>
    </Box>
  );
}

function Enrol({ onDone }: { onDone: () => void }) {
  const enrol = useEnrol();
  const confirm = useConfirmCode();
  const [secret, setSecret] = useState<TotpEnrolAnswer | null>(null);
  const [error, setError] = useState('');
  if (!secret)
    return (
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Typography>
          The console asks for a code from an authenticator app (Google Authenticator, 1Password,
          Authy…) at every sign-in. Set one up now.
        </Typography>
        {error && <Alert severity="error">{error}</Alert>}
        <Button
          variant="contained"
          disabled={enrol.isPending}
          onClick={async () => {
            const res = await enrol.mutateAsync();
            if (res.status === 200) setSecret(res.data);
            else setError(res.message || API_MSG.formOther(res.status));
          }}
        >
          Set up an authenticator app
        </Button>
      </Box>
    );
  const typed = new URL(secret.otpauthUrl).searchParams.get('secret') ?? '';
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Typography>1. Scan this QR code with your authenticator app.</Typography>
      <Box
        component="img"
        src={secret.qr}
        alt="QR code for your authenticator app"
        sx={{ width: 200, height: 200, alignSelf: 'center', borderRadius: 1, bgcolor: '#fff' }}
      />
      <Typography variant="body2" color="text.secondary">
        Or type this key:{' '}
        <code data-testid="totp-secret">{typed.replace(/(.{4})/g, '$1 ').trim()}</code>
      </Typography>
      <Typography>
        2. Keep these recovery codes somewhere safe. Each one works once, instead of a code, if you
        lose your phone. They are shown only now.
      </Typography>
      <Box
        component="ol"
        data-testid="recovery-codes"
        sx={{
          m: 0,
          pl: 4,
          columns: 2,
          fontFamily: 'ui-monospace, monospace',
          bgcolor: 'background.default',
          borderRadius: 1,
          py: 1,
        }}
      >
        {secret.recoveryCodes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </Box>
      <Typography>3. Enter the code the app shows.</Typography>
      <CodeForm
        label="Code from the app"
        submit={async (code) => {
          const res = await confirm.mutateAsync({ code });
          if (res.status === 204) onDone();
          return res;
        }}
      />
    </Box>
  );
}

export default function SecondFactorPage() {
  const { data: res, isPending } = useTotpStatus();
  const verify = useVerifyCode();
  const navigate = useNavigate();
  const [recovery, setRecovery] = useState(false);
  if (isPending) return <PageSpinner />;
  if (!res || res.status !== 200)
    return <Alert severity="error">{res?.message || API_MSG.formOther(res?.status ?? 500)}</Alert>;
  if (res.data.secondFactor) return <Navigate to="/admin" replace />;
  const done = () => navigate('/admin', { replace: true });
  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2 }}>
      <Paper sx={{ p: 4, width: '100%', maxWidth: 460 }}>
        <Box sx={{ display: 'flex', justifyContent: 'center', mb: 2 }}>
          <Logo />
        </Box>
        <Typography variant="h1" sx={{ fontSize: '1.5rem', mb: 2, textAlign: 'center' }}>
          {res.data.enrolled ? 'Two-step verification' : 'Set up two-step verification'}
        </Typography>
        {!res.data.enrolled ? (
          <Enrol onDone={done} />
        ) : recovery ? (
          <RecoveryForm onDone={done} />
        ) : (
          <CodeForm
            label="Code from your authenticator app"
            submit={async (code) => {
              const r = await verify.mutateAsync({ code });
              if (r.status === 204) done();
              return r;
            }}
          />
        )}
        {res.data.enrolled && (
          <Box sx={{ mt: 2, textAlign: 'center' }}>
            <Link component="button" type="button" onClick={() => setRecovery(!recovery)}>
              {recovery ? 'Use a code from the app' : 'Use a recovery code'}
            </Link>
          </Box>
        )}
      </Paper>
    </Box>
  );
}
