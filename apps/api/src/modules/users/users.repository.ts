/** Writes of the users module (users and hunters rows) and the current-user read; other modules read through users.read.ts. */
import { eq, sql } from 'drizzle-orm';
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
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row!;
}
