import { UI } from '@bountyhunt/shared/api';
import FacebookIcon from '@mui/icons-material/Facebook';
import InstagramIcon from '@mui/icons-material/Instagram';
import LinkedInIcon from '@mui/icons-material/LinkedIn';
import XIcon from '@mui/icons-material/X';
import YouTubeIcon from '@mui/icons-material/YouTube';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LogoMark } from '../logo';

const LINKS = [
  { label: 'About', path: '/about' },
  { label: 'Join', path: '/join' },
  { label: 'Privacy', path: '/privacy' },
  { label: 'Contact', path: '/contact' },
  { label: 'FAQ', path: '/faq' },
];

// SPEC.md §2: five social icons without real targets.
const SOCIAL = [
  { label: 'Facebook', Icon: FacebookIcon },
  { label: 'Instagram', Icon: InstagramIcon },
  { label: 'X', Icon: XIcon },
  { label: 'YouTube', Icon: YouTubeIcon },
  { label: 'LinkedIn', Icon: LinkedInIcon },
];

/** SPEC.md §2 Footer. */
export function Footer() {
  return (
    <Box
      component="footer"
      sx={{
        mt: 6,
        py: 4,
        px: 2,
        bgcolor: 'background.paper',
        borderTop: '1px solid rgba(255,255,255,0.08)',
        textAlign: 'center',
      }}
    >
      <Stack spacing={2} sx={{ alignItems: 'center', maxWidth: 960, mx: 'auto' }}>
        <LogoMark size={32} />
        <Typography variant="body2">
          Questions? Write to <Link href={`mailto:${UI.supportEmail}`}>{UI.supportEmail}</Link>
        </Typography>
        <Box
          component="nav"
          aria-label="BountyHunt"
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            justifyContent: 'center',
            columnGap: 3,
            rowGap: 1,
          }}
        >
          {LINKS.map((l) => (
            <Link
              key={l.label}
              href={`${UI.marketingSite}${l.path}`}
              color="inherit"
              underline="hover"
            >
              {l.label}
            </Link>
          ))}
        </Box>
        <Stack direction="row" spacing={1} aria-label="Social media">
          {SOCIAL.map(({ label, Icon }) => (
            <IconButton
              key={label}
              component="a"
              href="#"
              aria-label={label}
              onClick={(e: React.MouseEvent) => e.preventDefault()}
              sx={{ color: 'text.secondary', '&:hover': { color: 'secondary.main' } }}
            >
              <Icon />
            </IconButton>
          ))}
        </Stack>
        <Typography variant="body2" color="text.secondary">
          © 2023 BountyHunt. All rights reserved.
        </Typography>
      </Stack>
    </Box>
  );
}
