import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Toolbar from '@mui/material/Toolbar';
import { useCallback, useState } from 'react';
import { Outlet } from 'react-router';
import { Logo } from '../logo';
import { Footer } from './footer';
import { SignInOutButton } from './header-buttons';
import { PageShownContext } from './page-shown';

/**
 * SPEC.md §2 Body layout: header (logo, Sign In / Sign Out when asked), content, footer. The
 * footer waits for the first page to render (see page-shown.tsx): under a loading spinner it
 * would sit in view and then be pushed down by the page.
 */
export function BodyLayout({ showLogin = false }: { showLogin?: boolean }) {
  const [pageShown, setPageShown] = useState(false);
  const onPageShown = useCallback(() => setPageShown(true), []);
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <AppBar position="sticky">
        <Toolbar sx={{ gap: 2, minHeight: { xs: 56, sm: 60 } }}>
          <Logo />
          <Box sx={{ flexGrow: 1 }} />
          {showLogin && <SignInOutButton />}
        </Toolbar>
      </AppBar>
      <Box component="main" sx={{ flexGrow: 1 }}>
        <PageShownContext value={onPageShown}>
          <Outlet />
        </PageShownContext>
      </Box>
      {pageShown && <Footer />}
    </Box>
  );
}
