import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useEffect, useRef, useState } from 'react';

/**
 * Loads the next page when it scrolls into view (and offers a button for keyboards and
 * browsers without IntersectionObserver).
 */
export function LoadMore({
  hasNext,
  loading,
  onLoad,
}: {
  hasNext: boolean;
  loading: boolean;
  onLoad: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      (entries) => setVisible(entries.some((e) => e.isIntersecting)),
      {
        rootMargin: '600px 0px',
      },
    );
    io.observe(el);
    return () => io.disconnect();
  }, []);
  useEffect(() => {
    if (visible && hasNext && !loading) onLoad();
    // onLoad is a fresh closure each render; paging depends only on these three.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [visible, hasNext, loading]);
  return (
    <Box ref={ref} sx={{ display: 'flex', justifyContent: 'center', py: 3, minHeight: 40 }}>
      {loading ? (
        <CircularProgress size={28} aria-label="Loading more" />
      ) : hasNext ? (
        <Button variant="text" color="secondary" onClick={onLoad}>
          Load more
        </Button>
      ) : null}
    </Box>
  );
}
