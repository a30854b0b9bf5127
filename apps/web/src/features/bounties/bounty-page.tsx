/** SPEC.md §2 bounty page: title, Add Claim upload button, the rounds each listing its claims. */
import { BOUNTY_DURATIONS, DEFAULT_BOUNTY_SECONDS, type Bounty } from '@bountyhunt/shared/bounties';
import { formatCount, roundStatus, ROUND_STATUS } from '@bountyhunt/shared/format';
import { MSGF } from '@bountyhunt/shared/messages';
import { hasRole, ROLE } from '@bountyhunt/shared/roles';
import AddPhotoAlternateIcon from '@mui/icons-material/AddPhotoAlternate';
import EmojiEventsIcon from '@mui/icons-material/EmojiEvents';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { useFeedback } from '../../lib/feedback';
import { useSession } from '../../lib/session';
import { useBounty, useOpenRound } from './api';
import { ClaimGrid } from './claim-media';
import { PostClaimDialog } from './post-claim-dialog';
import { RoundStatusChip } from './round-status';

const EMPTY: Bounty = {
  bountyId: 0,
  id: 0,
  title: '',
  amount: 0,
  mediaType: 1,
  userId: 0,
  created: '',
  roundCount: 0,
  status: 'open',
  winnerClaimId: null,
  rounds: [],
};

function OpenRoundDialog({ bounty, onClose }: { bounty: Bounty; onClose: () => void }) {
  const [seconds, setSeconds] = useState<number>(DEFAULT_BOUNTY_SECONDS);
  const [amount, setAmount] = useState('0');
  const [error, setError] = useState('');
  const open = useOpenRound(bounty.bountyId);
  const queryClient = useQueryClient();
  const { refresh } = useSession();

  async function submit() {
    setError('');
    const res = await open.mutateAsync({ seconds, amount: Number(amount || 0) });
    if (res.status !== 200) return setError(res.message || `Error opening round (${res.status})`);
    queryClient.setQueryData(['bounty', String(bounty.bountyId)], res);
    void queryClient.invalidateQueries({ queryKey: ['bounties'] });
    if (Number(amount) > 0) void refresh();
    onClose();
  }

  return (
    <Dialog open onClose={onClose} aria-labelledby="open-round-title" fullWidth maxWidth="xs">
      <DialogTitle id="open-round-title">Open round {bounty.roundCount + 1}</DialogTitle>
      <DialogContent>
        <ToggleButtonGroup
          exclusive
          value={seconds}
          onChange={(_e, v: number | null) => v !== null && setSeconds(v)}
          aria-label="Duration"
          color="secondary"
          fullWidth
          sx={{ mb: 2, mt: 1 }}
        >
          {BOUNTY_DURATIONS.map((d) => (
            <ToggleButton key={d.seconds} value={d.seconds} sx={{ px: 1, whiteSpace: 'nowrap' }}>
              {d.label}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <TextField
          label="Add silver to the prize"
          type="number"
          value={amount}
          onChange={(e) => setAmount(e.target.value.replace(/[^\d]/g, ''))}
          slotProps={{ htmlInput: { min: 0, inputMode: 'numeric' } }}
        />
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={open.isPending}>
          Open Round
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default function BountyPage() {
  const { id = '' } = useParams();
  const { data: res, isPending } = useBounty(id);
  const { user } = useSession();
  const { notify } = useFeedback();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [openRound, setOpenRound] = useState(false);

  if (isPending)
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
        <CircularProgress aria-label="Loading bounty" />
      </Box>
    );
  // SPEC.md §8: a failed load shows its message and falls back to an empty bounty.
  const failed = res && res.status !== 200 ? res.status : null;
  const bounty = failed ? EMPTY : (res?.data ?? EMPTY);
  const current = bounty.rounds.find((r) => r.roundId === bounty.roundCount);
  const currentActive = roundStatus(current) === ROUND_STATUS.active;
  const isHunter = hasRole(user?.role, ROLE.hunter);
  const isPoster = !!user && user.userId === bounty.userId;
  const rounds = [...bounty.rounds].sort((a, b) => b.roundId - a.roundId);

  return (
    <Box sx={{ maxWidth: 960, mx: 'auto', px: { xs: 1, sm: 2 }, py: 2 }}>
      {failed && (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="bounty-load-error">
          {MSGF.bountyLoadError(failed)}
        </Alert>
      )}
      {!failed && (
        <>
          <Box
            sx={{
              display: 'flex',
              flexWrap: 'wrap',
              alignItems: 'center',
              gap: 2,
              mb: 2,
            }}
          >
            <Box sx={{ flexGrow: 1, minWidth: 0 }}>
              <Typography variant="h1" sx={{ fontSize: { xs: '1.5rem', sm: '2rem' } }}>
                {bounty.title}
              </Typography>
              {bounty.amount > 0 && (
                <Typography sx={{ color: 'secondary.main', fontWeight: 700 }}>
                  Prize: {formatCount(bounty.amount)} silver
                </Typography>
              )}
            </Box>
            {isHunter && (
              <>
                <input
                  ref={fileInput}
                  type="file"
                  accept="image/*,video/*"
                  hidden
                  data-testid="claim-file"
                  onChange={(e) => {
                    const chosen = e.target.files?.[0];
                    e.target.value = '';
                    if (!chosen) return;
                    if (!currentActive) return notify('This round is not active.', 'warning');
                    setFile(chosen);
                  }}
                />
                <Button
                  variant="contained"
                  startIcon={<AddPhotoAlternateIcon />}
                  onClick={() => fileInput.current?.click()}
                  disabled={!currentActive}
                >
                  Add Claim
                </Button>
              </>
            )}
            {isPoster && !currentActive && current && (
              <Button variant="outlined" color="secondary" onClick={() => setOpenRound(true)}>
                Open a New Round
              </Button>
            )}
          </Box>
          {bounty.status === 'decided' && (
            <Alert
              icon={<EmojiEventsIcon />}
              severity="success"
              variant="outlined"
              sx={{ mb: 2 }}
              data-testid="bounty-decided"
            >
              {bounty.winnerClaimId ? (
                <>
                  This bounty has been decided.{' '}
                  <Link component={RouterLink} to={`/claim/${bounty.winnerClaimId}`}>
                    See the winning claim
                  </Link>
                </>
              ) : (
                'This bounty ended without claims.'
              )}
            </Alert>
          )}
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
            {rounds.map((round) => (
              <Paper key={round.roundId} component="section" sx={{ p: 2 }} data-testid="round">
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 1.5 }}>
                  <Typography variant="h2" sx={{ fontSize: '1.15rem' }}>
                    Round {round.roundId}
                  </Typography>
                  <RoundStatusChip round={round} />
                  <Typography variant="body2" color="text.secondary" sx={{ ml: 'auto' }}>
                    {round.claims.length === 1 ? '1 claim' : `${round.claims.length} claims`}
                  </Typography>
                </Box>
                {round.claims.length ? (
                  <ClaimGrid
                    claims={round.claims}
                    eager={round === rounds[0] ? round.claims.length : 0}
                  />
                ) : (
                  <Typography variant="body2" color="text.secondary">
                    No claims in this round yet.
                  </Typography>
                )}
              </Paper>
            ))}
          </Box>
        </>
      )}
      {file && current && (
        <PostClaimDialog
          file={file}
          bountyId={bounty.bountyId}
          roundId={bounty.roundCount}
          onClose={() => setFile(null)}
        />
      )}
      {openRound && <OpenRoundDialog bounty={bounty} onClose={() => setOpenRound(false)} />}
    </Box>
  );
}
