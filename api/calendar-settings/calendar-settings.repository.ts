/** The calendar integrations' rows: listed, created inactive, one activated at a time, and re-sealed by secrets:rotate. */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { lostRace, resealConfig, resealField, sameValue, unchangedColumn } from '../crypto/reseal.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { configIsCurrent, fieldIsCurrent, type SecretOwner } from '../crypto/sealed-config.ts';
import { configKind } from '../crypto/secret-masking.ts';

export function calendarSettingsRepository({ db, t, dialect }: Database) {
  const table = t.calendarSettings;
  type Values = typeof table.$inferInsert;
  return {
    /** The active integration's provider, for the public pages; null when none is active. */
    async activeProvider() {
      const [row] = await db.select({ provider: table.provider, isActive: table.isActive }).from(table).where(eq(table.isActive, true)).limit(1);
      return row ?? null;
    },
    listNewestFirst: () => db.select().from(table).orderBy(desc(table.createdAt)),
    async findById(id: string) {
      const [row] = await db.select().from(table).where(eq(table.id, id));
      return row ?? null;
    },
    async create(values: Values & { id: string }) {
      const [row] = await db.insert(table).values(values).returning();
      return row!;
    },
    async changeSettings(id: string, values: { config: string; webhookUrl?: string; apiKey?: string | null }) {
      const [row] = await db.update(table).set(values).where(eq(table.id, id)).returning();
      return row ?? null;
    },
    /**
     * The config replaced only if it is still `expected` (the stored text): a connection's refresh
     * token written by a callback or a rotation does not overwrite a change made meanwhile. False when it was not.
     */
    async replaceConfig(id: string, expected: string, config: string) {
      const rows = await db
        .update(table)
        .set({ config })
        .where(and(eq(table.id, id), eq(table.config, expected)))
        .returning({ id: table.id });
      return rows.length > 0;
    },
    async rename(id: string, name: string | null) {
      const [row] = await db.update(table).set({ name }).where(eq(table.id, id)).returning();
      return row ?? null;
    },
    /** No integration active afterwards, if this one was; null when there is no such row. */
    async deactivate(id: string) {
      const [row] = await db.update(table).set({ isActive: false }).where(eq(table.id, id)).returning();
      return row ?? null;
    },
    async remove(id: string) {
      const rows = await db.delete(table).where(eq(table.id, id)).returning({ id: table.id });
      return rows.length > 0;
    },
    /**
     * Activating one integration deactivates the others, in one statement over every row, so two
     * concurrent activations still leave exactly one active (a WHERE on the flag would not: under
     * READ COMMITTED a row activated meanwhile is not re-read). On PostgreSQL the rows are first
     * locked in id order: two full-table updates otherwise lock them in heap order, which differs
     * between snapshots once rows have new versions, and deadlock. SQLite runs one writer at a
     * time. Only rows whose flag changes get a new updatedAt. null when there is no such row.
     */
    async activate(id: string) {
      const [exists] = await db.select({ id: table.id }).from(table).where(eq(table.id, id));
      if (!exists) return null;
      const becomesActive = sql`(${table.id} = ${id})`;
      await db
        .update(table)
        .set({
          isActive: becomesActive as unknown as boolean,
          updatedAt:
            sql`case when ${table.isActive} = ${becomesActive} then ${table.updatedAt} else ${sql.param(new Date(), table.updatedAt)} end` as unknown as Date,
        })
        .where(dialect === 'postgres' ? sql`${table.id} in (select ${table.id} from ${table} order by ${table.id} for update)` : undefined);
      const [row] = await db.select().from(table).where(eq(table.id, id));
      return row ?? null;
    },
  };
}

/** This table's part of `npm run secrets:rotate` (api/crypto/reseal.ts): the rows it rewrote. */
export async function resealCalendarSettings({ db, t }: Database, box: SecretBox): Promise<number> {
  const table = t.calendarSettings;
  let count = 0;
  for (const row of await db.select().from(table)) {
    const owner: SecretOwner = { table: 'calendar-settings', id: row.id };
    const kind = configKind('calendar', row.provider);
    if (configIsCurrent(box, row.config, kind) && fieldIsCurrent(box, row.apiKey)) continue;
    const config = resealConfig(box, row.config, kind, owner)!;
    const apiKey = resealField(box, row.apiKey, owner, 'apiKey');
    const written = await db
      .update(table)
      .set({ config, apiKey, updatedAt: unchangedColumn(table.updatedAt) })
      .where(and(eq(table.id, row.id), eq(table.config, row.config), sameValue(table.apiKey, row.apiKey)))
      .returning({ id: table.id });
    if (written.length) count++;
    else {
      const [now] = await db.select().from(table).where(eq(table.id, row.id));
      if (now && !(configIsCurrent(box, now.config, kind) && fieldIsCurrent(box, now.apiKey))) lostRace(owner);
    }
  }
  return count;
}
