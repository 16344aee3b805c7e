/**
 * `npm run scale:demo` (README "Where users outgrow one machine"): the production shape on
 * one machine. Two containers (`node api/server.ts`) share one PostgreSQL database and one secrets
 * key, and Varnish with the shipped VCL (deploy/varnish/default.vcl) sits in front of them as the CDN,
 * purged by the containers when content changes (CDN_PURGE=varnish).
 *
 *   DATABASE_URL          default postgres://postgres@127.0.0.1:5432/firm_scale_demo (created if missing)
 *   SCALE_DEMO_PORTS      the containers' ports, default 4001,4002
 *   SCALE_DEMO_CDN_PORT   Varnish's port, default 4000
 *   SECRETS_KEY           default: one generated for the demo database, kept in data/scale-demo.key (0600)
 *
 * Each child's lines are prefixed with its name (the containers' logs of Varnish's health probes left
 * out). Ctrl-C (or SIGTERM) stops everything: each child gets SIGTERM and is waited for. If one dies on
 * its own, the others are stopped and the demo exits 1.
 */
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../api/server-flags.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, chmodSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { parseSecretsKey } from '../api/crypto/secret-box.ts';
import { buildIfNeeded } from './build-if-needed.ts';
import { startVarnish, varnishMissing, type Varnish } from './varnish.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/firm_scale_demo';
const HOST = '127.0.0.1';

class DemoError extends Error {}

function fail(message: string): never {
  throw new DemoError(message);
}

function portList(name: string, value: string): number[] {
  const ports = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map(Number);
  if (!ports.length || ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535) || new Set(ports).size !== ports.length) {
    fail(`${name}=${value} is not a list of different ports from 1 to 65535 (for example ${name}=4001,4002)`);
  }
  return ports;
}

function settings() {
  const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  if (!/^postgres(ql)?:\/\//.test(databaseUrl) || !URL.canParse(databaseUrl)) fail(`DATABASE_URL must be a postgres:// URL (default ${DEFAULT_DATABASE_URL})`);
  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(database))
    fail(`DATABASE_URL names the database "${database}": use letters, digits and underscores (for example /firm_scale_demo)`);
  const ports = portList('SCALE_DEMO_PORTS', process.env.SCALE_DEMO_PORTS || '4001,4002');
  const [cdnPort] = portList('SCALE_DEMO_CDN_PORT', process.env.SCALE_DEMO_CDN_PORT || '4000');
  if (ports.includes(cdnPort!)) fail(`SCALE_DEMO_CDN_PORT ${cdnPort} is also in SCALE_DEMO_PORTS: give Varnish a port of its own`);
  // One key per demo database: the default one's in data/scale-demo.key, another's beside it.
  const keyFile = join(root, 'data', database === 'firm_scale_demo' ? 'scale-demo.key' : `scale-demo.${database}.key`);
  return { databaseUrl, database, ports, cdnPort: cdnPort!, keyFile };
}

/** Creates the demo database through the `postgres` maintenance database when it does not exist. */
async function ensureDatabase(databaseUrl: string, database: string): Promise<boolean> {
  const maintenance = new URL(databaseUrl);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  try {
    await client.connect();
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const at = `${maintenance.hostname}:${maintenance.port || 5432}`;
    if (e.code === 'ECONNREFUSED')
      fail(`PostgreSQL refused the connection at ${at}: is it running? (bash scripts/bootstrap.sh starts it; or set DATABASE_URL to yours)`);
    fail(`could not connect to PostgreSQL at ${at} as in DATABASE_URL: ${e.message}`);
  }
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (rowCount) return false;
    await client.query(`create database "${database}"`);
    return true;
  } finally {
    await client.end();
  }
}

/** SECRETS_KEY when given, else the demo database's key file, generated (0600) the first time. */
function demoSecretsKey(keyFile: string): { key: string; from: string } {
  if (process.env.SECRETS_KEY) {
    if (!parseSecretsKey(process.env.SECRETS_KEY)) fail('SECRETS_KEY must be 32 bytes, base64 or hex (or unset it: the demo keeps its own key)');
    return { key: process.env.SECRETS_KEY, from: 'SECRETS_KEY' };
  }
  const shown = relative(root, keyFile);
  if (existsSync(keyFile)) {
    if ((statSync(keyFile).mode & 0o077) !== 0) chmodSync(keyFile, 0o600);
    const key = readFileSync(keyFile, 'utf8').trim();
    if (!parseSecretsKey(key)) fail(`${shown} does not hold a 32-byte key (base64): restore it, or drop the demo database and remove the file to start afresh`);
    return { key, from: shown };
  }
  mkdirSync(join(root, 'data'), { recursive: true });
  const key = randomBytes(32).toString('base64');
  writeFileSync(keyFile, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return { key, from: `${shown} (new)` };
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, HOST, () => probe.close(() => resolve(true)));
  });
}

/** Varnish's health probes: a request log line a second per container, left out of the demo's output. */
const probeLine = (line: string) => line.includes('"path":"/api/health","status":200');

/** Writes each line of a child's output with its name in front. */
function prefixLines(name: string, child: ChildProcess) {
  const label = `${name.padEnd(8)} | `;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (!probeLine(line)) process.stdout.write(`${label}${line}\n`);
  });
  createInterface({ input: child.stderr! }).on('line', (line) => process.stderr.write(`${label}${line}\n`));
}

interface Container {
  name: string;
  url: string;
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  ended: boolean;
}

function startContainer(port: number, env: NodeJS.ProcessEnv): Container {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'api/server.ts'], {
    cwd: root,
    env: { ...env, ...SERVER_ENV, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const container: Container = {
    name: `app-${port}`,
    url: `http://${HOST}:${port}`,
    child,
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal }))),
    ended: false,
  };
  void container.exited.then(() => (container.ended = true));
  prefixLines(container.name, child);
  return container;
}

async function waitHealthy(container: Container, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (container.ended) fail(`${container.name} ended before it answered (its lines above say why)`);
    const status = await fetch(`${container.url}/api/health`, { signal: AbortSignal.timeout(2000) }).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) fail(`${container.name} did not answer GET /api/health with 200 within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const containers: Container[] = [];
let cdnStarting: Promise<Varnish> | null = null;
let stopping: Promise<void> | null = null;

/**
 * Stops every child and exits with `code`: the containers first (SIGTERM, SIGKILL after 30 s; their
 * last purges still reach Varnish), then Varnish.
 */
function stopAll(code: number, why?: string): Promise<void> {
  return (stopping ??= (async () => {
    if (why) process.stderr.write(`\n${why}\n`);
    process.stdout.write('\nStopping the containers, then Varnish...\n');
    await Promise.all(
      containers.map(async (c) => {
        if (!c.ended) c.child.kill('SIGTERM');
        const killer = setTimeout(() => c.child.kill('SIGKILL'), 30_000);
        await c.exited;
        clearTimeout(killer);
      }),
    );
    const cdn = await cdnStarting?.catch(() => null);
    await cdn?.stop();
    process.stdout.write('Stopped.\n');
    process.exit(code);
  })());
}

async function main() {
  const missing = varnishMissing();
  if (missing) fail(`Varnish is needed: ${missing}`);
  const s = settings();
  for (const port of [s.cdnPort, ...s.ports]) {
    if (!(await portFree(port)))
      fail(`port ${port} on ${HOST} is taken (another scale demo still running?): stop it, or choose others with SCALE_DEMO_PORTS / SCALE_DEMO_CDN_PORT`);
  }
  const created = await ensureDatabase(s.databaseUrl, s.database);
  const secrets = demoSecretsKey(s.keyFile);
  const shownDatabaseUrl = s.databaseUrl.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
  console.log(`Database ${shownDatabaseUrl}${created ? ' (created)' : ''}; secrets key from ${secrets.from}.`);
  buildIfNeeded();

  const cdnUrl = `http://${HOST}:${s.cdnPort}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST,
    DATABASE_URL: s.databaseUrl,
    SECRETS_KEY: secrets.key,
    IDENTITY_EMBEDDED: 'true',
    // The servers read these two: each container purges Varnish when content changes.
    CDN_PURGE: 'varnish',
    CDN_PURGE_URLS: cdnUrl,
    // Visitors reach the containers through Varnish, which names them in X-Forwarded-For.
    TRUSTED_PROXIES: '127.0.0.1,::1',
    SITE_URL: cdnUrl,
  };
  delete env.NODE_ENV;
  delete env.PORT;

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stopAll(0));

  console.log(`Starting ${s.ports.length} containers on one database...`);
  for (const port of s.ports) containers.push(startContainer(port, env));
  for (const c of containers)
    void c.exited.then(({ code, signal }) => void stopAll(1, `${c.name} stopped unexpectedly (${signal ?? `exit code ${code}`}): stopping the demo.`));
  await Promise.all(containers.map((c) => waitHealthy(c, 120_000)));

  cdnStarting = startVarnish({
    backends: containers.map((c) => c.url),
    port: s.cdnPort,
    onLine: (line) => process.stdout.write(`${'cdn'.padEnd(8)} | ${line}\n`),
  });
  const cdn = await cdnStarting;
  void cdn.exited.then(({ code, signal }) => void stopAll(1, `Varnish stopped unexpectedly (${signal ?? `exit code ${code}`}): stopping the demo.`));
  const through = await fetch(`${cdn.url}/api/health`);
  if (through.status !== 200) fail(`Varnish answered GET /api/health with ${through.status}, not 200`);

  const keyHint = secrets.from === 'SECRETS_KEY' ? 'SECRETS_KEY="<the same key>"' : `SECRETS_KEY="$(cat ${relative(root, s.keyFile)})"`;
  console.log(`
  Scale demo ready:
    Varnish (the CDN: visitors)   ${cdn.url}
${containers.map((c, i) => `    container ${i + 1}                   ${c.url}    admin: ${c.url}/admin`).join('\n')}
    database                      ${shownDatabaseUrl}

  An admin, once per database (the same database and key as the containers):
    DATABASE_URL=${shownDatabaseUrl} ${keyHint} \\
      npm run admin:create -- --username admin --email you@pacificcrestlaw.com --password 'a-long-passphrase'

  Try:
    curl -sI ${cdn.url}/about | grep -i x-cache     # twice: MISS, then HIT
    publish a post at ${containers[0]!.url}/admin, then open ${cdn.url}/blog (within a second)

  Ctrl-C stops everything.
`);
}

try {
  await main();
} catch (err) {
  const message = err instanceof DemoError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err);
  if (containers.length || cdnStarting) await stopAll(1, `scale demo: ${message}`);
  process.stderr.write(`scale demo: ${message}\n`);
  process.exit(1);
}
