/**
 * The server's entry (ARCHITECTURE "How a request travels"; the work is in ./start-server.ts):
 *
 *   node api/server.ts            # site + API (needs `npm run build` first; `npm start` does both)
 *   node api/server.ts --api-only # the API alone, as the small API container
 *
 * Run as a program, it sets how dependencies load (./module-hooks.ts) before importing the rest,
 * which is why the rest is imported here with import() rather than at the top. Imported (tests,
 * scripts/start.ts), it only re-exports.
 */
import { fileURLToPath } from 'node:url';
import { preferCommonJs } from './module-hooks.ts';

const isEntry = Boolean(process.argv[1]) && fileURLToPath(import.meta.url) === process.argv[1];
if (isEntry) preferCommonJs();

export type { RunningServer } from './start-server.ts';
export const { startServer, main, shutdownGraceMs, SHUTDOWN_DEADLINE_MS, PRODUCTION_SHUTDOWN_GRACE_MS } = await import('./start-server.ts');

if (isEntry) await main();
