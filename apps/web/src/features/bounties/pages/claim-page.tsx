/**
 * SPEC.md §2 claim page: media, hunter, bounty title, votes, rank, relative date, and the
 * five-step vote bar (§4: only for an Active round; locked with the chosen stars once voted).
 */
import {
  formatCount,
  ordinal,
  relativeDate,
  ROUND_STATUS,
  roundStatus,
} from '@bountyhunt/shared/format';
import { API_MSG } from '@bountyhunt/shared/api';
import { hasRole, ROLE } from '@bountyhunt/shared/roles';
import StarIcon from '@mui/icons-material/Star';
import ThumbUpIcon from '@mui/icons-material/ThumbUp';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Rating from '@mui/material/Rating';
import Typography from '@mui/material/Typography';
import { startTransition, useEffect, useState, type ReactNode } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { claimLabel, MediaView } from '../../../components/media/media-view';
import { HiddenMarker } from '../../../components/report/hidden-marker';
import { ReportButton } from '../../../components/report/report-button';
import { isActiveMember } from '../../../lib/access';
import { useFeedback } from '../../../lib/feedback';
import { useSession } from '../../../lib/session';
import { useClaim } from '../api/get-claim';
import { useClaimRank } from '../api/get-claim-rank';
import { useMyVote } from '../api/get-my-vote';
import { useVote } from '../api/vote';
import { BountyFeed } from '../components/bounty-feed';
import { RoundStatusChip } from '../components/round-status';
import { useBountyLive } from '../live';

const VOTE_LABELS = ['1 star', '2 stars', '3 stars', '4 stars', '5 stars'];

/**
 * `locked`: why this user may not vote here (shown in place of the price), or undefined when
 * they may.
 */
function VoteBar({ claimId, locked }: { claimId: number; locked: string | undefined }) {
  const key = String(claimId);
  const { data: mine, isPending } = useMyVote(key, true);
  const vote = useVote();
  const { refresh } = useSession();
  const [hover, setHover] = useState(-1);
  const current = mine?.status === 200 ? mine.data : 0;
  const voted = current > 0;

  async function cast(n: number) {
    const res = await vote.mutateAsync({ claimId, votes: n });
    if (res.status !== 200) {
      // SPEC.md §7: vote calls log errors only.
      console.error(`Vote failed (${res.status}): ${res.message}`);
      return;
    }
    await refresh();
  }

  const readOnly = voted || locked !== undefined || vote.isPending || isPending;
  return (
    <Box data-testid="vote-bar" data-voted={voted ? current : 0}>
      <Typography component="legend" variant="body2" color="text.secondary" id="vote-bar-label">
        {voted ? 'Your vote' : (locked ?? 'Vote: each star costs 1 silver')}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Rating
          name={`vote-${claimId}`}
          value={voted ? current : null}
          max={5}
          size="large"
          readOnly={readOnly}
          disabled={!voted && locked !== undefined}
          // Read-only with no vote, the bar is one image labelled with a null value.
          getLabelText={(v: number | null) =>
            v ? (VOTE_LABELS[v - 1] ?? `${v} stars`) : 'No vote'
          }
          onChange={(_e, v) => v && !readOnly && void cast(v)}
          onChangeActive={(_e, v) => setHover(v)}
          emptyIcon={<StarIcon fontSize="inherit" sx={{ opacity: 0.35 }} />}
          aria-labelledby="vote-bar-label"
        />
        {vote.isPending && <CircularProgress size={18} aria-label="Voting" />}
        {!voted && hover > 0 && (
          <Typography variant="body2" color="text.secondary">
            {hover} silver
          </Typography>
        )}
      </Box>
    </Box>
  );
}

/**
 * Mounts its children once the claim has been painted (a frame, then a task), as a transition:
 * the cards of "More bounties" are a render of their own, not part of the claim's long task.
 */
function AfterPaint({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const show = () => {
      timer = setTimeout(() => startTransition(() => setShown(true)), 0);
    };
    if (typeof requestAnimationFrame === 'undefined') {
      show();
      return () => clearTimeout(timer);
    }
    const frame = requestAnimationFrame(show);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return shown ? children : null;
}

export default function ClaimPage() {
  const { id = '' } = useParams();
  const { data: res, isPending } = useClaim(id);
  const { data: rankRes } = useClaimRank(id);
  const { user, hunter } = useSession();
  const { notify } = useFeedback();
  const failed = res && res.status !== 200 ? res.status : null;
  // The claim's votes and rank move as its round's votes come in.
  useBountyLive(res?.status === 200 ? res.data.bountyId : null);

  useEffect(() => {
    // SPEC.md §8: a failed claim load shows a snackbar.
    if (failed) notify(API_MSG.claimLoadError(failed), 'error');
  }, [failed, notify]);

  if (isPending)
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
        <CircularProgress aria-label="Loading claim" />
      </Box>
    );
  const claim = !failed ? res?.data : undefined;
  if (!claim)
    return (
      <Box sx={{ maxWidth: 960, mx: 'auto', px: 2, py: 6, textAlign: 'center' }}>
        <Typography color="text.secondary">This claim could not be shown.</Typography>
      </Box>
    );

  const active = roundStatus(claim.round) === ROUND_STATUS.active;
  const ownClaim = !!hunter && hunter.hunterId === claim.hunter.hunterId;
  const voteLocked = !hasRole(user?.role, ROLE.member)
    ? 'Only members vote on claims.'
    : !isActiveMember(user)
      ? 'Voting needs an active membership.'
      : ownClaim
        ? 'You cannot vote on your own claim.'
        : undefined;
  const rank = rankRes?.status === 200 ? rankRes.data : null;
  const name = claim.hunter.stagename || claim.hunter.handle;

  return (
    <Box sx={{ maxWidth: 960, mx: 'auto', px: { xs: 1, sm: 2 }, py: 2 }}>
      <Paper sx={{ p: { xs: 1.5, sm: 2 }, mb: 3 }} component="article">
        <MediaView
          variant="full"
          mediaKey={claim.media}
          alt={claimLabel(claim)}
          testId="claim-media"
        />
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 2, mt: 2 }}>
          <Box sx={{ flexGrow: 1, minWidth: 0 }}>
            <Typography variant="h1" sx={{ fontSize: { xs: '1.3rem', sm: '1.6rem' } }}>
              <Link
                component={RouterLink}
                to={`/bounty/${claim.bountyId}`}
                data-testid="claim-bounty"
              >
                {claim.bounty.title}
              </Link>
            </Typography>
            <Typography color="text.secondary" sx={{ mt: 0.5 }}>
              by{' '}
              {claim.hunter.handle ? (
                <Link component={RouterLink} to={`/profile/${claim.hunter.handle}`}>
                  {name}
                </Link>
              ) : (
                (name ?? 'a hunter')
              )}{' '}
              · <span data-testid="claim-date">{relativeDate(claim.created)}</span>
            </Typography>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5 }}>
              <HiddenMarker hidden={claim.hidden} />
              <ReportButton
                targetType="claim"
                targetId={claim.claimId}
                ownerId={ownClaim ? user?.userId : undefined}
              />
            </Box>
          </Box>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
            {rank !== null && (
              <Typography
                variant="h2"
                component="p"
                sx={{ color: 'secondary.main', fontSize: '1.4rem' }}
                data-testid="claim-rank"
              >
                {ordinal(rank)}
              </Typography>
            )}
            <Box
              sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
              data-testid="claim-votes"
              aria-label={`${claim.votes} votes`}
            >
              <ThumbUpIcon fontSize="small" aria-hidden="true" />
              <Typography sx={{ fontWeight: 700 }}>{formatCount(claim.votes)}</Typography>
            </Box>
          </Box>
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, mt: 2 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Typography variant="body2" color="text.secondary">
              Round {claim.roundId}
            </Typography>
            <RoundStatusChip round={claim.round} />
          </Box>
          {active && <VoteBar claimId={claim.claimId} locked={voteLocked} />}
        </Box>
      </Paper>
      <Typography variant="h2" sx={{ fontSize: '1.2rem', mb: 1.5 }}>
        More bounties
      </Typography>
      <AfterPaint>
        <BountyFeed
          term=""
          excludeId={claim.bountyId}
          claimId={claim.claimId}
          onFirstScreen={false}
        />
      </AfterPaint>
    </Box>
  );
}
