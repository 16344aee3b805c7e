import type { Deps } from '../deps.ts';
import { router } from '../http/routes.ts';

/**
 * Whether this process should get traffic, and nothing more: the public may call it, so it names no
 * dialect, host or file. 503 when the database does not answer, and from the start of a shutdown
 * (decision 016: the load balancer stops routing here while requests are still served).
 */
export function healthRoutes({ database, draining }: Pick<Deps, 'database' | 'draining'>) {
  return {
    public: router().get('/health', async (c) => {
      const ok =
        !draining?.() &&
        (await database.ping().then(
          () => true,
          () => false,
        ));
      return ok ? c.json({ status: 'ok' }, 200) : c.json({ status: 'unavailable' }, 503);
    }),
  };
}
