/**
 * The queries of sign-in's second steps (docs/decisions/040): challenges under way (identity_challenges)
 * and the user's SRP verifier and TOTP columns. Every value here is sealed by the caller; these
 * queries only keep them, and make the single-use and used-once rules atomic.
 */
import { and, eq, gt, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

export type IdentityChallenge = typeof import('../../db/schema/pg.ts').identityChallenges.$inferSelect;

export function signInRepository({ db, t }: Database) {
  const challenges = t.identityChallenges;
  const users = t.identityUsers;
  return {
    async userById(id: string) {
      const [user] = await db.select().from(users).where(eq(users.id, id));
      return user ?? null;
    },
    /** Some user of the pool, or null when there is none (what a made-up challenge is filed under). */
    async anyUserId(): Promise<string | null> {
      const [row] = await db.select({ id: users.id }).from(users).limit(1);
      return row?.id ?? null;
    },
    async insertChallenge(row: { id: string; userId: string; name: string; state: string; expiresAt: Date }) {
      await db.insert(challenges).values({ ...row, attempts: 0 });
    },
    /**
     * Counts one attempt at a live challenge, in one statement (parallel answers each count): the row
     * when it is `name`, unexpired and had fewer than `maxAttempts`; null otherwise.
     */
    async claimChallenge(id: string, name: string, now: Date, maxAttempts: number): Promise<IdentityChallenge | null> {
      const [row] = await db
        .update(challenges)
        .set({ attempts: sql`${challenges.attempts} + 1` })
        .where(and(eq(challenges.id, id), eq(challenges.name, name), gt(challenges.expiresAt, now), lt(challenges.attempts, maxAttempts)))
        .returning();
      return row ?? null;
    },
    /** Single use: true for the one caller that removed it. */
    async takeChallenge(id: string): Promise<boolean> {
      const rows = await db.delete(challenges).where(eq(challenges.id, id)).returning({ id: challenges.id });
      return rows.length === 1;
    },
    async deleteChallengesExpiredBy(now: Date) {
      return db.delete(challenges).where(lte(challenges.expiresAt, now)).returning({ id: challenges.id });
    },
    allChallenges: () => db.select().from(challenges),
    async resealChallenge(id: string, state: string) {
      await db.update(challenges).set({ state }).where(eq(challenges.id, id)).returning({ id: challenges.id });
    },

    async setSrpVerifier(userId: string, sealed: string) {
      await db.update(users).set({ srpVerifier: sealed }).where(eq(users.id, userId)).returning({ id: users.id });
    },
    async setPendingTotpSecret(userId: string, sealed: string) {
      await db.update(users).set({ mfaPendingSecret: sealed }).where(eq(users.id, userId)).returning({ id: users.id });
    },
    /**
     * The pending secret becomes the user's TOTP secret, the step its code was for used, and (with
     * `enable`) TOTP the user's MFA, if the pending secret is still `pending` (a newer
     * AssociateSoftwareToken replaced it otherwise). True when it did.
     */
    async confirmPendingTotpSecret(userId: string, pending: string, step: number, enable: boolean): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ mfaSecret: pending, mfaPendingSecret: null, mfaLastStep: step, ...(enable ? { mfaEnabled: true } : {}) })
        .where(and(eq(users.id, userId), eq(users.mfaPendingSecret, pending)))
        .returning({ id: users.id });
      return rows.length === 1;
    },
    /** Each TOTP step once: true for the one caller that moved the user's last step up to `step`. */
    async takeTotpStep(userId: string, step: number): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ mfaLastStep: step })
        .where(and(eq(users.id, userId), isNotNull(users.mfaSecret), or(isNull(users.mfaLastStep), lt(users.mfaLastStep, step))))
        .returning({ id: users.id });
      return rows.length === 1;
    },
    async setMfaEnabled(userId: string, enabled: boolean) {
      await db.update(users).set({ mfaEnabled: enabled }).where(eq(users.id, userId)).returning({ id: users.id });
    },
    /** The recovery: no TOTP secret, pending or verified, and no MFA preference. */
    async clearMfa(userId: string) {
      await db
        .update(users)
        .set({ mfaSecret: null, mfaPendingSecret: null, mfaEnabled: false, mfaLastStep: null })
        .where(eq(users.id, userId))
        .returning({ id: users.id });
    },
    /** Users holding a sealed SRP verifier or TOTP secret, for `npm run secrets:rotate`. */
    usersWithSealedSecrets: () =>
      db
        .select({ id: users.id, srpVerifier: users.srpVerifier, mfaSecret: users.mfaSecret, mfaPendingSecret: users.mfaPendingSecret })
        .from(users)
        .where(or(isNotNull(users.srpVerifier), isNotNull(users.mfaSecret), isNotNull(users.mfaPendingSecret))),
    /** Re-sealed values, each written only if the row still holds the value it replaces. */
    async resealUserSecret(userId: string, column: 'srpVerifier' | 'mfaSecret' | 'mfaPendingSecret', from: string, to: string) {
      await db
        .update(users)
        .set({ [column]: to })
        .where(and(eq(users.id, userId), eq(users[column], from)))
        .returning({ id: users.id });
    },
  };
}

export type SignInRepository = ReturnType<typeof signInRepository>;
