import { emailSettingInput, emailTestInput } from '../../src/shared/schemas/integrations.ts';
import type { Deps } from '../deps.ts';
import { adminRouter, router } from '../http/routes.ts';
import { jsonBody } from '../http/validate.ts';
import { HELD_MAIL_DAYS, HELD_MAIL_MAX } from '../mail/dev-outbox.ts';
import { emailSettingsService } from './email-settings.service.ts';

/** GET /api/admin/email-outbox: the newest development-outbox messages, at most this many. */
export const OUTBOX_LIST_LIMIT = 50;

export function emailSettingsRoutes(deps: Pick<Deps, 'database' | 'outbox' | 'secrets' | 'clock' | 'integrations' | 'deliveries'>) {
  const service = emailSettingsService(deps);
  return {
    public: router().get('/email-settings/active', async (c) => c.json(await service.active())),
    admin: adminRouter()
      // Not in SPEC §7: the Email tab shows which provider and sender are configured. The config is
      // masked (the SMTP password, the SendGrid key); null when mail goes to the development outbox.
      .get('/email-settings', async (c) => c.json(await service.current()))
      // With no email setting, mail is kept in the development outbox; the admin reads it
      // here, newest first (the attachments by name and type, not their content).
      .get('/email-outbox', async (c) =>
        c.json(
          (await deps.outbox.recent(OUTBOX_LIST_LIMIT)).map((m) => ({
            id: m.id,
            to: m.to,
            subject: m.subject,
            text: m.text,
            createdAt: m.createdAt,
            attachments: (m.attachments ?? []).map((a) => ({ filename: a.filename, contentType: a.contentType })),
          })),
        ),
      )
      // How much is held, and since when (the dashboard and the Email tab; decision 042's bounds).
      .get('/email-outbox/summary', async (c) => {
        const { messages, oldestAt } = await deps.outbox.summary();
        return c.json({ messages, oldestAt: oldestAt?.toISOString() ?? null, keptDays: HELD_MAIL_DAYS, maxMessages: HELD_MAIL_MAX });
      })
      .post('/email-settings', jsonBody(emailSettingInput), async (c) => c.json(await service.save(c.req.valid('json')), 201))
      // Not in SPEC (issue 19): remove the setting (mail is held again), send a test, send what was held.
      .delete('/email-settings', async (c) => {
        await service.remove();
        return c.body(null, 204);
      })
      .post('/email-settings/test', jsonBody(emailTestInput), async (c) => c.json(await service.sendTest(c.req.valid('json').to ?? c.get('admin').email)))
      .post('/email-settings/send-held', async (c) => c.json(await service.sendHeld())),
  };
}
