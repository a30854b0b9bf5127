/**
 * Query keys of what the live events keep current across the app: the messages feature's
 * queries (its pages, the bottom nav's badge) under `['messages']`, the notifications feature's
 * (its pages, the header's bell) under `['notifications']`. Features import them from here.
 */
export const messageKeys = {
  all: ['messages'] as const,
  /** GET /conversations */
  list: () => [...messageKeys.all, 'list'] as const,
  /** GET /conversations/unread (the nav badge). */
  unread: () => [...messageKeys.all, 'unread'] as const,
  /** GET /conversations/{id} */
  conversation: (id: number) => [...messageKeys.all, 'conversation', id] as const,
  /** GET /conversations/{id}/messages, paged back through history (an infinite query). */
  thread: (id: number) => [...messageKeys.all, 'thread', id] as const,
};

export const notificationKeys = {
  all: ['notifications'] as const,
  /** GET /notifications, paged (an infinite query). */
  list: () => [...notificationKeys.all, 'list'] as const,
  /** The unread count (GET /notifications?limit=1's `unread`): the header's bell. */
  unread: () => [...notificationKeys.all, 'unread'] as const,
  settings: () => [...notificationKeys.all, 'settings'] as const,
};
