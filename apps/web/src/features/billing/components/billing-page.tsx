import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** The frame every billing page shares: optional step line, heading, intro, content. */
export function BillingPage({
  step,
  title,
  intro,
  width = 560,
  children,
}: {
  step?: string;
  title: string;
  intro?: ReactNode;
  width?: number;
  children: ReactNode;
}) {
  return (
    <Box sx={{ maxWidth: width, mx: 'auto', px: 2, py: { xs: 3, sm: 5 } }}>
      {step && (
        <Typography
          variant="overline"
          component="p"
          color="secondary"
          sx={{ fontWeight: 700, letterSpacing: 1.2 }}
          data-testid="step"
        >
          {step}
        </Typography>
      )}
      <Typography variant="h1" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {intro && (
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {intro}
        </Typography>
      )}
      <Paper sx={{ p: { xs: 2.5, sm: 4 } }}>{children}</Paper>
    </Box>
  );
}
