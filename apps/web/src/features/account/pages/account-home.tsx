import { endingIn, maskSsn } from '@bountyhunt/shared/format';
import type { Hunter } from '@bountyhunt/shared/profiles';
import type { User } from '@bountyhunt/shared/users';
import { hasRole, ROLE } from '@bountyhunt/shared/roles';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import LogoutIcon from '@mui/icons-material/Logout';
import { useState, type ReactNode } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { mediaUrl } from '../../../components/media/media-url';
import { useSession } from '../../../lib/session';

interface Row {
  label: string;
  to: string;
  /** null shows 'Required'. */
  value: ReactNode | null;
  testId: string;
}

const IDENTITY_LABEL = {
  none: null,
  pending: 'Pending review',
  approved: 'Verified',
  rejected: 'Not verified: please resubmit',
} as const;

function address(user: User): string | null {
  const a = user.taxAddress;
  if (!a) return null;
  return `${a.street}, ${a.city}, ${a.state} ${a.zip}`;
}

function legalName(user: User): string | null {
  return user.firstName && user.lastName ? `${user.firstName} ${user.lastName}` : null;
}

/** SPEC.md §2 Settings page: the sections by role, masked values, 'Required' for missing ones. */
export function settingsSections(
  user: User,
  hunter: Hunter | null,
): { title: string; rows: Row[] }[] {
  const handle = hunter?.handle ?? user.handle;
  const sections: { title: string; rows: Row[] }[] = [
    {
      title: 'My Account',
      rows: [
        { label: 'Email', to: '/account/email', value: user.email, testId: 'row-email' },
        { label: 'Password', to: '/account/password', value: '••••••••', testId: 'row-password' },
        {
          label: 'Notifications',
          to: '/account/notifications',
          value: 'In app, e-mail',
          testId: 'row-notifications',
        },
      ],
    },
  ];
  if (hasRole(user.role, ROLE.hunter)) {
    sections.push(
      {
        title: 'Public Profile',
        rows: [
          {
            label: 'Handle',
            to: '/account/handle',
            value: handle ? `@${handle}` : null,
            testId: 'row-handle',
          },
          {
            label: 'Stage Name',
            to: '/account/stagename',
            value: hunter?.stagename ?? null,
            testId: 'row-stagename',
          },
          { label: 'Biography', to: '/account/bio', value: hunter?.bio ?? null, testId: 'row-bio' },
          {
            label: 'Picture',
            to: '/account/picture',
            value: hunter?.picture ? (
              <Avatar
                component="span"
                src={mediaUrl(hunter.picture, 'thumb')}
                alt="Your profile picture"
                sx={{ width: 40, height: 40, display: 'inline-flex' }}
              />
            ) : null,
            testId: 'row-picture',
          },
        ],
      },
      {
        title: 'Tax Information',
        rows: [
          { label: 'Legal Name', to: '/account/name', value: legalName(user), testId: 'row-name' },
          { label: 'Address', to: '/account/address', value: address(user), testId: 'row-address' },
          { label: 'SSN', to: '/account/ssn', value: maskSsn(user.ssnLastFour), testId: 'row-ssn' },
          {
            label: 'Identity',
            to: '/account/identity',
            value: IDENTITY_LABEL[user.identityStatus],
            testId: 'row-identity',
          },
        ],
      },
      {
        title: 'Banking Information',
        rows: [
          {
            label: 'Direct Deposit',
            to: '/account/bank',
            value: endingIn(user.bankAccountLastFour),
            testId: 'row-bank',
          },
        ],
      },
      {
        title: 'Payouts',
        rows: [
          { label: 'Earnings', to: '/account/earnings', value: 'View', testId: 'row-earnings' },
          { label: 'Tax Forms', to: '/account/tax-forms', value: 'View', testId: 'row-tax-forms' },
        ],
      },
    );
  } else {
    sections.push({
      title: 'Membership',
      rows: [
        {
          label: 'Handle',
          to: '/account/handle',
          value: handle ? `@${handle}` : null,
          testId: 'row-handle',
        },
        {
          label: 'Silver',
          to: '/account/tokens',
          value: String(user.silver),
          testId: 'row-silver',
        },
        {
          label: 'Credit Card',
          to: '/account/payment',
          value: endingIn(user.creditCardLastFour) ?? 'Setup',
          testId: 'row-card',
        },
      ],
    });
  }
  return sections;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <Paper component="section" aria-labelledby={id} sx={{ overflow: 'hidden' }}>
      <Typography
        id={id}
        variant="overline"
        component="h2"
        color="secondary"
        sx={{ display: 'block', px: 2.5, pt: 2, pb: 0.5, fontWeight: 700, letterSpacing: 1.2 }}
      >
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** /account */
export default function AccountHomePage() {
  const { user, hunter, logout } = useSession();
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  if (!user) return null;

  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', px: 2, py: { xs: 3, sm: 6 }, display: 'grid', gap: 2.5 }}>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.6rem', sm: '2rem' } }}>
        Settings
      </Typography>
      {settingsSections(user, hunter).map((section) => (
        <Section key={section.title} title={section.title}>
          <List disablePadding>
            {section.rows.map((row, i) => (
              <li key={row.label}>
                <ListItemButton
                  component={RouterLink}
                  to={row.to}
                  data-testid={row.testId}
                  sx={{
                    px: 2.5,
                    py: 1.5,
                    gap: 2,
                    borderTop: i > 0 ? '1px solid rgba(255,255,255,0.08)' : 'none',
                  }}
                >
                  <ListItemText
                    primary={row.label}
                    slotProps={{ primary: { sx: { fontWeight: 600 } } }}
                    sx={{ flex: '0 0 auto', minWidth: { xs: 96, sm: 170 }, m: 0 }}
                  />
                  <Box
                    sx={{
                      flex: 1,
                      minWidth: 0,
                      textAlign: 'right',
                      color: row.value === null ? 'secondary.main' : 'text.secondary',
                      fontWeight: row.value === null ? 700 : 400,
                      overflow: 'hidden',
                      textOverflow: 'ellipsis',
                      whiteSpace: 'nowrap',
                    }}
                  >
                    {row.value ?? 'Required'}
                  </Box>
                  <ChevronRightIcon sx={{ color: 'text.secondary' }} aria-hidden="true" />
                </ListItemButton>
              </li>
            ))}
          </List>
        </Section>
      ))}
      <Section title="Account Actions">
        <Box sx={{ px: 2.5, pb: 2.5, pt: 1 }}>
          <Button
            variant="outlined"
            color="secondary"
            startIcon={<LogoutIcon />}
            disabled={leaving}
            onClick={async () => {
              setLeaving(true);
              await logout();
              navigate('/');
            }}
          >
            Logout
          </Button>
        </Box>
      </Section>
    </Box>
  );
}
