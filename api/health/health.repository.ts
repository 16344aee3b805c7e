/** Readiness's write probe (db/schema/model.ts healthProbes): one row per process, rewritten. */
import { lt } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

export function healthRepository({ db, t }: Database) {
  return {
    /** A real write: it fails where a booking would (a full disk, a read-only database). */
    async probeWrite(origin: string, at: Date) {
      await db
        .insert(t.healthProbes)
        .values({ origin, checkedAt: at })
        .onConflictDoUpdate({ target: t.healthProbes.origin, set: { checkedAt: at } });
    },
    /** Rows of processes gone for a day (each start writes its own). */
    async forgetBefore(before: Date) {
      await db.delete(t.healthProbes).where(lt(t.healthProbes.checkedAt, before)).returning();
    },
  };
}
