import type { Deps } from '../deps.ts';
import { router } from '../http/routes.ts';
import { healthRepository } from './health.repository.ts';

/** A write is probed at most this often per process: readiness is polled by every balancer and CDN. */
const WRITE_PROBE_MS = 1000;

/**
 * Two questions a balancer asks, both public, so neither names a dialect, host or file:
 * - GET /api/health, liveness: the process answers and the database answers a read. 503 from the
 *   start of a shutdown (decision 016: the balancer stops routing here while requests are served).
 * - GET /api/health/ready, readiness: should this container get traffic now? 503 while draining and
 *   while the database cannot take a write (a full disk, a read-only database), found by a real write
 *   at most once a second. Migrations run before the server listens, so while they run neither
 *   answers. A container that is live but not ready is left running and sent no traffic.
 */
export function healthRoutes({ database, draining, clock }: Pick<Deps, 'database' | 'draining' | 'clock'>) {
  const repo = healthRepository(database);
  const origin = crypto.randomUUID();
  let probe: { at: number; writable: Promise<boolean> } | null = null;
  let forgotAt = 0;
  const writable = () => {
    const now = clock.now();
    if (probe && now.getTime() - probe.at < WRITE_PROBE_MS) return probe.writable;
    const written = repo.probeWrite(origin, now).then(
      () => true,
      () => false,
    );
    probe = { at: now.getTime(), writable: written };
    // Each process's row stays while it runs; rows of processes gone a day are forgotten, hourly.
    if (probe.at - forgotAt > 3_600_000) {
      forgotAt = probe.at;
      void repo.forgetBefore(new Date(probe.at - 86_400_000)).catch(() => {});
    }
    return written;
  };
  const answer = (ok: boolean) => (ok ? ({ status: 'ok' } as const) : ({ status: 'unavailable' } as const));
  return {
    public: router()
      .get('/health', async (c) => {
        const ok =
          !draining?.() &&
          (await database.ping().then(
            () => true,
            () => false,
          ));
        return c.json(answer(ok), ok ? 200 : 503);
      })
      .get('/health/ready', async (c) => {
        const ok = !draining?.() && (await writable());
        return c.json(answer(ok), ok ? 200 : 503);
      }),
  };
}
