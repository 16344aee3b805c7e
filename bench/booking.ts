/**
 * Booking under load: POST /api/appointments from 50 concurrent clients, against an API-only
 * server on a fresh database (so earlier bookings never get in the way).
 *   A. distinct free slots: every request a different weekday slot in the window, all should be 201s:
 *      throughput (req/s over the whole run) and latency (autocannon, like load.ts).
 *   B. the race: 50 clients send the same slot at the same moment, round after round; each round must
 *      give one 201 and 49 409s (the database's slot claims decide, docs/decisions/008).
 * Part of `npm run bench`; alone: `node bench/booking.ts` (SQLite; with BENCH_DATABASE_URL=postgres://…
 * also PostgreSQL, in a database created for the run and dropped after).
 */
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../api/server-flags.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { dayClosure, defaultBookingRules } from '../src/shared/booking/rules.ts';
import { addDays, firmInstant, firmToday } from '../src/shared/firm-time.ts';
import { timeSlots } from '../src/shared/constants.ts';

const root = new URL('..', import.meta.url).pathname;

export const BOOKING_CLIENTS = 50;

export interface BookingScenario {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** HTTP status -> count. */
  statuses: Record<string, number>;
  errors: number;
}

export interface BookingBenchResult {
  database: 'sqlite' | 'postgres';
  clients: number;
  /** The site's distinct-slot run per round (interleaved with the floor's), and their median by req/s. */
  distinct: BookingScenario;
  distinctRounds: BookingScenario[];
  /** bench/floor-booking.ts, the same requests in the same rounds. */
  floor: BookingScenario;
  floorRounds: BookingScenario[];
  race: BookingScenario & { rounds: number; roundsWithOneWinner: number };
}

/** Every bookable slot from firm tomorrow on, weekdays only, in order: as many as `count`. */
export function futureSlots(count: number, now = new Date()): string[] {
  const slots: string[] = [];
  for (let date = addDays(firmToday(now), 1); slots.length < count; date = addDays(date, 1)) {
    if (dayClosure(date, new Date(), defaultBookingRules)) continue; // a weekend, a holiday
    for (const time of timeSlots) if (slots.length < count) slots.push(firmInstant(date, time).toISOString());
  }
  return slots;
}

const booking = (n: number, scheduledDate: string) =>
  JSON.stringify({
    firstName: 'Bench',
    lastName: `Visitor ${n}`,
    email: `bench-${n}@example.com`,
    phone: '(619) 555-0100',
    consultationType: 'initial',
    practiceArea: 'estate-planning',
    notes: null,
    scheduledDate,
  });

const headers = { 'content-type': 'application/json' };

/**
 * A: `slots.length` bookings, each its own slot, `clients` at a time (each client sends its next
 * booking when its last is answered). Timed here from the first request to the last answer:
 * autocannon's fixed-amount runs end on its one-second ticks, which quantised a run of a few seconds.
 */
async function distinctSlots(origin: string, slots: string[], clients: number): Promise<BookingScenario> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const client = async () => {
    for (let n = next++; n < slots.length; n = next++) {
      const sent = performance.now();
      try {
        const res = await fetch(`${origin}/api/appointments`, { method: 'POST', headers, body: booking(n, slots[n]!) });
        await res.arrayBuffer();
        latencies.push(performance.now() - sent);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name: `${slots.length} bookings of distinct free slots`,
    requests: latencies.length,
    rps: Math.round(latencies.length / seconds),
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    statuses,
    errors,
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** B: `rounds` rounds of `clients` simultaneous bookings of one slot each. */
async function race(origin: string, slots: string[], clients: number): Promise<BookingBenchResult['race']> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let roundsWithOneWinner = 0;
  const started = performance.now();
  for (const [round, slot] of slots.entries()) {
    const answers = await Promise.all(
      Array.from({ length: clients }, async (_, n) => {
        const sent = performance.now();
        try {
          const res = await fetch(`${origin}/api/appointments`, { method: 'POST', headers, body: booking(round * clients + n, slot) });
          await res.arrayBuffer();
          latencies.push(performance.now() - sent);
          return res.status;
        } catch {
          errors++;
          return 0;
        }
      }),
    );
    const wins = answers.filter((s) => s === 201).length;
    const lost = answers.filter((s) => s === 409).length;
    if (wins === 1 && lost === clients - 1) roundsWithOneWinner++;
    for (const s of answers) statuses[s] = (statuses[s] ?? 0) + 1;
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name: `${slots.length} rounds of ${clients} clients racing for one slot`,
    requests: latencies.length,
    rps: Math.round(latencies.length / seconds),
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    statuses,
    errors,
    rounds: slots.length,
    roundsWithOneWinner,
  };
}

async function startApi(dir: string, databaseUrl: string | undefined): Promise<{ child: ChildProcess; origin: string }> {
  const port = 4900 + Math.floor(Math.random() * 90);
  // BENCH_PROFILE=<dir>: the server writes a CPU profile there when it stops (to see where a booking's time goes).
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...profile, 'api/server.ts', '--api-only'], {
    cwd: root,
    env: {
      ...process.env,
      ...SERVER_ENV,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl ?? '',
      SQLITE_PATH: join(dir, 'site.db'),
      SEED_SAMPLE_CONTENT: 'false',
      SECRETS_KEY_FILE: join(dir, 'secrets.key'),
      OUTBOX_DIR: join(dir, 'outbox'),
      LOG_QUIET: 'true',
      // Throughput of the work itself: 50 clients from one address would otherwise meet the per-client limits.
      RATE_LIMITS: 'off',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error('the API server exited during start');
    if (
      await fetch(`${origin}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return { child, origin };
}

/** bench/floor-booking.ts on its own database (a SQLite file in `dir`, or the PostgreSQL database `databaseUrl`). */
async function startFloor(dir: string, databaseUrl: string | undefined): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, ['bench/floor-booking.ts', databaseUrl ?? join(dir, 'floor.db')], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (data: Buffer) => resolve(data.toString().trim()));
    child.once('exit', () => reject(new Error('the floor booking server exited during start')));
  });
  return { child, origin: `http://127.0.0.1:${port}` };
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/** The round whose req/s is the median. */
const medianRound = (rounds: BookingScenario[]) => [...rounds].sort((a, b) => a.rps - b.rps)[Math.floor(rounds.length / 2)]!;

/** A database of its own (`<prefix>_<random>`) on the PostgreSQL server `url` names; dropped by the returned function. */
export async function scratchPostgres(url: string, prefix = 'firm_bench'): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const scoped = new URL(url);
  scoped.pathname = `/${name}`;
  return {
    url: scoped.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/**
 * Against a fresh API-only server on SQLite, or on PostgreSQL when a server URL is given, beside the
 * floor (bench/floor-booking.ts) on a database of its own: `rounds` interleaved rounds of distinct
 * slots (site, floor, site, floor…, each round new slots), then the race on the site.
 */
export async function bookingBench(
  options: { postgresUrl?: string; distinct?: number; raceRounds?: number; clients?: number; rounds?: number } = {},
): Promise<BookingBenchResult> {
  const clients = options.clients ?? BOOKING_CLIENTS;
  // Three rounds of 1,000 and the race fit in the booking window (a year of weekday slots, about
  // 3,300) on one database each.
  const distinct = options.distinct ?? 1000;
  const raceRounds = options.raceRounds ?? 20;
  const rounds = options.rounds ?? 3;
  const dir = mkdtempSync(join(tmpdir(), 'firm-bench-booking-'));
  const scratch = options.postgresUrl ? await scratchPostgres(options.postgresUrl) : null;
  const floorScratch = options.postgresUrl ? await scratchPostgres(options.postgresUrl, 'firm_floor') : null;
  const site = await startApi(dir, scratch?.url);
  const floor = await startFloor(dir, floorScratch?.url);
  try {
    const slots = futureSlots(distinct * rounds + raceRounds + 1);
    // Warm up both (first-request compilation) on a slot no run uses.
    await fetch(`${site.origin}/api/appointments/availability?date=${slots[0]!.slice(0, 10)}`);
    const distinctRounds: BookingScenario[] = [];
    const floorRounds: BookingScenario[] = [];
    for (let round = 0; round < rounds; round++) {
      const these = slots.slice(1 + round * distinct, 1 + (round + 1) * distinct);
      distinctRounds.push(await distinctSlots(site.origin, these, clients));
      floorRounds.push(await distinctSlots(floor.origin, these, clients));
    }
    return {
      database: scratch ? 'postgres' : 'sqlite',
      clients,
      distinct: medianRound(distinctRounds),
      distinctRounds,
      floor: medianRound(floorRounds),
      floorRounds,
      race: await race(site.origin, slots.slice(1 + rounds * distinct), clients),
    };
  } finally {
    await Promise.all([stop(site.child), stop(floor.child)]);
    await scratch?.drop();
    await floorScratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The report's section (bench/report.md). */
export function bookingMarkdown(results: BookingBenchResult[]): string[] {
  const clients = results[0]?.clients ?? BOOKING_CLIENTS;
  const lines = [
    '## Booking',
    '',
    `POST /api/appointments from ${clients} concurrent clients, against an API-only server on a fresh database (\`bench/booking.ts\`), beside the floor (\`bench/floor-booking.ts\`: validation, then the appointment, its claims and its two e-mail deliveries in one transaction, statements prepared once, nothing sent) in interleaved rounds, each round new slots. Distinct slots: every request a different free weekday slot (all should be 201); the median round by req/s, with every round's. Race: all clients send the same slot at once, round after round (each round should be one 201 and the rest 409). Goal: the site at 0.7 of the floor, p99 under 100 ms.`,
    '',
    '| database | scenario | requests | req/s (rounds) | p50 ms | p99 ms | statuses | errors |',
    '|---|---|---:|---:|---:|---:|---|---:|',
  ];
  const statusText = (s: Record<string, number>) =>
    Object.entries(s)
      .map(([code, n]) => `${n} × ${code}`)
      .join(', ');
  const row = (database: string, name: string, s: BookingScenario, rounds?: BookingScenario[]) =>
    `| ${database} | ${name} | ${s.requests} | ${s.rps}${rounds ? ` (${rounds.map((r) => r.rps).join(', ')})` : ''} | ${s.p50} | ${s.p99} | ${statusText(s.statuses)} | ${s.errors} |`;
  for (const r of results) {
    lines.push(row(r.database, `site: ${r.distinct.name}`, r.distinct, r.distinctRounds));
    lines.push(row(r.database, `floor: ${r.floor.name}`, r.floor, r.floorRounds));
    lines.push(row(r.database, `site: ${r.race.name}`, r.race));
  }
  lines.push('');
  for (const r of results)
    lines.push(
      `- ${r.database}: the site at **${(r.distinct.rps / r.floor.rps).toFixed(2)}** of the floor (median rounds); ${r.race.roundsWithOneWinner} of ${r.race.rounds} race rounds had exactly one winner.`,
    );
  return lines;
}

function printResult(r: BookingBenchResult) {
  console.log(
    `booking [${r.database}] distinct slots: site ${r.distinctRounds.map((s) => s.rps).join('/')} req/s (p99 ${r.distinct.p99} ms), floor ${r.floorRounds.map((s) => s.rps).join('/')} req/s (p99 ${r.floor.p99} ms): ${(r.distinct.rps / r.floor.rps).toFixed(2)} of the floor; ` +
      `race: ${r.race.rps} req/s, p50 ${r.race.p50} ms, p99 ${r.race.p99} ms, ${JSON.stringify(r.race.statuses)}, ${r.race.roundsWithOneWinner}/${r.race.rounds} rounds with one winner`,
  );
}

/** SQLite always; PostgreSQL too when BENCH_DATABASE_URL names a server. */
export async function runBookingBenches(): Promise<BookingBenchResult[]> {
  const results = [await bookingBench()];
  printResult(results[0]!);
  if (process.env.BENCH_DATABASE_URL) {
    results.push(await bookingBench({ postgresUrl: process.env.BENCH_DATABASE_URL }));
    printResult(results[1]!);
  }
  return results;
}

if (import.meta.main) {
  const results = await runBookingBenches();
  console.log(`\n${bookingMarkdown(results).join('\n')}`);
}
