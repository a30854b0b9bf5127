/** The messages module's background job: unread-message mails (issue 19). */
import { defineJob, type JobDefinition } from '../../jobs/types';
import type { MessagesService } from './messages.service';

export function messagesJobs(messages: MessagesService): JobDefinition[] {
  return [
    defineJob({
      name: 'messages.unread-mail',
      schedule: '*/5 * * * *',
      handler: async () => {
        await messages.mailUnread();
      },
    }),
  ];
}
