import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  ACCOUNT_LIMITS,
  ACCOUNT_MSG,
  bioSchema,
  HANDLE_STRIP_RE,
  handleSchema,
  stagenameSchema,
} from '@bountyhunt/shared/account';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { hunterHandle } from '../../../lib/access';
import { useFeedback } from '../../../lib/feedback';
import { useSession } from '../../../lib/session';
import { useUpdateProfile, type ProfileChanges, type ProfileField } from '../api/update-profile';
import { MediaPicker } from '../components/media-picker';

const PROFILE_UPDATED = 'Your profile has been updated.';

/**
 * /profile/edit: handle, stage name, biography, picture and banner in one form, saved through
 * the account endpoints (PUT /user/handle, /hunter/stagename, /hunter/bio, /hunter/picture,
 * /hunter/banner); only what changed is sent.
 */
export default function EditProfilePage() {
  const { user, hunter, refresh } = useSession();
  const { notify } = useFeedback();
  const navigate = useNavigate();
  const save = useUpdateProfile();
  const [handle, setHandle] = useState(hunterHandle(user, hunter) ?? '');
  const [stagename, setStagename] = useState(hunter?.stagename ?? '');
  const [bio, setBio] = useState(hunter?.bio ?? '');
  const [picture, setPicture] = useState<string | null>(null);
  const [banner, setBanner] = useState<string | null>(null);
  const [uploads, setUploads] = useState(0);
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);

  const busy = (b: boolean) => setUploads((n) => Math.max(0, n + (b ? 1 : -1)));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError('');
    const h = handleSchema.safeParse({ handle });
    if (!h.success) return setError(h.error.issues[0]?.message ?? ACCOUNT_MSG.handleRequired);
    const s = stagenameSchema.safeParse({ stagename });
    if (!s.success) return setError(`Stage name: at most ${ACCOUNT_LIMITS.stagename} characters.`);
    const b = bioSchema.safeParse({ bio });
    if (!b.success) return setError(`Biography: at most ${ACCOUNT_LIMITS.bio} characters.`);

    const changes: ProfileChanges = {};
    const steps: {
      field: ProfileField;
      fail: (status: number) => string;
      /** SPEC.md §2's snackbar when this is the only change. */
      done?: string;
    }[] = [];
    if (h.data.handle !== hunterHandle(user, hunter)) {
      changes.handle = h.data.handle;
      steps.push({
        field: 'handle',
        fail: (st) => (st === 409 ? ACCOUNT_MSG.handleTaken : ACCOUNT_MSG.handleOther(st)),
        done: ACCOUNT_MSG.handleSuccess,
      });
    }
    if (s.data.stagename !== (hunter?.stagename ?? null)) {
      changes.stagename = s.data.stagename;
      steps.push({ field: 'stagename', fail: (st) => ACCOUNT_MSG.settingOther('stage name', st) });
    }
    if (b.data.bio !== (hunter?.bio ?? null)) {
      changes.bio = b.data.bio;
      steps.push({
        field: 'bio',
        fail: (st) => ACCOUNT_MSG.settingOther('biography', st),
        done: ACCOUNT_MSG.bioSuccess,
      });
    }
    if (picture) {
      changes.picture = picture;
      steps.push({
        field: 'picture',
        fail: (st) => ACCOUNT_MSG.settingOther('profile picture', st),
        done: ACCOUNT_MSG.pictureSuccess,
      });
    }
    if (banner) {
      changes.banner = banner;
      steps.push({ field: 'banner', fail: (st) => ACCOUNT_MSG.settingOther('banner', st) });
    }

    setSaving(true);
    try {
      const failed = await save.mutateAsync(changes);
      if (failed) {
        setError(steps.find((step) => step.field === failed.field)!.fail(failed.status));
        return;
      }
      await refresh();
      if (steps.length)
        notify((steps.length === 1 && steps[0]!.done) || PROFILE_UPDATED, 'success');
      navigate('/profile');
    } finally {
      setSaving(false);
    }
  }

  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', px: 2, py: 3 }}>
      <Paper component="form" onSubmit={submit} noValidate sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography variant="h1" sx={{ fontSize: '1.6rem', mb: 2 }}>
          Edit Profile
        </Typography>
        <Stack spacing={2.5}>
          <TextField
            label="Handle"
            value={handle}
            onChange={(e) => {
              setHandle(
                e.target.value.replace(HANDLE_STRIP_RE, '').slice(0, ACCOUNT_LIMITS.handle),
              );
              setError('');
            }}
            helperText={`${ACCOUNT_LIMITS.handleHintMin} to ${ACCOUNT_LIMITS.handle} letters and digits`}
            slotProps={{ htmlInput: { maxLength: ACCOUNT_LIMITS.handle, autoCapitalize: 'none' } }}
          />
          <TextField
            label="Stage Name"
            value={stagename}
            onChange={(e) => {
              setStagename(e.target.value.slice(0, ACCOUNT_LIMITS.stagename));
              setError('');
            }}
            helperText={`Optional, ${ACCOUNT_LIMITS.stagenameHintMin} to ${ACCOUNT_LIMITS.stagename} characters`}
            slotProps={{ htmlInput: { maxLength: ACCOUNT_LIMITS.stagename } }}
          />
          <TextField
            label="Biography"
            multiline
            rows={4}
            value={bio}
            onChange={(e) => {
              setBio(e.target.value.slice(0, ACCOUNT_LIMITS.bio));
              setError('');
            }}
            helperText={`${bio.length}/${ACCOUNT_LIMITS.bio}`}
            slotProps={{ htmlInput: { maxLength: ACCOUNT_LIMITS.bio } }}
          />
          <Box>
            <Typography variant="h2" sx={{ fontSize: '1.1rem', mb: 1 }}>
              Picture
            </Typography>
            <Box sx={{ maxWidth: 160 }}>
              <MediaPicker
                round
                accept="image/*"
                label="Upload Photo"
                previewLabel="Profile picture preview"
                initialKey={hunter?.picture ?? null}
                onChange={(m) => setPicture(m?.key ?? null)}
                onBusy={busy}
              />
            </Box>
          </Box>
          <Box>
            <Typography variant="h2" sx={{ fontSize: '1.1rem', mb: 1 }}>
              Banner
            </Typography>
            <MediaPicker
              accept="image/*"
              label="Upload Banner"
              previewLabel="Banner preview"
              ratio="3 / 1"
              initialKey={hunter?.banner ?? null}
              onChange={(m) => setBanner(m?.key ?? null)}
              onBusy={busy}
            />
          </Box>
        </Stack>
        {error && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="edit-error">
            {error}
          </Alert>
        )}
        <Stack direction="row" spacing={1.5} sx={{ mt: 3, justifyContent: 'flex-end' }}>
          <Button color="inherit" onClick={() => navigate('/profile')}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={uploads > 0} loading={saving}>
            Save
          </Button>
        </Stack>
      </Paper>
    </Box>
  );
}
