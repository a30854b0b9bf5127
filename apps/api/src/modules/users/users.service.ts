import type { CurrentUser, User } from '@bountyhunt/shared/users';
import { AUTH_MSG } from '@bountyhunt/shared/auth-texts';
import type { RegisterInput } from '@bountyhunt/shared/auth';
import { ROLE } from '@bountyhunt/shared/roles';
import type { Actor, ServiceContext } from '../../context';
import { isUniqueViolation } from '../../db/errors';
import { notAcceptable, unauthorized } from '../../errors';
import { hashPassword } from '../../lib/password';
import { presentHunter, presentUser } from './users.present';
import { findUserByEmail } from './users.read';
import type { DbOrTx } from '../../db/client';
import type { HunterRow, UserRow } from './users.read';
import type { ReportItemPreview } from '@bountyhunt/shared/moderation';
import type { HiddenChange } from '../../lib/visibility';
import type { LiveService } from '../live/live.service';
import { UserAnswerCache } from './user-answer-cache';
import {
  addRoleBits,
  clearIdentityKeys,
  ensureHunter,
  findStaleCiphertexts,
  findUserWithHunter,
  hunterPreviews,
  insertHunter,
  insertUser,
  replaceCiphertexts,
  setHunterBanner,
  setHunterHiddenAt,
  updateHunter,
  updateUser,
} from './users.repository';

/** The user answer cache's messages between instances (LiveService.control). */
const USERS_CONTROL = 'users';
/**
 * Users changed within this many ms go to the other instances in one message: a message per
 * vote (a NOTIFY each on PostgreSQL) cost the votes a tenth of their rate.
 */
const BROADCAST_MS = 10;
/** More users than this in one message: every instance forgets every answer instead. */
const BROADCAST_MAX = 2000;

export class UsersService {
  /** GET /user answers by user id (USER_CACHE_MS, decision 0022). */
  private readonly answers: UserAnswerCache<CurrentUser>;
  private readonly outgoing = new Set<number>();
  private outgoingTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ctx: ServiceContext,
    /** Tells the other instances whose answers to forget (absent: one instance). */
    private readonly live?: LiveService,
  ) {
    this.answers = new UserAnswerCache(ctx.config.USER_CACHE_MS);
    live?.onControl(USERS_CONTROL, {
      on: (data) => {
        const m = data as { ids?: unknown; all?: unknown };
        if (m?.all === true) this.answers.clear();
        else if (Array.isArray(m?.ids))
          this.answers.forget(m.ids.filter((id): id is number => typeof id === 'number'));
      },
      gap: () => this.answers.clear(),
    });
  }

  /**
   * Call after any write to these users' rows or hunter rows (silver, membership, identity,
   * settings, a hunter's profile): their GET /user answers are forgotten here at once and on
   * every other instance once the bus carries it (the users changed within BROADCAST_MS go in
   * one message; decision 0022). Inside a transaction, call it there: the
   * users are not kept again for a while, so the commit is seen once it lands.
   */
  changed(userIds: Iterable<number>): void {
    const ids = [...userIds];
    this.answers.forget(ids);
    if (!this.live || ids.length === 0) return;
    for (const id of ids) this.outgoing.add(id);
    this.outgoingTimer ??= setTimeout(() => this.broadcast(), BROADCAST_MS);
  }

  private broadcast(): void {
    this.outgoingTimer = null;
    const ids = [...this.outgoing];
    this.outgoing.clear();
    void this.live?.control(USERS_CONTROL, ids.length > BROADCAST_MAX ? { all: true } : { ids });
  }

  /** POST /user: a member (role 1) or, with hunter: true, a creator (role 2) with its hunter row. */
  async register(input: RegisterInput): Promise<User> {
    const email = input.email.trim().toLowerCase();
    if (await findUserByEmail(this.ctx.db, email))
      throw notAcceptable(AUTH_MSG.emailExists, 'EMAIL_EXISTS');
    const passwordHash = await hashPassword(input.password);
    try {
      const row = await this.ctx.db.transaction(async (tx) => {
        const user = await insertUser(tx, {
          email,
          passwordHash,
          role: input.hunter ? ROLE.hunter : ROLE.member,
        });
        if (input.hunter) await insertHunter(tx, user.id);
        return user;
      });
      return presentUser(row);
    } catch (err) {
      // Two registrations racing for one e-mail: the unique index decides.
      if (isUniqueViolation(err)) throw notAcceptable(AUTH_MSG.emailExists, 'EMAIL_EXISTS');
      throw err;
    }
  }

  /**
   * A user made by operations (the admin CLI), not by POST /user: any role bits, no hunter row.
   * `passwordHash` may be of a random password nobody knows; a reset link sets a real one.
   */
  async createWithRole(email: string, passwordHash: string, role: number): Promise<UserRow> {
    const normalized = email.trim().toLowerCase();
    if (await findUserByEmail(this.ctx.db, normalized))
      throw notAcceptable(AUTH_MSG.emailExists, 'EMAIL_EXISTS');
    return insertUser(this.ctx.db, { email: normalized, passwordHash, role });
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return findUserByEmail(this.ctx.db, email.trim());
  }

  /** Adds role bits (admin: the CLI and the seed only; no route calls this). */
  async addRole(userId: number, mask: number): Promise<UserRow | undefined> {
    const row = await addRoleBits(this.ctx.db, userId, mask);
    this.changed([userId]);
    return row;
  }

  /** GET /user: from the answer cache when this instance has read it lately (decision 0022). */
  async current(actor: Actor): Promise<CurrentUser> {
    const kept = this.answers.get(actor.userId);
    if (!kept) return this.readCurrent(actor);
    if (this.answers.refreshDue(actor.userId)) {
      // Near the end of its time: answered from the cache, read again behind the answer.
      void this.readCurrent(actor).catch((err: unknown) =>
        this.ctx.log.warn(
          { err: { message: (err as Error).message } },
          'users: a read ahead of the cache time failed',
        ),
      );
    }
    return kept;
  }

  /** The user's answer read from the database, and kept. */
  private async readCurrent(actor: Actor): Promise<CurrentUser> {
    const generation = this.answers.generation();
    const row = await findUserWithHunter(this.ctx.db, actor.userId);
    if (!row) throw unauthorized();
    const { user } = row;
    const hunterRow = (user.role & ROLE.hunter) !== 0 ? row.hunter : null;
    const answer: CurrentUser = {
      user: presentUser(user),
      hunter: hunterRow ? presentHunter(hunterRow, user.handle) : null,
    };
    this.answers.keep(actor.userId, answer, generation);
    return answer;
  }

  /** The hunter's banner (profiles checks the media and the actor first). */
  async setHunterBanner(hunterId: number, banner: string): Promise<void> {
    const userId = await setHunterBanner(this.ctx.db, hunterId, banner);
    if (userId !== undefined) this.changed([userId]);
  }

  /**
   * Writes a user's columns (account settings, billing's membership and card). `db` lets the
   * caller's transaction include the change.
   */
  update(
    id: number,
    values: Partial<Omit<UserRow, 'id' | 'createdAt' | 'silver'>>,
    db: DbOrTx = this.ctx.db,
  ): Promise<UserRow> {
    this.changed([id]);
    return updateUser(db, id, values);
  }

  /** After the identity images are deleted: the user's columns stop naming them. */
  clearIdentityKeys(userId: number, keys: string[], db: DbOrTx = this.ctx.db): Promise<void> {
    return clearIdentityKeys(db, userId, keys);
  }

  /** The hunter row of a creator, created if it is somehow missing. */
  async ensureHunter(userId: number): Promise<HunterRow> {
    const row = await ensureHunter(this.ctx.db, userId);
    this.changed([userId]);
    return row;
  }

  /**
   * Writes a hunter's columns; a new stage name or picture is a change to their card (below).
   */
  async updateHunter(
    userId: number,
    values: Partial<Pick<HunterRow, 'stagename' | 'bio' | 'picture' | 'banner'>>,
  ): Promise<HunterRow> {
    const row = await updateHunter(this.ctx.db, userId, values);
    this.changed([userId]);
    if ('stagename' in values || 'picture' in values) this.cardChanged();
    return row;
  }

  private readonly cardListeners: (() => void)[] = [];

  /**
   * `listener` runs after a change to what other readers show of a user: their handle, a
   * hunter's stage name or picture, a suspension (the bounty pages' cache, decision 0021).
   */
  onCardChanged(listener: () => void): void {
    this.cardListeners.push(listener);
  }

  /** Tells the listeners that a user's card changed; call it once the change has committed. */
  cardChanged(): void {
    for (const listener of this.cardListeners) listener();
  }

  /**
   * Moderation: hides a hunter profile (`hidden`) or shows it again, in the caller's
   * transaction. Undefined for an unknown hunter.
   */
  setHunterHidden(
    hunterId: number,
    hidden: boolean,
    db: DbOrTx = this.ctx.db,
  ): Promise<HiddenChange | undefined> {
    return setHunterHiddenAt(db, hunterId, hidden ? this.ctx.clock.now() : null);
  }

  /** Moderation queue previews of hunter profiles, by hunter id. */
  async hunterPreviews(ids: number[]): Promise<Map<number, ReportItemPreview>> {
    const rows = await hunterPreviews(this.ctx.db, ids);
    return new Map(
      rows.map((r) => [
        r.id,
        {
          title: r.stagename ?? r.handle,
          media: r.picture,
          handle: r.handle,
          ownerId: r.userId,
          hidden: r.hiddenAt !== null,
        },
      ]),
    );
  }

  /** Users with a ciphertext made by a key other than `currentKeyId` (re-encryption job). */
  findStaleCiphertexts(currentKeyId: string, limit: number) {
    return findStaleCiphertexts(this.ctx.db, currentKeyId, limit);
  }

  /** Swaps ciphertexts only if they are still the ones that were read. */
  replaceCiphertexts(
    id: number,
    before: { ssnEnc: string | null; bankAccountEnc: string | null },
    after: { ssnEnc: string | null; bankAccountEnc: string | null },
  ): Promise<boolean> {
    return replaceCiphertexts(this.ctx.db, id, before, after);
  }
}
