import { formatCount } from '@bountyhunt/shared/format';
import SearchIcon from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import CardActionArea from '@mui/material/CardActionArea';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { HunterCard } from '@bountyhunt/shared/profiles';
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { PageSpinner } from '../../../components/page-spinner';
import { useHunterDirectory } from '../api/get-hunters';
import { LoadMore } from '../components/load-more';
import { mediaUrl } from '../../../components/media/media-url';

const plural = (n: number, one: string, many: string) =>
  `${formatCount(n)} ${n === 1 ? one : many}`;

function HunterRow({ hunter }: { hunter: HunterCard }) {
  return (
    <Paper component="li" sx={{ overflow: 'hidden' }} data-testid="hunter-card">
      <CardActionArea
        component={RouterLink}
        to={`/profile/${encodeURIComponent(hunter.handle)}`}
        sx={{ p: 1.5, display: 'flex', justifyContent: 'flex-start', gap: 1.5 }}
      >
        <Avatar
          src={hunter.picture ? mediaUrl(hunter.picture, 'thumb') : undefined}
          alt=""
          sx={{ width: 56, height: 56, bgcolor: 'rgba(255,255,255,0.12)', color: 'transparent' }}
        >
          <span />
        </Avatar>
        <Box sx={{ minWidth: 0 }}>
          <Typography sx={{ fontWeight: 700, overflow: 'hidden', textOverflow: 'ellipsis' }}>
            {hunter.handle}
          </Typography>
          {hunter.stagename && (
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
            >
              {hunter.stagename}
            </Typography>
          )}
          <Typography variant="body2" color="text.secondary" data-testid="hunter-stats">
            {`${plural(hunter.stats.posts, 'post', 'posts')} · ${plural(hunter.stats.claims, 'claim', 'claims')} · ${plural(hunter.stats.votes, 'vote', 'votes')}`}
          </Typography>
        </Box>
      </CardActionArea>
    </Paper>
  );
}

/**
 * /hunters and /creators. SPEC.md §2 only shows the heading 'Hunters'; this is the real
 * directory instead: search by handle or stage name, picture, stats, link to the profile.
 */
export default function HuntersPage() {
  const [params, setParams] = useSearchParams();
  const [term, setTerm] = useState(params.get('q') ?? '');
  const [query, setQuery] = useState(term.trim());
  // The term last written to the address: only a new term is written. (setParams changes with
  // every location, also when a click has just left for a profile while this page is still
  // shown: writing then would bring the visitor back here.)
  const written = useRef(term.trim());
  useEffect(() => {
    const t = setTimeout(() => {
      const q = term.trim();
      setQuery(q);
      if (q === written.current) return;
      written.current = q;
      setParams(q ? { q } : {}, { replace: true });
    }, 300);
    return () => clearTimeout(t);
  }, [term, setParams]);
  const list = useHunterDirectory(query);
  const pages = list.data?.pages ?? [];
  const failed = pages.find((p) => p.status !== 200);
  const hunters = pages.flatMap((p) => p.data);

  return (
    <Box sx={{ maxWidth: 960, mx: 'auto', px: 2, py: 3 }}>
      <Typography variant="h1" sx={{ mb: 2 }}>
        Hunters
      </Typography>
      <TextField
        type="search"
        label="Search hunters"
        placeholder="Handle or stage name"
        value={term}
        onChange={(e) => setTerm(e.target.value.slice(0, 50))}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon aria-hidden="true" />
              </InputAdornment>
            ),
          },
        }}
        sx={{ mb: 2.5, maxWidth: 480 }}
      />
      {list.isPending ? (
        <PageSpinner />
      ) : (
        <>
          {hunters.length > 0 && (
            <Stack
              component="ul"
              aria-label="Hunters"
              sx={{
                listStyle: 'none',
                p: 0,
                m: 0,
                display: 'grid',
                gap: 1.5,
                gridTemplateColumns: {
                  xs: '1fr',
                  sm: 'repeat(2, minmax(0, 1fr))',
                  md: 'repeat(3, minmax(0, 1fr))',
                },
              }}
            >
              {hunters.map((h) => (
                <HunterRow key={h.hunterId} hunter={h} />
              ))}
            </Stack>
          )}
          {failed && <Alert severity="error">{`Error loading hunters: ${failed.status}`}</Alert>}
          {!failed && hunters.length === 0 && (
            <Typography color="text.secondary" data-testid="hunters-empty">
              {query ? `No hunter matches “${query}”.` : 'No hunters yet.'}
            </Typography>
          )}
          <LoadMore
            hasNext={!!list.hasNextPage}
            loading={list.isFetchingNextPage}
            onLoad={() => void list.fetchNextPage()}
          />
        </>
      )}
    </Box>
  );
}
