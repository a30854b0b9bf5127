import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** SPEC.md §2: every navigation scrolls to the top. */
export function ScrollToTop() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname, search]);
  return null;
}
