import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { createAppRoutes } from './app/router';
import { createQueryClient } from './lib/query';
import { prefetchCurrentUser } from './lib/session';

// GET /user leaves now, before anything else (index.html's early script may have sent it).
prefetchCurrentUser();

// The rest in a task of its own: evaluating the app's modules is one long task already, and
// the route table, the first page's chunk and queries (createAppRoutes) and the first render
// added a third to it on a phone's CPU. Between the two the browser can paint and take input.
setTimeout(() => {
  // The first page's chunk and queries leave now, in parallel, rather than one after another
  // as the app renders.
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
}, 0);
