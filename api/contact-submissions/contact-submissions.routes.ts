import { contactInput } from '../../src/shared/schemas/contact.ts';
import { idParam } from '../../src/shared/schemas/fields.ts';
import type { Deps } from '../deps.ts';
import { notFound } from '../http/errors.ts';
import { adminRouter, router, type FeatureRoutes } from '../http/routes.ts';
import { jsonBody, pathParams } from '../http/validate.ts';
import { contactSubmissionsRepository } from './contact-submissions.repository.ts';

/** SPEC §4 Contact submission: read and resolved only move forward (no un-read, no re-open). */
export function contactSubmissionsRoutes({ database, clock }: Deps): FeatureRoutes {
  const repo = contactSubmissionsRepository(database);
  const mark = (flag: 'isRead' | 'isResolved') => async (id: string) => {
    const row = await repo.setFlag(id, flag);
    if (!row) throw notFound('Contact submission not found');
    return row;
  };
  return {
    // Received time from the injected clock: the admin list is newest first, and tests can fix the order.
    public: router().post('/contact', jsonBody(contactInput), async (c) => c.json(await repo.create({ ...c.req.valid('json'), createdAt: clock.now() }), 201)),
    admin: adminRouter()
      .get('/contact-submissions', async (c) => c.json(await repo.listAll()))
      .put('/contact-submissions/:id/read', pathParams(idParam), async (c) => c.json(await mark('isRead')(c.req.valid('param').id)))
      .put('/contact-submissions/:id/resolved', pathParams(idParam), async (c) => c.json(await mark('isResolved')(c.req.valid('param').id))),
  };
}
