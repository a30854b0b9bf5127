import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';

/** Shown when a page throws or its code cannot be loaded (e.g. after a deployment). */
export function RouteError() {
  return (
    <Box sx={{ maxWidth: 560, mx: 'auto', p: 4 }}>
      <Alert
        severity="error"
        action={
          <Button color="inherit" onClick={() => window.location.reload()}>
            Reload
          </Button>
        }
      >
        Something went wrong while showing this page.
      </Alert>
    </Box>
  );
}
