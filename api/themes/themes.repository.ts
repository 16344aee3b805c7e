import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

export type ThemeValues = {
  name: string;
  displayName: string;
  description: string;
  cssVariables: string;
  isActive: boolean;
  isDefault: boolean;
};

export function themesRepository({ db, t }: Database) {
  const table = t.themeSettings;
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
    async create(values: ThemeValues) {
      const [row] = await db.insert(table).values(values).returning();
      return row!;
    },
    /** One statement, so there is never a moment with two active themes (or none). */
    async activate(id: string) {
      await db.update(table).set({ isActive: sql`(${table.id} = ${id})` as unknown as boolean });
    },
    async makeDefault(id: string) {
      await db.update(table).set({ isDefault: sql`(${table.id} = ${id})` as unknown as boolean });
    },
    async remove(id: string) {
      const rows = await db.delete(table).where(eq(table.id, id)).returning({ id: table.id });
      return rows.length > 0;
    },
  };
}
