import { createContext, useContext, useLayoutEffect } from 'react';

/**
 * Tells a layout that the page itself has rendered (not a loading spinner): the body layout
 * shows its footer only then, so the footer appears below the page instead of first sitting
 * under a spinner and then jumping down (a layout shift).
 */
export const PageShownContext = createContext<(() => void) | null>(null);

/** Rendered after the page, inside its Suspense boundary (app/route-table.tsx). */
export function PageShown() {
  const shown = useContext(PageShownContext);
  // Before the browser paints: the footer arrives in the same frame as the page.
  useLayoutEffect(() => shown?.(), [shown]);
  return null;
}
