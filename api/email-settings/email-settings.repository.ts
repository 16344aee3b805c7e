/** The email setting's rows: at most one kept (the newest, active), read at send time, re-sealed by secrets:rotate. */
import { and, desc, eq, notInArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { lostRace, resealConfig, unchangedColumn } from '../crypto/reseal.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { configIsCurrent, type SecretOwner } from '../crypto/sealed-config.ts';
import { configKind } from '../crypto/secret-masking.ts';

export function emailSettingsRepository({ db, t }: Database) {
  const table = t.emailSettings;
  type Values = typeof table.$inferInsert;
  const newestActive = () => db.select().from(table).where(eq(table.isActive, true)).orderBy(desc(table.createdAt), desc(table.id)).limit(1);
  return {
    /** The active provider, for the public pages; null when mail goes to the development outbox. */
    async activeProvider() {
      const [row] = await db
        .select({ provider: table.provider, isActive: table.isActive })
        .from(table)
        .where(eq(table.isActive, true))
        .orderBy(desc(table.createdAt), desc(table.id))
        .limit(1);
      return row ?? null;
    },
    /** The setting mail is sent with (its config as stored, sealed); null when none. */
    async active() {
      const [row] = await newestActive();
      return row ?? null;
    },
    /** Removes every setting (mail is held in the development outbox from now on); how many went. */
    async removeAll(): Promise<number> {
      return (await db.delete(table).returning({ id: table.id })).length;
    },
    /**
     * Stores the new setting, then deletes every row but the newest. The new row is written before
     * the old ones go, so there is never a moment with no configuration. The delete keeps the newest
     * row rather than "this one": two saves racing would otherwise each delete the other's row and
     * leave none. One statement, so it needs no transaction; the newest row (createdAt, then id) is
     * never deleted by anyone, and the last delete to run sees every row.
     */
    async replace(values: Values & { id: string }) {
      const [row] = await db.insert(table).values(values).returning();
      const newest = db.select({ id: table.id }).from(table).orderBy(desc(table.createdAt), desc(table.id)).limit(1);
      await db.delete(table).where(notInArray(table.id, newest));
      return row!;
    },
  };
}

/** This table's part of `npm run secrets:rotate` (api/crypto/reseal.ts): the rows it rewrote. */
export async function resealEmailSettings({ db, t }: Database, box: SecretBox): Promise<number> {
  const table = t.emailSettings;
  let count = 0;
  for (const row of await db.select().from(table)) {
    const owner: SecretOwner = { table: 'email-settings', id: row.id };
    const kind = configKind('email', row.provider);
    if (configIsCurrent(box, row.config, kind)) continue;
    const written = await db
      .update(table)
      .set({ config: resealConfig(box, row.config, kind, owner)!, updatedAt: unchangedColumn(table.updatedAt) })
      .where(and(eq(table.id, row.id), eq(table.config, row.config)))
      .returning({ id: table.id });
    if (written.length) count++;
    else {
      const [now] = await db.select().from(table).where(eq(table.id, row.id));
      if (now && !configIsCurrent(box, now.config, kind)) lostRace(owner);
    }
  }
  return count;
}
