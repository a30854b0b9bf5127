import AddCircleOutlineIcon from '@mui/icons-material/AddCircleOutlineRounded';
import ChatBubbleOutlineIcon from '@mui/icons-material/ChatBubbleOutlineRounded';
import HomeIcon from '@mui/icons-material/Home';
import PeopleAltIcon from '@mui/icons-material/PeopleAlt';
import PersonIcon from '@mui/icons-material/Person';
import BottomNavigation from '@mui/material/BottomNavigation';
import BottomNavigationAction from '@mui/material/BottomNavigationAction';
import Paper from '@mui/material/Paper';
import { UI } from '@bountyhunt/shared/api';
import { Suspense } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { useMessageUnread } from '../../lib/live/unread';
import { useSession } from '../../lib/session';
import { LazyBadge } from './lazy-badge';

const ITEMS = [
  { label: 'Home', to: '/', Icon: HomeIcon, match: (p: string) => p === '/' },
  {
    label: 'Post',
    to: '/bounty/create',
    Icon: AddCircleOutlineIcon,
    match: (p: string) => p === '/bounty/create',
  },
  {
    label: 'Hunters',
    to: '/creators',
    Icon: PeopleAltIcon,
    match: (p: string) => p.startsWith('/creators') || p.startsWith('/hunters'),
  },
  {
    label: 'Messages',
    to: '/message',
    Icon: ChatBubbleOutlineIcon,
    match: (p: string) => p.startsWith('/message'),
  },
  {
    label: 'Profile',
    to: '/profile',
    Icon: PersonIcon,
    match: (p: string) => p.startsWith('/profile'),
  },
];

export const BOTTOM_NAV_HEIGHT = 56;

/**
 * SPEC.md §2 Bottom nav bar; labels are hidden at 768px and below, leaving the icons. Messages
 * carries the unread count (kept live by the event stream).
 */
export function BottomNav() {
  const { pathname } = useLocation();
  const current = ITEMS.findIndex((i) => i.match(pathname));
  const { user } = useSession();
  const unread = useMessageUnread(!!user);
  return (
    <Paper
      component="nav"
      aria-label="Main"
      elevation={8}
      sx={{
        position: 'fixed',
        left: 0,
        right: 0,
        bottom: 0,
        zIndex: (t) => t.zIndex.appBar,
        bgcolor: '#161618',
        borderTop: '1px solid rgba(255,255,255,0.08)',
        pb: 'env(safe-area-inset-bottom)',
        borderRadius: 0,
      }}
    >
      <BottomNavigation
        showLabels
        value={current === -1 ? false : current}
        sx={{ bgcolor: 'transparent', height: BOTTOM_NAV_HEIGHT }}
      >
        {ITEMS.map(({ label, to, Icon }) => (
          <BottomNavigationAction
            key={label}
            label={label}
            aria-label={label === 'Messages' && unread > 0 ? `Messages, ${unread} unread` : label}
            icon={
              // No badge at all when nothing is unread: a hidden badge keeps its last number in
              // the page's text, which the accessible name would then not match.
              label === 'Messages' && unread > 0 ? (
                <Suspense fallback={<Icon />}>
                  <LazyBadge
                    badgeContent={unread}
                    max={99}
                    color="primary"
                    data-testid="messages-badge"
                  >
                    <Icon />
                  </LazyBadge>
                </Suspense>
              ) : (
                <Icon />
              )
            }
            component={RouterLink}
            to={to}
            sx={{
              // MUI's 80px minimum is 400px for five actions: past a 375px screen's edge.
              minWidth: 0,
              color: 'text.secondary',
              '&.Mui-selected': { color: 'secondary.main' },
              [`@media (max-width: ${UI.mobileBreakpoint}px)`]: {
                '& .MuiBottomNavigationAction-label': { display: 'none' },
              },
            }}
          />
        ))}
      </BottomNavigation>
    </Paper>
  );
}
