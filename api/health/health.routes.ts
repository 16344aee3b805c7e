import type { Deps } from '../deps.ts';
import { router, type FeatureRoutes } from '../http/routes.ts';

export function healthRoutes({ database }: Deps): FeatureRoutes {
  return {
    public: router().get('/health', async (c) => {
      const ok = await database.ping().then(
        () => true,
        () => false,
      );
      return c.json({ status: ok ? 'ok' : 'unavailable', database: { dialect: database.dialect, location: database.label, ok } }, ok ? 200 : 503);
    }),
  };
}
