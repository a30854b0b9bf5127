import { ROLE } from '@bountyhunt/shared/roles';
import { prefetchApi } from '../../lib/query';
import type { AppRoute } from '../../lib/routes';
import { conversationsQuery } from './api/get-conversations';
import { loadThread } from './load-thread';

const signedIn = { role: ROLE.any, active: true };
const messages = (path: string, thread: boolean): AppRoute => ({
  path,
  layout: 'main',
  guard: signedIn,
  // A conversation's address needs the thread too: both chunks load at once.
  page: thread
    ? () => Promise.all([import('./pages/messages-page'), loadThread()]).then(([page]) => page)
    : () => import('./pages/messages-page'),
  prefetch: (_at, queryClient) => prefetchApi(queryClient, conversationsQuery()),
});

/** Direct messages (issue 19): the conversation list, and a thread beside it (or over it). */
export const routes: AppRoute[] = [
  messages('/message', false),
  messages('/message/:conversationId', true),
];
