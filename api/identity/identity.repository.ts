/**
 * The embedded identity service's queries (docs/decisions/014). Everything lives in the site's own
 * database, so containers that share it share users, keys, sessions and lockouts.
 */
import { and, asc, desc, eq, gt, isNull, like, lt, ne, notLike, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/driver-errors.ts';

export type IdentityUser = typeof import('../../db/schema/pg.ts').identityUsers.$inferSelect;
export type IdentitySession = typeof import('../../db/schema/pg.ts').identitySessions.$inferSelect;
export type CodePurpose = 'confirm-sign-up' | 'reset-password';

const isAddressTaken = (err: unknown) => isUniqueViolation(err, { pg: 'identity_users_email_key_unique', sqlite: 'identity_users.email_key' });

export function identityRepository({ db, t, dialect }: Database) {
  const users = t.identityUsers;
  return {
    async pool() {
      const [pool] = await db.select().from(t.identityPools).orderBy(asc(t.identityPools.createdAt), asc(t.identityPools.id)).limit(1);
      return pool ?? null;
    },
    async insertPool(pool: { id: string; clientId: string }) {
      await db.insert(t.identityPools).values(pool).onConflictDoNothing();
    },

    signingKeys: () => db.select().from(t.identitySigningKeys).orderBy(desc(t.identitySigningKeys.createdAt), desc(t.identitySigningKeys.kid)),
    async insertSigningKey(key: { kid: string; publicJwk: string; privateKey: string }) {
      await db.insert(t.identitySigningKeys).values(key);
    },
    /** Every key but `kid` stops signing now; it still verifies tokens it signed until they expire. */
    async retireKeysExcept(kid: string, at: Date) {
      await db
        .update(t.identitySigningKeys)
        .set({ retiredAt: at })
        .where(and(ne(t.identitySigningKeys.kid, kid), isNull(t.identitySigningKeys.retiredAt)))
        .returning();
    },
    async deleteKeysRetiredBefore(at: Date) {
      return db.delete(t.identitySigningKeys).where(lt(t.identitySigningKeys.retiredAt, at)).returning({ kid: t.identitySigningKeys.kid });
    },
    async deleteKeysExcept(kid: string) {
      return db.delete(t.identitySigningKeys).where(ne(t.identitySigningKeys.kid, kid)).returning({ kid: t.identitySigningKeys.kid });
    },
    async resealSigningKey(kid: string, privateKey: string) {
      await db.update(t.identitySigningKeys).set({ privateKey }).where(eq(t.identitySigningKeys.kid, kid)).returning();
    },

    async userByName(usernameKey: string): Promise<IdentityUser | null> {
      const [user] = await db.select().from(t.identityUsers).where(eq(t.identityUsers.usernameKey, usernameKey));
      return user ?? null;
    },
    async insertUser(user: typeof t.identityUsers.$inferInsert): Promise<IdentityUser | null> {
      const [row] = await db.insert(t.identityUsers).values(user).onConflictDoNothing().returning();
      return row ?? null;
    },
    /** The confirmed account that holds this address (its email_key), if any. */
    async userByEmailKey(emailKey: string): Promise<IdentityUser | null> {
      const [user] = await db.select().from(t.identityUsers).where(eq(t.identityUsers.emailKey, emailKey));
      return user ?? null;
    },
    /**
     * Confirms an unconfirmed account and gives it its address (and, for an address on ADMIN_EMAILS,
     * its request to be an admin): 'address-taken' when another confirmed account holds the address
     * (the unique email_key decides, also between two confirmations at once), null when the account
     * is not (any longer) unconfirmed.
     */
    async confirmUser(id: string, emailKey: string, adminRequestedAt: Date | null): Promise<IdentityUser | 'address-taken' | null> {
      try {
        const [row] = await db
          .update(t.identityUsers)
          .set({ status: 'CONFIRMED', emailVerified: true, emailKey, adminRequestedAt })
          .where(and(eq(t.identityUsers.id, id), eq(t.identityUsers.status, 'UNCONFIRMED')))
          .returning();
        return row ?? null;
      } catch (err) {
        if (isAddressTaken(err)) return 'address-taken';
        throw err;
      }
    },
    async updateUser(
      id: string,
      patch: Partial<
        Pick<IdentityUser, 'email' | 'emailVerified' | 'passwordHash' | 'srpVerifier' | 'status' | 'enabled' | 'isAdmin' | 'emailKey' | 'adminRequestedAt'>
      >,
    ) {
      const [row] = await db.update(t.identityUsers).set(patch).where(eq(t.identityUsers.id, id)).returning();
      return row ?? null;
    },
    listUsers: () => db.select().from(t.identityUsers).orderBy(asc(t.identityUsers.usernameKey)),
    /**
     * The admin group's members, each with the start of its newest session still kept: its last
     * sign-in, when known (sessions are swept a day after they end, so a long-absent admin's is not).
     */
    async adminMembers() {
      const sessions = t.identitySessions;
      const rows = await db
        .select({ user: users, lastSignInAt: sql<Date | null>`max(${sessions.createdAt})`.mapWith(sessions.createdAt) })
        .from(users)
        .leftJoin(sessions, eq(sessions.userId, users.id))
        .where(eq(users.isAdmin, true))
        .groupBy(users.id)
        .orderBy(asc(users.usernameKey));
      return rows.map(({ user, lastSignInAt }) => ({ ...user, lastSignInAt: lastSignInAt ?? null }));
    },
    /**
     * Takes the user out of the admin group unless no other member who can sign in (enabled,
     * confirmed) would be left, in one statement: two admins removing each other at the same moment
     * leave one. On PostgreSQL every member's row, the user's own included, is locked first, in id
     * order, so the second removal waits for the first and then counts what it left (READ COMMITTED
     * re-reads a locked row that changed); SQLite runs one writer at a time. The row, or
     * null when nothing changed (not a member, or the last one).
     */
    async takeOutOfAdminGroupUnlessLast(userId: string) {
      const member = sql`${users.isAdmin} and ${users.enabled} and ${users.status} = 'CONFIRMED'`;
      const others =
        dialect === 'postgres'
          ? // Materialized, so the planner cannot push the count's conditions into the locking scan (it
            // would then lock only the others, and two removals would deadlock).
            sql`(with admins as materialized (select ${users.id} as id, ${users.enabled} as enabled, ${users.status} as status from ${users} where ${users.isAdmin} order by ${users.id} for update) select count(*) from admins where admins.id <> ${userId} and admins.enabled and admins.status = 'CONFIRMED')`
          : sql`(select count(*) from ${users} where ${member} and ${users.id} <> ${userId})`;
      const [row] = await db
        .update(users)
        .set({ isAdmin: false })
        .where(and(eq(users.id, userId), eq(users.isAdmin, true), sql`${others} > 0`))
        .returning();
      return row ?? null;
    },

    async putCode(code: { userId: string; purpose: CodePurpose; codeHash: string; expiresAt: Date }) {
      await db
        .insert(t.identityCodes)
        .values({ ...code, attempts: 0 })
        .onConflictDoUpdate({
          target: [t.identityCodes.userId, t.identityCodes.purpose],
          set: { codeHash: code.codeHash, expiresAt: code.expiresAt, attempts: 0, createdAt: new Date() },
        });
    },
    async code(userId: string, purpose: CodePurpose) {
      const [row] = await db
        .select()
        .from(t.identityCodes)
        .where(and(eq(t.identityCodes.userId, userId), eq(t.identityCodes.purpose, purpose)));
      return row ?? null;
    },
    /** Single use: true for the one caller that removed it. */
    async takeCode(userId: string, purpose: CodePurpose, codeHash: string): Promise<boolean> {
      const rows = await db
        .delete(t.identityCodes)
        .where(and(eq(t.identityCodes.userId, userId), eq(t.identityCodes.purpose, purpose), eq(t.identityCodes.codeHash, codeHash)))
        .returning({ userId: t.identityCodes.userId });
      return rows.length === 1;
    },
    /**
     * One try at the user's code, counted on the code itself before it is compared (a burst of parallel
     * tries counts every one): the code with its tries so far, or null when the user has none.
     */
    async countCodeTry(userId: string, purpose: CodePurpose) {
      const [row] = await db
        .update(t.identityCodes)
        .set({ attempts: sql`${t.identityCodes.attempts} + 1` })
        .where(and(eq(t.identityCodes.userId, userId), eq(t.identityCodes.purpose, purpose)))
        .returning();
      return row ?? null;
    },
    /** A try that was refused before the code was compared is not one: it is given back. */
    async giveBackCodeTry(userId: string, purpose: CodePurpose) {
      await db
        .update(t.identityCodes)
        .set({ attempts: sql`${t.identityCodes.attempts} - 1` })
        .where(and(eq(t.identityCodes.userId, userId), eq(t.identityCodes.purpose, purpose), gt(t.identityCodes.attempts, 0)))
        .returning();
    },
    async deleteCodesExpiredBefore(at: Date) {
      return db.delete(t.identityCodes).where(lt(t.identityCodes.expiresAt, at)).returning({ userId: t.identityCodes.userId });
    },
    async deleteCode(userId: string, purpose: CodePurpose) {
      await db
        .delete(t.identityCodes)
        .where(and(eq(t.identityCodes.userId, userId), eq(t.identityCodes.purpose, purpose)))
        .returning();
    },

    async insertSession(session: { id: string; userId: string; clientId: string; refreshHash: string; expiresAt: Date }) {
      await db.insert(t.identitySessions).values(session);
    },
    async session(id: string): Promise<IdentitySession | null> {
      const [row] = await db.select().from(t.identitySessions).where(eq(t.identitySessions.id, id));
      return row ?? null;
    },
    /** The session of an access token, with its user, in one query (every admin API call asks it). */
    async sessionWithUser(id: string) {
      const [row] = await db
        .select({ session: t.identitySessions, user: t.identityUsers })
        .from(t.identitySessions)
        .innerJoin(t.identityUsers, eq(t.identityUsers.id, t.identitySessions.userId))
        .where(eq(t.identitySessions.id, id));
      return row ?? null;
    },
    async revokeSession(id: string, at: Date) {
      await db
        .update(t.identitySessions)
        .set({ revokedAt: at })
        .where(and(eq(t.identitySessions.id, id), isNull(t.identitySessions.revokedAt)))
        .returning();
    },
    /** Every session of the user (but `keep`, when given) ends now, and every sign-in of theirs under way. */
    async revokeUserSessions(userId: string, at: Date, keep?: string) {
      await db.delete(t.identityChallenges).where(eq(t.identityChallenges.userId, userId)).returning({ id: t.identityChallenges.id });
      const conditions = [eq(t.identitySessions.userId, userId), isNull(t.identitySessions.revokedAt)];
      if (keep) conditions.push(ne(t.identitySessions.id, keep));
      await db
        .update(t.identitySessions)
        .set({ revokedAt: at })
        .where(and(...conditions))
        .returning();
    },
    async deleteSessionsBefore(at: Date) {
      return db
        .delete(t.identitySessions)
        .where(or(lt(t.identitySessions.expiresAt, at), lt(t.identitySessions.revokedAt, at)))
        .returning({ id: t.identitySessions.id });
    },

    /**
     * Counts one attempt under `key` before the secret is checked (so parallel guesses each count).
     * The count is forgotten after `quietMs` without attempts, or, given `{ windowMs }`, once the window
     * that began with its first attempt is over; never while a lock is in force. Returns the count and
     * the lock in force.
     */
    async countAttempt(key: string, now: Date, forget: number | { windowMs: number }) {
      const stale =
        typeof forget === 'number'
          ? lt(t.identityThrottles.updatedAt, new Date(now.getTime() - forget))
          : lt(t.identityThrottles.windowStartedAt, new Date(now.getTime() - forget.windowMs));
      await db
        .delete(t.identityThrottles)
        .where(and(eq(t.identityThrottles.key, key), stale, or(isNull(t.identityThrottles.lockedUntil), lt(t.identityThrottles.lockedUntil, now))))
        .returning();
      const [row] = await db
        .insert(t.identityThrottles)
        .values({ key, failures: 1, windowStartedAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: t.identityThrottles.key, set: { failures: sql`${t.identityThrottles.failures} + 1`, updatedAt: now } })
        .returning({ failures: t.identityThrottles.failures, lockedUntil: t.identityThrottles.lockedUntil });
      return row!;
    },
    /** Takes the one turn allowed while locked-out attempts are spaced: true for the caller that won it. */
    async claimTurn(key: string, now: Date, lockUntil: Date): Promise<boolean> {
      const rows = await db
        .update(t.identityThrottles)
        .set({ lockedUntil: lockUntil, updatedAt: now })
        .where(and(eq(t.identityThrottles.key, key), or(isNull(t.identityThrottles.lockedUntil), lt(t.identityThrottles.lockedUntil, now))))
        .returning({ key: t.identityThrottles.key });
      return rows.length === 1;
    },
    /**
     * Gives back the attempt a success used (the count is of failures, reserved before the check).
     * Not an attempt itself: the time of the last one stays (the column's own default would be the
     * wall clock's, not the service's).
     */
    async uncountAttempt(key: string) {
      await db
        .update(t.identityThrottles)
        .set({ failures: sql`${t.identityThrottles.failures} - 1`, updatedAt: sql`${t.identityThrottles.updatedAt}` })
        .where(and(eq(t.identityThrottles.key, key), gt(t.identityThrottles.failures, 0)))
        .returning();
    },
    /**
     * Counters with no attempt since `before` and no lock in force: forgotten anyway by countAttempt.
     * Not the stand-in counts of codes (`tries:`), which go with the codes (deleteStandInsBefore).
     */
    async deleteQuietThrottles(before: Date, now: Date) {
      return db
        .delete(t.identityThrottles)
        .where(
          and(
            lt(t.identityThrottles.updatedAt, before),
            or(isNull(t.identityThrottles.lockedUntil), lt(t.identityThrottles.lockedUntil, now)),
            notLike(t.identityThrottles.key, 'tries:%'),
          ),
        )
        .returning({ key: t.identityThrottles.key });
    },
    /**
     * Tries at a code that does not exist (an unknown username, or a user with no code), counted as a
     * code counts them: kept until `keepUntil` (the expiry such a code would have), whatever the pauses.
     */
    async countStandInTry(key: string, now: Date, keepUntil: Date) {
      const [row] = await db
        .insert(t.identityThrottles)
        .values({ key, failures: 1, lockedUntil: keepUntil, windowStartedAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: t.identityThrottles.key, set: { failures: sql`${t.identityThrottles.failures} + 1`, updatedAt: now } })
        .returning({ failures: t.identityThrottles.failures });
      return row!.failures;
    },
    /** What a code send does to the stand-in count: back to no tries, kept until the new code's expiry. */
    async resetStandInTries(key: string, now: Date, keepUntil: Date) {
      await db
        .insert(t.identityThrottles)
        .values({ key, failures: 0, lockedUntil: keepUntil, windowStartedAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: t.identityThrottles.key, set: { failures: 0, lockedUntil: keepUntil, windowStartedAt: now, updatedAt: now } });
    },
    /** Stand-in counts (keys starting with `prefix`) kept until before `at`: gone when a code would be. */
    async deleteStandInsBefore(prefix: string, at: Date) {
      return db
        .delete(t.identityThrottles)
        .where(and(like(t.identityThrottles.key, `${prefix}%`), lt(t.identityThrottles.lockedUntil, at)))
        .returning({ key: t.identityThrottles.key });
    },
    async clearAttempts(key: string) {
      await db.delete(t.identityThrottles).where(eq(t.identityThrottles.key, key)).returning();
    },
  };
}

export type IdentityRepository = ReturnType<typeof identityRepository>;
