import Box from '@mui/material/Box';
import { Link as RouterLink } from 'react-router';
import { COLORS } from '../lib/theme';

/** The BountyHunt mark: a target with a bounty star. */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <circle cx="32" cy="32" r="29" fill="none" stroke={COLORS.primary} strokeWidth="6" />
      <circle
        cx="32"
        cy="32"
        r="17"
        fill="none"
        stroke={COLORS.primary}
        strokeWidth="5"
        opacity="0.75"
      />
      <path
        d="M32 20l3.5 7.6 8.3.9-6.2 5.6 1.8 8.2L32 38.1l-7.4 4.2 1.8-8.2-6.2-5.6 8.3-.9z"
        fill={COLORS.secondary}
      />
    </svg>
  );
}

/** Logo linking to / (SPEC.md §2 Layouts). */
export function Logo({ compact = false }: { compact?: boolean }) {
  return (
    <Box
      component={RouterLink}
      to="/"
      aria-label="BountyHunt home"
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 1,
        color: 'text.primary',
        textDecoration: 'none',
        fontWeight: 800,
        fontSize: 20,
        letterSpacing: '-0.02em',
        lineHeight: 1,
      }}
    >
      <LogoMark />
      {!compact && (
        <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
          Bounty
          <Box component="span" sx={{ color: 'secondary.main' }}>
            Hunt
          </Box>
        </Box>
      )}
    </Box>
  );
}
