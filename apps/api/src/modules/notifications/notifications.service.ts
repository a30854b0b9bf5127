/**
 * Notifications (issue 19): in app (stored, counted, pushed to open streams) and by e-mail, per
 * type as each user chose on /account/notifications (both on by default). Mails carry a
 * one-click unsubscribe link that works without signing in. `notify` never fails its caller:
 * the action that caused it has happened already.
 */
import crypto from 'node:crypto';
import {
  NOTIFICATION_LABELS,
  NOTIFICATION_PAGE,
  NOTIFICATION_TYPES,
  type NotificationItem,
  type NotificationListAnswer,
  type NotificationSetting,
  type NotificationType,
} from '@bountyhunt/shared/live';
import type { Actor, ServiceContext } from '../../context';
import type { MailMessage } from '../../mail/mailer';
import { noticeMail, withUnsubscribe } from '../../mail/templates';
import { emailsOf } from '../users/users.read';
import type { LiveService } from '../live/live.service';
import * as repo from './notifications.repository';

export interface Notice {
  userId: number;
  type: NotificationType;
  title: string;
  body: string;
  /** An app route (e.g. `/claim/12`), or null. */
  link: string | null;
  /** The mail of this event; a plain one from title, body and link otherwise. */
  mail?: (to: string) => MailMessage;
  /** The button of the plain mail. */
  linkLabel?: string;
}

/** `message` is mailed only (its in-app form is the Messages badge). */
const MAIL_ONLY: ReadonlySet<NotificationType> = new Set(['message']);

function present(row: repo.NotificationRow): NotificationItem {
  return {
    notificationId: Number(row.id),
    type: row.type as NotificationType,
    title: row.title,
    body: row.body,
    link: row.link,
    created: row.createdAt.toISOString(),
    read: row.readAt !== null,
  };
}

export class NotificationsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly live: LiveService,
    /** Signs unsubscribe links (derived from the field key). */
    private readonly unsubscribeKey: Buffer,
  ) {}

  /**
   * Stores, pushes and mails notices as each user's settings say. Logs failures and never
   * throws, unless `strict` (a retried job's mail: it throws so the job tries again).
   */
  async notify(notices: Notice | Notice[], opts: { strict?: boolean } = {}): Promise<void> {
    const list = Array.isArray(notices) ? notices : [notices];
    if (!list.length) return;
    try {
      await this.deliver(list);
    } catch (err) {
      if (opts.strict) throw err;
      this.ctx.log.error(
        { err: { message: (err as Error).message }, types: list.map((n) => n.type) },
        'notification failed',
      );
    }
  }

  private async deliver(list: Notice[]): Promise<void> {
    const userIds = [...new Set(list.map((n) => n.userId))];
    const prefs = await this.preferences(userIds);
    const inApp = list.filter((n) => !MAIL_ONLY.has(n.type) && prefs(n.userId, n.type).inApp);
    if (inApp.length) {
      const now = this.ctx.clock.now();
      const events = await this.ctx.db.transaction(async (tx) => {
        const rows = await repo.insertNotifications(
          tx,
          inApp.map((n) => ({
            userId: n.userId,
            type: n.type,
            title: n.title,
            body: n.body,
            link: n.link,
            createdAt: now,
          })),
        );
        const unread = await repo.unreadCounts(tx, userIds);
        return this.live.record(
          tx,
          rows.map((r) => ({
            userId: r.userId,
            data: {
              type: 'notification' as const,
              notification: present(r),
              unread: unread.get(r.userId) ?? 0,
            },
          })),
        );
      });
      await this.live.wake(events);
    }
    const mailed = list.filter((n) => prefs(n.userId, n.type).email);
    if (mailed.length) {
      const emails = await emailsOf(
        this.ctx.db,
        mailed.map((n) => n.userId),
      );
      for (const n of mailed) {
        const to = emails.get(n.userId);
        if (!to) continue;
        const link = n.link ? this.webLink(n.link) : null;
        const message = n.mail
          ? n.mail(to)
          : noticeMail(to, {
              subject: n.title,
              heading: n.title,
              text: n.body,
              link,
              linkLabel: n.linkLabel ?? 'Open BountyHunt',
            });
        await this.ctx.mailer.send(
          withUnsubscribe(
            message,
            this.unsubscribeUrl(n.userId, n.type),
            NOTIFICATION_LABELS[n.type],
          ),
        );
      }
    }
  }

  /** Mails one notice if the user wants mail of its type (the unread-message mail). */
  async mailIfWanted(notice: Notice): Promise<boolean> {
    const prefs = await this.preferences([notice.userId]);
    if (!prefs(notice.userId, notice.type).email) return false;
    await this.deliver([notice]);
    return true;
  }

  webLink(route: string): string {
    return `${this.ctx.config.PUBLIC_WEB_URL.replace(/\/$/, '')}${route}`;
  }

  private async preferences(userIds: number[]) {
    const rows = await repo.settingsOf(this.ctx.db, userIds);
    const map = new Map(rows.map((r) => [`${r.userId}:${r.type}`, r]));
    return (userId: number, type: NotificationType) =>
      map.get(`${userId}:${type}`) ?? { inApp: true, email: true };
  }

  /** GET /notifications: newest first, keyset paged by id. */
  async list(
    actor: Actor,
    q: { before?: number; limit?: number },
  ): Promise<NotificationListAnswer> {
    const limit = q.limit ?? NOTIFICATION_PAGE;
    const rows = await repo.pageOf(this.ctx.db, actor.userId, q.before, limit + 1);
    const page = rows.slice(0, limit);
    const unread = await repo.unreadCounts(this.ctx.db, [actor.userId]);
    return {
      items: page.map(present),
      unread: unread.get(actor.userId) ?? 0,
      nextBefore: rows.length > limit ? Number(page[page.length - 1]!.id) : null,
    };
  }

  /** POST /notifications/read: up to `upTo`, or all. */
  async markRead(actor: Actor, upTo: number | undefined): Promise<{ unread: number }> {
    await repo.markRead(this.ctx.db, actor.userId, upTo, this.ctx.clock.now());
    const unread = await repo.unreadCounts(this.ctx.db, [actor.userId]);
    return { unread: unread.get(actor.userId) ?? 0 };
  }

  async settings(actor: Actor): Promise<{ settings: NotificationSetting[] }> {
    const prefs = await this.preferences([actor.userId]);
    return {
      settings: NOTIFICATION_TYPES.map((type) => {
        const p = prefs(actor.userId, type);
        return { type, inApp: MAIL_ONLY.has(type) ? true : p.inApp, email: p.email };
      }),
    };
  }

  async saveSettings(
    actor: Actor,
    input: { settings: NotificationSetting[] },
  ): Promise<{ settings: NotificationSetting[] }> {
    // One row per type: a type named twice takes its last value (one upsert cannot touch a row twice).
    const byType = new Map(input.settings.map((s) => [s.type, s]));
    await repo.saveSettings(
      this.ctx.db,
      actor.userId,
      [...byType.values()].map((s) => ({ ...s, inApp: MAIL_ONLY.has(s.type) ? true : s.inApp })),
    );
    return this.settings(actor);
  }

  private sign(userId: number, type: string): string {
    return crypto
      .createHmac('sha256', this.unsubscribeKey)
      .update(`${userId}:${type}`)
      .digest('base64url')
      .slice(0, 32);
  }

  /** The API's one-click link: GET shows a confirmation, POST unsubscribes. */
  unsubscribeUrl(userId: number, type: NotificationType): string {
    const base = (
      this.ctx.config.API_URL ?? `http://localhost:${this.ctx.config.API_PORT}`
    ).replace(/\/$/, '');
    return `${base}/notifications/unsubscribe?u=${userId}&t=${type}&s=${this.sign(userId, type)}`;
  }

  /** Checks a link's signature; the type's label when it is good. */
  checkUnsubscribe(userId: number, type: string, sig: string): string | null {
    if (!(NOTIFICATION_TYPES as readonly string[]).includes(type)) return null;
    const want = Buffer.from(this.sign(userId, type));
    const got = Buffer.from(sig);
    if (want.length !== got.length || !crypto.timingSafeEqual(want, got)) return null;
    return NOTIFICATION_LABELS[type as NotificationType];
  }

  /** Turns the type's mail off for the user of a good link. */
  async unsubscribe(userId: number, type: string, sig: string): Promise<string | null> {
    const label = this.checkUnsubscribe(userId, type, sig);
    if (!label) return null;
    const t = type as NotificationType;
    if (!(await emailsOf(this.ctx.db, [userId])).has(userId)) return null;
    const prefs = await this.preferences([userId]);
    await repo.saveSettings(this.ctx.db, userId, [
      { type: t, inApp: prefs(userId, t).inApp, email: false },
    ]);
    return label;
  }
}
