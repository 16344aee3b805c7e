/**
 * npm run bench: everything that measures, on this machine, in one go. Writes bench/report.md and
 * bench/report.json. Benchmarks report figures; tests never assert on time.
 *   npm run bench -- --no-lighthouse   (skip the slowest part)
 *   BENCH_DATABASE_URL=postgres://…    (also bench booking on PostgreSQL; bench/booking.ts runs alone too)
 * "Through the CDN" (bench/cdn.ts, also alone): two containers on one PostgreSQL database (on
 * BENCH_DATABASE_URL's server, else postgres://postgres@127.0.0.1:5432/postgres) behind Varnish:
 * publish to visible through it, its hit ratio and the origin requests it saves under a read load.
 * Without Varnish or PostgreSQL the section says why it was not measured.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { buildIfNeeded } from '../scripts/build-if-needed.ts';
import { publicRoutes } from '../src/components/blog/public-routes.ts';
import { pageBytes, type PageBytes } from './bytes.ts';
import { adminToken } from './identity.ts';
import { bookingMarkdown, runBookingBenches, type BookingBenchResult } from './booking.ts';
import { cdnBench, cdnBenchUnavailable, cdnMarkdown, type CdnBenchReport } from './cdn.ts';
import { fleetBench, fleetBenchUnavailable, fleetMarkdown, type FleetBenchResult } from './fleet.ts';
import { audit, withChrome, type LighthouseScores } from './lighthouse.ts';
import { load, type LoadResult } from './load.ts';
import { contentScaleBench, contentScaleMarkdown, type ContentScaleResult } from './content-scale.ts';
import { firstJs, firstJsMarkdown, type FirstJs } from './first-js.ts';
import { forgotPasswordBench, forgotPasswordLine, forgotPasswordMarkdown, type ForgotPasswordResult } from './forgot-password.ts';
import { ADMIN_DOMAIN, rssMb, siteFiles, siteStore, startSite } from './site.ts';
import { startUpBench, startUpLine, startUpMarkdown, type StartUpResult } from './start-up.ts';
import { migrationBench, migrationLine, migrationMarkdown, type MigrationBenchResult } from './migration.ts';

const root = new URL('..', import.meta.url).pathname;
const args = new Set(process.argv.slice(2));
const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = 3;

/** The run with the median throughput, with the spread of all of them. */
function medianRun(runs: LoadResult[]): LoadResult & { spread: [number, number] } {
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  return { ...sorted[Math.floor(sorted.length / 2)]!, spread: [sorted[0]!.rps, sorted.at(-1)!.rps] };
}

// The listed public pages (SPEC §2), and the sign-in page Lighthouse audits too.
const staticRoutes = [...publicRoutes, '/login'];

async function startBare(file: string, type: string, headersFile?: string): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, [join(root, 'bench/bare-server.ts'), file, type, ...(headersFile ? [headersFile] : [])], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve) => child.stdout!.once('data', (d) => resolve(String(d).trim())));
  return { child, origin: `http://127.0.0.1:${port}` };
}

interface LoadGroup {
  name: string;
  site: LoadResult & { spread: [number, number] };
  bare: LoadResult & { spread: [number, number] };
  floor?: LoadResult & { spread: [number, number] };
}

/** bench/floor-server.ts on the site's own database file. */
async function startFloor(db: string): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, [join(root, 'bench/floor-server.ts'), db], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout!.once('data', (d) => resolve(String(d).trim())));
  return { child, origin: `http://127.0.0.1:${port}` };
}

async function publishToVisible(origin: string, token: string, runs: number): Promise<number[]> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const times: number[] = [];
  await fetch(`${origin}/`); // stored before the change, as a visitor would have it
  for (let i = 0; i < runs; i++) {
    const title = `Bench publish ${Date.now()} ${i}`;
    const res = await fetch(`${origin}/api/admin/blog-posts`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title, excerpt: 'x', content: '<p>x</p>', category: 'probate', isPublished: true }),
    });
    if (res.status !== 201) throw new Error(`publish answered ${res.status}`);
    const returned = performance.now();
    const post = (await res.json()) as { id: string };
    for (;;) {
      if ((await (await fetch(`${origin}/`)).text()).includes(title)) break;
      if (performance.now() - returned > 10_000) throw new Error('not visible after 10 s');
    }
    times.push(Math.round((performance.now() - returned) * 10) / 10);
    await fetch(`${origin}/api/admin/blog-posts/${post.id}`, { method: 'DELETE', headers });
  }
  return times;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  buildIfNeeded();
  const dir = mkdtempSync(join(tmpdir(), 'firm-bench-'));
  const report: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version },
  };
  const { child, origin, coldStartMs } = await startSite(dir);
  try {
    report.coldStart = { ms: coldStartMs, rssMb: rssMb(child.pid!) };
    console.log(`cold start ${coldStartMs} ms, ${rssMb(child.pid!)} MB`);

    const posts = (await (await fetch(`${origin}/api/blog-posts`)).json()) as { slug: string }[];
    const articlePath = `/blog/${posts[0]!.slug}`;
    const routes = [...staticRoutes.slice(0, 8), articlePath, ...staticRoutes.slice(8)];

    const bytes: PageBytes[] = [];
    for (const path of routes) bytes.push(await pageBytes(origin, path));
    report.bytes = bytes;
    console.table(bytes);

    const token = await adminToken(origin, siteStore(dir), ADMIN_DOMAIN);
    const publish = await publishToVisible(origin, token, 7);
    report.publishToVisibleMs = { runs: publish, median: median(publish), max: Math.max(...publish) };
    console.log('publish to visible (ms):', publish.join(', '));

    // Whether ForgotPassword's answer time tells real usernames from unknown ones (decision 039).
    report.forgotPassword = await forgotPasswordBench(origin, join(dir, 'outbox'));
    console.log(forgotPasswordLine(report.forgotPassword as ForgotPasswordResult));

    const groups: LoadGroup[] = [];
    const floor = await startFloor(siteFiles(dir).SQLITE_PATH);
    const pairs: { name: string; path: string; type: string; floor?: boolean }[] = [
      { name: 'stored article page', path: articlePath, type: 'text/html; charset=utf-8' },
      { name: 'prerendered /about', path: '/about', type: 'text/html; charset=utf-8' },
      { name: 'GET /api/blog-posts', path: '/api/blog-posts', type: 'application/json', floor: true },
    ];
    try {
      for (const pair of pairs) {
        const sample = await fetch(origin + pair.path, { headers: { 'accept-encoding': 'identity' } });
        const body = Buffer.from(await sample.arrayBuffer());
        const file = join(dir, 'bare-body');
        writeFileSync(file, body);
        // The same headers too (but those node:http writes itself, and the request id, new each time).
        const perAnswer = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'content-type']);
        const sent = Object.fromEntries([...sample.headers].filter(([name]) => !perAnswer.has(name)));
        writeFileSync(join(dir, 'bare-headers.json'), JSON.stringify(sent));
        const bare = await startBare(file, pair.type, join(dir, 'bare-headers.json'));
        try {
          // Interleaved rounds, the median of each: the machine is shared, and its load drifts.
          const runs: Record<'site' | 'bare' | 'floor', LoadResult[]> = { site: [], bare: [], floor: [] };
          const options = { connections: CONNECTIONS, seconds: SECONDS };
          for (let round = 0; round < ROUNDS; round++) {
            runs.site.push(await load(pair.name, origin + pair.path, options));
            runs.bare.push(await load(`bare node:http, same ${body.length} bytes and headers`, bare.origin + pair.path, options));
            if (pair.floor) runs.floor.push(await load('floor: Hono + better-sqlite3, one prepared statement', floor.origin + pair.path, options));
          }
          const group: LoadGroup = {
            name: pair.name,
            site: medianRun(runs.site),
            bare: medianRun(runs.bare),
            ...(pair.floor ? { floor: medianRun(runs.floor) } : {}),
          };
          groups.push(group);
          console.log(
            `${pair.name}: ${group.site.rps} rps (p99 ${group.site.p99} ms) vs bare ${group.bare.rps} (p99 ${group.bare.p99} ms): ratio ${(group.site.rps / group.bare.rps).toFixed(2)}` +
              (group.floor ? `; floor ${group.floor.rps}: ratio ${(group.site.rps / group.floor.rps).toFixed(2)}` : ''),
          );
        } finally {
          bare.child.kill();
        }
      }
    } finally {
      floor.child.kill();
    }
    report.load = { connections: CONNECTIONS, seconds: SECONDS, groups };
    report.rssAfterLoadMb = rssMb(child.pid!);

    // Booking throughput and p99 under 50 concurrent clients (own API server, fresh database).
    report.booking = await runBookingBenches();

    // JavaScript before any interaction, in Chromium, at phone and desktop size.
    report.firstJs = await firstJs(origin, routes);
    console.table(report.firstJs);

    // Start-up: restarts on an existing database, beside the floor server.
    report.startUp = await startUpBench();
    console.log(startUpLine(report.startUp as StartUpResult));

    // Years of content: 1,000 and 5,000 published posts, each on a site of its own.
    const scale: ContentScaleResult[] = [];
    for (const posts of [1000, 5000]) {
      const result = await contentScaleBench(posts);
      console.log(contentScaleMarkdown([result]).at(-1));
      scale.push(result);
    }
    report.contentScale = scale;

    // Two containers behind Varnish (own database, containers and Varnish).
    const cdnUnavailable = await cdnBenchUnavailable();
    if (cdnUnavailable) console.log(`cdn: not measured: ${cdnUnavailable}`);
    report.cdn = cdnUnavailable ? { skipped: cdnUnavailable } : await cdnBench();

    // A rolling restart and a crash under a keyed write load: through Varnish, and one container alone.
    const fleetUnavailable = await fleetBenchUnavailable();
    report.fleet = fleetUnavailable ? { skipped: fleetUnavailable } : await fleetBench();
    if (!fleetUnavailable) console.log(fleetMarkdown(report.fleet as FleetBenchResult).join('\n'));

    // 100,000 rows to DynamoDB (dynalite) beside a plain BatchWriteItem loop.
    report.migration = await migrationBench();
    console.log(migrationLine(report.migration as MigrationBenchResult));

    if (!args.has('--no-lighthouse')) {
      const scores: LighthouseScores[] = [];
      await withChrome(async (port) => {
        for (const path of routes) {
          const s = await audit(port, origin, path);
          scores.push(s);
          console.log(
            `lighthouse ${path}: perf ${s.performance} a11y ${s.accessibility} bp ${s.bestPractices} seo ${s.seo}${s.failing.length ? `  (below 90: ${s.failing.join(', ')})` : ''}`,
          );
        }
      });
      report.lighthouse = scores;
    }
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  writeFileSync(join(root, 'bench/report.json'), JSON.stringify(report, null, 2) + '\n');
  writeFileSync(join(root, 'bench/report.md'), renderMarkdown(report));
  console.log('\nwrote bench/report.md and bench/report.json');
}

function renderMarkdown(r: Record<string, any>): string {
  const lines: string[] = [];
  lines.push('# Benchmark report', '');
  lines.push(`Run ${r.date} on ${r.machine.cpus} × ${r.machine.cpu}, ${r.machine.memoryGb} GB, Node ${r.machine.node}. Produced by \`npm run bench\`.`, '');
  lines.push(
    '## Start',
    '',
    `Cold start to a healthy /api/health (migrate, seed, identity service, site loaded, main pages rendered): **${r.coldStart.ms} ms**; resident memory ${r.coldStart.rssMb} MB after start, ${r.rssAfterLoadMb} MB after the load runs.`,
    '',
  );
  lines.push(
    '## Publish to visible',
    '',
    `An admin publishes a post; time from the admin call returning until the stored home page shows it: median **${r.publishToVisibleMs.median} ms**, max ${r.publishToVisibleMs.max} ms over ${r.publishToVisibleMs.runs.length} runs (goal under 1000 ms).`,
    '',
  );
  if (r.forgotPassword) lines.push(...forgotPasswordMarkdown(r.forgotPassword as ForgotPasswordResult), '');
  lines.push('## What each page ships', '', '| page | HTML | JS (raw / brotli) | JS files | CSS (raw / brotli) |', '|---|---:|---:|---:|---:|');
  for (const b of r.bytes as PageBytes[]) lines.push(`| ${b.path} | ${b.html} | ${b.js} / ${b.jsBrotli} | ${b.jsFiles} | ${b.css} / ${b.cssBrotli} |`);
  const row = (name: string, l: LoadResult & { spread?: [number, number] }) =>
    `| ${name} | ${l.rps} | ${l.spread ? `${l.spread[0]}-${l.spread[1]}` : ''} | ${l.p50} | ${l.p99} | ${l.errors} | ${l.non2xx} |`;
  lines.push(
    '',
    '## Load',
    '',
    `${r.load.connections} concurrent connections, ${r.load.seconds} s a run, ${ROUNDS} rounds interleaved in the same run: the site, a bare node:http server sending the same bytes and headers, and for the API list the floor (bench/floor-server.ts: Hono + better-sqlite3, one prepared statement). The median run of each, and the spread of req/s over the rounds. Logs quiet, as the bench starts the site.`,
    '',
    '| target | req/s (median) | spread | p50 ms | p99 ms | errors | non-2xx |',
    '|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const g of r.load.groups as LoadGroup[]) {
    lines.push(row(g.name, g.site), row(`bare node:http (${g.name})`, g.bare));
    if (g.floor) lines.push(row(`floor (${g.name})`, g.floor));
  }
  lines.push('');
  for (const g of r.load.groups as LoadGroup[])
    lines.push(
      `- ${g.name}: **${(g.site.rps / g.bare.rps).toFixed(2)}** of bare (p99 ${g.site.p99} ms, bare ${g.bare.p99} ms)${g.floor ? `; **${(g.site.rps / g.floor.rps).toFixed(2)}** of the floor` : ''}.`,
    );
  if (r.firstJs) lines.push('', ...firstJsMarkdown(r.firstJs as FirstJs[]));
  if (r.startUp) lines.push('', ...startUpMarkdown(r.startUp as StartUpResult));
  if (r.booking) lines.push('', ...bookingMarkdown(r.booking as BookingBenchResult[]));
  if (r.contentScale) lines.push('', ...contentScaleMarkdown(r.contentScale as ContentScaleResult[]));
  if (r.cdn) lines.push('', ...cdnMarkdown(r.cdn as CdnBenchReport));
  if (r.fleet && !r.fleet.skipped) lines.push('', '## Restarts and crashes', '', ...fleetMarkdown(r.fleet as FleetBenchResult));
  if (r.migration) lines.push('', ...migrationMarkdown(r.migration as MigrationBenchResult));
  if (r.lighthouse) {
    lines.push(
      '',
      '## Lighthouse (mobile)',
      '',
      '| page | performance | accessibility | best practices | SEO | LCP ms | TBT ms | CLS |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const s of r.lighthouse as LighthouseScores[])
      lines.push(`| ${s.path} | ${s.performance} | ${s.accessibility} | ${s.bestPractices} | ${s.seo} | ${s.lcpMs} | ${s.tbtMs} | ${s.cls} |`);
  }
  lines.push('');
  return lines.join('\n');
}

await main();
