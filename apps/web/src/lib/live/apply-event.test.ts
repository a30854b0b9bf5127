import type {
  ConversationItem,
  ConversationListAnswer,
  MessageItem,
} from '@bountyhunt/shared/live';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../api-client';
import { applyLiveEvent, type ThreadData } from './apply-event';
import { messageKeys, notificationKeys } from './keys';

const ok = <T>(data: T): ApiResult<T> => ({ status: 200, data, message: '' });

function message(messageId: number, senderId: number): MessageItem {
  return {
    messageId,
    conversationId: 4,
    senderId,
    text: `m${messageId}`,
    image: null,
    created: '2026-01-01T00:00:00Z',
    removed: false,
  };
}

const conversation: ConversationItem = {
  conversationId: 4,
  other: { userId: 8, handle: 'other', picture: null },
  lastMessage: null,
  unread: 0,
  otherReadUpTo: 0,
  blocked: false,
  blockedByOther: false,
};

describe('applyLiveEvent', () => {
  it('adds a new message to its thread once and updates the conversation', () => {
    const client = new QueryClient();
    const thread: ThreadData = {
      pages: [ok({ items: [message(1, 8)], nextBefore: null })],
      pageParams: [undefined],
    };
    client.setQueryData(messageKeys.thread(4), thread);
    client.setQueryData(
      messageKeys.list(),
      ok<ConversationListAnswer>({ items: [conversation], unread: 0 }),
    );
    const event = { type: 'message' as const, conversationId: 4, message: message(2, 8) };
    applyLiveEvent(client, event, 3);
    applyLiveEvent(client, event, 3);
    const t = client.getQueryData<ThreadData>(messageKeys.thread(4))!;
    expect(t.pages[0]!.data.items.map((m) => m.messageId)).toEqual([1, 2]);
    const list = client.getQueryData<ApiResult<ConversationListAnswer>>(messageKeys.list())!;
    expect(list.data.items[0]!.lastMessage).toMatchObject({ text: 'm2', fromMe: false });
  });

  it('records the other party’s read receipt', () => {
    const client = new QueryClient();
    client.setQueryData(messageKeys.conversation(4), ok(conversation));
    applyLiveEvent(client, { type: 'read', conversationId: 4, userId: 8, upTo: 7 }, 3);
    const c = client.getQueryData<ApiResult<ConversationItem>>(messageKeys.conversation(4))!;
    expect(c.data.otherReadUpTo).toBe(7);
  });

  it('sets the notification unread count', () => {
    const client = new QueryClient();
    applyLiveEvent(
      client,
      {
        type: 'notification',
        unread: 3,
        notification: {
          notificationId: 1,
          type: 'claim_new',
          title: 'New claim',
          body: '',
          link: null,
          created: '2026-01-01T00:00:00Z',
          read: false,
        },
      },
      3,
    );
    expect(client.getQueryData(notificationKeys.unread())).toEqual(ok({ unread: 3 }));
  });
});
