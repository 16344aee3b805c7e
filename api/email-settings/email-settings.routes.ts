import { desc, eq, notInArray } from 'drizzle-orm';
import { emailSettingInput } from '../../src/shared/schemas/integrations.ts';
import type { Deps } from '../deps.ts';
import { adminRouter, router, type FeatureRoutes } from '../http/routes.ts';
import { jsonBody } from '../http/validate.ts';
import { maskConfig } from '../integrations/secrets.ts';

export function emailSettingsRoutes({ database: { db, t } }: Deps): FeatureRoutes {
  const table = t.emailSettings;
  return {
    public: router().get('/email-settings/active', async (c) => {
      const [row] = await db
        .select({ provider: table.provider, isActive: table.isActive })
        .from(table)
        .where(eq(table.isActive, true))
        .orderBy(desc(table.createdAt), desc(table.id))
        .limit(1);
      return c.json(row ?? null);
    }),
    admin: adminRouter().post('/email-settings', jsonBody(emailSettingInput), async (c) => {
      // SPEC §4: saved active at once; a new save replaces the existing configuration. The new row
      // is written before the old ones go, so there is never a moment with no configuration. The
      // delete keeps the newest row rather than "this one": two saves racing would otherwise each
      // delete the other's row and leave none. One statement, so it needs no transaction; the newest
      // row (createdAt, then id) is never deleted by anyone, and the last delete to run sees every row.
      // createdAt is the API host's clock: API containers must keep their clocks in sync (NTP), or a
      // save on a host running behind could lose to an earlier save elsewhere.
      const [row] = await db.insert(table).values(c.req.valid('json')).returning();
      const newest = db.select({ id: table.id }).from(table).orderBy(desc(table.createdAt), desc(table.id)).limit(1);
      await db.delete(table).where(notInArray(table.id, newest));
      return c.json({ ...row!, config: maskConfig(row!.config) }, 201);
    }),
  };
}
