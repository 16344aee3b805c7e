/**
 * GET /api/admin/cdn/purges: what the dashboard warns of when the CDN's purge API stops confirming
 * purges (they wait in the database and are sent again: api/cdn/cdn-purge.ts). Without a CDN, nothing waits.
 */
import type { Deps } from '../deps.ts';
import { adminRouter } from '../http/routes.ts';
import { cdnPurgesRepository } from './cdn-purges.repository.ts';

export function cdnRoutes({ database }: Pick<Deps, 'database'>) {
  const repo = cdnPurgesRepository(database);
  return {
    admin: adminRouter().get('/cdn/purges', async (c) => {
      const { pending, oldestAt, lastError } = await repo.summary();
      return c.json({ pending, oldestAt: oldestAt?.toISOString() ?? null, lastError });
    }),
  };
}
