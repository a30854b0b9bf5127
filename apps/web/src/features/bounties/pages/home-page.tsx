/** SPEC.md §2 Home: the BountyHunt feed; `?q=` is the search term (empty by default). */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useSearchParams } from 'react-router';
import { BountyFeed } from '../components/bounty-feed';

export default function HomePage() {
  const [params] = useSearchParams();
  const term = (params.get('q') ?? '').trim();
  return (
    <Box sx={{ maxWidth: 960, mx: 'auto', px: { xs: 1, sm: 2 }, py: 2 }}>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.4rem', sm: '1.8rem' }, mb: 2 }}>
        {term ? `Bounties matching “${term}”` : 'Bounties'}
      </Typography>
      <BountyFeed key={term} term={term} />
    </Box>
  );
}
