import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import ConstructionIcon from '@mui/icons-material/Construction';

/**
 * Body of a route whose feature has not landed yet. It says so plainly and shows no
 * made-up data; the feature's owner replaces the route's `page` in its routes.tsx.
 */
export function NotBuilt({ title }: { title: string }) {
  return (
    <Box sx={{ maxWidth: 560, mx: 'auto', px: 2, py: 6 }}>
      <Paper sx={{ p: 4, textAlign: 'center' }} data-testid="not-built">
        <ConstructionIcon sx={{ fontSize: 40, color: 'secondary.main' }} aria-hidden="true" />
        <Typography variant="h1" sx={{ mt: 1, mb: 1 }}>
          {title}
        </Typography>
        <Typography color="text.secondary">This page is not built yet.</Typography>
      </Paper>
    </Box>
  );
}

/** A lazily loaded "not built yet" page for a routes.tsx entry. */
export function notBuilt(title: string) {
  return () => Promise.resolve({ default: () => <NotBuilt title={title} /> });
}
