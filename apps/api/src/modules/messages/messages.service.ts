/**
 * Direct messages (issue 19). Any signed-in user with a handle can start a conversation with a
 * hunter; once it exists both sides can write. A block (either way) stops messages both ways.
 * A message and its events are stored in one transaction; the stream only wakes the clients.
 */
import {
  MESSAGE_CODES,
  MESSAGE_LIMITS,
  MESSAGE_MSG,
  type ConversationItem,
  type ConversationListAnswer,
  type MessageItem,
  type MessagePageAnswer,
  type MessageSendInput,
} from '@bountyhunt/shared/live';
import { hasRole, ROLE } from '@bountyhunt/shared/roles';
import type { Actor, ServiceContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { badRequest, forbidden, notFound } from '../../errors';
import { requireMedia } from '../media/media.service';
import type { ReportItemPreview } from '@bountyhunt/shared/moderation';
import type { HiddenChange } from '../../lib/visibility';
import type { LiveService } from '../live/live.service';
import type { NotificationsService } from '../notifications/notifications.service';
import { findPeerByHandle, peersOf, type Peer } from '../users/users.read';
import * as repo from './messages.repository';

/** Conversations in the list (the most recent ones). */
const LIST_MAX = 200;
const UNREAD_MAIL_AFTER_MS = 15 * 60_000;
const MAIL_EVERY_MS = 60 * 60_000;

const blockedError = () => forbidden(MESSAGE_MSG.blocked, MESSAGE_CODES.blocked);
const conversationNotFound = () =>
  notFound(MESSAGE_MSG.conversationNotFound, MESSAGE_CODES.conversationNotFound);

export function presentMessage(m: repo.MessageRow): MessageItem {
  const removed = m.hiddenAt !== null;
  return {
    messageId: Number(m.id),
    conversationId: m.conversationId,
    senderId: m.senderId,
    text: removed ? MESSAGE_MSG.removed : m.text,
    image: removed ? null : m.image,
    created: m.createdAt.toISOString(),
    removed,
  };
}

export class MessagesService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly live: LiveService,
    private readonly notifications: NotificationsService,
  ) {}

  private now(): Date {
    return this.ctx.clock.now();
  }

  private async me(actor: Actor): Promise<Peer> {
    const me = (await peersOf(this.ctx.db, [actor.userId])).get(actor.userId);
    if (!me?.handle) throw forbidden(MESSAGE_MSG.needHandle, MESSAGE_CODES.needHandle);
    return me;
  }

  /** POST /conversations: the conversation with the user of `handle`, opened when new. */
  async open(actor: Actor, handle: string): Promise<ConversationItem> {
    await this.me(actor);
    const other = await findPeerByHandle(this.ctx.db, handle);
    if (!other || other.suspended)
      throw notFound(MESSAGE_MSG.userNotFound, MESSAGE_CODES.userNotFound);
    if (other.userId === actor.userId) throw badRequest(MESSAGE_MSG.self, MESSAGE_CODES.self);
    let existing = await repo.findConversationByPair(this.ctx.db, actor.userId, other.userId);
    if (!existing) {
      if (!hasRole(other.role, ROLE.hunter))
        throw forbidden(MESSAGE_MSG.onlyHunters, MESSAGE_CODES.onlyHunters);
      if ((await repo.blocksWith(this.ctx.db, actor.userId, [other.userId])).length)
        throw blockedError();
      await repo.ensureConversation(this.ctx.db, actor.userId, other.userId, this.now());
      existing = await repo.findConversationByPair(this.ctx.db, actor.userId, other.userId);
    }
    return this.get(actor, existing!.id);
  }

  /** GET /conversations */
  async list(actor: Actor): Promise<ConversationListAnswer> {
    const mine = await repo.myConversations(this.ctx.db, actor.userId, LIST_MAX);
    const items = await this.present(actor, mine);
    return {
      items,
      unread: await repo.totalUnread(this.ctx.db, actor.userId),
    };
  }

  /** GET /conversations/{id}: 404 unless the caller is in it. */
  async get(actor: Actor, conversationId: number): Promise<ConversationItem> {
    const member = await repo.findMember(this.ctx.db, conversationId, actor.userId);
    if (!member) throw conversationNotFound();
    return (await this.present(actor, [member]))[0]!;
  }

  private async present(actor: Actor, mine: repo.MemberRow[]): Promise<ConversationItem[]> {
    const ids = mine.map((m) => m.conversationId);
    const others = mine.map((m) => m.otherId);
    const [peers, last, sides, blocks] = await Promise.all([
      peersOf(this.ctx.db, others),
      repo.lastMessages(this.ctx.db, ids),
      repo.membersOf(this.ctx.db, ids),
      repo.blocksWith(this.ctx.db, actor.userId, others),
    ]);
    const otherRead = new Map(
      sides.filter((s) => s.userId !== actor.userId).map((s) => [s.conversationId, s.lastReadId]),
    );
    return mine.map((m) => {
      const peer = peers.get(m.otherId);
      const msg = last.get(m.conversationId);
      return {
        conversationId: m.conversationId,
        other: {
          userId: m.otherId,
          handle: peer?.handle ?? null,
          picture: peer?.picture ?? null,
        },
        lastMessage: msg
          ? {
              text: msg.hiddenAt ? MESSAGE_MSG.removed : msg.text,
              hasImage: msg.image !== null && !msg.hiddenAt,
              created: msg.createdAt.toISOString(),
              fromMe: msg.senderId === actor.userId,
            }
          : null,
        unread: m.unread,
        otherReadUpTo: Number(otherRead.get(m.conversationId) ?? 0),
        blocked: blocks.some((b) => b.blockerId === actor.userId && b.blockedId === m.otherId),
        blockedByOther: blocks.some(
          (b) => b.blockerId === m.otherId && b.blockedId === actor.userId,
        ),
      };
    });
  }

  /** GET /conversations/{id}/messages: a page, oldest first; nextBefore pages further back. */
  async page(
    actor: Actor,
    conversationId: number,
    q: { before?: number; limit?: number },
  ): Promise<MessagePageAnswer> {
    if (!(await repo.findMember(this.ctx.db, conversationId, actor.userId)))
      throw conversationNotFound();
    const limit = q.limit ?? MESSAGE_LIMITS.page;
    const rows = await repo.threadPage(this.ctx.db, conversationId, q.before, limit + 1);
    const more = rows.length > limit;
    const page = more ? rows.slice(1) : rows;
    return {
      items: page.map(presentMessage),
      nextBefore: more ? Number(page[0]!.id) : null,
    };
  }

  /** POST /conversations/{id}/messages */
  async send(actor: Actor, conversationId: number, input: MessageSendInput): Promise<MessageItem> {
    // Independent reads side by side (on PostgreSQL each takes its own pooled connection).
    const [me, found] = await Promise.allSettled([
      this.me(actor),
      repo.findMember(this.ctx.db, conversationId, actor.userId),
    ]);
    // The handle first, as open() asks.
    if (me.status === 'rejected') throw me.reason;
    if (found.status === 'rejected') throw found.reason;
    const member = found.value;
    if (!member) throw conversationNotFound();
    const [blocks, peers] = await Promise.all([
      repo.blocksWith(this.ctx.db, actor.userId, [member.otherId]),
      peersOf(this.ctx.db, [member.otherId]),
    ]);
    const other = peers.get(member.otherId);
    if (blocks.length || !other || other.suspended) throw blockedError();
    if (input.image)
      await requireMedia(this.ctx, input.image, { ownerId: actor.userId, kind: 'image' });
    const now = this.now();
    const { message, events } = await this.ctx.db.transaction(async (tx) => {
      const row = await repo.insertMessage(tx, {
        conversationId,
        senderId: actor.userId,
        text: input.text,
        image: input.image ?? null,
        at: now,
      });
      const message = presentMessage(row);
      const data = { type: 'message' as const, conversationId, message };
      const events = await this.live.record(tx, [
        { userId: member.otherId, data },
        { userId: actor.userId, data },
      ]);
      return { message, events };
    });
    await this.live.wake(events);
    return message;
  }

  /** POST /conversations/{id}/read: read receipts for the other side and my other tabs. */
  async read(actor: Actor, conversationId: number, upTo: number): Promise<{ upTo: number }> {
    const member = await repo.findMember(this.ctx.db, conversationId, actor.userId);
    if (!member) throw conversationNotFound();
    const last = await repo.lastMessageId(this.ctx.db, conversationId);
    const target = Math.min(upTo, last);
    if (target <= Number(member.lastReadId)) return { upTo: Number(member.lastReadId) };
    const events = await this.ctx.db.transaction(async (tx) => {
      const mark = await repo.markRead(tx, conversationId, actor.userId, target);
      const data = { type: 'read' as const, conversationId, userId: actor.userId, upTo: mark };
      return this.live.record(tx, [
        { userId: member.otherId, data },
        { userId: actor.userId, data },
      ]);
    });
    await this.live.wake(events);
    return { upTo: target };
  }

  /** GET /conversations/unread: the nav badge. */
  async unread(actor: Actor): Promise<{ unread: number }> {
    return { unread: await repo.totalUnread(this.ctx.db, actor.userId) };
  }

  /** PUT /blocks/{userId} */
  async block(actor: Actor, userId: number): Promise<void> {
    if (userId === actor.userId) throw badRequest(MESSAGE_MSG.self, MESSAGE_CODES.self);
    if (!(await peersOf(this.ctx.db, [userId])).has(userId))
      throw notFound(MESSAGE_MSG.userNotFound, MESSAGE_CODES.userNotFound);
    await repo.block(this.ctx.db, actor.userId, userId, this.now());
  }

  /** DELETE /blocks/{userId} */
  async unblock(actor: Actor, userId: number): Promise<void> {
    await repo.unblock(this.ctx.db, actor.userId, userId);
  }

  /**
   * Moderation: only a party of the conversation who received the message can report it (to
   * anyone else it does not exist).
   */
  async reportable(reporterId: number, messageId: number, db: DbOrTx = this.ctx.db) {
    const m = await repo.findMessage(db, messageId);
    if (!m || m.senderId === reporterId) return false;
    return !!(await repo.findMember(db, m.conversationId, reporterId));
  }

  /** Moderation queue previews of reported messages (admins see the text and image). */
  async messagePreviews(ids: number[]): Promise<Map<number, ReportItemPreview>> {
    const rows = await repo.messagesByIds(this.ctx.db, ids);
    const peers = await peersOf(
      this.ctx.db,
      rows.map((r) => r.senderId),
    );
    return new Map(
      rows.map((r) => [
        Number(r.id),
        {
          title: r.text,
          media: r.image,
          handle: peers.get(r.senderId)?.handle ?? null,
          ownerId: r.senderId,
          hidden: r.hiddenAt !== null,
        },
      ]),
    );
  }

  /** Moderation: hides or shows a message in the caller's transaction. */
  setMessageHidden(
    id: number,
    hidden: boolean,
    db: DbOrTx = this.ctx.db,
  ): Promise<HiddenChange | undefined> {
    return repo.setMessageHiddenAt(db, id, hidden ? this.now() : null);
  }

  /**
   * The job: a mail for each side with messages unread for 15 minutes (at most one mail per
   * conversation per hour), when the user wants message mails.
   */
  async mailUnread(batch = 200): Promise<number> {
    const now = this.now();
    const due = await repo.dueUnreadMails(
      this.ctx.db,
      new Date(now.getTime() - UNREAD_MAIL_AFTER_MS),
      new Date(now.getTime() - MAIL_EVERY_MS),
      batch,
    );
    let mailed = 0;
    const last = await repo.lastMessages(
      this.ctx.db,
      due.map((d) => d.conversationId),
    );
    const peers = await peersOf(
      this.ctx.db,
      due.map((d) => d.otherId),
    );
    for (const side of due) {
      const from = peers.get(side.otherId)?.handle ?? 'someone';
      const msg = last.get(side.conversationId);
      const n = side.unread;
      const sent = await this.notifications.mailIfWanted({
        userId: side.userId,
        type: 'message',
        title: `New message from @${from}`,
        body:
          n === 1
            ? `@${from} wrote: ${msg && msg.senderId === side.otherId ? msg.text : 'a message'}`
            : `@${from} sent you ${n} messages.`,
        link: `/message/${side.conversationId}`,
        linkLabel: 'Read and Reply',
      });
      await repo.markMailed(this.ctx.db, side.conversationId, side.userId, now);
      if (sent) mailed += 1;
    }
    return mailed;
  }
}
