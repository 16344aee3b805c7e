import { desc, eq, sql } from 'drizzle-orm';
import { idParam } from '../../src/shared/schemas/fields.ts';
import { calendarSettingInput } from '../../src/shared/schemas/integrations.ts';
import type { Deps } from '../deps.ts';
import { notFound } from '../http/errors.ts';
import { adminRouter, router, type FeatureRoutes } from '../http/routes.ts';
import { jsonBody, pathParams } from '../http/validate.ts';
import { maskConfig, maskSecret } from '../integrations/secrets.ts';

export function calendarSettingsRoutes({ database: { db, t } }: Deps): FeatureRoutes {
  const table = t.calendarSettings;
  type Row = typeof table.$inferSelect;
  const safe = (row: Row) => ({
    id: row.id,
    provider: row.provider,
    isActive: row.isActive,
    config: maskConfig(row.config),
    webhookUrl: row.webhookUrl,
    apiKey: maskSecret(row.apiKey),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  });
  return {
    public: router().get('/calendar-settings/active', async (c) => {
      const [row] = await db.select({ provider: table.provider, isActive: table.isActive }).from(table).where(eq(table.isActive, true)).limit(1);
      return c.json(row ?? null);
    }),
    admin: adminRouter()
      .get('/calendar-settings', async (c) => c.json((await db.select().from(table).orderBy(desc(table.createdAt))).map(safe)))
      .post('/calendar-settings', jsonBody(calendarSettingInput), async (c) => {
        const [row] = await db.insert(table).values(c.req.valid('json')).returning();
        return c.json(safe(row!), 201);
      })
      // Activating one integration deactivates the others, in one statement.
      .put('/calendar-settings/:id/activate', pathParams(idParam), async (c) => {
        const { id } = c.req.valid('param');
        const [exists] = await db.select({ id: table.id }).from(table).where(eq(table.id, id));
        if (!exists) throw notFound('Calendar integration not found');
        await db.update(table).set({ isActive: sql`(${table.id} = ${id})` as unknown as boolean });
        const [row] = await db.select().from(table).where(eq(table.id, id));
        return c.json(safe(row!));
      }),
  };
}
