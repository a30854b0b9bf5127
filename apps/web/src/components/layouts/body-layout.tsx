import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Toolbar from '@mui/material/Toolbar';
import { Outlet } from 'react-router';
import { Logo } from '../logo';
import { Footer } from './footer';
import { SignInOutButton } from './header-buttons';

/** SPEC.md §2 Body layout: header (logo, Sign In / Sign Out when asked), content, footer. */
export function BodyLayout({ showLogin = false }: { showLogin?: boolean }) {
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
        <Outlet />
      </Box>
      <Footer />
    </Box>
  );
}
