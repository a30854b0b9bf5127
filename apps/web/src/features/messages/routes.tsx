import { ROLE } from '@bountyhunt/shared/roles';
import { prefetchApi } from '../../lib/query';
import type { AppRoute } from '../../lib/routes';
import { conversationsQuery } from './api/get-conversations';

const signedIn = { role: ROLE.any, active: true };
const messages = (path: string): AppRoute => ({
  path,
  layout: 'main',
  guard: signedIn,
  page: () => import('./pages/messages-page'),
  prefetch: (_at, queryClient) => prefetchApi(queryClient, conversationsQuery()),
});

/** Direct messages (issue 19): the conversation list, and a thread beside it (or over it). */
export const routes: AppRoute[] = [messages('/message'), messages('/message/:conversationId')];
