/**
 * Through the CDN: two containers (`node api/server.ts`, the built site) on one fresh
 * PostgreSQL database and one secrets key, Varnish with the shipped VCL in front (scripts/varnish.ts),
 * purged by the containers when content changes (CDN_PURGE=varnish).
 *   A. publish to visible: an admin publishes posts through container A, one after another; for each,
 *      the time from the admin call returning until `/blog` shows its title through Varnish (its copy
 *      warmed first, so a stale one would be served), polled every 10 ms. Beside it, from the same
 *      publish, the same on container B directly (what the content bus takes) and on A itself.
 *   B. a read load through Varnish (50 connections, BENCH_SECONDS) over a mix of public pages while
 *      an admin publishes a post through A every 2 s: Varnish's hits and misses, the requests it sent
 *      to the containers, and so the share of requests the origin never saw; and the same load with
 *      the same publishes straight at container A in the same run (the req/s ratio).
 * Part of `npm run bench`; alone: `node bench/cdn.ts` (needs Varnish with xkey and PostgreSQL:
 * BENCH_DATABASE_URL's server, else postgres://postgres@127.0.0.1:5432/postgres; a database is created
 * for the run and dropped after).
 */
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../api/server-flags.ts';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { freePort, startVarnish, varnishMissing, type Varnish, type VarnishStats } from '../scripts/varnish.ts';
import { scratchPostgres } from './booking.ts';
import { operatorAdminToken } from './identity.ts';
import { load, type LoadResult } from './load.ts';

const root = new URL('..', import.meta.url).pathname;
const SERVER_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PUBLISH_RUNS = 20;
const POLL_MS = 10;
const PUBLISH_EVERY_MS = 2000;
/** Far beyond what it takes: a page still stale after this is counted as stuck (see CdnBenchResult). */
const VISIBLE_LIMIT_MS = 10_000;
/** As a browser asks: Varnish keeps one copy per encoding, so warming and polling must ask alike. */
const VISITOR = { 'accept-encoding': 'br, gzip' };

interface Timing {
  runs: number[];
  median: number;
  max: number;
}

export interface CdnBenchResult {
  containers: number;
  publishToVisibleMs: {
    /** Over the publishes that showed through Varnish within VISIBLE_LIMIT_MS. */
    varnish: Timing;
    /**
     * Publishes whose /blog Varnish still served stale after VISIBLE_LIMIT_MS while both containers
     * showed the post (a purge that reached Varnish while the stale page was still being fetched:
     * kept until its s-maxage). The bench then purges `posts` itself and goes on.
     */
    stuck: number;
    containerB: Timing;
    containerA: Timing;
  };
  readLoad: {
    connections: number;
    seconds: number;
    paths: string[];
    publishEveryMs: number;
    /** The same load and publishes through Varnish, then straight at container A. */
    cdn: LoadResult & { publishes: number };
    direct: LoadResult & { publishes: number };
    hits: number;
    misses: number;
    hitRatio: number;
    /** Requests Varnish sent to the containers during the load (misses, passes, background refreshes). */
    originRequests: number;
    /** 1 - originRequests / cdn.requests. */
    originSaved: number;
    /** cdn.rps / direct.rps. */
    rpsRatio: number;
    /** Of the pages each publish purges, those Varnish still served without the last post 3 s after the load (stuck, as above). */
    staleAfterLoad: string[];
  };
}

export type CdnBenchReport = CdnBenchResult | { skipped: string };

interface Container {
  name: string;
  url: string;
  child: ChildProcess;
  exited: Promise<unknown>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round1 = (n: number) => Math.round(n * 10) / 10;
const timing = (runs: number[]): Timing => ({ runs, median: [...runs].sort((a, b) => a - b)[Math.floor(runs.length / 2)]!, max: Math.max(...runs) });

/** Why this bench cannot run here, with the fix; null when it can. */
export async function cdnBenchUnavailable(): Promise<string | null> {
  const missing = varnishMissing();
  if (missing) return missing;
  const client = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    return null;
  } catch (err) {
    const at = new URL(SERVER_URL).host;
    return `PostgreSQL at ${at} (BENCH_DATABASE_URL, or the default postgres://postgres@127.0.0.1:5432/postgres) did not accept a connection: ${(err as Error).message}. Start it (bash scripts/bootstrap.sh) or set BENCH_DATABASE_URL`;
  } finally {
    await client.end().catch(() => {});
  }
}

/** `node api/server.ts` with the site; resolves once it says it is ready (migrated, seeded, pages rendered). */
async function startContainer(name: string, env: NodeJS.ProcessEnv): Promise<Container> {
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'api/server.ts'], {
    cwd: root,
    env: { ...env, ...SERVER_ENV, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // A bench that ends without stopping it must not leave it behind.
  const orphaned = () => child.kill('SIGTERM');
  process.once('exit', orphaned);
  void exited.then(() => process.off('exit', orphaned));
  const container = { name, url: `http://127.0.0.1:${port}`, child, exited };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not say it was ready within 180 s`)), 180_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (/ready at http/.test(line)) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} ended during start (exit code ${String(code)})`));
    });
  }).catch(async (err: unknown) => {
    await stopContainer(container);
    throw err;
  });
  return container;
}

async function stopContainer(container: Container) {
  if (container.child.exitCode === null && container.child.signalCode === null) container.child.kill('SIGTERM');
  const killer = setTimeout(() => container.child.kill('SIGKILL'), 20_000);
  await container.exited;
  clearTimeout(killer);
}

/** Publishes a post through `origin`; resolves with the moment the admin call returned. */
async function publish(origin: string, token: string, title: string): Promise<number> {
  const res = await fetch(`${origin}/api/admin/blog-posts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title, excerpt: 'x', content: '<p>x</p>', category: 'probate', isPublished: true }),
  });
  const returned = performance.now();
  if (res.status !== 201) throw new Error(`publish through ${origin} answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  return returned;
}

const get = async (url: string) => {
  const res = await fetch(url, { headers: VISITOR });
  return { status: res.status, cache: res.headers.get('x-cache'), text: await res.text() };
};

/** Until Varnish answers `path` from its cache (a purge of the previous change may still land). */
async function warmCdn(varnish: Varnish, path: string) {
  for (let i = 0; i < 100; i++) {
    if ((await get(varnish.url + path)).cache === 'HIT') return;
    await sleep(20);
  }
  throw new Error(`${path} never came from Varnish's cache`);
}

/** Ms from `since` until `url` shows `title`, asked every POLL_MS; null if it still does not after VISIBLE_LIMIT_MS. */
async function untilShown(url: string, title: string, since: number): Promise<number | null> {
  for (;;) {
    const asked = performance.now();
    if ((await get(url)).text.includes(title)) return round1(performance.now() - since);
    if (performance.now() - since > VISIBLE_LIMIT_MS) return null;
    await sleep(Math.max(0, POLL_MS - (performance.now() - asked)));
  }
}

/** As a container purges (the VCL lets loopback purge): what lists posts. */
async function purgePosts(varnish: Varnish) {
  const res = await fetch(varnish.url, { method: 'PURGE', headers: { 'xkey-purge': 'posts' } });
  if (!res.ok) throw new Error(`PURGE of posts answered ${res.status}`);
}

async function publishToVisible(varnish: Varnish, a: Container, b: Container, token: string): Promise<CdnBenchResult['publishToVisibleMs']> {
  const through = { varnish: [] as number[], containerB: [] as number[], containerA: [] as number[] };
  let stuck = 0;
  for (let i = 0; i < PUBLISH_RUNS; i++) {
    await warmCdn(varnish, '/blog');
    const title = `Bench CDN publish ${Date.now()} ${i}`;
    const returned = await publish(a.url, token, title);
    const [cdn, onB, onA] = await Promise.all([
      untilShown(`${varnish.url}/blog`, title, returned),
      untilShown(`${b.url}/blog`, title, returned),
      untilShown(`${a.url}/blog`, title, returned),
    ]);
    if (onA === null || onB === null)
      throw new Error(`"${title}" not on /blog of container ${onA === null ? 'A' : 'B'} ${VISIBLE_LIMIT_MS / 1000} s after the publish`);
    if (cdn === null) {
      stuck++;
      console.warn(
        `cdn: "${title}" published through A, shown by both containers, but Varnish still serves the old /blog after ${VISIBLE_LIMIT_MS / 1000} s: counted as stuck; purging posts to go on`,
      );
      await purgePosts(varnish);
    } else {
      through.varnish.push(cdn);
    }
    through.containerB.push(onB);
    through.containerA.push(onA);
    // Each container purges once it has applied the change: let the later purge land before the next round warms.
    await sleep(300);
  }
  if (!through.varnish.length) throw new Error(`no publish of ${PUBLISH_RUNS} showed through Varnish`);
  return { varnish: timing(through.varnish), stuck, containerB: timing(through.containerB), containerA: timing(through.containerA) };
}

/** The read load on `origin` while a post is published through A every PUBLISH_EVERY_MS; `lastTitle`: the last one published. */
async function loadWhilePublishing(
  name: string,
  origin: string,
  paths: string[],
  a: Container,
  token: string,
): Promise<{ result: LoadResult & { publishes: number }; lastTitle: string }> {
  let publishes = 0;
  let lastTitle = '';
  let finished!: () => void;
  const over = new Promise<void>((resolve) => (finished = resolve));
  let running = true;
  let failure: unknown;
  const publisher = (async () => {
    while (running) {
      const started = performance.now();
      const title = `Bench CDN load ${name} ${Date.now()}`;
      await publish(a.url, token, title);
      publishes++;
      lastTitle = title;
      await Promise.race([sleep(Math.max(0, PUBLISH_EVERY_MS - (performance.now() - started))), over]);
    }
  })().catch((err: unknown) => (failure = err));
  let result: LoadResult;
  try {
    result = await load(name, origin, { connections: CONNECTIONS, seconds: SECONDS, headers: VISITOR, paths });
  } finally {
    running = false;
    finished();
    await publisher;
  }
  if (failure) throw failure;
  return { result: { ...result, publishes }, lastTitle };
}

async function readLoad(varnish: Varnish, a: Container, token: string): Promise<CdnBenchResult['readLoad']> {
  const posts = (await (await fetch(`${a.url}/api/blog-posts`)).json()) as { slug: string }[];
  // A sample article (not one of this bench's posts): a publish does not purge it.
  const article = posts.find((p) => !p.slug.startsWith('bench-cdn-'))!;
  const paths = ['/', '/blog', `/blog/${article.slug}`, '/about', '/theme.css', '/api/blog-posts'];
  for (const path of paths) {
    const { status } = await get(varnish.url + path);
    if (status !== 200) throw new Error(`${path} through Varnish answered ${status}`);
    await warmCdn(varnish, path); // a CDN in service has them already
  }
  const before: VarnishStats = await varnish.stats();
  const { result: cdn, lastTitle } = await loadWhilePublishing('through Varnish', varnish.url, paths, a, token);
  const after: VarnishStats = await varnish.stats();
  // Every purge of the last publish has landed by now (it shows on both containers within a second).
  await sleep(3000);
  const staleAfterLoad: string[] = [];
  for (const path of ['/', '/blog', '/api/blog-posts']) if (!(await get(varnish.url + path)).text.includes(lastTitle)) staleAfterLoad.push(path);
  const { result: direct } = await loadWhilePublishing('container A directly', a.url, paths, a, token);
  const hits = after.hits - before.hits;
  const misses = after.misses - before.misses;
  const originRequests = after.backendRequests - before.backendRequests;
  return {
    connections: CONNECTIONS,
    seconds: SECONDS,
    paths,
    publishEveryMs: PUBLISH_EVERY_MS,
    cdn,
    direct,
    hits,
    misses,
    hitRatio: Math.round((hits / (hits + misses)) * 10_000) / 10_000,
    originRequests,
    originSaved: Math.round((1 - originRequests / cdn.requests) * 10_000) / 10_000,
    rpsRatio: Math.round((cdn.rps / direct.rps) * 100) / 100,
    staleAfterLoad,
  };
}

/** Both parts, on containers, Varnish and a database of their own, all stopped and dropped after (also on failure or Ctrl-C). */
export async function cdnBench(): Promise<CdnBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'firm-bench-cdn-'));
  const containers: Container[] = [];
  let varnish: Varnish | undefined;
  let database: Awaited<ReturnType<typeof scratchPostgres>> | undefined;
  let cleaning: Promise<void> | undefined;
  // Containers first: their last purges (at stop) still reach Varnish; the database once nobody uses it.
  const cleanup = () =>
    (cleaning ??= (async () => {
      await Promise.all(containers.map(stopContainer));
      await varnish?.stop();
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    })());
  const interrupted = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: stopping the bench's containers and Varnish, dropping its database...`);
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    database = await scratchPostgres(SERVER_URL, 'firm_bench_cdn');
    const varnishPort = await freePort();
    const secrets = { DATABASE_URL: database.url, SECRETS_KEY: randomBytes(32).toString('base64') };
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...secrets,
      HOST: '127.0.0.1',
      SQLITE_PATH: join(dir, 'unused.db'),
      OUTBOX_DIR: join(dir, 'outbox'),
      CDN_PURGE: 'varnish',
      CDN_PURGE_URLS: `http://127.0.0.1:${varnishPort}`,
      // Throughput of the work itself: 50 clients from one address would otherwise meet the per-client limits.
      RATE_LIMITS: 'off',
      LOG_QUIET: 'true',
      SEED_SAMPLE_CONTENT: 'true',
    };
    delete env.NODE_ENV;
    // One after the other: the first migrates and seeds the new database.
    containers.push(await startContainer('container A', env));
    containers.push(await startContainer('container B', env));
    const [a, b] = containers as [Container, Container];
    varnish = await startVarnish({ backends: [a.url, b.url], port: varnishPort });
    const token = await operatorAdminToken(a.url, secrets);

    const publishToVisibleMs = await publishToVisible(varnish, a, b, token);
    console.log(
      `cdn: publish to visible through Varnish median ${publishToVisibleMs.varnish.median} ms (max ${publishToVisibleMs.varnish.max}; ${publishToVisibleMs.stuck} stuck); container B ${publishToVisibleMs.containerB.median} ms (max ${publishToVisibleMs.containerB.max}); container A ${publishToVisibleMs.containerA.median} ms (max ${publishToVisibleMs.containerA.max})`,
    );
    const read = await readLoad(varnish, a, token);
    console.log(cdnLoadLine(read));
    return { containers: containers.length, publishToVisibleMs, readLoad: read };
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await cleanup();
  }
}

const percent = (ratio: number) => `${round1(ratio * 100)}%`;

function cdnLoadLine(r: CdnBenchResult['readLoad']): string {
  return (
    `cdn: read load through Varnish ${r.cdn.rps} req/s (p99 ${r.cdn.p99} ms, ${r.cdn.requests} requests, ${r.cdn.publishes} publishes), ` +
    `hit ratio ${percent(r.hitRatio)} (${r.hits} hits, ${r.misses} misses), ${r.originRequests} origin requests: ${percent(r.originSaved)} saved; ` +
    `container A directly ${r.direct.rps} req/s (p99 ${r.direct.p99} ms): ratio ${r.rpsRatio}; ` +
    `still stale 3 s after the load: ${r.staleAfterLoad.join(', ') || 'none'}`
  );
}

/** The report's section (bench/report.md). */
export function cdnMarkdown(r: CdnBenchReport): string[] {
  const lines = ['## Through the CDN', ''];
  if ('skipped' in r) return [...lines, `Not measured: ${r.skipped}.`];
  const p = r.publishToVisibleMs;
  const l = r.readLoad;
  lines.push(
    `${r.containers} containers on one fresh PostgreSQL database, Varnish with the shipped VCL in front, purged by the containers (\`bench/cdn.ts\`).`,
    '',
    `Publish to visible: an admin publishes a post through container A, ${p.containerA.runs.length} times one after another; time from the admin call returning until \`/blog\` shows its title, asked every ${POLL_MS} ms (Varnish's copy warmed first, so a stale one would be served). The three rows come from the same publishes.`,
    '',
    '| where | median ms | max ms |',
    '|---|---:|---:|',
    `| through Varnish${p.stuck ? ` (${p.varnish.runs.length} of ${p.varnish.runs.length + p.stuck})` : ''} | **${p.varnish.median}** | ${p.varnish.max} |`,
    `| container B directly (the other container) | ${p.containerB.median} | ${p.containerB.max} |`,
    `| container A directly (the one published through) | ${p.containerA.median} | ${p.containerA.max} |`,
    '',
    p.stuck
      ? `**${p.stuck} of ${p.varnish.runs.length + p.stuck} publishes stayed stale through Varnish** past ${VISIBLE_LIMIT_MS / 1000} s while both containers showed them (the bench then purged \`posts\` itself): a stale page fetched while the last purge was already on its way is kept until its s-maxage.`
      : `Every publish showed through Varnish within ${VISIBLE_LIMIT_MS / 1000} s.`,
    '',
    `Read load: ${l.connections} connections, ${l.seconds} s each, asking in turn for ${l.paths.map((path) => `\`${path}\``).join(', ')}, while an admin publishes a post through container A every ${l.publishEveryMs / 1000} s; through Varnish, then straight at container A, in the same run.`,
    '',
    '| target | requests | req/s | p50 ms | p99 ms | errors | non-2xx | publishes |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const t of [l.cdn, l.direct]) lines.push(`| ${t.name} | ${t.requests} | ${t.rps} | ${t.p50} | ${t.p99} | ${t.errors} | ${t.non2xx} | ${t.publishes} |`);
  lines.push(
    '',
    `Varnish: ${l.hits} hits, ${l.misses} misses, hit ratio **${percent(l.hitRatio)}**; ${l.originRequests} requests reached the containers (misses, passes and background refreshes: varnishstat MAIN.backend_req), so origin requests saved: **${percent(l.originSaved)}** of those served. Through Varnish: **${l.rpsRatio}** × container A's req/s.`,
    '',
    l.staleAfterLoad.length
      ? `**Still stale through Varnish 3 s after the load** (without the last post published during it): ${l.staleAfterLoad.map((path) => `\`${path}\``).join(', ')}.`
      : 'Three seconds after the load, `/`, `/blog` and `/api/blog-posts` through Varnish all showed the last post published during it.',
  );
  return lines;
}

if (import.meta.main) {
  const unavailable = await cdnBenchUnavailable();
  if (unavailable) {
    console.error(`bench/cdn.ts: ${unavailable}`);
    process.exit(1);
  }
  // Under the lock the test suites take, so a build never runs beside another (an e2e run may be serving dist/).
  execFileSync('flock', ['/tmp/firm-site-build.lock', process.execPath, 'scripts/build-if-needed.ts'], { cwd: root, stdio: 'inherit' });
  const result = await cdnBench();
  console.log(`\n${cdnMarkdown(result).join('\n')}`);
}
