import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

/** Spinner for a guarded page or a page chunk that is loading. */
export function PageSpinner() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 10 }}>
      <CircularProgress aria-label="Loading" />
    </Box>
  );
}

/** Full-page loading indicator while the session is unresolved (SPEC.md §2 Main layout). */
export function FullPageLoader() {
  return (
    <Box
      role="progressbar"
      aria-label="Loading BountyHunt"
      sx={{
        position: 'fixed',
        inset: 0,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'background.default',
        zIndex: (t) => t.zIndex.modal + 1,
      }}
    >
      <CircularProgress size={56} aria-hidden="true" />
    </Box>
  );
}
