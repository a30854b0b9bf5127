/** GET /conversations: my conversations, newest first, with the unread total. */
import type { ConversationListAnswer } from '@bountyhunt/shared/live';
import { useQuery } from '@tanstack/react-query';
import { messageKeys } from '../../../lib/live/keys';
import { apiQueryOptions } from '../../../lib/query';

export const conversationsQuery = () =>
  apiQueryOptions<ConversationListAnswer>(messageKeys.list(), '/conversations');

export const useConversations = () => useQuery(conversationsQuery());
