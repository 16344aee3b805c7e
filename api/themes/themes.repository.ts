import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

export type ThemeValues = {
  name: string;
  displayName: string;
  description: string;
  cssVariables: string;
  isActive: boolean;
  isDefault: boolean;
};

export function themesRepository({ db, t, dialect }: Database) {
  const table = t.themeSettings;
  // PostgreSQL only: SQLite runs one writing statement at a time, so it needs (and has) no row locks.
  const lockTarget = dialect === 'postgres' ? sql` for key share` : sql``;
  return {
    listAll: () => db.select().from(table).orderBy(desc(table.isDefault), table.displayName),
    async findById(id: string) {
      const [row] = await db.select().from(table).where(eq(table.id, id));
      return row ?? null;
    },
    async findActive() {
      const [active] = await db.select().from(table).where(eq(table.isActive, true)).limit(1);
      if (active) return active;
      const [fallback] = await db.select().from(table).where(eq(table.isDefault, true)).limit(1);
      return fallback ?? null;
    },
    /** The theme after the change; null when it is gone. */
    async update(id: string, values: Pick<ThemeValues, 'displayName' | 'cssVariables'> & { description?: string }) {
      const [row] = await db.update(table).set(values).where(eq(table.id, id)).returning();
      return row ?? null;
    },
    async create(values: ThemeValues) {
      const [row] = await db.insert(table).values(values).returning();
      return row!;
    },
    /**
     * One statement, so there is never a moment with two active themes (or none), and nothing at all
     * is changed when the theme is gone. On PostgreSQL the target row is key-share locked first: a
     * concurrent delete of it either finishes before (nothing changes, false) or waits and then finds
     * it active. Concurrent activations still serialise on the row updates (no key lock taken).
     */
    async activate(id: string) {
      const rows = await db
        .update(table)
        .set({ isActive: sql`(${table.id} = ${id})` as unknown as boolean })
        .where(sql`exists (select 1 from ${table} as target where target.id = ${id}${lockTarget})`)
        .returning({ id: table.id });
      return rows.some((r) => r.id === id);
    },
    async makeDefault(id: string) {
      await db.update(table).set({ isDefault: sql`(${table.id} = ${id})` as unknown as boolean });
    },
    /** Deletes only an inactive, non-default theme (SPEC §4), checked in the same statement. */
    async removeDeletable(id: string) {
      const rows = await db
        .delete(table)
        .where(and(eq(table.id, id), eq(table.isActive, false), eq(table.isDefault, false)))
        .returning({ id: table.id });
      return rows.length > 0;
    },
  };
}
