/**
 * Identity verification (issue 17 part 3; CONTRACT.md identityStatus): a hunter submits an ID
 * photo and a selfie (private uploads) → pending; an admin reviews the queue, oldest first,
 * seeing the images only through short-lived signed URLs, and approves or rejects with a
 * listed reason and free text; the user gets a mail and sees the result on /account/identity.
 * The images are deleted 30 days after the decision (a scheduled job); the decision stays.
 *
 * users.identity_status / identity_reason belong to the users module (UsersService.update);
 * every decision is one transaction with its audit row.
 */
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { ACCOUNT_MSG } from '@bountyhunt/shared/account';
import { ADMIN_PAGE } from '@bountyhunt/shared/admin';
import {
  IDENTITY_IMAGE_RETENTION_DAYS,
  IDENTITY_MEDIA_TTL_SECONDS,
  IDENTITY_MSG,
  IDENTITY_REJECT_REASONS,
  identityReasonText,
  type IdentityDetailAnswer,
  type IdentityQueueItem,
  type IdentityQueueQuery,
  type IdentityRejectReason,
} from '@bountyhunt/shared/identity';
import type { IdentityStatus } from '@bountyhunt/shared/roles';
import type { Actor, ServiceContext } from '../../context';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import { MICROSECOND_KEY_RE, iso, isoOrNull } from '../../lib/dates';
import { decodeCursor, pageLimit, takePage, type Page } from '../../lib/paging';
import { identityApprovedMail, identityRejectedMail } from '../../mail/templates';
import type { NotificationsService } from '../notifications/notifications.service';
import type { AuditService } from '../admin/audit.service';
import { getMedia, type MediaService } from '../media/media.service';
import { contactsOf, findUserById } from '../users/users.read';
import type { UsersService } from '../users/users.service';
import {
  decideSubmission,
  dueForPurge,
  findSubmission,
  insertSubmission,
  keysStillNeeded,
  lockSubmission,
  markImagesDeleted,
  pendingPage,
  supersedePending,
  type SubmissionRow,
} from './identity.repository';

export const IDENTITY_JOBS = {
  decisionMail: 'identity.decision-mail',
  purgeImages: 'identity.purge-images',
} as const;

/** Where the signed image URLs point (a path on the API; no session needed, the token is). */
export const IDENTITY_MEDIA_PATH = '/identity-media';

const DAY_MS = 24 * 3600 * 1000;
const cursorSchema = z.object({
  ts: z.string().regex(MICROSECOND_KEY_RE),
  id: z.number().int().min(1).max(2_147_483_647),
});
const invalidCursor = () => badRequest('That page of the identity queue does not exist.');

type Side = 'f' | 's';
const tokenSchema = z.object({
  s: z.number().int().positive(),
  p: z.enum(['f', 's']),
  e: z.number().int(),
});

export interface IdentityMedia {
  stream: Readable;
}

export class IdentityService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly users: UsersService,
    private readonly media: MediaService,
    private readonly audit: AuditService,
    /** HMAC key of the signed image URLs (derived from ENCRYPTION_KEY by the root). */
    private readonly signingKey: Buffer,
    private readonly notifications: NotificationsService,
  ) {}

  // ── The user's side ─────────────────────────────────────────────────────────────────────

  /** A usable document: the user's own finished private image. */
  private async ownPrivateImage(actor: Actor, key: string, message: string): Promise<void> {
    const row = await getMedia(this.ctx, key);
    if (!row || row.ownerId !== actor.userId || row.kind !== 'image' || row.status !== 'ready')
      throw badRequest(message, 'MEDIA_INVALID');
    if (row.visibility !== 'private')
      throw badRequest('Identity documents must be uploaded privately.', 'MEDIA_VISIBILITY');
  }

  /**
   * PUT /user/identity {idFront, idSelfie, ageConfirmed?}: a new pending submission; an older
   * pending one is superseded; after a rejection this is the way to submit again.
   */
  async submit(
    actor: Actor,
    input: { idFront: string; idSelfie: string; ageConfirmed?: boolean },
  ): Promise<void> {
    const { idFront, idSelfie } = input;
    if (idFront === idSelfie) throw badRequest(ACCOUNT_MSG.idSelfieRequired, 'MEDIA_INVALID');
    await this.ownPrivateImage(actor, idFront, ACCOUNT_MSG.idFrontRequired);
    await this.ownPrivateImage(actor, idSelfie, ACCOUNT_MSG.idSelfieRequired);
    const now = this.ctx.clock.now();
    await this.ctx.db.transaction(async (tx) => {
      const user = await findUserById(tx, actor.userId);
      if (user?.identityStatus === 'approved')
        throw conflict(IDENTITY_MSG.alreadyApproved, 'IDENTITY_APPROVED');
      await supersedePending(tx, actor.userId, now);
      await insertSubmission(tx, {
        userId: actor.userId,
        idFrontKey: idFront,
        idSelfieKey: idSelfie,
        ageAttested: input.ageConfirmed ?? null,
        createdAt: now,
      });
      await this.users.update(
        actor.userId,
        {
          idFrontKey: idFront,
          idSelfieKey: idSelfie,
          identityStatus: 'pending' satisfies IdentityStatus,
          identityReason: null,
        },
        tx,
      );
    });
  }

  // ── The review (admin; the routes pass the /admin gate first) ───────────────────────────

  /** GET /admin/identities: pending, oldest first, keyset paged on (created_at, id). */
  async queue(query: IdentityQueueQuery): Promise<Page<IdentityQueueItem>> {
    const limit = pageLimit(query.limit, ADMIN_PAGE);
    const after = decodeCursor(query.cursor, cursorSchema, invalidCursor);
    const rows = await pendingPage(this.ctx.db, after, limit + 1);
    const page = takePage(rows, limit, (last) => ({ ts: last.key, id: last.row.id }));
    const people = await contactsOf(
      this.ctx.db,
      page.rows.map((r) => r.row.userId),
    );
    return {
      next: page.next,
      items: page.rows.map(({ row }) => this.item(row, people.get(row.userId))),
    };
  }

  private item(
    row: SubmissionRow,
    who:
      | { email: string; handle: string | null; firstName: string | null; lastName: string | null }
      | undefined,
  ): IdentityQueueItem {
    return {
      submissionId: row.id,
      userId: row.userId,
      email: who?.email ?? '',
      handle: who?.handle ?? null,
      firstName: who?.firstName ?? null,
      lastName: who?.lastName ?? null,
      ageAttested: row.ageAttested,
      submitted: iso(row.createdAt),
    };
  }

  /** GET /admin/identities/:id: the submission and two signed image URLs valid for 5 minutes. */
  async detail(id: number): Promise<IdentityDetailAnswer> {
    const row = await findSubmission(this.ctx.db, id);
    if (!row) throw notFound();
    const people = await contactsOf(this.ctx.db, [row.userId]);
    const expires = new Date(this.ctx.clock.now().getTime() + IDENTITY_MEDIA_TTL_SECONDS * 1000);
    const kept = row.imagesDeletedAt === null;
    return {
      ...this.item(row, people.get(row.userId)),
      status: row.status as IdentityDetailAnswer['status'],
      reason: (row.reasonCode as IdentityRejectReason | null) ?? null,
      reasonText: row.reasonText,
      decidedBy: row.decidedBy,
      decided: isoOrNull(row.decidedAt),
      imagesDeleted: isoOrNull(row.imagesDeletedAt),
      idFrontUrl: kept ? this.signedPath(row.id, 'f', expires) : null,
      idSelfieUrl: kept ? this.signedPath(row.id, 's', expires) : null,
      expires: expires.toISOString(),
    };
  }

  // ── Signed image URLs ───────────────────────────────────────────────────────────────────

  private mac(payload: string): string {
    return crypto.createHmac('sha256', this.signingKey).update(payload).digest('base64url');
  }

  /**
   * `/identity-media/{payload}.{mac}`: the payload names the submission, the side and the
   * expiry (never the media key); the MAC is HMAC-SHA256 under a key derived from
   * ENCRYPTION_KEY, so any API instance can check it.
   */
  signedPath(submissionId: number, side: Side, expires: Date): string {
    const payload = Buffer.from(
      JSON.stringify({ s: submissionId, p: side, e: Math.floor(expires.getTime() / 1000) }),
    ).toString('base64url');
    return `${IDENTITY_MEDIA_PATH}/${payload}.${this.mac(payload)}`;
  }

  /** GET /identity-media/:token → the private image, or 404 for a bad, expired or spent link. */
  async readSigned(token: string): Promise<Readable> {
    const invalid = () => notFound(IDENTITY_MSG.linkInvalid, 'LINK_INVALID');
    const [payload, mac, extra] = token.split('.');
    if (!payload || !mac || extra !== undefined) throw invalid();
    const want = Buffer.from(this.mac(payload));
    const got = Buffer.from(mac);
    if (got.length !== want.length || !crypto.timingSafeEqual(got, want)) throw invalid();
    let claims: z.infer<typeof tokenSchema>;
    try {
      claims = tokenSchema.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    } catch {
      throw invalid();
    }
    if (claims.e * 1000 <= this.ctx.clock.now().getTime()) throw invalid();
    const row = await findSubmission(this.ctx.db, claims.s);
    if (!row || row.imagesDeletedAt !== null) throw invalid();
    const stream = await this.media.readPrivate(
      claims.p === 'f' ? row.idFrontKey : row.idSelfieKey,
    );
    if (!stream) throw invalid();
    return stream;
  }

  // ── Decisions ───────────────────────────────────────────────────────────────────────────

  /** POST /admin/identities/:id/approve */
  approve(actor: Actor, id: number, ip: string | null): Promise<IdentityDetailAnswer> {
    return this.decide(actor, id, ip, { status: 'approved', reason: null, text: null });
  }

  /** POST /admin/identities/:id/reject {reason, text?} */
  reject(
    actor: Actor,
    id: number,
    input: { reason: IdentityRejectReason; text?: string | undefined },
    ip: string | null,
  ): Promise<IdentityDetailAnswer> {
    if (!IDENTITY_REJECT_REASONS.includes(input.reason)) throw badRequest('Unknown reason.');
    return this.decide(actor, id, ip, {
      status: 'rejected',
      reason: input.reason,
      text: input.text?.trim() || null,
    });
  }

  private async decide(
    actor: Actor,
    id: number,
    ip: string | null,
    d: {
      status: 'approved' | 'rejected';
      reason: IdentityRejectReason | null;
      text: string | null;
    },
  ): Promise<IdentityDetailAnswer> {
    const now = this.ctx.clock.now();
    await this.ctx.db.transaction(async (tx) => {
      const row = await lockSubmission(tx, id);
      if (!row) throw notFound();
      if (row.userId === actor.userId)
        throw forbidden(IDENTITY_MSG.ownSubmission, 'OWN_SUBMISSION');
      if (row.status !== 'pending') throw conflict(IDENTITY_MSG.notPending, 'NOT_PENDING');
      const user = await findUserById(tx, row.userId);
      const identityReason = d.reason ? identityReasonText(d.reason, d.text) : null;
      await decideSubmission(tx, id, {
        status: d.status,
        reasonCode: d.reason,
        reasonText: d.text,
        decidedBy: actor.userId,
        decidedAt: now,
      });
      await this.users.update(row.userId, { identityStatus: d.status, identityReason }, tx);
      await this.audit.record(
        {
          actorId: actor.userId,
          action: d.status === 'approved' ? 'identity.approve' : 'identity.reject',
          targetType: 'identity_submission',
          targetId: id,
          before: { status: row.status, userIdentityStatus: user?.identityStatus ?? null },
          after: {
            status: d.status,
            userId: row.userId,
            ...(d.reason ? { reason: d.reason, text: d.text } : {}),
          },
          ip,
        },
        tx,
      );
    });
    await this.ctx.jobs.send(
      IDENTITY_JOBS.decisionMail,
      { submissionId: id },
      { singletonKey: `identity-mail-${id}` },
    );
    return this.detail(id);
  }

  /** The decision mail (a job, retried: the decision is already made when it runs). */
  async sendDecisionMail(submissionId: number): Promise<void> {
    const row = await findSubmission(this.ctx.db, submissionId);
    if (!row || (row.status !== 'approved' && row.status !== 'rejected')) return;
    const user = await findUserById(this.ctx.db, row.userId);
    if (!user) return;
    const link = `${this.ctx.config.PUBLIC_WEB_URL}/account/identity`;
    const reason =
      row.status === 'rejected'
        ? identityReasonText(row.reasonCode as IdentityRejectReason, row.reasonText)
        : '';
    await this.notifications.notify(
      row.status === 'approved'
        ? {
            userId: row.userId,
            type: 'identity_approved',
            title: 'Your identity is verified',
            body: 'Thank you. Your identity was approved; payouts can go to you.',
            link: '/account/identity',
            mail: (to) => identityApprovedMail(to, link),
          }
        : {
            userId: row.userId,
            type: 'identity_rejected',
            title: 'We could not verify your identity',
            body: `Reason: ${reason} Please upload new photos.`,
            link: '/account/identity',
            mail: (to) => identityRejectedMail(to, reason, link),
          },
      { strict: true },
    );
  }

  /**
   * The images of submissions decided (or superseded) more than 30 days ago: storage files and
   * media rows deleted through the media module, images_deleted_at set; status, reason and
   * decider stay. Keys another live submission of the user still uses are kept. Idempotent.
   */
  async purgeImages(batch = 200): Promise<number> {
    const now = this.ctx.clock.now();
    const before = new Date(now.getTime() - IDENTITY_IMAGE_RETENTION_DAYS * DAY_MS);
    let done = 0;
    for (;;) {
      const rows = await dueForPurge(this.ctx.db, before, batch);
      for (const row of rows) {
        const keys = [row.idFrontKey, row.idSelfieKey];
        const needed = await keysStillNeeded(this.ctx.db, row.userId, keys, before);
        const gone = keys.filter((k) => !needed.has(k));
        for (const key of gone) await this.media.deleteMedia(key);
        await this.ctx.db.transaction(async (tx) => {
          await this.users.clearIdentityKeys(row.userId, gone, tx);
          await markImagesDeleted(tx, row.id, now);
        });
        done += 1;
      }
      if (rows.length < batch) return done;
    }
  }
}
