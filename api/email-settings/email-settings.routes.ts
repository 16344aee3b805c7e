import { eq, ne } from 'drizzle-orm';
import { emailSettingInput } from '../../src/shared/schemas/integrations.ts';
import type { Deps } from '../deps.ts';
import { adminRouter, router, type FeatureRoutes } from '../http/routes.ts';
import { jsonBody } from '../http/validate.ts';
import { maskConfig } from '../integrations/secrets.ts';

export function emailSettingsRoutes({ database: { db, t } }: Deps): FeatureRoutes {
  const table = t.emailSettings;
  return {
    public: router().get('/email-settings/active', async (c) => {
      const [row] = await db.select({ provider: table.provider, isActive: table.isActive }).from(table).where(eq(table.isActive, true)).limit(1);
      return c.json(row ?? null);
    }),
    admin: adminRouter().post('/email-settings', jsonBody(emailSettingInput), async (c) => {
      // SPEC §4: saved active at once; a new save replaces the existing configuration. The new row
      // is written before the old ones go, so there is never a moment with no configuration.
      const [row] = await db.insert(table).values(c.req.valid('json')).returning();
      await db.delete(table).where(ne(table.id, row!.id));
      return c.json({ ...row!, config: maskConfig(row!.config) }, 201);
    }),
  };
}
