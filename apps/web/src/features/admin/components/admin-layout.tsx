/**
 * The console's own layout: a top bar (console name, the admin's e-mail, back to the site,
 * sign out) and a permanent side nav built from ADMIN_PAGES; the page in the middle.
 */
import LogoutIcon from '@mui/icons-material/Logout';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { Logo } from '../../../components/logo';
import { useSession } from '../../../lib/session';
import { ADMIN_PAGES } from '../admin-pages';

const NAV_WIDTH = 220;

function selectedPath(pathname: string): string {
  const rest = pathname.replace(/^\/admin\/?/, '');
  const first = rest.split('/')[0] ?? '';
  return ADMIN_PAGES.some((p) => p.path === first) ? first : '';
}

export function AdminLayout({ children }: { children: ReactNode }) {
  const { user, logout } = useSession();
  const navigate = useNavigate();
  const selected = selectedPath(useLocation().pathname);
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <AppBar
        position="fixed"
        color="default"
        elevation={1}
        sx={{ zIndex: (t) => t.zIndex.drawer + 1 }}
      >
        <Toolbar variant="dense" sx={{ gap: 2 }}>
          <Box
            component={RouterLink}
            to="/admin"
            aria-label="BountyHunt console home"
            sx={{ display: 'flex', textDecoration: 'none' }}
          >
            <Logo />
          </Box>
          <Typography variant="h3" component="p" sx={{ fontSize: '1.05rem', flexGrow: 1 }}>
            Operations
          </Typography>
          <Typography variant="body2" color="text.secondary" data-testid="admin-email">
            {user?.email}
          </Typography>
          <Button
            size="small"
            color="inherit"
            startIcon={<LogoutIcon />}
            onClick={async () => {
              await logout();
              navigate('/login');
            }}
          >
            Sign Out
          </Button>
        </Toolbar>
      </AppBar>
      <Drawer
        variant="permanent"
        sx={{
          width: NAV_WIDTH,
          flexShrink: 0,
          '& .MuiDrawer-paper': { width: NAV_WIDTH, boxSizing: 'border-box' },
        }}
      >
        <Toolbar variant="dense" />
        <List component="nav" aria-label="Console">
          {ADMIN_PAGES.map((p) => (
            <ListItemButton
              key={p.path}
              component={RouterLink}
              to={p.path ? `/admin/${p.path}` : '/admin'}
              selected={selected === p.path}
              aria-current={selected === p.path ? 'page' : undefined}
            >
              <ListItemIcon sx={{ minWidth: 36 }}>
                <p.icon fontSize="small" />
              </ListItemIcon>
              <ListItemText primary={p.label} />
            </ListItemButton>
          ))}
        </List>
      </Drawer>
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, p: 3 }}>
        <Toolbar variant="dense" />
        {children}
      </Box>
    </Box>
  );
}
