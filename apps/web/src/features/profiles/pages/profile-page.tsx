import PersonSearchIcon from '@mui/icons-material/PersonSearch';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useDeferredValue } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { PageSpinner } from '../../../components/page-spinner';
import { hunterHandle } from '../../../lib/access';
import { useSession } from '../../../lib/session';
import { useHunterFeed } from '../api/get-hunter-feed';
import { useHunterProfile } from '../api/get-hunter-profile';
import { FeedGrid } from '../components/feed-grid';
import { LoadMore } from '../components/load-more';
import { ProfileHeader } from '../components/profile-header';

function Message({ title, text, testId }: { title: string; text: string; testId: string }) {
  return (
    <Box sx={{ maxWidth: 560, mx: 'auto', px: 2, py: 6 }}>
      <Paper sx={{ p: 4, textAlign: 'center' }} data-testid={testId}>
        <PersonSearchIcon sx={{ fontSize: 44, color: 'secondary.main' }} aria-hidden="true" />
        <Typography variant="h1" sx={{ mt: 1, mb: 1, fontSize: '1.6rem' }}>
          {title}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {text}
        </Typography>
        <Button component={RouterLink} to="/hunters" variant="contained">
          Browse hunters
        </Button>
      </Paper>
    </Box>
  );
}

function ProfileFeed({ hunterId, own }: { hunterId: number; own: boolean }) {
  const feed = useHunterFeed(hunterId);
  // Twenty cards a page: rendered as a transition (in slices, see bounty-feed.tsx).
  const data = useDeferredValue(feed.data);
  if (feed.isPending || !data) return <PageSpinner />;
  const pages = data.pages;
  const failed = pages.find((p) => p.status !== 200);
  const items = pages.flatMap((p) => p.data);
  return (
    <Box sx={{ mt: 2 }}>
      {items.length > 0 && <FeedGrid items={items} own={own} />}
      {failed && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {`Error loading posts and claims: ${failed.status}`}
        </Alert>
      )}
      {!failed && items.length === 0 && (
        <Paper sx={{ p: 4, textAlign: 'center' }} data-testid="feed-empty">
          <Typography color="text.secondary">
            {own ? 'Nothing here yet. Share your first post.' : 'No posts or claims yet.'}
          </Typography>
          {own && (
            <Button component={RouterLink} to="/profile/post" variant="contained" sx={{ mt: 2 }}>
              Post
            </Button>
          )}
        </Paper>
      )}
      <LoadMore
        hasNext={!!feed.hasNextPage}
        loading={feed.isFetchingNextPage}
        onLoad={() => void feed.fetchNextPage()}
      />
    </Box>
  );
}

/** SPEC.md §2 Profile page: /profile/{handle}, or the viewer's own at /profile. */
export default function ProfilePage() {
  const { handle: param } = useParams();
  const { user, hunter } = useSession();
  const ownHandle = hunter ? hunterHandle(user, hunter) : null;
  const handle = param ?? ownHandle;
  const profile = useHunterProfile(handle);

  if (!handle) {
    return (
      <Message
        testId="no-profile"
        title="No hunter profile"
        text="Profiles belong to hunters. Browse the hunters to find one."
      />
    );
  }
  if (profile.isPending) return <PageSpinner />;
  const res = profile.data;
  if (!res || res.status === 404) {
    return (
      <Message
        testId="profile-not-found"
        title="Hunter not found"
        text={`No hunter goes by the handle “${handle}”. Check the spelling, or browse the hunters.`}
      />
    );
  }
  if (res.status !== 200) {
    return (
      <Box sx={{ maxWidth: 560, mx: 'auto', px: 2, py: 6 }}>
        <Alert severity="error">{`Error loading profile: ${res.status}`}</Alert>
      </Box>
    );
  }
  const own = !!hunter && hunter.hunterId === res.data.hunterId;
  return (
    <Box sx={{ maxWidth: 960, mx: 'auto', px: { xs: 0, sm: 2 }, pt: { xs: 0, sm: 2 } }}>
      <ProfileHeader profile={res.data} own={own} />
      <Box sx={{ px: { xs: 1.5, sm: 0 } }}>
        <ProfileFeed hunterId={res.data.hunterId} own={own} />
      </Box>
    </Box>
  );
}
