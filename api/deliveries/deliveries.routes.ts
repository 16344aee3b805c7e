import { deliveryLogQuery } from '../../src/shared/schemas/deliveries.ts';
import type { Deps } from '../deps.ts';
import { adminRouter } from '../http/routes.ts';
import { queryParams } from '../http/validate.ts';
import { maskUrl, maskUrlsInText } from '../crypto/secret-masking.ts';
import { deliveriesRepository, type Delivery } from './deliveries.repository.ts';

/** The delivery log: what was sent where, retried or failed. Never the payload. */
export function deliveriesRoutes({ database }: Pick<Deps, 'database'>) {
  const repo = deliveriesRepository(database);
  const entry = (row: Delivery) => ({
    id: row.id,
    channel: row.channel,
    purpose: row.purpose,
    appointmentId: row.appointmentId,
    integrationId: row.integrationId,
    recipient: maskUrl(row.recipient),
    status: row.status,
    attempts: row.attempts,
    lastError: maskUrlsInText(row.lastError),
    nextAttemptAt: row.nextAttemptAt,
    sentAt: row.sentAt,
    createdAt: row.createdAt,
  });
  return {
    admin: adminRouter().get('/deliveries', queryParams(deliveryLogQuery), async (c) => c.json((await repo.list(c.req.valid('query'))).map(entry))),
  };
}
