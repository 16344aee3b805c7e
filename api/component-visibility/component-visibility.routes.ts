import { eq } from 'drizzle-orm';
import { databaseRefusal } from '../../db/driver-errors.ts';
import { componentKeyParam, componentVisibilityInput, componentVisibilityUpdate } from '../../src/shared/schemas/component-visibility.ts';
import type { Deps } from '../deps.ts';
import { conflict, notFound } from '../http/errors.ts';
import { adminRouter, router } from '../http/routes.ts';
import { jsonBody, pathParams } from '../http/validate.ts';
import { publicCache } from '../http/public-cache.ts';

export function componentVisibilityRoutes({ database: { db, t }, events }: Deps) {
  const table = t.componentVisibilitySettings;
  const changed = (key: string) => events.changed({ topic: 'component-visibility', keys: [key] });
  return {
    // Islands and pages need to know what is hidden (ARCHITECTURE: visibility known to the islands).
    public: router().get(
      '/component-visibility',
      publicCache({ events }, () => ['components']),
      async (c) => c.json(await db.select({ componentKey: table.componentKey, isVisible: table.isVisible }).from(table).orderBy(table.componentKey)),
    ),
    admin: adminRouter()
      .get('/component-visibility', async (c) => c.json(await db.select().from(table).orderBy(table.createdAt, table.componentKey)))
      .put('/component-visibility/:componentKey', pathParams(componentKeyParam), jsonBody(componentVisibilityUpdate), async (c) => {
        const { componentKey } = c.req.valid('param');
        const [row] = await db
          .update(table)
          .set({ isVisible: c.req.valid('json').isVisible })
          .where(eq(table.componentKey, componentKey))
          .returning();
        if (!row) throw notFound('Component setting not found');
        changed(componentKey);
        return c.json(row);
      })
      .post('/component-visibility', jsonBody(componentVisibilityInput), async (c) => {
        const input = c.req.valid('json');
        try {
          const [row] = await db.insert(table).values(input).returning();
          changed(input.componentKey);
          return c.json(row, 201);
        } catch (err) {
          if (databaseRefusal(err)?.kind === 'unique')
            throw conflict('A setting for this component already exists.', { componentKey: 'A setting for this component already exists' });
          throw err;
        }
      }),
  };
}
