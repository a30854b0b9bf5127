import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';

export default function NotFoundPage() {
  return (
    <Box sx={{ maxWidth: 560, mx: 'auto', px: 2, py: 10, textAlign: 'center' }}>
      <Typography
        aria-hidden="true"
        sx={{ fontSize: 96, fontWeight: 800, lineHeight: 1, color: 'secondary.main' }}
      >
        404
      </Typography>
      <Typography variant="h1" sx={{ mt: 2, mb: 1 }}>
        Page not found
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        The page you are looking for does not exist or has moved.
      </Typography>
      <Button component={RouterLink} to="/" variant="contained" size="large">
        Go Home
      </Button>
    </Box>
  );
}
