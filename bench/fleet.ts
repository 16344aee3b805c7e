/**
 * What visitors see while the fleet is restarted or a container crashes: a keyed write load (bookings
 * and messages with Idempotency-Keys, as the islands send them, 4 clients that go on after a failure)
 *   - through the shipped Varnish (its example probe) in front of two containers on one PostgreSQL
 *     database: a rolling SIGTERM restart of both, then a kill -9 of one (restarted 3 s later);
 *   - beside it, in the same run, the same load and the same events on one container without Varnish.
 * For each: requests sent, failed (not 2xx, or the connection refused or reset), and, through Varnish,
 * the fetches it sent again to the other container (MAIN.fetch_failed).
 * Part of `npm run bench`; alone: `node bench/fleet.ts` (needs Varnish with xkey and PostgreSQL).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { startVarnish, varnishMissing, type Varnish } from '../scripts/varnish.ts';
import { booking, contact, futureSlots, send, startServerProcess, type Operation, type ServerProcess } from '../tests/support/server-process.ts';
import { scratchPostgres } from './booking.ts';

const SERVER_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const CLIENTS = 4;

export interface FleetRun {
  sent: number;
  failed: number;
  /** Through Varnish: fetches from a container that failed and were sent to another (or answered 503). */
  refetched?: number;
}
export interface FleetBenchResult {
  rollingRestart: { varnish: FleetRun; single: FleetRun };
  crash: { varnish: FleetRun; single: FleetRun };
}

export const fleetBenchUnavailable = async () => varnishMissing();

/** Clients that send keyed writes until stopped, counting every failure and carrying on after it. */
function writeLoad(url: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const ops: Operation[] = futureSlots(20_000, 14)
    .flatMap((slot) => [booking(slot), contact()])
    .map((op) => ({ ...op, key: crypto.randomUUID() }));
  let stopped = false;
  const run: FleetRun = { sent: 0, failed: 0 };
  const clients = Array.from({ length: CLIENTS }, async () => {
    for (let op = ops.shift(); op && !stopped; op = ops.shift()) {
      run.sent++;
      const ok = await send(url, agent, op).then(
        (answer) => answer.status >= 200 && answer.status < 300,
        () => false,
      );
      if (!ok) {
        run.failed++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  });
  return {
    async stop() {
      stopped = true;
      await Promise.all(clients);
      agent.destroy();
      return run;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function fleet(databaseUrl: string, count: number) {
  const env = { DATABASE_URL: databaseUrl, SECRETS_KEY: randomBytes(32).toString('base64'), SHUTDOWN_GRACE_MS: '5000' };
  const servers: ServerProcess[] = [];
  for (let i = 0; i < count; i++) servers.push(await startServerProcess(env));
  const ports = servers.map((server) => new URL(server.url).port);
  return {
    servers,
    async restart(i: number, how: 'SIGTERM' | 'SIGKILL', cdn?: Varnish) {
      servers[i]!.child.kill(how);
      await servers[i]!.exited;
      if (how === 'SIGKILL') await sleep(3000);
      servers[i] = await startServerProcess({ ...env, PORT: ports[i]! });
      for (let waited = 0; cdn && waited < 20_000; waited += 200) {
        if (Object.values(await cdn.backendHealth()).every(Boolean)) break;
        await sleep(200);
      }
    },
    async stop() {
      for (const server of servers) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
    },
  };
}

async function scenario(kind: 'rollingRestart' | 'crash', behindVarnish: boolean): Promise<FleetRun> {
  const database = await scratchPostgres(SERVER_URL, 'firm_bench_fleet');
  const containers = await fleet(database.url, behindVarnish ? 2 : 1);
  const cdn = behindVarnish ? await startVarnish({ backends: containers.servers.map((s) => s.url) }) : undefined;
  try {
    const before = await cdn?.stats();
    const load = writeLoad(cdn?.url ?? containers.servers[0]!.url);
    await sleep(1000);
    if (kind === 'rollingRestart') for (const i of containers.servers.keys()) await containers.restart(i, 'SIGTERM', cdn);
    else await containers.restart(0, 'SIGKILL', cdn);
    await sleep(1000);
    const run = await load.stop();
    if (cdn && before) run.refetched = (await cdn.stats()).failedFetches - before.failedFetches;
    return run;
  } finally {
    await cdn?.stop();
    await containers.stop();
    await database.drop();
  }
}

export async function fleetBench(): Promise<FleetBenchResult> {
  return {
    rollingRestart: { varnish: await scenario('rollingRestart', true), single: await scenario('rollingRestart', false) },
    crash: { varnish: await scenario('crash', true), single: await scenario('crash', false) },
  };
}

export function fleetMarkdown(result: FleetBenchResult): string[] {
  const row = (what: string, run: FleetRun) => `| ${what} | ${run.sent} | ${run.failed} | ${run.refetched ?? '–'} |`;
  return [
    '| keyed writes, 4 clients | sent | failed | sent again by Varnish |',
    '|---|---:|---:|---:|',
    row('rolling SIGTERM restart, two containers behind Varnish', result.rollingRestart.varnish),
    row('the same restart, one container, no Varnish', result.rollingRestart.single),
    row('kill -9 of one container behind Varnish (back 3 s later)', result.crash.varnish),
    row('the same kill, one container, no Varnish', result.crash.single),
  ];
}

if (import.meta.main) {
  const missing = await fleetBenchUnavailable();
  if (missing) {
    console.log(`fleet: not measured: ${missing}`);
  } else {
    const result = await fleetBench();
    console.log(fleetMarkdown(result).join('\n'));
  }
}
