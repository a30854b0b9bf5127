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

export class UsersService {
  constructor(private readonly ctx: ServiceContext) {}

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
  addRole(userId: number, mask: number): Promise<UserRow | undefined> {
    return addRoleBits(this.ctx.db, userId, mask);
  }

  /** GET /user */
  async current(actor: Actor): Promise<CurrentUser> {
    const row = await findUserWithHunter(this.ctx.db, actor.userId);
    if (!row) throw unauthorized();
    const { user } = row;
    const hunterRow = (user.role & ROLE.hunter) !== 0 ? row.hunter : null;
    return {
      user: presentUser(user),
      hunter: hunterRow ? presentHunter(hunterRow, user.handle) : null,
    };
  }

  /** The hunter's banner (profiles checks the media and the actor first). */
  async setHunterBanner(hunterId: number, banner: string): Promise<void> {
    await setHunterBanner(this.ctx.db, hunterId, banner);
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
    return updateUser(db, id, values);
  }

  /** After the identity images are deleted: the user's columns stop naming them. */
  clearIdentityKeys(userId: number, keys: string[], db: DbOrTx = this.ctx.db): Promise<void> {
    return clearIdentityKeys(db, userId, keys);
  }

  /** The hunter row of a creator, created if it is somehow missing. */
  ensureHunter(userId: number): Promise<HunterRow> {
    return ensureHunter(this.ctx.db, userId);
  }

  /**
   * Writes a hunter's columns; a new stage name or picture is a change to their card (below).
   */
  async updateHunter(
    userId: number,
    values: Partial<Pick<HunterRow, 'stagename' | 'bio' | 'picture' | 'banner'>>,
  ): Promise<HunterRow> {
    const row = await updateHunter(this.ctx.db, userId, values);
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
