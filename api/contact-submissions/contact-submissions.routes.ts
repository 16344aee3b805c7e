import { contactInput } from '../../src/shared/schemas/contact.ts';
import { idParam } from '../../src/shared/schemas/fields.ts';
import type { Deps } from '../deps.ts';
import { notFound } from '../http/errors.ts';
import { honeypot } from '../http/honeypot.ts';
import { idempotency, storedAnswer } from '../http/idempotency.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { adminRouter, router } from '../http/routes.ts';
import { jsonBody, pathParams } from '../http/validate.ts';
import type { OutboxMessage } from '../mail/dev-outbox.ts';
import { contactSubmissionsRepository } from './contact-submissions.repository.ts';

/**
 * Whether a held message that names no delivery (held before messages named theirs) is a copy of
 * this one: a contact notification with the visitor's address and the start of their message. An
 * old outbox file that could not be read was imported as its raw JSON text (decision 042), so the
 * JSON spelling is looked for too.
 */
function olderHeldCopyOf(row: { email: string; message: string }) {
  const json = (text: string) => JSON.stringify(text).slice(1, -1);
  const opening = row.message.split(/\r?\n/)[0]!.slice(0, 60);
  return ({ subject, text }: OutboxMessage) => {
    const all = `${subject}\n${text}`;
    return (
      all.includes('New contact message: ') &&
      (all.includes(row.email) || all.includes(json(row.email))) &&
      (all.includes(opening) || all.includes(json(opening)))
    );
  };
}

/**
 * Deletes a message with the copies the site keeps of it: the row, its notification's delivery (the
 * payload holds a copy), the stored answer to a retried send (idempotency) and, when that e-mail was
 * held, its copy in the held mail (shared by every container, decision 042). What an e-mail already delivered to the
 * firm's inbox, or a DynamoDB export, holds is beyond the site's reach (the dialog says so). A
 * notification being sent at this very moment: see emailHandler (mail.ts), which checks again.
 */
async function eraseContactSubmission({ database, outbox, log }: Pick<Deps, 'database' | 'outbox' | 'log'>, id: string) {
  const removed = await contactSubmissionsRepository(database).remove(id);
  if (!removed) throw notFound('Contact submission not found');
  const { row, deliveryIds } = removed;
  const copies = await outbox.remove({ deliveryIds, matches: olderHeldCopyOf(row) });
  log.info('contact submission erased', { submissionId: id, deliveries: deliveryIds.length, heldCopies: copies });
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
