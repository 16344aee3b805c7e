import { deliveryLogQuery } from '../../src/shared/schemas/deliveries.ts';
import type { Deps } from '../deps.ts';
import { adminRouter } from '../http/routes.ts';
import { queryParams } from '../http/validate.ts';
import { maskUrl, maskUrlsInText } from '../crypto/secret-masking.ts';
import { deliveriesRepository, type Delivery } from './deliveries.repository.ts';

/** The delivery log: what was sent where, retried or failed. Never the payload. */
/** The dashboard warns of deliveries that failed this recently. */
export const FAILED_RECENTLY_DAYS = 7;

export function deliveriesRoutes({ database, clock }: Pick<Deps, 'database' | 'clock'>) {
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
    admin: adminRouter()
      .get('/deliveries', queryParams(deliveryLogQuery), async (c) => c.json((await repo.list(c.req.valid('query'))).map(entry)))
      // Not in SPEC (issue 19): what the dashboard warns of, by channel: messages held (never sent)
      // and deliveries that failed in the last FAILED_RECENTLY_DAYS days.
      .get('/deliveries/attention', async (c) => {
        const failedSince = new Date(clock.now().getTime() - FAILED_RECENTLY_DAYS * 86_400_000);
        const counts = { held: { email: 0, calendar: 0 }, failed: { email: 0, calendar: 0 } };
        for (const { channel, held, failed } of await repo.attention(failedSince)) {
          if (channel !== 'email' && channel !== 'calendar') continue;
          counts.held[channel] = Number(held);
          counts.failed[channel] = Number(failed);
        }
        return c.json({ ...counts, failedSince: failedSince.toISOString() });
      }),
  };
}
