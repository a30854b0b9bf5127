import ThumbUpIcon from '@mui/icons-material/ThumbUp';
import Box from '@mui/material/Box';
import CardActionArea from '@mui/material/CardActionArea';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ordinal, relativeDate } from '@bountyhunt/shared/format';
import type { FeedItem, Post, ProfileClaim } from '@bountyhunt/shared/profiles';
import { memo } from 'react';
import { Link as RouterLink } from 'react-router';
import { MediaView } from '../../../components/media/media-view';
import { HiddenMarker } from '../../../components/report/hidden-marker';
import { ReportButton } from '../../../components/report/report-button';

/** SPEC.md §2 claim bar: ordinal rank, vote count and relative date. */
export function ClaimBar({ claim }: { claim: ProfileClaim }) {
  return (
    <Stack
      direction="row"
      data-testid="claim-bar"
      sx={{ alignItems: 'center', justifyContent: 'space-between', px: 1.25, py: 0.75, gap: 1 }}
    >
      <Typography component="span" sx={{ fontWeight: 700, color: 'secondary.main' }}>
        {ordinal(claim.rank)}
      </Typography>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 0.5 }}>
        <ThumbUpIcon sx={{ fontSize: 16 }} aria-hidden="true" />
        <Typography component="span" variant="body2" aria-label={`${claim.votes} votes`}>
          {claim.votes}
        </Typography>
      </Stack>
      <Typography component="span" variant="body2" color="text.secondary">
        <time dateTime={claim.created}>{relativeDate(claim.created)}</time>
      </Typography>
    </Stack>
  );
}

const ClaimCard = memo(function ClaimCard({ claim }: { claim: ProfileClaim }) {
  return (
    <Paper sx={{ overflow: 'hidden' }} data-testid="feed-claim">
      <CardActionArea component={RouterLink} to={`/claim/${claim.claimId}`}>
        <MediaView variant="card" mediaKey={claim.media} alt={`Claim on ${claim.bounty.title}`} />
        <Typography
          variant="body2"
          sx={{
            px: 1.25,
            pt: 0.75,
            fontWeight: 600,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
          }}
        >
          {claim.bounty.title}
        </Typography>
        <ClaimBar claim={claim} />
      </CardActionArea>
      {claim.hidden && (
        <Box sx={{ px: 1.25, pb: 0.75 }}>
          <HiddenMarker hidden />
        </Box>
      )}
    </Paper>
  );
});

const PostCard = memo(function PostCard({ post, own }: { post: Post; own: boolean }) {
  return (
    <Paper sx={{ overflow: 'hidden' }} data-testid="feed-post">
      <MediaView
        variant="card"
        mediaKey={post.file}
        alt={post.text ? `Post: ${post.text}` : 'Post'}
      />
      <Box sx={{ px: 1.25, py: 0.75 }}>
        {post.text && (
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {post.text}
          </Typography>
        )}
        <Stack
          direction="row"
          sx={{ alignItems: 'center', justifyContent: 'space-between', mt: post.text ? 0.5 : 0 }}
        >
          <Typography variant="body2" color="text.secondary">
            <time dateTime={post.created}>{relativeDate(post.created)}</time>
          </Typography>
          {!own && <ReportButton targetType="post" targetId={post.postId} />}
        </Stack>
        {post.hidden && <HiddenMarker hidden />}
      </Box>
    </Paper>
  );
});

const LATER = { contentVisibility: 'auto', containIntrinsicSize: 'auto 260px' } as const;

/** The merged feed of posts and claims, newest first. */
export function FeedGrid({ items, own = false }: { items: FeedItem[]; own?: boolean }) {
  return (
    <Box
      component="ul"
      aria-label="Posts and claims"
      sx={{
        listStyle: 'none',
        p: 0,
        m: 0,
        display: 'grid',
        gap: { xs: 1.5, sm: 2 },
        gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(3, minmax(0, 1fr))' },
        alignItems: 'start',
      }}
    >
      {items.map((item, i) => (
        <li
          key={item.type === 'post' ? `p${item.post.postId}` : `c${item.claim.claimId}`}
          // Below the first screen: no style, layout or paint until scrolled near.
          style={i >= 4 ? LATER : undefined}
        >
          {item.type === 'post' ? (
            <PostCard post={item.post} own={own} />
          ) : (
            <ClaimCard claim={item.claim} />
          )}
        </li>
      ))}
    </Box>
  );
}
