/**
 * The one Node process (ARCHITECTURE "How a request travels"): /api goes to the Hono app, everything
 * else to the built Astro site (prerendered files first, then on-demand pages). `--api-only` runs the
 * API alone, as the small API container.
 *
 *   node api/server.ts            # site + API (needs `npm run build` first; `npm start` does both)
 *   node api/server.ts --api-only
 */
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { openDatabase, type Database } from '../db/client.ts';
import { seedDatabase } from '../db/seed/seed.ts';
import { createApp } from './app.ts';
import { createContentEvents } from './content-events.ts';
import { systemClock } from './deps.ts';
import { EnvError, loadEnv, migrationSettings, type Env } from './env.ts';
import { startIdentity } from './identity/identity.ts';
import { createLogger, type Logger } from './logger.ts';
import { createDevOutbox } from './mail/dev-outbox.ts';
import { createSite } from './site/site.ts';

export interface RunningServer {
  server: Server;
  url: string;
  database: Database;
  stop(): Promise<void>;
}

const isApi = (url: string | undefined) => url === '/api' || Boolean(url?.startsWith('/api/') || url?.startsWith('/api?'));

export async function startServer(options: { env?: Env; apiOnly?: boolean } = {}): Promise<RunningServer> {
  const env = options.env ?? loadEnv();
  const log = createLogger({ silent: env.LOG_QUIET });
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, sqlitePath: env.SQLITE_PATH });
  const seeded = await seedDatabase(database, { sampleContent: env.SEED_SAMPLE_CONTENT });
  log.info('database ready', { database: database.label, seeded });

  const outbox = createDevOutbox(env.OUTBOX_DIR);
  const identity = await startIdentity(env, log, outbox);
  const events = createContentEvents((err) => log.error('content listener failed', { err: String(err) }));
  const app = createApp({
    database,
    clock: systemClock,
    verifier: identity.verifier,
    log,
    events,
    migration: migrationSettings(env),
    identity: identity.info,
  });
  const api = getRequestListener(app.fetch);
  let origin = '';
  const site = options.apiOnly ? null : await createSite({ api: app.fetch, selfOrigin: () => origin, log });
  // Republish what an admin's change touches (issue 4: visible within a second).
  if (site) events.subscribe((change) => site.onChange(change));

  const server = createServer((req, res) => {
    if (isApi(req.url)) return api(req, res);
    if (site) return site.handle(req, res);
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Not found' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(env.PORT, env.HOST, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  const url = `http://${env.HOST.includes(':') ? `[${env.HOST}]` : env.HOST}:${port}`;
  // Internal renders go to loopback unless the server is bound to one specific address.
  const anyAddress = ['0.0.0.0', '::', '127.0.0.1', 'localhost', '::1'].includes(env.HOST);
  origin = anyAddress ? `http://127.0.0.1:${port}` : url;
  log.info('listening', { url, apiOnly: Boolean(options.apiOnly) });
  await site?.prewarm();

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      // Finish requests in flight, refuse new ones, then close the database.
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await identity.stop();
      await database.close();
    })());
  return { server, url, database, stop };
}

export async function main() {
  let running: RunningServer;
  try {
    running = await startServer({ apiOnly: process.argv.includes('--api-only') });
  } catch (err) {
    const message = err instanceof EnvError || err instanceof Error ? err.message : String(err);
    process.stderr.write(`\nThe server could not start.\n${message}\n\n`);
    process.exit(1);
  }
  console.log(`\n  Site and API ready at ${running.url}\n`);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      running.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
