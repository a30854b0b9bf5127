import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { LogoMark } from '../../../components/logo';

/** The centred card every sign-in page sits in. */
export function AuthCard({
  title,
  step,
  subtitle,
  children,
}: {
  title: string;
  step?: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Box sx={{ px: 2, py: { xs: 3, sm: 6 }, display: 'flex', justifyContent: 'center' }}>
      <Paper
        sx={{
          width: '100%',
          maxWidth: 440,
          p: { xs: 3, sm: 4 },
          border: '1px solid rgba(255,255,255,0.06)',
        }}
      >
        <Box sx={{ display: 'flex', justifyContent: 'center', mb: 1.5 }}>
          <LogoMark size={44} />
        </Box>
        {step && (
          <Typography
            variant="overline"
            component="p"
            sx={{ textAlign: 'center', color: 'secondary.main', lineHeight: 1.5 }}
            data-testid="step"
          >
            {step}
          </Typography>
        )}
        <Typography
          variant="h1"
          sx={{ textAlign: 'center', fontSize: '1.75rem', mb: subtitle ? 1 : 3 }}
        >
          {title}
        </Typography>
        {subtitle && (
          <Typography color="text.secondary" sx={{ textAlign: 'center', mb: 3 }}>
            {subtitle}
          </Typography>
        )}
        {children}
      </Paper>
    </Box>
  );
}
