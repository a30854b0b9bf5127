/** SPEC.md §1/§2: a feed of bounties found by search, loading more as the user scrolls. */
import { formatCount } from '@bountyhunt/shared/format';
import type { Bounty } from '@bountyhunt/shared/bounties';
import { API_MSG } from '@bountyhunt/shared/api';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { memo, startTransition, useDeferredValue, useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ClaimGrid } from '../../../components/media/media-view';
import { useBountyFeed } from '../api/search-bounties';

/** The bounty title bar: opens /bounty/{id}. */
export function BountyTitleBar({ bounty }: { bounty: Bounty }) {
  return (
    <Box
      component={RouterLink}
      to={`/bounty/${bounty.bountyId}`}
      data-testid="bounty-title-bar"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        px: 2,
        py: 1.25,
        color: 'text.primary',
        textDecoration: 'none',
        borderBottom: '1px solid rgba(255,255,255,0.08)',
        '&:hover': { bgcolor: 'action.hover' },
      }}
    >
      <Typography variant="h3" component="h2" sx={{ flexGrow: 1, fontSize: '1.1rem' }} noWrap>
        {bounty.title}
      </Typography>
      {bounty.amount > 0 && (
        <Typography variant="body2" sx={{ color: 'secondary.main', fontWeight: 700 }}>
          {formatCount(bounty.amount)} silver
        </Typography>
      )}
      <ChevronRightIcon aria-hidden="true" />
    </Box>
  );
}

/**
 * `first`: the card is on the first screen, so its tiles load at once. The others skip style,
 * layout and paint until scrolled near (content-visibility), sized meanwhile by an estimate.
 */
export const BountyCard = memo(function BountyCard({
  bounty,
  first = false,
}: {
  bounty: Bounty;
  first?: boolean;
}) {
  const claims = bounty.rounds[0]?.claims ?? [];
  return (
    <Paper
      component="article"
      data-testid="bounty-card"
      sx={{
        overflow: 'hidden',
        ...(first ? {} : { contentVisibility: 'auto', containIntrinsicSize: 'auto 560px' }),
      }}
    >
      <BountyTitleBar bounty={bounty} />
      <Box sx={{ p: 1 }}>
        {claims.length ? (
          <ClaimGrid claims={claims} eager={first ? claims.length : 0} />
        ) : (
          <Typography variant="body2" color="text.secondary" sx={{ px: 1, py: 1.5 }}>
            No claims yet.
          </Typography>
        )}
      </Box>
    </Paper>
  );
});

export function BountyFeed({
  term,
  excludeId,
  claimId,
  onFirstScreen = true,
}: {
  term: string;
  excludeId?: number;
  claimId?: number;
  /** The feed starts on the first screen (home), not below other content (claim page). */
  onFirstScreen?: boolean;
}) {
  const feed = useBountyFeed(term, excludeId, claimId);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = feed;
  // Up to a hundred tiles a page: they render as a transition (in slices, leaving the main
  // thread free between them), after the answer arrives, rather than in one long task.
  const data = useDeferredValue(feed.data);

  if (feed.isPending || !data)
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
        <CircularProgress aria-label="Loading bounties" />
      </Box>
    );
  const pages = data.pages;
  const failed = pages.find((p) => p.status !== 200);
  const bounties = pages.flatMap((p) => (p.status === 200 ? p.data : []));
  return (
    <FeedCards
      bounties={bounties}
      onFirstScreen={onFirstScreen}
      failed={failed?.status}
      term={term}
      excludeId={excludeId}
      hasNextPage={hasNextPage}
      isFetchingNextPage={isFetchingNextPage}
      fetchNextPage={fetchNextPage}
    />
  );
}

/** Cards added to the page per commit (see FeedCards). */
const CARDS_PER_STEP = 2;

function FeedCards({
  bounties,
  onFirstScreen,
  failed,
  term,
  excludeId,
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
}: {
  bounties: Bounty[];
  onFirstScreen: boolean;
  failed: number | undefined;
  term: string;
  excludeId?: number;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}) {
  // A page's cards reach the page CARDS_PER_STEP at a time, each step a transition after the
  // last one's commit: a commit (DOM, styles) cannot be sliced, and ten cards of up to twelve
  // tiles in one made the longest task of a phone's first load.
  const [shown, setShown] = useState(CARDS_PER_STEP);
  const all = shown >= bounties.length;
  useEffect(() => {
    if (!all) startTransition(() => setShown((n) => n + CARDS_PER_STEP));
  }, [all, shown]);

  // The next page loads when the end of the feed comes near, once every card is on the page.
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [all, hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="bounty-feed">
      {bounties.slice(0, shown).map((b, i) => (
        <BountyCard key={b.bountyId} bounty={b} first={onFirstScreen && i === 0} />
      ))}
      {failed !== undefined && (
        <Alert severity="error" data-testid="feed-error">
          {API_MSG.feedError(failed)}
        </Alert>
      )}
      {failed === undefined && bounties.length === 0 && (
        <Typography color="text.secondary" sx={{ textAlign: 'center', py: 4 }}>
          {term
            ? `No bounties match “${term}”.`
            : excludeId !== undefined
              ? 'No other bounties yet.'
              : 'No bounties yet.'}
        </Typography>
      )}
      {all && <div ref={sentinel} />}
      {hasNextPage && all && (
        <Box sx={{ display: 'flex', justifyContent: 'center' }}>
          <Button
            color="secondary"
            onClick={() => void fetchNextPage()}
            disabled={isFetchingNextPage}
            startIcon={isFetchingNextPage ? <CircularProgress size={16} /> : undefined}
          >
            {isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        </Box>
      )}
    </Box>
  );
}
