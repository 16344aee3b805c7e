import { randomUUID } from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import { idParam } from '../../src/shared/schemas/fields.ts';
import { calendarSettingInput } from '../../src/shared/schemas/integrations.ts';
import type { Deps } from '../deps.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { adminRouter, router } from '../http/routes.ts';
import { jsonBody, pathParams } from '../http/validate.ts';
import { checkOutboundUrl, OutboundError } from '../integrations/safe-fetch.ts';
import { openConfig, openField, sealConfig, sealField, writeBackErrors, type SecretOwner } from '../integrations/sealed-config.ts';
import { configKind, maskConfig, maskSecret, maskUrl } from '../integrations/secrets.ts';

export function calendarSettingsRoutes({ database: { db, t, dialect }, integrations, secrets }: Deps) {
  const table = t.calendarSettings;
  type Row = typeof table.$inferSelect;
  const owner = (id: string): SecretOwner => ({ table: 'calendar-settings', id });
  // Opened only to show the last 4 characters; a value that does not open shows as the mask alone.
  const safe = (row: Row) => ({
    id: row.id,
    provider: row.provider,
    isActive: row.isActive,
    config: maskConfig(openConfig(secrets, row.config, owner(row.id), { lenient: true }), configKind('calendar', row.provider)),
    // A webhook URL may carry a token in its query or user info.
    webhookUrl: maskUrl(row.webhookUrl),
    apiKey: maskSecret(openField(secrets, row.apiKey, owner(row.id), 'apiKey', { lenient: true })),
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
        const input = c.req.valid('json');
        // Issue 7: the server posts a custom integration's events to its webhook URL, so an address
        // the server may not reach (loopback, private network, in production) is refused now rather
        // than failing every delivery later.
        if (input.provider === 'custom' && input.webhookUrl) {
          try {
            checkOutboundUrl(input.webhookUrl, integrations.allowPrivateNetworks);
          } catch (err) {
            if (!(err instanceof OutboundError)) throw err;
            throw badRequest('Please check the highlighted fields.', {
              webhookUrl: 'Webhook URL must be a public internet address: the server cannot post to private or loopback networks',
            });
          }
        }
        // Nothing shown masked may come back as the secret (api/integrations/sealed-config.ts).
        const writeBack = writeBackErrors({
          config: ['Configuration', input.config],
          webhookUrl: ['Webhook URL', input.webhookUrl],
          apiKey: ['API key', input.apiKey],
        });
        if (writeBack) throw badRequest('Please check the highlighted fields.', writeBack);
        // The id is chosen here: the secrets are sealed for this row before it is written.
        const id = randomUUID();
        const [row] = await db
          .insert(table)
          .values({
            ...input,
            id,
            config: sealConfig(secrets, input.config, configKind('calendar', input.provider), owner(id)),
            apiKey: sealField(secrets, input.apiKey, owner(id), 'apiKey'),
          })
          .returning();
        return c.json(safe(row!), 201);
      })
      // Activating one integration deactivates the others, in one statement over every row, so two
      // concurrent activations still leave exactly one active (a WHERE on the flag would not: under
      // READ COMMITTED a row activated meanwhile is not re-read). On PostgreSQL the rows are first
      // locked in id order: two full-table updates otherwise lock them in heap order, which differs
      // between snapshots once rows have new versions, and deadlock. SQLite runs one writer at a
      // time. Only rows whose flag changes get a new updatedAt.
      .put('/calendar-settings/:id/activate', pathParams(idParam), async (c) => {
        const { id } = c.req.valid('param');
        const [exists] = await db.select({ id: table.id }).from(table).where(eq(table.id, id));
        if (!exists) throw notFound('Calendar integration not found');
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
        return c.json(safe(row!));
      }),
  };
}
