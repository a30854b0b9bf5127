import { formatCount } from '@bountyhunt/shared/format';
import type { User } from '@bountyhunt/shared/users';
import HowToVoteIcon from '@mui/icons-material/HowToVote';
import TollIcon from '@mui/icons-material/Toll';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

function Stat({
  icon,
  label,
  value,
  testId,
}: {
  icon: React.ReactNode;
  label: string;
  value: number;
  testId: string;
}) {
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
      {icon}
      <Typography variant="body2" component="span" data-testid={testId}>
        <Box component="span" sx={{ fontWeight: 700 }}>
          {formatCount(value)}
        </Box>{' '}
        <Box component="span" sx={{ color: 'text.secondary' }}>
          {label}
        </Box>
      </Typography>
    </Box>
  );
}

/** SPEC.md §1/§2: silver balance and vote count. */
export function StatusBar({ user }: { user: User }) {
  return (
    <Box
      role="status"
      aria-label="Your balance"
      sx={{ display: 'flex', gap: 2, alignItems: 'center', justifyContent: 'flex-end' }}
    >
      <Stat
        icon={<TollIcon fontSize="small" sx={{ color: '#c9ccd1' }} aria-hidden="true" />}
        label="silver"
        value={user.silver}
        testId="status-silver"
      />
      <Stat
        icon={
          <HowToVoteIcon fontSize="small" sx={{ color: 'secondary.main' }} aria-hidden="true" />
        }
        label="votes"
        value={user.votes}
        testId="status-votes"
      />
    </Box>
  );
}
