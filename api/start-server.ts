/**
 * The one Node process (ARCHITECTURE "How a request travels"): /api goes to the Hono app, everything
 * else to the built Astro site (prerendered files first, then on-demand pages). `--api-only` runs the
 * API alone, as the small API container. Started through api/server.ts (the entry).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { openDatabase, type Database } from '../db/client.ts';
import { seedDatabase } from '../db/seed/seed.ts';
import { createActivityEvents } from './activity.ts';
import { createApp } from './app.ts';
import { createCdnPurger, type CdnPurger } from './cdn/cdn-purge.ts';
import { cdnPurgesRepository } from './cdn/cdn-purges.repository.ts';
import { createContentBus } from './content-bus.ts';
import { createContentEvents, type ContentChange } from './content-events.ts';
import { createDeliveryQueue } from './deliveries/deliveries.ts';
import { systemClock } from './clock.ts';
import type { Deps } from './deps.ts';
import { cdnPurgeSettings, EnvError, integrationSettings, loadEnv, migrationSettings, rateLimitSettings, type Env } from './env.ts';
import { keptListResponder } from './http/public-cache.ts';
import { API_HEADERS, applySecurityHeaders, securitySettings } from './http/security-headers.ts';
import { createRateLimitStore } from './http/shared-rate-limits.ts';
import { startIdentity } from './identity/identity.ts';
import { startBackgroundWork } from './composition.ts';
import { createLogger, type Logger } from './logger.ts';
import { createDevOutbox } from './mail/dev-outbox.ts';
import { createSite, type Site } from './site/site.ts';
import { createSecretBox, loadSecretsKey } from './crypto/secret-box.ts';

export interface RunningServer {
  server: Server;
  url: string;
  database: Database;
  log: Logger;
  /**
   * Refuses new connections, answers every request in flight, stops a migration run (interrupted,
   * resumable) and background work, then closes the database.
   */
  stop(): Promise<void>;
  /**
   * SIGTERM/SIGINT (decision 016): /api/health answers 503 at once, and requests are still served for
   * `graceMs` (each answered with `Connection: close`) while the load balancer notices and stops
   * sending; then stop(). Called again (a second signal), it ends the grace at once.
   */
  shutdown(): Promise<void>;
  /** SHUTDOWN_GRACE_MS. */
  graceMs: number;
}

/** SIGTERM/SIGINT: how long requests in flight may take to finish before the process gives up on them. */
export const SHUTDOWN_DEADLINE_MS = 10_000;

/**
 * SIGTERM/SIGINT: how long the server keeps serving, reporting itself unhealthy, before it stops
 * taking connections (decision 016). Production: 5 s, a few health checks of a load balancer and the
 * time Kubernetes takes to drop a stopping pod from its endpoints; with the 10 s drain deadline it
 * fits the usual 30 s stop timeout. Elsewhere 0: nothing routes by health, and Ctrl-C quits at once.
 */
export const PRODUCTION_SHUTDOWN_GRACE_MS = 5_000;

/** SHUTDOWN_GRACE_MS (validated by api/env.ts), or the default for NODE_ENV. */
export const shutdownGraceMs = (env: Pick<Env, 'SHUTDOWN_GRACE_MS' | 'NODE_ENV'>): number =>
  env.SHUTDOWN_GRACE_MS ?? (env.NODE_ENV === 'production' ? PRODUCTION_SHUTDOWN_GRACE_MS : 0);

/** A caller's X-Request-Id is kept when it looks like one (Hono's rule: word characters, '-' and '='); otherwise a new one. */
const requestIdOf = (req: IncomingMessage) => {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w\-=]{1,255}$/.test(given) ? given : crypto.randomUUID();
};

const KEEP_ALIVE_MS = 65_000;

const isApi = (url: string | undefined) => url === '/api' || Boolean(url?.startsWith('/api/') || url?.startsWith('/api?'));

/**
 * What a content change does in a container: re-render the stored pages it touches (visible within a
 * second), then purge them from the CDN, after, so the CDN cannot refetch the old from it (decision
 * 017). A render asks the container's own listener for its data, so once the container is stopping
 * no render starts (nobody will be sent its pages), and `settled` lets the renders already running
 * finish before the listener closes. The CDN is still purged, for the containers that stay.
 */
export function republisher(site: Pick<Site, 'onChange'> | null, cdn: Pick<CdnPurger, 'purge'>, stopping: () => boolean) {
  const rendering = new Set<Promise<void>>();
  const onChange = async (change: ContentChange) => {
    if (site && !stopping()) {
      const render = site.onChange(change);
      rendering.add(render);
      try {
        await render;
      } finally {
        rendering.delete(render);
      }
    }
    await cdn.purge(change);
  };
  /** Resolves when the renders running now have ended (whatever their outcome). */
  const settled = () => Promise.allSettled([...rendering]).then(() => {});
  return Object.assign(onChange, { settled });
}

export async function startServer(options: { env?: Env; apiOnly?: boolean; shutdownGraceMs?: number } = {}): Promise<RunningServer> {
  const env = options.env ?? loadEnv();
  const graceMs = options.shutdownGraceMs ?? shutdownGraceMs(env);
  const log = createLogger({ silent: env.LOG_QUIET });
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, sqlitePath: env.SQLITE_PATH });
  const seeded = await seedDatabase(database, { sampleContent: env.SEED_SAMPLE_CONTENT });
  log.info('database ready', { database: database.label, seeded });

  const secretsKey = loadSecretsKey({
    key: env.SECRETS_KEY,
    previous: env.SECRETS_KEY_PREVIOUS,
    file: env.SECRETS_KEY_FILE,
    warn: (message) => log.warn(message),
  });
  const secrets = createSecretBox(secretsKey.current, secretsKey.previous);
  // Held mail lives in the shared database, sealed (decision 042); files an older version kept in
  // OUTBOX_DIR are brought in once, then deleted. A file that cannot be read or deleted stays for the
  // next start rather than stop this one.
  const outbox = createDevOutbox({ database, secrets, clock: systemClock, log });
  try {
    const fromFiles = await outbox.importFiles(env.OUTBOX_DIR);
    if (fromFiles.deleted)
      log.info('held mail: the outbox files from before are in the database now, sealed, and the files deleted', { dir: env.OUTBOX_DIR, ...fromFiles });
    await outbox.sweep();
  } catch (err) {
    log.error('held mail: the outbox files from before were not all imported', { dir: env.OUTBOX_DIR, err: err instanceof Error ? err.message : String(err) });
  }
  const identity = await startIdentity({ env, database, secrets, clock: systemClock, log, outbox, integrations: integrationSettings(env) });
  const events = createContentEvents((err) => log.error('content listener failed', { err: String(err) }));
  // Containers on one PostgreSQL database hear each other's changes (decision 017). Created
  // before the site loads anything, so what changes meanwhile is caught up with once it listens.
  const bus = env.DATABASE_URL ? await createContentBus({ databaseUrl: env.DATABASE_URL, database, events, log }) : null;
  // Per-client limits counted where every container sees them: Redis, else PostgreSQL, else this
  // process's memory (decision 013 "shared counts"). Waits for its table or connection.
  const rateLimitStore = await createRateLimitStore({ database, redisUrl: env.REDIS_URL, log });
  log.info('rate limits ready', { store: rateLimitStore.label });
  const deps: Deps = {
    database,
    clock: systemClock,
    verifier: identity.verifier,
    log,
    events,
    migration: migrationSettings(env),
    identity: identity.info,
    embeddedIdentity: identity.embedded,
    adminDirectory: identity.admins,
    activity: createActivityEvents((err, activity) => log.error('activity listener failed', { activity: activity.type, err: String(err) })),
    deliveries: createDeliveryQueue({ database, clock: systemClock }),
    outbox,
    integrations: integrationSettings(env),
    secrets,
    rateLimits: { ...rateLimitSettings(env), store: rateLimitStore },
  };
  // From a SIGTERM on, /api/health answers 503 while requests are still served (decision 016).
  let draining = false;
  deps.draining = () => draining;
  const app = createApp(deps);
  const api = getRequestListener(app.fetch);
  // A public list nobody changed is answered here, without entering the app (api/http/public-cache.ts).
  const keptList = keptListResponder(deps, securitySettings(deps));
  let origin = '';
  const site = options.apiOnly ? null : await createSite({ api: app.fetch, selfOrigin: () => origin, log, security: securitySettings(deps) });
  const cdn = createCdnPurger(cdnPurgeSettings(env), { log, store: cdnPurgesRepository(database), clock: systemClock });
  /** Set when stop() begins: no page render starts from then on. */
  let rendersStopped = false;
  /** Set once the renders in flight have ended: new connections are refused from then on. */
  let closing = false;
  const republish = republisher(site, cdn, () => rendersStopped);
  events.subscribe(republish);
  await bus?.listen();

  /** Quiet logs (LOG_QUIET) keep errors only: no request line is made. */
  const logRequests = !env.LOG_QUIET;
  /** Responses not yet sent in full: a shutdown waits for them, and closes their connections after them. */
  const inFlight = new Set<ServerResponse>();
  /**
   * Each request is followed until its response closes, with one listener: taken off the in-flight
   * set and, when it has a request id (the site's requests; the API logs its own in api/app.ts), given its log
   * line. Path only: query strings may carry personal data.
   */
  const follow = (req: IncomingMessage, res: ServerResponse, requestId: string | null) => {
    inFlight.add(res);
    // Draining: each client opens a new connection for its next request (while the grace lasts, this
    // server still accepts it), so none is left idle to be cut when the listener closes.
    if (draining || closing) res.setHeader('connection', 'close');
    const started = requestId && logRequests ? performance.now() : 0;
    res.on('close', () => {
      inFlight.delete(res);
      // Keep-alive connections would otherwise hold the shutdown for the keep-alive timeout.
      if (closing) server.closeIdleConnections();
      if (requestId && logRequests)
        log.info('request', {
          requestId,
          method: req.method,
          path: (req.url ?? '/').split('?')[0],
          status: res.statusCode,
          ms: Math.round((performance.now() - started) * 10) / 10,
          ...(res.writableFinished ? {} : { aborted: true }),
        });
    });
  };
  /** The kept lists answered before the app get their X-Request-Id and log line here. */
  const logged = (req: IncomingMessage, res: ServerResponse) => {
    const requestId = requestIdOf(req);
    res.setHeader('x-request-id', requestId);
    follow(req, res, requestId);
    return requestId;
  };

  const server = createServer((req, res) => {
    try {
      handleRequest(req, res);
    } catch (err) {
      // One request's mistake must never end the process that serves everyone else.
      log.error('request handler threw', { err: String(err) });
      if (res.headersSent) res.destroy();
      else res.writeHead(500, { ...API_HEADERS.plain, 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Internal server error' }));
    }
  });
  const handleRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (isApi(req.url)) {
      if (keptList(req, res, () => logged(req, res))) return;
      follow(req, res, null);
      return api(req, res);
    }
    // The site's requests: the X-Request-Id goes out in the site's one writeHead (set here, it would
    // put node:http on its slower path of headers set one by one).
    const requestId = requestIdOf(req);
    follow(req, res, requestId);
    if (site) return site.handle(req, res, requestId);
    res.setHeader('x-request-id', requestId);
    applySecurityHeaders(securitySettings(deps), API_HEADERS, req, res);
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Not found', requestId }));
  };
  // An idle connection stays open longer than a load balancer's or CDN's own idle timeout (60 s is
  // common): Node's 5 s default closes connections those reuse a moment later, and a request sent as
  // the socket closes is reset (a 502 at the edge; ECONNRESET in the tests under load). Headers must
  // still arrive within a little more than that. SIGTERM closes idle connections at once.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
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
  // A start is often a deploy: the prerendered pages may have changed (and with them the assets they
  // name). Purged again when this container stops, so a rolling deploy ends with none of the old.
  const purgeStatic = () => (site ? cdn.purgeKeys(['static'], ['/*']) : Promise.resolve());
  void purgeStatic();
  // Mail, calendar sync, reminders and feeds start once the site answers.
  const background = startBackgroundWork(deps, { schedule: true });

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      // Refuse new connections, finish the requests in flight (answered with `Connection: close`, so
      // keep-alive clients let go), and only then stop background work and close the database.
      rendersStopped = true;
      // Renders already running ask this server for their data: they finish before the listener
      // closes (briefly: a render that hangs must not hold the shutdown past its deadline).
      await Promise.race([republish.settled(), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
      closing = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      log.info('shutting down', { requestsInFlight: inFlight.size }); // once new connections are refused
      // At once, beside the drain: a migration run stops after its batches in flight and records its
      // checkpoints, so it shows interrupted now rather than when its 30 s lease runs out (decision 011).
      const appStopped = app.stop();
      appStopped.catch(() => {}); // reported where it is awaited, after the drain
      await closed;
      await background.stop();
      await bus?.stop();
      // Briefly: a CDN that does not answer must not hold the shutdown past its deadline.
      await Promise.race([Promise.all([cdn.stop(), purgeStatic()]), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
      await appStopped;
      await rateLimitStore.close();
      await database.close();
      log.info('stopped');
    })());

  let shuttingDown: Promise<void> | null = null;
  let endGrace = () => {};
  const shutdown = () => {
    endGrace(); // a second signal: no more waiting
    return (shuttingDown ??= (async () => {
      draining = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
      log.info('draining', { graceMs, requestsInFlight: inFlight.size });
      if (graceMs > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, graceMs);
          endGrace = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      await stop();
    })());
  };
  return { server, url, database, log, stop, shutdown, graceMs };
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
  let signalled = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      // A second signal only cuts the grace short.
      if (signalled) return void running.shutdown();
      signalled = true;
      // A request that never finishes (a stalled upload, a hung peer) must not keep the process alive:
      // past the deadline (after the grace) it exits non-zero and says so.
      setTimeout(() => {
        running.log.error('shutdown deadline passed: exiting with work unfinished', { signal, deadlineMs: SHUTDOWN_DEADLINE_MS });
        process.exit(1);
      }, running.graceMs + SHUTDOWN_DEADLINE_MS);
      running.shutdown().then(
        () => process.exit(0),
        (err: unknown) => {
          running.log.error('shutdown failed', { signal, err: err instanceof Error ? err.message : String(err) });
          process.exit(1);
        },
      );
    });
  }
}
