/** Writes of the users module (users and hunters rows) and the current-user read; other modules read through users.read.ts. */
import { and, eq, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { preparedQuery, type DbOrTx } from '../../db/client';
import { hunters, users, type HunterRow, type UserRow } from '../../db/schema';

const userWithHunterStmt = preparedQuery('users_with_hunter', (db) =>
  db
    .select({ user: users, hunter: hunters })
    .from(users)
    .leftJoin(hunters, eq(hunters.userId, users.id))
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1),
);

/** The user and, when there is one, their hunter row: one prepared query (GET /user). */
export function findUserWithHunter(
  db: DbOrTx,
  id: number,
): Promise<{ user: UserRow; hunter: HunterRow | null } | undefined> {
  return userWithHunterStmt(db, { id }).then((r) => r[0]);
}

export async function insertUser(
  db: DbOrTx,
  values: { email: string; passwordHash: string; role: number },
): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row!;
}

export async function insertHunter(db: DbOrTx, userId: number): Promise<HunterRow> {
  const [row] = await db.insert(hunters).values({ userId }).returning();
  return row!;
}

export async function updateUser(
  db: DbOrTx,
  id: number,
  values: Partial<Omit<UserRow, 'id' | 'createdAt'>>,
): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ updatedAt: new Date(), ...values })
    .where(eq(users.id, id))
    .returning();
  return row!;
}

/** Sets the banner; the hunter's user id, or undefined for an unknown hunter. */
export async function setHunterBanner(
  db: DbOrTx,
  hunterId: number,
  banner: string,
): Promise<number | undefined> {
  const [row] = await db
    .update(hunters)
    .set({ banner })
    .where(eq(hunters.id, hunterId))
    .returning({ userId: hunters.userId });
  return row?.userId;
}

/** The hunter row of a creator, created if it is somehow missing. */
export async function ensureHunter(db: DbOrTx, userId: number): Promise<HunterRow> {
  const existing = await db.select().from(hunters).where(eq(hunters.userId, userId)).limit(1);
  if (existing[0]) return existing[0];
  await db.insert(hunters).values({ userId }).onConflictDoNothing();
  const [row] = await db.select().from(hunters).where(eq(hunters.userId, userId)).limit(1);
  return row!;
}

export async function updateHunter(
  db: DbOrTx,
  userId: number,
  values: Partial<Pick<HunterRow, 'stagename' | 'bio' | 'picture' | 'banner'>>,
): Promise<HunterRow> {
  await ensureHunter(db, userId);
  const [row] = await db.update(hunters).set(values).where(eq(hunters.userId, userId)).returning();
  return row!;
}

/** Users with a ciphertext made by a key other than `currentKeyId`, a batch at a time. */
export function findStaleCiphertexts(db: DbOrTx, currentKeyId: string, limit: number) {
  const prefix = `${currentKeyId}:%`;
  return db
    .select({ id: users.id, ssnEnc: users.ssnEnc, bankAccountEnc: users.bankAccountEnc })
    .from(users)
    .where(
      or(
        and(isNotNull(users.ssnEnc), sql`${users.ssnEnc} not like ${prefix}`),
        and(isNotNull(users.bankAccountEnc), sql`${users.bankAccountEnc} not like ${prefix}`),
      ),
    )
    .orderBy(users.id)
    .limit(limit);
}

/** Swaps a ciphertext only if it is still the one that was read (no lost concurrent update). */
export async function replaceCiphertexts(
  db: DbOrTx,
  id: number,
  before: { ssnEnc: string | null; bankAccountEnc: string | null },
  after: { ssnEnc: string | null; bankAccountEnc: string | null },
): Promise<boolean> {
  const rows = await db
    .update(users)
    .set(after)
    .where(
      and(
        eq(users.id, id),
        before.ssnEnc === null ? isNull(users.ssnEnc) : eq(users.ssnEnc, before.ssnEnc),
        before.bankAccountEnc === null
          ? isNull(users.bankAccountEnc)
          : eq(users.bankAccountEnc, before.bankAccountEnc),
      ),
    )
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Sets role bits (never through the public API: the admin CLI and the demo seed). */
export async function addRoleBits(
  db: DbOrTx,
  id: number,
  mask: number,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ role: sql`${users.role} | ${mask}` })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/** Hides (a time) or shows (null) a hunter profile; hidden_at before and after. */
export async function setHunterHiddenAt(
  db: DbOrTx,
  id: number,
  at: Date | null,
): Promise<{ before: Date | null; after: Date | null } | undefined> {
  const [old] = await db
    .select({ hiddenAt: hunters.hiddenAt })
    .from(hunters)
    .where(eq(hunters.id, id))
    .for('update');
  if (!old) return undefined;
  const after = at ? (old.hiddenAt ?? at) : null;
  await db.update(hunters).set({ hiddenAt: after }).where(eq(hunters.id, id));
  return { before: old.hiddenAt, after };
}

/** What the moderation queue shows of hunters: stage name, picture, handle. */
export function hunterPreviews(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select({
      id: hunters.id,
      userId: hunters.userId,
      stagename: hunters.stagename,
      picture: hunters.picture,
      hiddenAt: hunters.hiddenAt,
      handle: users.handle,
    })
    .from(hunters)
    .innerJoin(users, eq(users.id, hunters.userId))
    .where(sql`${hunters.id} in ${ids}`);
}

/** Forgets the identity document keys of a user when they are these (their images are deleted). */
export async function clearIdentityKeys(db: DbOrTx, userId: number, keys: string[]): Promise<void> {
  if (!keys.length) return;
  await db
    .update(users)
    .set({
      idFrontKey: sql`case when ${users.idFrontKey} in ${keys} then null else ${users.idFrontKey} end`,
      idSelfieKey: sql`case when ${users.idSelfieKey} in ${keys} then null else ${users.idSelfieKey} end`,
    })
    .where(eq(users.id, userId));
}
