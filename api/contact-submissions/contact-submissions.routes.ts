import { contactInput } from '../../src/shared/schemas/contact.ts';
import { idParam } from '../../src/shared/schemas/fields.ts';
import type { Deps } from '../deps.ts';
import { notFound } from '../http/errors.ts';
import { honeypot } from '../http/honeypot.ts';
import { idempotency, storedAnswer } from '../http/idempotency.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { adminRouter, router } from '../http/routes.ts';
import { jsonBody, pathParams } from '../http/validate.ts';
import { contactSubmissionsRepository } from './contact-submissions.repository.ts';

/**
 * Whether an outbox file's text is a held copy of this message: it names one of the message's
 * deliveries; or, held before files named their delivery, it is a contact notification with the
 * visitor's address and the start of their message (as JSON writes them).
 */
function heldCopyOf(row: { email: string; message: string }, deliveryIds: readonly string[]) {
  const json = (text: string) => JSON.stringify(text).slice(1, -1);
  const opening = json(row.message.split(/\r?\n/)[0]!.slice(0, 60));
  return (text: string) =>
    deliveryIds.some((id) => text.includes(id)) ||
    (!text.includes('"deliveryId"') && text.includes('New contact message: ') && text.includes(json(row.email)) && text.includes(opening));
}

/**
 * Deletes a message with the copies the site keeps of it: the row, its notification's delivery (the
 * payload holds a copy), the stored answer to a retried send (idempotency) and, when that e-mail was
 * held, its file in this container's development outbox. What an e-mail already delivered to the
 * firm's inbox, or a DynamoDB export, holds is beyond the site's reach (the dialog says so). A
 * notification being sent at this very moment: see emailHandler (mail.ts), which checks again.
 */
async function eraseContactSubmission({ database, outbox, log }: Pick<Deps, 'database' | 'outbox' | 'log'>, id: string) {
  const removed = await contactSubmissionsRepository(database).remove(id);
  if (!removed) throw notFound('Contact submission not found');
  const { row, deliveryIds } = removed;
  const files = outbox.remove(heldCopyOf(row, deliveryIds));
  log.info('contact submission erased', { submissionId: id, deliveries: deliveryIds.length, outboxFiles: files });
}

/** SPEC §4 Contact submission: read and resolved only move forward (no un-read, no re-open). */
export function contactSubmissionsRoutes(deps: Pick<Deps, 'database' | 'clock' | 'activity' | 'log' | 'rateLimits' | 'outbox'>) {
  const { database, clock, activity, log } = deps;
  const repo = contactSubmissionsRepository(database);
  const mark = (flag: 'isRead' | 'isResolved') => async (id: string) => {
    const row = await repo.setFlag(id, flag);
    if (!row) throw notFound('Contact submission not found');
    return row;
  };
  return {
    // Received time from the injected clock: the admin list is newest first, and tests can fix the order.
    // Limited per client, and a bot's message (the honeypot filled) is answered alike and kept nowhere.
    // Decision 016: a retry with the same Idempotency-Key gets this answer again, not a second message.
    public: router().post('/contact', rateLimit(deps, 'contact'), idempotency(deps), jsonBody(contactInput), async (c) => {
      const { caught, input } = honeypot(c, c.req.valid('json'), log);
      if (caught) return c.json({ id: crypto.randomUUID(), createdAt: clock.now() }, 201);
      const values = { ...input, id: crypto.randomUUID(), createdAt: clock.now() };
      const answer = { id: values.id, createdAt: values.createdAt };
      // The firm's notification commits with the message (decision 022), before the visitor hears back.
      const planned = activity.plan({ type: 'contact-received', submission: { ...values, isRead: false, isResolved: false } });
      const row = await repo.create(values, { before: storedAnswer(c, 201, answer), after: planned });
      await activity.emit({ type: 'contact-received', submission: row });
      return c.json(answer, 201);
    }),
    admin: adminRouter()
      .get('/contact-submissions', async (c) => c.json(await repo.listAll()))
      .put('/contact-submissions/:id/read', pathParams(idParam), async (c) => c.json(await mark('isRead')(c.req.valid('param').id)))
      .put('/contact-submissions/:id/resolved', pathParams(idParam), async (c) => c.json(await mark('isResolved')(c.req.valid('param').id)))
      // Not in SPEC (issue 19): a visitor's deletion request (CCPA) honoured, with the copies the site keeps.
      .delete('/contact-submissions/:id', pathParams(idParam), async (c) => {
        await eraseContactSubmission(deps, c.req.valid('param').id);
        return c.body(null, 204);
      }),
  };
}
