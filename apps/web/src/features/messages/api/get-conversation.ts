/** GET /conversations/{id}: one conversation (the other party, read receipt, blocks). */
import type { ConversationItem } from '@bountyhunt/shared/live';
import { useQuery } from '@tanstack/react-query';
import { messageKeys } from '../../../lib/live/keys';
import { apiQueryOptions } from '../../../lib/query';

export const conversationQuery = (id: number) =>
  apiQueryOptions<ConversationItem>(messageKeys.conversation(id), `/conversations/${id}`);

export const useConversation = (id: number) => useQuery(conversationQuery(id));
