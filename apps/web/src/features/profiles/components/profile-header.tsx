import { formatCount } from '@bountyhunt/shared/format';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { HiddenMarker } from '../../../components/report/hidden-marker';
import { ReportButton } from '../../../components/report/report-button';
import type { HunterProfile } from '@bountyhunt/shared/profiles';
import { Link as RouterLink } from 'react-router';
import { mediaUrl } from '../../../components/media/media-url';
import { MediaView } from '../../../components/media/media-view';
import { MessageButton } from './message-button';

function Stat({ value, label }: { value: number; label: string }) {
  return (
    <Box sx={{ textAlign: 'center', minWidth: 64 }}>
      <Typography component="div" sx={{ fontWeight: 700, fontSize: '1.25rem' }}>
        {formatCount(value)}
      </Typography>
      <Typography component="div" variant="body2" color="text.secondary">
        {label}
      </Typography>
    </Box>
  );
}

/** Banner, picture, handle, stage name, biography and the real stat numbers. */
export function ProfileHeader({ profile, own }: { profile: HunterProfile; own: boolean }) {
  const name = profile.handle ?? 'hunter';
  return (
    <Box component="header">
      <Box
        data-testid="profile-banner"
        sx={{
          position: 'relative',
          width: '100%',
          height: { xs: 120, sm: 200 },
          overflow: 'hidden',
          borderRadius: { xs: 0, sm: 2 },
        }}
      >
        <MediaView variant="fill" mediaKey={profile.banner} alt={`Banner of ${name}`} eager />
      </Box>
      <Box sx={{ px: { xs: 2, sm: 3 } }}>
        <Stack
          direction="row"
          sx={{ alignItems: 'flex-end', justifyContent: 'space-between', mt: { xs: -5, sm: -7 } }}
        >
          <Avatar
            data-testid="profile-picture"
            src={profile.picture ? mediaUrl(profile.picture, 'thumb') : undefined}
            alt={profile.picture ? `Picture of ${name}` : undefined}
            sx={{
              width: { xs: 88, sm: 128 },
              height: { xs: 88, sm: 128 },
              border: '4px solid',
              borderColor: 'background.default',
              bgcolor: 'rgba(255,255,255,0.12)',
              color: 'transparent',
            }}
          >
            {/* Blank picture by default. */}
            <span />
          </Avatar>
          {!own && profile.handle && (
            <Stack direction="row" spacing={1} sx={{ pb: 1 }}>
              <MessageButton handle={profile.handle} />
            </Stack>
          )}
          {own && (
            <Stack direction="row" spacing={1} sx={{ pb: 1 }}>
              <Button
                component={RouterLink}
                to="/profile/edit"
                variant="outlined"
                color="inherit"
                size="small"
                startIcon={<EditIcon />}
              >
                Edit
              </Button>
              <Button
                component={RouterLink}
                to="/profile/post"
                variant="contained"
                size="small"
                startIcon={<AddIcon />}
              >
                Post
              </Button>
            </Stack>
          )}
        </Stack>
        <Box sx={{ mt: 1.5 }}>
          <Typography
            variant="h1"
            sx={{ fontSize: { xs: '1.5rem', sm: '2rem' }, wordBreak: 'break-word' }}
          >
            {profile.handle}
          </Typography>
          {profile.stagename && (
            <Typography
              color="text.secondary"
              sx={{ fontSize: '1.05rem' }}
              data-testid="profile-stagename"
            >
              {profile.stagename}
            </Typography>
          )}
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.5 }}>
            <HiddenMarker hidden={profile.hidden} />
            <ReportButton
              targetType="hunter"
              targetId={profile.hunterId}
              ownerId={profile.userId}
            />
          </Stack>
          {profile.bio && (
            <Typography
              sx={{ mt: 1.5, whiteSpace: 'pre-wrap', maxWidth: 640 }}
              data-testid="profile-bio"
            >
              {profile.bio}
            </Typography>
          )}
        </Box>
        <Stack
          direction="row"
          spacing={{ xs: 2, sm: 4 }}
          sx={{ mt: 2, py: 1.5, borderTop: 1, borderBottom: 1, borderColor: 'divider' }}
          data-testid="profile-stats"
        >
          <Stat value={profile.stats.posts} label={profile.stats.posts === 1 ? 'Post' : 'Posts'} />
          <Stat
            value={profile.stats.claims}
            label={profile.stats.claims === 1 ? 'Claim' : 'Claims'}
          />
          <Stat value={profile.stats.votes} label={profile.stats.votes === 1 ? 'Vote' : 'Votes'} />
        </Stack>
      </Box>
    </Box>
  );
}
