import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { prefetchCurrentUser } from './lib/session';

// GET /user leaves now, while React renders the first frame, not after it.
prefetchCurrentUser();

// A transition: React renders the first frame in slices that leave the main thread free
// between them, instead of one long task (which a phone's CPU makes several times longer).
startTransition(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
