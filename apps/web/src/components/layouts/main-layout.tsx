import SearchIcon from '@mui/icons-material/Search';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import { lazy, Suspense, useState } from 'react';
import { Link as RouterLink, Outlet } from 'react-router';
import { hunterHandle } from '../../lib/access';
import { useSession } from '../../lib/session';
import { HEADER_BUTTON_HEIGHT } from '../../lib/theme';
import { FullPageLoader } from '../page-spinner';
import { Logo } from '../logo';
import { BOTTOM_NAV_HEIGHT, BottomNav } from './bottom-nav';
import { SignInOutButton } from './header-buttons';
import { NotificationBell } from './notification-bell';
import { StatusBar } from './status-bar';

// Dialog and TextField are loaded on the first search, not with every page.
const SearchDialog = lazy(() => import('./search-dialog'));
const preloadSearch = () => void import('./search-dialog');

/**
 * SPEC.md §2 Main layout: search, logo, greeting with the handle (opens /account), status
 * bar with silver and votes, content, bottom nav. Guarding is per route (routes.tsx).
 */
export function MainLayout() {
  const { status, user, hunter } = useSession();
  const [searchOpen, setSearchOpen] = useState(false);
  const [searchUsed, setSearchUsed] = useState(false);
  if (status === 'unresolved') return <FullPageLoader />;
  const handle = hunterHandle(user, hunter);
  return (
    <Box sx={{ minHeight: '100vh', pb: `${BOTTOM_NAV_HEIGHT + 24}px` }}>
      <AppBar position="sticky">
        <Toolbar sx={{ gap: 1, minHeight: { xs: 56, sm: 60 } }}>
          <IconButton
            aria-label="Search"
            onClick={() => {
              setSearchUsed(true);
              setSearchOpen(true);
            }}
            onPointerEnter={preloadSearch}
            onFocus={preloadSearch}
            sx={{ height: HEADER_BUTTON_HEIGHT, width: HEADER_BUTTON_HEIGHT }}
          >
            <SearchIcon />
          </IconButton>
          <Logo />
          <Box sx={{ flexGrow: 1 }} />
          {user ? (
            <>
              <Box sx={{ display: { xs: 'none', sm: 'block' } }}>
                <StatusBar user={user} />
              </Box>
              <NotificationBell />
              <Button
                component={RouterLink}
                to="/account"
                color="inherit"
                size="small"
                data-testid="greeting"
                sx={{ height: HEADER_BUTTON_HEIGHT, maxWidth: 180, whiteSpace: 'nowrap' }}
              >
                <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                  {handle ? `Hi, ${handle}` : 'My Account'}
                </Box>
              </Button>
            </>
          ) : (
            <SignInOutButton />
          )}
        </Toolbar>
        {user && (
          <Box sx={{ display: { xs: 'block', sm: 'none' }, px: 2, pb: 1 }}>
            <StatusBar user={user} />
          </Box>
        )}
      </AppBar>
      {searchUsed && (
        <Suspense fallback={null}>
          <SearchDialog open={searchOpen} onClose={() => setSearchOpen(false)} />
        </Suspense>
      )}
      <Box component="main">
        <Outlet />
      </Box>
      <BottomNav />
    </Box>
  );
}
