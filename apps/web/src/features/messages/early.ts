/**
 * /message's first request, started by index.html's early script before the app has loaded
 * (lib/early.ts), with the page's chunk. No React here: this is part of that script.
 */
import type { EarlyRoute } from '../../lib/early';

export const earlyRoutes: EarlyRoute[] = [
  {
    path: '/message',
    page: 'features/messages/pages/messages-page.tsx',
    // As conversationsQuery asks for it (api/get-conversations.ts).
    calls: () => [{ method: 'GET', path: '/conversations' }],
  },
];
