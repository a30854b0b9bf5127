/** SPEC.md §2 bounty page: title, Add Claim upload button, the rounds each listing its claims. */
import type { Bounty } from '@bountyhunt/shared/bounties';
import { formatCount, ROUND_STATUS, roundStatus } from '@bountyhunt/shared/format';
import { API_MSG } from '@bountyhunt/shared/api';
import { hasRole, ROLE } from '@bountyhunt/shared/roles';
import AddPhotoAlternateIcon from '@mui/icons-material/AddPhotoAlternate';
import EmojiEventsIcon from '@mui/icons-material/EmojiEvents';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useRef, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { ClaimGrid } from '../../../components/media/media-view';
import { HiddenMarker } from '../../../components/report/hidden-marker';
import { ReportButton } from '../../../components/report/report-button';
import { useFeedback } from '../../../lib/feedback';
import { useSession } from '../../../lib/session';
import { useBounty } from '../api/get-bounty';
import { RoundStatusChip } from '../components/round-status';
import { useBountyLive } from '../live';

// The dialogs (text field, toggle buttons, upload progress) load when first opened, not with
// the page.
const PostClaimDialog = lazy(() =>
  import('../components/post-claim-dialog').then((m) => ({ default: m.PostClaimDialog })),
);
const OpenRoundDialog = lazy(() => import('../components/open-round-dialog'));

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

export default function BountyPage() {
  const { id = '' } = useParams();
  const { data: res, isPending } = useBounty(id);
  const { user } = useSession();
  const { notify } = useFeedback();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [openRound, setOpenRound] = useState(false);
  // Vote counts and ranks move, and new claims appear, as they happen.
  useBountyLive(Number(id) || null);

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
          {API_MSG.bountyLoadError(failed)}
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
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5 }}>
                <HiddenMarker hidden={bounty.hidden} />
                <ReportButton
                  targetType="bounty"
                  targetId={bounty.bountyId}
                  ownerId={bounty.userId}
                />
              </Box>
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
                {/* Wraps on a phone: the status chip's date leaves no room for the count. */}
                <Box
                  sx={{
                    display: 'flex',
                    flexWrap: 'wrap',
                    alignItems: 'center',
                    columnGap: 1.5,
                    rowGap: 0.75,
                    mb: 1.5,
                  }}
                >
                  <Typography variant="h2" sx={{ fontSize: '1.15rem', whiteSpace: 'nowrap' }}>
                    Round {round.roundId}
                  </Typography>
                  <RoundStatusChip round={round} />
                  <Typography
                    variant="body2"
                    color="text.secondary"
                    sx={{ ml: 'auto', whiteSpace: 'nowrap' }}
                  >
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
      <Suspense fallback={null}>
        {file && current && (
          <PostClaimDialog
            file={file}
            bountyId={bounty.bountyId}
            roundId={bounty.roundCount}
            onClose={() => setFile(null)}
          />
        )}
        {openRound && <OpenRoundDialog bounty={bounty} onClose={() => setOpenRound(false)} />}
      </Suspense>
    </Box>
  );
}
