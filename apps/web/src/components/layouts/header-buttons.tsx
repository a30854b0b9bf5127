import Button from '@mui/material/Button';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useSession } from '../../lib/session';
import { HEADER_BUTTON_HEIGHT } from '../../lib/theme';

/** Sign In (to /login) or Sign Out (logs out, then /join), per SPEC.md §2 and §6. */
export function SignInOutButton() {
  const { status, logout } = useSession();
  const navigate = useNavigate();
  if (status === 'unresolved') return null;
  if (status === 'signed-in') {
    return (
      <Button
        variant="outlined"
        color="inherit"
        size="small"
        sx={{ height: HEADER_BUTTON_HEIGHT }}
        onClick={async () => {
          await logout();
          navigate('/join');
        }}
      >
        Sign Out
      </Button>
    );
  }
  return (
    <Button
      variant="contained"
      size="small"
      component={RouterLink}
      to="/login"
      sx={{ height: HEADER_BUTTON_HEIGHT }}
    >
      Sign In
    </Button>
  );
}
