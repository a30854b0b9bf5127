/**
 * Styles for text that screen readers read and nobody sees (as MUI's own `visuallyHidden`).
 * The sizes are strings on purpose: in an `sx` prop a bare `width: 1` means 100 %, and a span
 * hidden that way stretched its row past a phone's screen.
 */
export const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  clipPath: 'inset(50%)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;
