/**
 * Live (issue 19, CONTRACT.md "Operations, payouts and live events"): direct messages,
 * notifications and the one event stream (`GET /events`, Server-Sent Events) that wakes clients.
 * Messages and notifications are stored; an event only tells a client that something changed
 * (and carries enough to show it at once).
 */
import { z } from 'zod';
import { digits } from './numbers';

// ---------------------------------------------------------------------------------------------
// Direct messages
// ---------------------------------------------------------------------------------------------

export const MESSAGE_LIMITS = {
  text: 1000,
  /** Messages per page of a thread. */
  page: 30,
  /** Messages one sender may send per minute (all conversations together). */
  perMinute: 20,
} as const;

export const MESSAGE_MSG = {
  empty: 'Write a message first.',
  tooLong: 'A message can be at most 1,000 characters.',
  needHandle: 'Choose a handle before sending messages.',
  onlyHunters: 'You can start a conversation with a hunter only.',
  self: 'You cannot message yourself.',
  blocked: 'You cannot message this user.',
  userNotFound: 'No user has that handle.',
  conversationNotFound: 'Conversation not found.',
  imageUnknown: 'That image was not found. Upload it again.',
  imageOnly: 'Only an image can be sent in a message.',
  removed: 'This message was removed by a moderator.',
} as const;

export const MESSAGE_CODES = {
  needHandle: 'HANDLE_REQUIRED',
  onlyHunters: 'HUNTER_ONLY',
  self: 'SELF',
  blocked: 'BLOCKED',
  userNotFound: 'USER_NOT_FOUND',
  conversationNotFound: 'CONVERSATION_NOT_FOUND',
  imageUnknown: 'MEDIA_UNKNOWN',
} as const;

export const messageText = z
  .string({ error: MESSAGE_MSG.empty })
  .trim()
  .min(1, MESSAGE_MSG.empty)
  .max(MESSAGE_LIMITS.text, MESSAGE_MSG.tooLong);

/** POST /conversations/{id}/messages (the form's schema too). */
export const messageSendSchema = z.object({
  text: messageText,
  /** An image key from POST /media (visibility public), optional. */
  image: z.string().min(1).max(64).optional(),
});
export type MessageSendInput = z.infer<typeof messageSendSchema>;

/** POST /conversations: opens (or finds) the conversation with the user of that handle. */
export const conversationOpenSchema = z.object({
  handle: z.string().trim().min(1).max(64),
});
export type ConversationOpenInput = z.infer<typeof conversationOpenSchema>;

/** POST /conversations/{id}/read: everything up to this message id is read. */
export const conversationReadSchema = z.object({
  upTo: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

export const messagePageQuery = z.object({
  /** Messages older than this id (the `nextBefore` of the previous page). */
  before: digits(z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional()),
  limit: digits(z.number().int().min(1).max(100).optional()),
});

export const messageItem = z.object({
  messageId: z.number().int(),
  conversationId: z.number().int(),
  senderId: z.number().int(),
  text: z.string(),
  /** Image key (media URL rules of CONTRACT.md), or null. */
  image: z.string().nullable(),
  created: z.string(),
  /** Removed by a moderator: the text is MESSAGE_MSG.removed and there is no image. */
  removed: z.boolean(),
});
export type MessageItem = z.infer<typeof messageItem>;

export const conversationPeer = z.object({
  userId: z.number().int(),
  handle: z.string().nullable(),
  /** Picture media key (hunters), or null. */
  picture: z.string().nullable(),
});

export const conversationItem = z.object({
  conversationId: z.number().int(),
  other: conversationPeer,
  lastMessage: z
    .object({
      text: z.string(),
      hasImage: z.boolean(),
      created: z.string(),
      fromMe: z.boolean(),
    })
    .nullable(),
  unread: z.number().int(),
  /** The other party has read my messages up to this id (read receipts); 0 when none. */
  otherReadUpTo: z.number().int(),
  /** I blocked the other party. */
  blocked: z.boolean(),
  /** The other party blocked me (sending is refused). */
  blockedByOther: z.boolean(),
});
export type ConversationItem = z.infer<typeof conversationItem>;

/** GET /conversations */
export const conversationListAnswer = z.object({
  items: z.array(conversationItem),
  /** Unread messages over all conversations (the nav badge). */
  unread: z.number().int(),
});
export type ConversationListAnswer = z.infer<typeof conversationListAnswer>;

/** GET /conversations/{id}/messages: oldest first; `nextBefore` pages further back. */
export const messagePageAnswer = z.object({
  items: z.array(messageItem),
  nextBefore: z.number().int().nullable(),
});
export type MessagePageAnswer = z.infer<typeof messagePageAnswer>;

/** GET /conversations/unread */
export const unreadAnswer = z.object({ unread: z.number().int() });

// ---------------------------------------------------------------------------------------------
// Notifications
// ---------------------------------------------------------------------------------------------

export const NOTIFICATION_TYPES = [
  'claim_new',
  'round_ended',
  'bounty_decided',
  'claim_won',
  'payout_sent',
  'payout_returned',
  'identity_approved',
  'identity_rejected',
  'message',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Settings page labels, in page order. */
export const NOTIFICATION_LABELS: Record<NotificationType, string> = {
  claim_new: 'A new claim on your bounty',
  round_ended: 'A round of your bounty ended',
  bounty_decided: 'Your bounty was decided',
  claim_won: 'Your claim won',
  payout_sent: 'A payout was sent',
  payout_returned: 'A payout was returned',
  identity_approved: 'Your identity was approved',
  identity_rejected: 'Your identity was rejected',
  message: 'A new message (mailed when unread for 15 minutes)',
};

export const NOTIFICATION_PAGE = 30;

export const notificationItem = z.object({
  notificationId: z.number().int(),
  type: z.enum(NOTIFICATION_TYPES),
  /** One line, e.g. "New claim on “Best sunset”". */
  title: z.string(),
  body: z.string(),
  /** Where a click goes (an app route), or null. */
  link: z.string().nullable(),
  created: z.string(),
  read: z.boolean(),
});
export type NotificationItem = z.infer<typeof notificationItem>;

export const notificationPageQuery = messagePageQuery;

/** GET /notifications */
export const notificationListAnswer = z.object({
  items: z.array(notificationItem),
  unread: z.number().int(),
  nextBefore: z.number().int().nullable(),
});
export type NotificationListAnswer = z.infer<typeof notificationListAnswer>;

/** POST /notifications/read: up to this id, or all when absent. */
export const notificationReadSchema = z.object({
  upTo: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});

export const notificationSetting = z.object({
  type: z.enum(NOTIFICATION_TYPES),
  inApp: z.boolean(),
  email: z.boolean(),
});
export type NotificationSetting = z.infer<typeof notificationSetting>;

/** GET and PUT /notifications/settings (PUT takes any subset). */
export const notificationSettingsAnswer = z.object({ settings: z.array(notificationSetting) });
export type NotificationSettingsAnswer = z.infer<typeof notificationSettingsAnswer>;
export const notificationSettingsSchema = notificationSettingsAnswer;

// ---------------------------------------------------------------------------------------------
// The event stream
// ---------------------------------------------------------------------------------------------

/** POST /events/ticket: a single-use ticket for `GET /events?ticket=` (EventSource). */
export const eventTicketAnswer = z.object({ ticket: z.string(), expires: z.string() });

export const EVENTS = {
  /** How long a ticket is good for. */
  ticketSeconds: 60,
  /** Comment lines this often keep proxies from closing an idle stream. */
  heartbeatMs: 25_000,
  /** The client waits this long before reconnecting (the stream's `retry:`). */
  retryMs: 3000,
  /** Bounties one stream may watch for tallies (`?watch=1,2`). */
  maxWatch: 20,
  /** At most this many tally events per bounty per second. */
  talliesPerSecond: 4,
} as const;

export const tallyClaim = z.object({
  claimId: z.number().int(),
  votes: z.number().int(),
  /** Rank in its round (1 = most votes, ties to the earlier claim). */
  rank: z.number().int(),
});

/**
 * The `data:` of each event. `message` and `read` go to both parties of a conversation,
 * `notification` to its user, `tally` and `claim` to every stream watching the bounty; `reset`
 * when a resume is too far behind to replay (the client reloads what it shows).
 */
export type LiveEvent =
  | { type: 'message'; conversationId: number; message: MessageItem }
  | { type: 'read'; conversationId: number; userId: number; upTo: number }
  | { type: 'notification'; notification: NotificationItem; unread: number }
  | {
      type: 'tally';
      bountyId: number;
      roundId: number;
      claims: z.infer<typeof tallyClaim>[];
    }
  | { type: 'claim'; bountyId: number; roundId: number; claimId: number }
  | { type: 'reset' };
export type LiveEventType = LiveEvent['type'];
