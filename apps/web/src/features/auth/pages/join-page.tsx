import { JOIN_STARTS_AT_TEXT } from '@bountyhunt/shared/billing-texts';
import EmojiEventsIcon from '@mui/icons-material/EmojiEvents';
import HowToVoteIcon from '@mui/icons-material/HowToVote';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { joinCase, type JoinCase } from '../../../lib/access';
import { useSession } from '../../../lib/session';

const FEATURES = [
  {
    Icon: EmojiEventsIcon,
    title: 'Post bounties',
    text: 'Name a challenge and a time window. Hunters answer it with photos and videos.',
  },
  {
    Icon: HowToVoteIcon,
    title: 'Vote on the best',
    text: 'Spend your monthly silver on one to five votes per claim. The top claim wins.',
  },
  {
    Icon: PhotoCameraIcon,
    title: 'Hunt and get paid',
    text: 'Content creators claim bounties, build a public profile and get weekly payouts.',
  },
];

function Cta({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Button component={RouterLink} to={to} variant="contained" size="large" sx={{ px: 5 }}>
      {children}
    </Button>
  );
}

function Hero({ which }: { which: JoinCase }) {
  switch (which) {
    case 'member-active':
      return (
        <>
          <Typography variant="h1">You&apos;re Already a Member!</Typography>
          <Typography color="text.secondary">
            Your membership is active. Go find a bounty worth voting for.
          </Typography>
          <Cta to="/">Explore</Cta>
        </>
      );
    case 'member-expired':
      return (
        <>
          <Typography variant="h1">Welcome back!</Typography>
          <Typography color="text.secondary">
            Your membership has ended. Pick a plan to start voting and posting bounties again.
          </Typography>
          <Cta to="/signup/plan">Restart Membership</Cta>
        </>
      );
    case 'member-unfinished':
      return (
        <>
          <Typography variant="h1">Almost there</Typography>
          <Typography color="text.secondary">
            Choose a plan and add a card to start your membership.
          </Typography>
          <Cta to="/signup/plan">Finish Sign Up</Cta>
        </>
      );
    case 'creator-done':
      return (
        <>
          <Typography variant="h1">You&apos;re already a Content Creator!</Typography>
          <Typography color="text.secondary">
            Your hunter profile is set up. Claim a bounty and show what you can do.
          </Typography>
          <Cta to="/">Explore</Cta>
        </>
      );
    case 'creator-unfinished':
      return (
        <>
          <Typography variant="h1">Almost there</Typography>
          <Typography color="text.secondary">
            Pick your public handle to finish your creator profile.
          </Typography>
          <Cta to="/enrollment/handle">Finish Sign Up</Cta>
        </>
      );
    default:
      return (
        <>
          <Typography variant="h1" sx={{ fontSize: { xs: '2rem', sm: '2.75rem' } }}>
            Post a bounty.{' '}
            <Box component="span" sx={{ color: 'secondary.main' }}>
              Hunt it.
            </Box>{' '}
            Vote on the best.
          </Typography>
          <Typography color="text.secondary" sx={{ fontSize: '1.1rem' }}>
            BountyHunt is where members set challenges and creators answer them.
          </Typography>
          <Cta to="/register/member">Get Started</Cta>
          <Typography variant="body2" color="text.secondary" data-testid="starts-at">
            {JOIN_STARTS_AT_TEXT}
          </Typography>
          <Typography variant="body2">
            Are you a creator?{' '}
            <Link component={RouterLink} to="/register/creator">
              Become a Content Creator
            </Link>
          </Typography>
        </>
      );
  }
}

/** SPEC.md §2 Join page: one case per kind of visitor; nothing while unresolved. */
export default function JoinPage() {
  const { status, user, hunter } = useSession();
  if (status === 'unresolved') return null;
  const which = joinCase(user, hunter);
  return (
    <Box sx={{ maxWidth: 960, mx: 'auto', px: 2, py: { xs: 5, sm: 8 } }}>
      <Stack
        spacing={2.5}
        sx={{ alignItems: 'center', textAlign: 'center', mb: 6 }}
        data-testid={`join-${which}`}
      >
        <Hero which={which} />
      </Stack>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' },
        }}
      >
        {FEATURES.map(({ Icon, title, text }) => (
          <Paper key={title} sx={{ p: 3 }}>
            <Icon sx={{ color: 'secondary.main', fontSize: 32 }} aria-hidden="true" />
            <Typography variant="h2" sx={{ fontSize: '1.15rem', mt: 1, mb: 0.5 }}>
              {title}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {text}
            </Typography>
          </Paper>
        ))}
      </Box>
    </Box>
  );
}
