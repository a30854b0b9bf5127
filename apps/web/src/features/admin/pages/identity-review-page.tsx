/**
 * /admin/identities/:id: one submission, its ID photo and selfie (signed links that expire
 * after 5 minutes; the query refreshes them), and the decision: approve, or reject with a
 * listed reason and a note the user reads.
 */
import { API_MSG } from '@bountyhunt/shared/api';
import {
  IDENTITY_LIMITS,
  IDENTITY_REASON_LABEL,
  IDENTITY_REJECT_REASONS,
  identityReasonText,
  identityRejectSchema,
  type IdentityDetailAnswer,
  type IdentityRejectInput,
} from '@bountyhunt/shared/identity';
import { zodResolver } from '@hookform/resolvers/zod';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { PageSpinner } from '../../../components/page-spinner';
import { useFeedback } from '../../../lib/feedback';
import {
  signedImageUrl,
  useApproveIdentity,
  useIdentity,
  useRejectIdentity,
} from '../api/identities';
import { formatDateTime } from '../components/format';
import { AgeChip, fullName } from '../components/identity-bits';

function Photo({ title, url }: { title: string; url: string | null }) {
  return (
    <Paper variant="outlined" sx={{ p: 1.5, display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Typography variant="subtitle2" component="h2">
        {title}
      </Typography>
      <Box
        sx={{
          bgcolor: 'background.default',
          borderRadius: 1,
          minHeight: 260,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          overflow: 'hidden',
        }}
      >
        {url ? (
          <Box
            component="a"
            href={signedImageUrl(url)}
            target="_blank"
            rel="noreferrer noopener"
            sx={{ display: 'block', lineHeight: 0 }}
          >
            <Box
              component="img"
              src={signedImageUrl(url)}
              alt={title}
              referrerPolicy="no-referrer"
              sx={{ maxWidth: '100%', maxHeight: 420, objectFit: 'contain', display: 'block' }}
            />
          </Box>
        ) : (
          <Typography color="text.secondary">Deleted after the decision.</Typography>
        )}
      </Box>
    </Paper>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="div">{children}</Typography>
    </Box>
  );
}

const STATUS_COLOR = {
  pending: 'info',
  approved: 'success',
  rejected: 'warning',
  superseded: 'default',
} as const;

function Decision({ s }: { s: IdentityDetailAnswer }) {
  const navigate = useNavigate();
  const { notify } = useFeedback();
  const approve = useApproveIdentity(s.submissionId);
  const reject = useRejectIdentity(s.submissionId);
  const [error, setError] = useState('');
  const form = useForm<IdentityRejectInput>({
    resolver: zodResolver(identityRejectSchema),
    defaultValues: { reason: undefined, text: '' },
  });
  const done = (status: number, message: string, text: string) => {
    if (status === 200) {
      notify(text, 'success');
      navigate('/admin/identities');
    } else setError(message || API_MSG.formOther(status));
  };
  const busy = approve.isPending || reject.isPending;
  const reason = useWatch({ control: form.control, name: 'reason' });
  return (
    <Paper variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Typography variant="h2" sx={{ fontSize: '1.25rem' }}>
        Decision
      </Typography>
      {error && <Alert severity="error">{error}</Alert>}
      <Button
        variant="contained"
        color="success"
        disabled={busy}
        onClick={async () => {
          setError('');
          const res = await approve.mutateAsync();
          done(res.status, res.message, 'Identity approved. The user has been notified.');
        }}
      >
        Approve
      </Button>
      <Box
        component="form"
        noValidate
        aria-label="Reject"
        onSubmit={form.handleSubmit(async (v) => {
          setError('');
          const res = await reject.mutateAsync(v);
          done(res.status, res.message, 'Submission rejected. The user has been notified.');
        })}
        sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: 1 }}
      >
        <Controller
          control={form.control}
          name="reason"
          render={({ field, fieldState }) => (
            <TextField
              select
              label="Reason"
              value={field.value ?? ''}
              onChange={(e) => field.onChange(e.target.value)}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={!!fieldState.error}
              helperText={fieldState.error ? 'Choose a reason.' : ' '}
              slotProps={{ htmlInput: { 'data-testid': 'reject-reason' } }}
            >
              {IDENTITY_REJECT_REASONS.map((r) => (
                <MenuItem key={r} value={r}>
                  {IDENTITY_REASON_LABEL[r]}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <TextField
          {...form.register('text')}
          label={reason === 'other' ? 'Note to the user' : 'Note to the user (optional)'}
          multiline
          minRows={3}
          error={!!form.formState.errors.text}
          helperText={
            form.formState.errors.text?.message ?? 'Shown to the user with the reason and mailed.'
          }
          slotProps={{ htmlInput: { maxLength: IDENTITY_LIMITS.reasonText } }}
        />
        <Button type="submit" variant="outlined" color="warning" disabled={busy}>
          Reject
        </Button>
      </Box>
    </Paper>
  );
}

export default function IdentityReviewPage() {
  const id = Number(useParams().id);
  const { data: res, isPending } = useIdentity(id);
  if (isPending) return <PageSpinner />;
  const back = (
    <Button
      component={RouterLink}
      to="/admin/identities"
      startIcon={<ArrowBackIcon />}
      color="inherit"
      sx={{ mb: 1 }}
    >
      Review queue
    </Button>
  );
  if (!res || res.status !== 200)
    return (
      <Box>
        {back}
        <Alert severity="error">{res?.message || API_MSG.formOther(res?.status ?? 500)}</Alert>
      </Box>
    );
  const s = res.data;
  return (
    <Box>
      {back}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 2, flexWrap: 'wrap' }}>
        <Typography variant="h1">Identity submission #{s.submissionId}</Typography>
        <Chip label={s.status} color={STATUS_COLOR[s.status]} data-testid="submission-status" />
      </Box>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 1fr) 340px' },
          alignItems: 'start',
        }}
      >
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <Photo title="ID photo (front)" url={s.idFrontUrl} />
            <Photo title="Selfie with ID" url={s.idSelfieUrl} />
          </Box>
          {s.idFrontUrl && (
            <Typography variant="body2" color="text.secondary">
              The photo links are private and expire at {formatDateTime(s.expires)}; this page
              renews them while it is open.
            </Typography>
          )}
        </Box>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Paper
            variant="outlined"
            sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1.5 }}
          >
            <Field label="User">
              <Box component="span" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
                {s.email}
              </Box>
              <Typography variant="body2" component="span" color="text.secondary">
                #{s.userId}
                {s.handle ? ` · @${s.handle}` : ''}
              </Typography>
            </Field>
            <Field label="Legal name">{fullName(s)}</Field>
            <Field label="Submitted">{formatDateTime(s.submitted)}</Field>
            <Field label="Age confirmation">
              <AgeChip attested={s.ageAttested} />
            </Field>
            {s.decided && <Field label="Decided">{formatDateTime(s.decided)}</Field>}
            {s.reason && (
              <Field label="Reason given to the user">
                {identityReasonText(s.reason, s.reasonText)}
              </Field>
            )}
          </Paper>
          {s.status === 'pending' ? (
            <Decision s={s} />
          ) : (
            <Alert severity="info">This submission has been decided ({s.status}).</Alert>
          )}
        </Box>
      </Box>
    </Box>
  );
}
