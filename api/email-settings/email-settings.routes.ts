import { randomUUID } from 'node:crypto';
import { desc, eq, notInArray } from 'drizzle-orm';
import { emailSettingInput } from '../../src/shared/schemas/integrations.ts';
import type { Deps } from '../deps.ts';
import { badRequest } from '../http/errors.ts';
import { adminRouter, router } from '../http/routes.ts';
import { jsonBody } from '../http/validate.ts';
import { openConfig, sealConfig, writeBackErrors, type SecretOwner } from '../integrations/sealed-config.ts';
import { configKind, maskConfig } from '../integrations/secrets.ts';

/** GET /api/admin/email-outbox: the newest development-outbox messages, at most this many. */
export const OUTBOX_LIST_LIMIT = 50;

export function emailSettingsRoutes({ database: { db, t }, outbox, secrets }: Deps) {
  const table = t.emailSettings;
  const owner = (id: string): SecretOwner => ({ table: 'email-settings', id });
  // Opened only to show the last 4 characters; a value that does not open shows as the mask alone.
  const masked = (row: { id: string; provider: string; config: string }) =>
    maskConfig(openConfig(secrets, row.config, owner(row.id), { lenient: true }), configKind('email', row.provider));
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
    admin: adminRouter()
      // Not in SPEC §7: the Email tab shows which provider and sender are configured. The config is
      // masked (the SMTP password, the SendGrid key); null when mail goes to the development outbox.
      .get('/email-settings', async (c) => {
        const [row] = await db.select().from(table).where(eq(table.isActive, true)).orderBy(desc(table.createdAt), desc(table.id)).limit(1);
        return c.json(
          row ? { id: row.id, provider: row.provider, isActive: row.isActive, config: masked(row), createdAt: row.createdAt, updatedAt: row.updatedAt } : null,
        );
      })
      // Issue 7: with no email setting, mail is kept in the development outbox; the admin reads it
      // here, newest first (the attachments by name and type, not their content).
      .get('/email-outbox', (c) =>
        c.json(
          outbox.recent(OUTBOX_LIST_LIMIT).map((m) => ({
            id: m.id,
            to: m.to,
            subject: m.subject,
            text: m.text,
            createdAt: m.createdAt,
            attachments: (m.attachments ?? []).map((a) => ({ filename: a.filename, contentType: a.contentType })),
          })),
        ),
      )
      .post('/email-settings', jsonBody(emailSettingInput), async (c) => {
        // SPEC §4: saved active at once; a new save replaces the existing configuration. The new row
        // is written before the old ones go, so there is never a moment with no configuration. The
        // delete keeps the newest row rather than "this one": two saves racing would otherwise each
        // delete the other's row and leave none. One statement, so it needs no transaction; the newest
        // row (createdAt, then id) is never deleted by anyone, and the last delete to run sees every row.
        // createdAt is the API host's clock: API containers must keep their clocks in sync (NTP), or a
        // save on a host running behind could lose to an earlier save elsewhere.
        const input = c.req.valid('json');
        // Nothing shown masked may come back as the secret (api/integrations/sealed-config.ts).
        const writeBack = writeBackErrors({ config: ['Configuration', input.config] });
        if (writeBack) throw badRequest('Please check the highlighted fields.', writeBack);
        // The id is chosen here: the secrets are sealed for this row before it is written.
        const id = randomUUID();
        const config = sealConfig(secrets, input.config, configKind('email', input.provider), owner(id));
        const [row] = await db
          .insert(table)
          .values({ ...input, id, config })
          .returning();
        const newest = db.select({ id: table.id }).from(table).orderBy(desc(table.createdAt), desc(table.id)).limit(1);
        await db.delete(table).where(notInArray(table.id, newest));
        return c.json({ ...row!, config: masked(row!) }, 201);
      }),
  };
}
