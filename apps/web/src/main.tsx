import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { createAppRoutes } from './app/router';
import { createQueryClient } from './lib/query';
import { prefetchCurrentUser } from './lib/session';

// Before React's first render: GET /user, and (createAppRoutes) the first page's chunk and
// queries leave now, in parallel, rather than one after another as the app renders.
prefetchCurrentUser();
const queryClient = createQueryClient();
const routes = createAppRoutes(queryClient);

// A transition: React renders the first frame in slices that leave the main thread free
// between them, instead of one long task (which a phone's CPU makes several times longer).
startTransition(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App queryClient={queryClient} routes={routes} />
    </StrictMode>,
  );
});
