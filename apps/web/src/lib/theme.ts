/**
 * SPEC.md §1 dark theme. contrastThreshold 4.5 makes MUI pick button text colours that pass
 * WCAG AA on these palette colours (black on pink, yellow and red).
 */
import { createTheme, lighten } from '@mui/material/styles';

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

// Text in the palette's pink or red is below 4.5:1 on the paper colour; form labels and
// error texts use lighter tints of them (checked by axe in the browser tests).
const focusedText = lighten(COLORS.primary, 0.5);
const errorText = lighten(COLORS.error, 0.6);
const labelStates = {
  '&.Mui-focused:not(.Mui-error)': { color: focusedText },
  '&.Mui-error': { color: errorText },
};

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
    MuiLink: { defaultProps: { color: 'secondary', underline: 'always' } },
    // A contained pink button carries dark text; MUI's darker hover pink would drop that text
    // below 4.5:1, so hovering lightens it instead (axe checks hovered buttons too).
    MuiButton: {
      styleOverrides: {
        root: ({ ownerState }) =>
          ownerState.variant === 'contained' && (ownerState.color ?? 'primary') === 'primary'
            ? { '&:hover': { backgroundColor: lighten(COLORS.primary, 0.15) } }
            : {},
      },
    },
    MuiTextField: { defaultProps: { fullWidth: true } },
    MuiFormLabel: { styleOverrides: { root: labelStates } },
    MuiInputLabel: { styleOverrides: { root: labelStates } },
    MuiFormHelperText: { styleOverrides: { root: { '&.Mui-error': { color: errorText } } } },
  },
});
