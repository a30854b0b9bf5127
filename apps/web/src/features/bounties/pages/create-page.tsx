/** SPEC.md §2 bounty creation form: title, duration, media type, Post Bounty (§8 messages). */
import {
  BOUNTY_DURATIONS,
  BOUNTY_LIMITS,
  BOUNTY_MEDIA_TYPES,
  BOUNTY_MSG,
  bountyCreateSchema,
  DEFAULT_BOUNTY_SECONDS,
  DEFAULT_MEDIA_TYPE,
} from '@bountyhunt/shared/bounties';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useFeedback } from '../../../lib/feedback';
import { useSession } from '../../../lib/session';
import { useCreateBounty, type CreateBountyBody } from '../api/create-bounty';

export default function CreateBountyPage() {
  const [title, setTitle] = useState('');
  const [seconds, setSeconds] = useState<number>(DEFAULT_BOUNTY_SECONDS);
  const [mediaType, setMediaType] =
    useState<NonNullable<CreateBountyBody['mediaType']>>(DEFAULT_MEDIA_TYPE);
  const [amount, setAmount] = useState('0');
  const [error, setError] = useState('');
  const [hoursError, setHoursError] = useState('');
  const post = useCreateBounty();
  const navigate = useNavigate();
  const { user, refresh } = useSession();
  const { notify } = useFeedback();
  const durationLabel = useId();
  const typeLabel = useId();

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError('');
    setHoursError('');
    const parsed = bountyCreateSchema.safeParse({
      title,
      seconds,
      mediaType,
      amount: Number(amount || 0),
    });
    if (!parsed.success) {
      const issues = parsed.error.issues;
      if (issues.some((i) => i.path[0] === 'title')) return setError(BOUNTY_MSG.titleBlank);
      // SPEC.md §5: the hours message shows, yet the request still goes out.
      if (issues.some((i) => i.path[0] === 'seconds')) setHoursError(BOUNTY_MSG.hoursInvalid);
      else return setError(issues[0]?.message ?? 'Please check the form.');
    }
    try {
      const res = await post.mutateAsync({
        title: title.trim(),
        seconds,
        mediaType,
        amount: Number(amount || 0),
      });
      if (res.status !== 200) return setError(BOUNTY_MSG.bountyPostError(res.status));
      if (res.data.amount > 0) void refresh();
      notify('Your bounty is live!', 'success');
      navigate(`/bounty/${res.data.bountyId}`);
    } catch (err) {
      setError(BOUNTY_MSG.bountyPostThrown(String(err)));
    }
  }

  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', px: 2, py: 3 }}>
      <Paper component="form" onSubmit={submit} noValidate sx={{ p: { xs: 2, sm: 4 } }}>
        <Typography variant="h1" sx={{ mb: 1 }}>
          Create a Bounty
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          Challenge the hunters: name it, pick how long it runs and what they should send.
        </Typography>
        <TextField
          label="Title"
          value={title}
          onChange={(e) => {
            setTitle(e.target.value);
            setError('');
          }}
          slotProps={{
            htmlInput: { maxLength: BOUNTY_LIMITS.bountyTitle, 'data-testid': 'bounty-title' },
          }}
          sx={{ mb: 3 }}
          autoFocus
        />
        <FormControl sx={{ mb: 3, display: 'block' }}>
          <FormLabel id={durationLabel} sx={{ mb: 1, display: 'block' }}>
            Duration
          </FormLabel>
          <ToggleButtonGroup
            exclusive
            value={seconds}
            onChange={(_e, v: number | null) => v !== null && setSeconds(v)}
            aria-labelledby={durationLabel}
            color="secondary"
            fullWidth
            sx={{ maxWidth: 480 }}
          >
            {BOUNTY_DURATIONS.map((d) => (
              <ToggleButton key={d.seconds} value={d.seconds} sx={{ px: 1, whiteSpace: 'nowrap' }}>
                {d.label}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          {hoursError && (
            <Typography color="error" variant="body2" sx={{ mt: 1 }}>
              {hoursError}
            </Typography>
          )}
        </FormControl>
        <FormControl sx={{ mb: 3, display: 'block' }}>
          <FormLabel id={typeLabel} sx={{ mb: 1, display: 'block' }}>
            Media type
          </FormLabel>
          <ToggleButtonGroup
            exclusive
            value={mediaType}
            onChange={(_e, v: typeof mediaType | null) => v !== null && setMediaType(v)}
            aria-labelledby={typeLabel}
            color="secondary"
          >
            {BOUNTY_MEDIA_TYPES.map((m) => (
              <ToggleButton key={m.code} value={m.code} sx={{ px: 2 }}>
                {m.label}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        </FormControl>
        <TextField
          label="Silver prize (optional)"
          type="number"
          value={amount}
          onChange={(e) => setAmount(e.target.value.replace(/[^\d]/g, ''))}
          helperText={`Held from your balance (${user?.silver ?? 0} silver) and paid to the winner.`}
          slotProps={{ htmlInput: { min: 0, step: 1, inputMode: 'numeric' } }}
          sx={{ mb: 3 }}
        />
        {error && (
          <Alert severity="error" sx={{ mb: 2 }} data-testid="bounty-error">
            {error}
          </Alert>
        )}
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          disabled={post.isPending}
          startIcon={post.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
        >
          Post Bounty
        </Button>
      </Paper>
    </Box>
  );
}
