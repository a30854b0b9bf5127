import {
  ACCOUNT_SUCCESS,
  IDENTITY_UPLOAD_ERRORS,
  identityFormSchema,
} from '@bountyhunt/shared/account';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useSession } from '../../../lib/session';
import { putIdentity } from '../api/submit-identity';
import { formError, useFormFlow } from '../components/form-flow';
import { ImageUpload } from '../components/image-upload';
import { SettingsForm } from '../components/settings-form';

const STATUS_TEXT = {
  pending: 'Your documents were received and are being reviewed.',
  approved: 'Your identity is verified.',
  rejected: 'Your last submission could not be verified. Please upload new photos.',
} as const;

/** The review's result (CONTRACT.md identityStatus / identityReason), above the form. */
function ReviewResult({
  status,
  reason,
}: {
  status: 'pending' | 'approved' | 'rejected';
  reason: string | null;
}) {
  if (status === 'rejected')
    return (
      <Alert severity="warning" data-testid="identity-result">
        <AlertTitle>{STATUS_TEXT.rejected}</AlertTitle>
        {reason && (
          <Typography variant="body2" data-testid="identity-reason" sx={{ mb: 0.5 }}>
            Reason: {reason}
          </Typography>
        )}
        <Typography variant="body2">
          Upload a new ID photo and selfie below and submit them again for review.
        </Typography>
      </Alert>
    );
  return (
    <Alert severity={status === 'approved' ? 'success' : 'info'} data-testid="identity-result">
      {STATUS_TEXT[status]}
    </Alert>
  );
}

/** Once verified there is nothing to submit: the result and the way back. */
function Verified() {
  return (
    <Box sx={{ maxWidth: 560, mx: 'auto', px: 2, py: { xs: 3, sm: 6 } }}>
      <Paper sx={{ p: { xs: 2.5, sm: 4 } }}>
        <Typography variant="h1" sx={{ fontSize: { xs: '1.6rem', sm: '2rem' }, mb: 2 }}>
          Identity Verification
        </Typography>
        <Stack spacing={2.5}>
          <ReviewResult status="approved" reason={null} />
          <Typography color="text.secondary">
            Our review team has verified your identity. Your document photos are deleted 30 days
            after the review.
          </Typography>
          <Typography sx={{ textAlign: 'center' }}>
            <Link component={RouterLink} to="/account">
              Back to settings
            </Link>
          </Typography>
        </Stack>
      </Paper>
    </Box>
  );
}

/** /account/identity: ID photo, selfie with ID, age confirmation → pending review (SPEC.md §5). */
export default function IdentityPage() {
  const { user, refresh } = useSession();
  const flow = useFormFlow(ACCOUNT_SUCCESS.identity);
  const [idFront, setFront] = useState<string | null>(null);
  const [idSelfie, setSelfie] = useState<string | null>(null);
  const [adult, setAdult] = useState(false);
  const status = user?.identityStatus ?? 'none';

  const onSubmit = () =>
    flow.submit(async () => {
      const parsed = identityFormSchema.safeParse({
        idFront: idFront ?? '',
        idSelfie: idSelfie ?? '',
        ageConfirmed: adult,
      });
      if (!parsed.success) return parsed.error.issues[0]?.message ?? '';
      const res = await putIdentity(parsed.data.idFront, parsed.data.idSelfie);
      if (res.status === 204) {
        await refresh();
        return null;
      }
      return formError(res);
    });

  if (status === 'approved') return <Verified />;

  return (
    <SettingsForm
      title="Identity Verification"
      intro="Creators are paid only once we know who they are. Your photos are stored privately and seen only by our review team."
      flow={flow}
      submitLabel="Submit for Review"
      onSubmit={onSubmit}
    >
      {status !== 'none' && <ReviewResult status={status} reason={user?.identityReason ?? null} />}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ alignItems: 'flex-start' }}>
        <Stack spacing={1} sx={{ flex: 1, width: '100%', alignItems: 'center' }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700 }}>
            ID Photo
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
            The front of your government-issued ID.
          </Typography>
          <ImageUpload
            label="Upload ID Photo"
            shape="card"
            privateUpload
            testId="id-front-file"
            onChange={(k) => {
              setFront(k);
              flow.clearError();
            }}
            onError={() => flow.setError(IDENTITY_UPLOAD_ERRORS.idFront)}
          />
        </Stack>
        <Stack spacing={1} sx={{ flex: 1, width: '100%', alignItems: 'center' }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700 }}>
            Selfie with ID
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
            You holding the ID next to your face.
          </Typography>
          <ImageUpload
            label="Upload Selfie"
            shape="card"
            privateUpload
            testId="id-selfie-file"
            onChange={(k) => {
              setSelfie(k);
              flow.clearError();
            }}
            onError={() => flow.setError(IDENTITY_UPLOAD_ERRORS.idSelfie)}
          />
        </Stack>
      </Stack>
      <FormControlLabel
        control={
          <Checkbox
            checked={adult}
            onChange={(e) => {
              setAdult(e.target.checked);
              flow.clearError();
            }}
            slotProps={{ input: { 'data-testid': 'age-confirm' } as object }}
          />
        }
        label="I confirm that I am at least 18 years old."
      />
    </SettingsForm>
  );
}
