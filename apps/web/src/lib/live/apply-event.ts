/**
 * What each live event (`GET /events`, packages/shared/src/live.ts) changes in the TanStack
 * Query cache for messages and notifications: shown numbers move at once where the event
 * carries them (a new message, a read receipt, an unread count), and the lists whose order or
 * totals the event changes are asked again. `reset` asks everything again. Tallies and new
 * claims are the bounties feature's (features/bounties/live.ts, through ./bus.ts).
 */
import type {
  ConversationItem,
  ConversationListAnswer,
  LiveEvent,
  MessageItem,
  MessagePageAnswer,
} from '@bountyhunt/shared/live';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { ApiResult } from '../api-client';
import { messageKeys, notificationKeys } from './keys';

export type ThreadData = InfiniteData<ApiResult<MessagePageAnswer>, number | undefined>;

const ok = <T>(res: ApiResult<T> | undefined): res is ApiResult<T> => res?.status === 200;

/** A message joins its thread's newest page (once, in id order). */
export function addMessageToThread(
  data: ThreadData | undefined,
  message: MessageItem,
): ThreadData | undefined {
  const first = data?.pages[0];
  if (!data || !ok(first)) return data;
  if (data.pages.some((p) => p.data?.items.some((m) => m.messageId === message.messageId)))
    return data;
  const items = [...first.data.items, message].sort((a, b) => a.messageId - b.messageId);
  return { ...data, pages: [{ ...first, data: { ...first.data, items } }, ...data.pages.slice(1)] };
}

function patchConversation(
  client: QueryClient,
  conversationId: number,
  patch: (c: ConversationItem) => ConversationItem,
) {
  client.setQueryData<ApiResult<ConversationItem>>(
    messageKeys.conversation(conversationId),
    (old) => (ok(old) ? { ...old, data: patch(old.data) } : old),
  );
  client.setQueryData<ApiResult<ConversationListAnswer>>(messageKeys.list(), (old) =>
    ok(old)
      ? {
          ...old,
          data: {
            ...old.data,
            items: old.data.items.map((c) => (c.conversationId === conversationId ? patch(c) : c)),
          },
        }
      : old,
  );
}

/**
 * `me`: the signed-in user's id (null for a visitor), to tell my receipts from theirs.
 * `scope` 'counts' narrows a `reset` to the unread counts and the conversation list (what a
 * fresh stream may have missed since the page loaded).
 */
export function applyLiveEvent(
  client: QueryClient,
  event: LiveEvent,
  me: number | null,
  scope: 'all' | 'counts' = 'all',
): void {
  switch (event.type) {
    case 'message': {
      const { conversationId, message } = event;
      client.setQueryData<ThreadData>(messageKeys.thread(conversationId), (old) =>
        addMessageToThread(old, message),
      );
      patchConversation(client, conversationId, (c) => ({
        ...c,
        lastMessage: {
          text: message.text,
          hasImage: !!message.image,
          created: message.created,
          fromMe: message.senderId === me,
        },
      }));
      void client.invalidateQueries({ queryKey: messageKeys.list() });
      if (message.senderId !== me)
        void client.invalidateQueries({ queryKey: messageKeys.unread() });
      break;
    }
    case 'read': {
      const { conversationId, userId, upTo } = event;
      if (userId === me) {
        // Read in another tab: my unread counts went down.
        patchConversation(client, conversationId, (c) => ({ ...c, unread: 0 }));
        void client.invalidateQueries({ queryKey: messageKeys.unread() });
        void client.invalidateQueries({ queryKey: messageKeys.list() });
      } else {
        patchConversation(client, conversationId, (c) =>
          upTo > c.otherReadUpTo ? { ...c, otherReadUpTo: upTo } : c,
        );
      }
      break;
    }
    case 'notification':
      client.setQueryData<ApiResult<{ unread: number }>>(notificationKeys.unread(), {
        status: 200,
        data: { unread: event.unread },
        message: '',
      });
      void client.invalidateQueries({ queryKey: notificationKeys.list() });
      break;
    case 'tally':
    case 'claim':
      // The bounties feature's (features/bounties/live.ts, through the bus).
      break;
    case 'reset':
      if (scope === 'counts') {
        void client.invalidateQueries({ queryKey: messageKeys.unread() });
        void client.invalidateQueries({ queryKey: messageKeys.list() });
        void client.invalidateQueries({ queryKey: notificationKeys.unread() });
      } else void client.invalidateQueries();
      break;
  }
}
