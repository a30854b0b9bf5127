/**
 * SPEC.md §1 dark theme. contrastThreshold 4.5 makes MUI pick button text colours that pass
 * WCAG AA on these palette colours (black on pink, yellow and red).
 */
import { createTheme } from '@mui/material/styles';

export const COLORS = {
  primary: '#d83e86',
  secondary: '#ffc947',
  info: '#08bce3',
  error: '#fe003f',
  success: '#e3ed44',
  background: '#303030',
  paper: '#424242',
  dialogPaper: '#161618',
} as const;

/** Header buttons are 30px high (SPEC.md §2 Layouts). */
export const HEADER_BUTTON_HEIGHT = 30;

export const theme = createTheme({
  palette: {
    mode: 'dark',
    contrastThreshold: 4.5,
    primary: { main: COLORS.primary },
    secondary: { main: COLORS.secondary },
    info: { main: COLORS.info },
    error: { main: COLORS.error },
    success: { main: COLORS.success },
    background: { default: COLORS.background, paper: COLORS.paper },
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    button: { textTransform: 'none', fontWeight: 600 },
    h1: { fontSize: '2rem', fontWeight: 700 },
    h2: { fontSize: '1.6rem', fontWeight: 700 },
    h3: { fontSize: '1.3rem', fontWeight: 700 },
  },
  components: {
    MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } },
    MuiDialog: { styleOverrides: { paper: { backgroundColor: COLORS.dialogPaper } } },
    MuiAppBar: {
      defaultProps: { color: 'default', elevation: 0 },
      styleOverrides: {
        root: {
          backgroundColor: COLORS.dialogPaper,
          borderBottom: '1px solid rgba(255,255,255,0.08)',
        },
      },
    },
    // Pink text on the dark background is below 4.5:1; links use the yellow secondary.
    MuiLink: { defaultProps: { color: 'secondary', underline: 'hover' } },
    MuiTextField: { defaultProps: { fullWidth: true } },
  },
});
