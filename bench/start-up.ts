/**
 * Start-up on a built site with an existing database (issue goal: under 1.5 s to healthy and under
 * 150 MB resident): the site started three times on one database, and the floor server
 * (floor-server.ts) on the same file, interleaved. For each start: time from spawn to a healthy
 * /api/health, resident memory then and 3 s later (when the main pages are rendered), and the
 * private part of it (RssAnon: without the node binary's own mapped pages, which every Node process
 * shares).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { siteFiles, startSite } from './site.ts';

export interface StartRun {
  ms: number;
  rssMb: number;
  settledRssMb: number;
  settledPrivateMb: number;
}
export interface StartUpResult {
  site: StartRun[];
  floor: StartRun[];
}

const root = new URL('..', import.meta.url).pathname;
const ROUNDS = 3;
const SETTLE_MS = 3000;

function memory(pid: number): { rss: number; anon: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)![1]);
  return { rss: Math.round(kb('VmRSS') / 1024), anon: Math.round(kb('RssAnon') / 1024) };
}

async function startFloor(db: string): Promise<{ child: ChildProcess; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, 'bench/floor-server.ts'), db], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout!.once('data', (d) => resolve(String(d).trim())));
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return { child, ms: Math.round(performance.now() - started) };
}

async function measure(start: () => Promise<{ child: ChildProcess; ms: number }>): Promise<StartRun> {
  const { child, ms } = await start();
  const atHealthy = memory(child.pid!);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const settled = memory(child.pid!);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return { ms, rssMb: atHealthy.rss, settledRssMb: settled.rss, settledPrivateMb: settled.anon };
}

export async function startUpBench(): Promise<StartUpResult> {
  const dir = mkdtempSync(join(tmpdir(), 'firm-bench-start-'));
  try {
    const site = () => startSite(dir).then(({ child, coldStartMs }) => ({ child, ms: coldStartMs }));
    await measure(site); // creates, migrates and seeds the database: what follows is a restart
    const result: StartUpResult = { site: [], floor: [] };
    for (let round = 0; round < ROUNDS; round++) {
      result.site.push(await measure(site));
      result.floor.push(await measure(() => startFloor(siteFiles(dir).SQLITE_PATH)));
    }
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export function startUpMarkdown(r: StartUpResult): string[] {
  const row = (name: string, runs: StartRun[]) =>
    `| ${name} | ${med(runs.map((x) => x.ms))} (${Math.min(...runs.map((x) => x.ms))}-${Math.max(...runs.map((x) => x.ms))}) | ${med(runs.map((x) => x.rssMb))} | ${med(runs.map((x) => x.settledRssMb))} | ${med(runs.map((x) => x.settledPrivateMb))} |`;
  return [
    '## Start-up',
    '',
    `A restart on a built site with an existing database, ${ROUNDS} rounds interleaved with the floor server (minimal Hono + better-sqlite3 on the same file). Medians, with the spread of the times. Goals: under 1,500 ms to healthy and under 150 MB resident.`,
    '',
    '| server | ms to healthy | MB resident at healthy | MB resident 3 s later | of which private |',
    '|---|---:|---:|---:|---:|',
    row('the site', r.site),
    row('floor', r.floor),
  ];
}

export const startUpLine = (r: StartUpResult) =>
  `start-up: site ${med(r.site.map((x) => x.ms))} ms / ${med(r.site.map((x) => x.settledRssMb))} MB, floor ${med(r.floor.map((x) => x.ms))} ms / ${med(r.floor.map((x) => x.settledRssMb))} MB`;
