/**
 * Purges the CDN did not confirm (db/schema/model.ts cdnPurges), shared by every container: recorded
 * when a purge gives up, claimed with a lease so one container sends each, deleted once confirmed.
 */
import { and, asc, count, eq, isNull, lte, min, or } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

export function cdnPurgesRepository({ db, t }: Database) {
  const purges = t.cdnPurges;
  return {
    async record(purge: { keys: string[]; paths: string[]; error: string; at: Date; nextAttemptAt: Date }) {
      await db.insert(purges).values({
        createdAt: purge.at,
        keys: JSON.stringify(purge.keys),
        paths: JSON.stringify(purge.paths),
        attempts: 1,
        lastError: purge.error,
        nextAttemptAt: purge.nextAttemptAt,
      });
    },
    /** Up to `limit` due purges, each leased to the caller until `leaseUntil` (no other container takes it meanwhile). */
    async claimDue(now: Date, leaseUntil: Date, limit: number) {
      const due = await db
        .select({ id: purges.id })
        .from(purges)
        .where(and(lte(purges.nextAttemptAt, now), or(isNull(purges.leaseExpiresAt), lte(purges.leaseExpiresAt, now))))
        .orderBy(asc(purges.nextAttemptAt))
        .limit(limit);
      const claimed = [];
      for (const { id } of due) {
        const [row] = await db
          .update(purges)
          .set({ leaseExpiresAt: leaseUntil })
          .where(and(eq(purges.id, id), or(isNull(purges.leaseExpiresAt), lte(purges.leaseExpiresAt, now))))
          .returning();
        if (row) claimed.push({ id: row.id, attempts: row.attempts, keys: JSON.parse(row.keys) as string[], paths: JSON.parse(row.paths) as string[] });
      }
      return claimed;
    },
    async done(id: string) {
      await db.delete(purges).where(eq(purges.id, id)).returning();
    },
    async failed(id: string, error: string, attempts: number, nextAttemptAt: Date) {
      await db.update(purges).set({ attempts, lastError: error, nextAttemptAt, leaseExpiresAt: null }).where(eq(purges.id, id)).returning();
    },
    /** What the dashboard says: how many purges wait, since when, and the CDN's last answer. */
    async summary() {
      const [totals] = await db.select({ pending: count(), oldestAt: min(purges.createdAt) }).from(purges);
      const [latest] = await db.select({ lastError: purges.lastError }).from(purges).orderBy(asc(purges.nextAttemptAt)).limit(1);
      const oldest = totals?.oldestAt ?? null;
      return { pending: Number(totals?.pending ?? 0), oldestAt: oldest === null ? null : new Date(oldest), lastError: latest?.lastError ?? null };
    },
  };
}

export type CdnPurgesRepository = ReturnType<typeof cdnPurgesRepository>;
