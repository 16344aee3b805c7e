/** Which components the site shows (SPEC §3 component_visibility_settings). */
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { databaseRefusal } from '../../db/driver-errors.ts';

export function componentVisibilityRepository({ db, t }: Database) {
  const table = t.componentVisibilitySettings;
  return {
    /** What the islands and pages need: each component's key and whether it shows. */
    listPublic: () => db.select({ componentKey: table.componentKey, isVisible: table.isVisible }).from(table).orderBy(table.componentKey),
    listAll: () => db.select().from(table).orderBy(table.createdAt, table.componentKey),
    /** null when there is no setting for the component. */
    async setVisible(componentKey: string, isVisible: boolean) {
      const [row] = await db.update(table).set({ isVisible }).where(eq(table.componentKey, componentKey)).returning();
      return row ?? null;
    },
    /** null when a setting for the component exists already (the unique key refused it). */
    async create(values: typeof table.$inferInsert) {
      try {
        const [row] = await db.insert(table).values(values).returning();
        return row!;
      } catch (err) {
        if (databaseRefusal(err)?.kind === 'unique') return null;
        throw err;
      }
    },
  };
}
