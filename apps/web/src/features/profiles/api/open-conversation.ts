/** POST /conversations {handle}: opens (or finds) the conversation with that hunter. */
import type { ConversationItem, ConversationOpenInput } from '@bountyhunt/shared/live';
import { useApiMutation } from '../../../lib/query';

export const useOpenConversation = () =>
  useApiMutation<ConversationOpenInput, ConversationItem>('POST', '/conversations');
