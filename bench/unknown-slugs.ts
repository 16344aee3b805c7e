/**
 * A flood of unknown article slugs (security review): 4 clients ask for random /blog/{slug} pages,
 * each a different one, while a probe times GET /api/health one request after another. Beside it the
 * same flood on random unknown paths outside /blog (the site's static 404) and the health latency at
 * rest: the ratios are what count, since absolute figures depend on the machine.
 *   node bench/unknown-slugs.ts        (BENCH_SECONDS=10 by default; needs `npm run build`)
 */
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../api/server-flags.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { buildIfNeeded } from '../scripts/build-if-needed.ts';

const root = new URL('..', import.meta.url).pathname;
const CLIENTS = 4;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

/** Starts the site; resolves once it prints that it is ready (main pages rendered, files compressed). */
async function startSite(dir: string): Promise<{ child: ChildProcess; origin: string; healthyMs: number; readyMs: number }> {
  const started = performance.now();
  const port = 4500 + Math.floor(Math.random() * 400);
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'api/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      ...SERVER_ENV,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      SQLITE_PATH: join(dir, 'site.db'),
      SECRETS_KEY_FILE: join(dir, 'secrets.key'),
      OUTBOX_DIR: join(dir, 'outbox'),
      LOG_QUIET: 'true',
      RATE_LIMITS: 'off',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => /ready at http/.test(line) && resolve(performance.now()));
    child.once('exit', () => reject(new Error('the server exited during start')));
  });
  const origin = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error('the server exited during start');
    if (
      await fetch(`${origin}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const healthyMs = Math.round(performance.now() - started);
  return { child, origin, healthyMs, readyMs: Math.round((await ready) - started) };
}

const rssMb = (pid: number) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024);
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))] ?? NaN;
const round = (n: number) => Math.round(n * 10) / 10;

/** GET /api/health back to back until `stop()`: each answer's time in ms. */
async function probeHealth(origin: string, stop: () => boolean): Promise<number[]> {
  const times: number[] = [];
  while (!stop()) {
    const started = performance.now();
    await (await fetch(`${origin}/api/health`)).arrayBuffer();
    times.push(performance.now() - started);
  }
  return times;
}

interface FloodResult {
  name: string;
  rps: number;
  statuses: Record<string, number>;
  healthP50: number;
  healthP99: number;
  healthProbes: number;
}

async function flood(name: string, origin: string, pathFor: () => string): Promise<FloodResult> {
  let done = false;
  const health = probeHealth(origin, () => done);
  const result = await autocannon({
    url: origin,
    connections: CLIENTS,
    duration: SECONDS,
    headers: { 'accept-encoding': 'br, gzip' },
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: pathFor() }) }],
  });
  done = true;
  const times = await health;
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, (s as { count: number }).count]));
  return {
    name,
    rps: Math.round(result.requests.average),
    statuses,
    healthP50: round(quantile(times, 0.5)),
    healthP99: round(quantile(times, 0.99)),
    healthProbes: times.length,
  };
}

async function main() {
  buildIfNeeded();
  const dir = mkdtempSync(join(tmpdir(), 'firm-bench-slugs-'));
  const { child, origin, healthyMs, readyMs } = await startSite(dir);
  console.log(`start: /api/health answers after ${healthyMs} ms, ready (pages rendered, files compressed) after ${readyMs} ms`);
  try {
    const posts = (await (await fetch(`${origin}/api/blog-posts`)).json()) as { slug: string }[];
    const article = `/blog/${posts[0]!.slug}`;
    await fetch(origin + article); // stored before the flood

    let idle = false;
    const rest = await Promise.all([probeHealth(origin, () => idle), new Promise((r) => setTimeout(r, 3000)).then(() => (idle = true))]).then(([t]) => t);
    const idleP50 = round(quantile(rest, 0.5));
    const idleP99 = round(quantile(rest, 0.99));
    console.log(`/api/health at rest: p50 ${idleP50} ms, p99 ${idleP99} ms (${rest.length} probes)`);

    const slug = () => `/blog/no-such-article-${randomBytes(8).toString('hex')}`;
    const results = [
      await flood('unknown /blog/{slug}', origin, slug),
      await flood('unknown path (static 404)', origin, () => `/no-such-page-${randomBytes(8).toString('hex')}`),
    ];
    const rss = rssMb(child.pid!);
    const after = await fetch(origin + article, { headers: { 'accept-encoding': 'br' } });
    for (const r of results) {
      console.log(
        `${r.name}: ${r.rps} req/s ${JSON.stringify(r.statuses)}; /api/health during it p50 ${r.healthP50} ms (x${round(r.healthP50 / idleP50)}), p99 ${r.healthP99} ms (x${round(r.healthP99 / idleP99)}), ${r.healthProbes} probes`,
      );
    }
    console.log(`unknown slugs / static 404 throughput: ${(results[0]!.rps / results[1]!.rps).toFixed(2)}`);
    console.log(`resident memory after the floods: ${rss} MB; ${article} after: ${after.status}`);
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
