import { UI } from '@bountyhunt/shared/api';
import Alert, { type AlertColor } from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';

/** The top-centre snackbar of SPEC.md §1, hiding after 6 s (loaded on first use). */
export default function FeedbackSnackbar({
  open,
  message,
  severity,
  onClose,
}: {
  open: boolean;
  message: string;
  severity: AlertColor;
  onClose: () => void;
}) {
  return (
    <Snackbar
      open={open}
      autoHideDuration={UI.snackbarMs}
      anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      onClose={(_e, reason) => {
        if (reason !== 'clickaway') onClose();
      }}
    >
      <Alert
        variant="filled"
        severity={severity}
        onClose={onClose}
        data-testid="snackbar"
        sx={{ width: '100%', maxWidth: 560 }}
      >
        {message}
      </Alert>
    </Snackbar>
  );
}
