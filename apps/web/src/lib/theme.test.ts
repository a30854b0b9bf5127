import { describe, expect, it } from 'vitest';
import { theme } from './theme';

describe('theme', () => {
  // vite.config.ts leaves MUI's CSS-variables theme code out of the build: the theme must
  // take MUI's no-variables branch in createTheme and ThemeProvider.
  it('uses no CSS variables or colour schemes', () => {
    expect('colorSchemes' in theme).toBe(false);
    expect('vars' in theme ? (theme as { vars?: unknown }).vars : undefined).toBeFalsy();
    expect(theme.palette.mode).toBe('dark');
  });
});
