import type { Deps } from '../deps.ts';
import { adminRouter } from '../http/routes.ts';

/**
 * POST /api/admin/publishing/republish: re-render every published page and the theme stylesheet,
 * for when content changed outside the API (a restored backup, a direct database edit).
 */
export function publishingRoutes({ events }: Pick<Deps, 'events'>) {
  return {
    admin: adminRouter().post('/publishing/republish', (c) => {
      events.changed({ topic: 'site' });
      return c.json({ republishing: true }, 202);
    }),
  };
}
