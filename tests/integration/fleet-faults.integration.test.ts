/**
 * What production does to the fleet (decision 017, "what each fault does"), with two real server
 * processes on one PostgreSQL database under a booking and contact load, checking afterwards that
 * every write answered 2xx is stored exactly once:
 * - every backend connection of the site terminated again and again (a failover, an idle timeout, a
 *   pgbouncer or RDS restart does this): no process dies, a request cut off answers 503 with
 *   Retry-After (reads are sent again inside the server), and both answer again at once.
 * - through the shipped Varnish configuration and its example probe, a rolling SIGTERM restart of both
 *   containers and a kill -9 of one: no visitor's request fails (none answered 5xx, none reset), since
 *   readiness turns 503 before a container stops and Varnish sends a request whose container died to
 *   the other (the load's writes carry Idempotency-Keys, as the islands' do).
 * - a body over the limit: refused with 413 and the connection closed, so no pooled connection (a
 *   CDN's to its backend) is left with the unread rest of it in front of the next request.
 * - the disk filling up under a SQLite site (its file on a small file system of its own): readiness
 *   turns 503 within 2 s of the first refused write while liveness stays 200, writes answer 503 (try
 *   again) and store nothing, and once space is freed it is ready again and writes go through.
 */
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { Database } from '../../db/client.ts';
import {
  answered,
  appointmentFields,
  booking,
  contact,
  contactFields,
  drive,
  futureSlots,
  getOnce,
  halfStored,
  ok,
  sentBooking,
  serverDatabase,
  serverTracker,
  startServerProcess,
  stored,
  type Operation,
  type ServerDatabase,
} from '../support/server-process.ts';
import { testDatabaseUrl } from '../support/test-database.ts';
import { startVarnish, type Varnish } from '../../scripts/varnish.ts';

const { running, start, track, killAll } = serverTracker();
afterEach(killAll);

/** Every answered write is stored once, with what was sent; nothing half stored. */
async function everyAcknowledgedWriteStored(database: Database, outcomes: Awaited<ReturnType<typeof drive>>) {
  const rows = await stored(database);
  expect(halfStored(rows)).toEqual([]);
  const appointments = new Map(rows.appointments.map((a) => [a.id, a]));
  const contacts = new Map(rows.contacts.map((c) => [c.id, c]));
  for (const { op, body } of ok(outcomes)) {
    const id = body.id as string;
    if (op.kind === 'booking') expect(appointmentFields(appointments.get(id)!), id).toEqual(sentBooking(op.body));
    else expect(contactFields(contacts.get(id)!), id).toEqual(op.body);
  }
  // Exactly once: no second row for an acknowledged write (bookings by slot, messages by text).
  const slots = rows.appointments.map((a) => a.scheduledDate.toISOString());
  expect(new Set(slots).size).toBe(slots.length);
  const messages = rows.contacts.map((c) => c.message);
  expect(new Set(messages).size).toBe(messages.length);
}

describe('PostgreSQL connections cut under load', () => {
  let database: ServerDatabase;
  beforeAll(async () => {
    database = await serverDatabase('postgres');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('two containers survive every backend connection terminated, repeatedly, and lose no acknowledged write', async () => {
    const servers = [await start(database), await start(database)];
    const name = new URL(database.env.DATABASE_URL!).pathname.slice(1);
    const killer = new pg.Client({ connectionString: testDatabaseUrl });
    await killer.connect();
    const ops: Operation[] = futureSlots(600, 14).flatMap((slot) => [booking(slot), contact()]);
    let stop = false;
    let rounds = 0;
    const terminating = (async () => {
      // Twelve rounds, a quarter of a second apart: connections in use, idle in the pool, and the
      // content bus's LISTEN connection are all cut, several times each.
      for (; rounds < 12 && !stop; rounds++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        await killer.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      }
    })();
    const loads = servers.map((server, i) =>
      drive(
        server.url,
        ops.filter((_, n) => n % 2 === i),
        4,
        () => {},
        () => stop,
      ),
    );
    await terminating;
    stop = true;
    const outcomes = (await Promise.all(loads)).flat();
    await killer.end();

    expect(rounds).toBe(12);
    for (const server of servers) {
      expect(running.has(server), `a server died: ${server.stderr.slice(-5).join('\n')}`).toBe(true);
      expect((await getOnce(`${server.url}/api/health`)).status).toBe(200);
    }
    // Connections were refused or reset by no server: every request was answered, and one cut off by a
    // lost connection says "try again" (503 with Retry-After), never "something went wrong" (500).
    expect(outcomes.filter((o) => 'lost' in o)).toEqual([]);
    expect(answered(outcomes).filter((o) => o.status !== 201 && o.status !== 503)).toEqual([]);
    expect(ok(outcomes).length).toBeGreaterThan(20);
    await everyAcknowledgedWriteStored(await database.open(), outcomes);
    // And both write again afterwards.
    for (const server of servers) {
      const after = await drive(server.url, [contact()], 1, () => {});
      expect(answered(after).map((o) => o.status)).toEqual([201]);
    }
  });
});

describe('the disk fills up under a SQLite site', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'firm-full-disk-'));
    // A file system of its own, so filling it fills nothing else (the tests run as root, as CI does).
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', dir]);
  });
  afterAll(() => {
    if (!dir) return;
    execFileSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('turns readiness 503 within 2 s of the first refused write, stores nothing half, and recovers when space is freed', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'firm-full-disk-keys-'));
    const env = { SQLITE_PATH: join(dir, 'site.db'), DATABASE_URL: '', SECRETS_KEY_FILE: join(outside, 'secrets.key'), OUTBOX_DIR: join(outside, 'outbox') };
    const server = track(await startServerProcess(env));
    expect((await getOnce(`${server.url}/api/health/ready`)).status).toBe(200);

    let stop = false;
    let firstRefusal = 0;
    const ops: Operation[] = futureSlots(3000, 14).flatMap((slot) => [booking(slot), contact()]);
    const load = drive(
      server.url,
      ops,
      4,
      (outcome) => {
        if ('status' in outcome && outcome.status === 503 && !firstRefusal) firstRefusal = Date.now();
      },
      () => stop,
    );

    // Fill every byte left.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const chunk = Buffer.alloc(256 * 1024, 1);
    let filled = 0;
    for (;;) {
      try {
        writeFileSync(join(dir, `filler-${filled++}`), chunk);
      } catch {
        break;
      }
    }
    for (let n = 0; n < 4096; n++) {
      try {
        writeFileSync(join(dir, `crumb-${n}`), Buffer.alloc(1024, 1));
      } catch {
        break;
      }
    }
    // Writes start failing once SQLite needs a page it cannot have (bounded: 30 s).
    for (let waited = 0; !firstRefusal && waited < 30_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(firstRefusal, 'no write was refused with the disk full').toBeGreaterThan(0);
    let unready = false;
    while (!unready && Date.now() - firstRefusal < 2000) {
      unready = (await getOnce(`${server.url}/api/health/ready`)).status === 503;
      if (!unready) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(unready, 'readiness still 200 2 s after the first refused write').toBe(true);
    expect((await getOnce(`${server.url}/api/health`)).status).toBe(200);

    // Space is freed: ready again, and writes go through.
    for (const name of (await import('node:fs')).readdirSync(dir)) if (/^(filler|crumb)-/.test(name)) rmSync(join(dir, name));
    let ready = false;
    for (let waited = 0; !ready && waited < 5000; waited += 100) {
      ready = (await getOnce(`${server.url}/api/health/ready`)).status === 200;
      if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(ready).toBe(true);
    stop = true;
    const outcomes = await load;
    expect(running.has(server), server.stderr.slice(-5).join('\n')).toBe(true);
    expect(outcomes.filter((o) => 'lost' in o)).toEqual([]);
    expect(answered(outcomes).filter((o) => o.status !== 201 && o.status !== 503)).toEqual([]);
    const after = await drive(server.url, [contact()], 1, () => {});
    expect(answered(after).map((o) => o.status)).toEqual([201]);

    const { openDatabase } = await import('../../db/client.ts');
    const reader = await openDatabase({ sqlitePath: env.SQLITE_PATH, migrate: false });
    try {
      await everyAcknowledgedWriteStored(reader, outcomes);
    } finally {
      await reader.close();
      server.child.kill('SIGTERM');
      await server.exited;
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('a body over the limit', () => {
  it('is refused with 413 and the connection closed, so the next request on a pooled connection is never read from its leftovers', async () => {
    const database = await serverDatabase('sqlite');
    try {
      const server = await start(database);
      const { port } = new URL(server.url);
      const socket = net.connect(Number(port), '127.0.0.1');
      const received: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => received.push(chunk));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.on('error', () => {});
      const body = 'x'.repeat(300 * 1024);
      socket.write(
        `POST /api/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n`,
      );
      socket.write(body.slice(0, 100 * 1024));
      await closed;
      const answer = Buffer.concat(received).toString('latin1');
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer.toLowerCase()).toContain('connection: close');
      // The server is fine, and a fresh connection is answered as usual.
      const after = await drive(server.url, [contact()], 1, () => {});
      expect(answered(after).map((o) => o.status)).toEqual([201]);
    } finally {
      await database.drop();
    }
  });
});

describe('restarts and crashes behind the CDN', () => {
  let database: ServerDatabase;
  let cdn: Varnish | undefined;
  beforeAll(async () => {
    database = await serverDatabase('postgres');
  });
  afterAll(async () => {
    await cdn?.stop();
    await database?.drop();
  });

  it('a rolling SIGTERM restart and a kill -9, under a keyed write load through Varnish: no request fails, every write stored once', async () => {
    // The production shutdown grace (decision 016): longer than the example probe needs to see a 503.
    const env = { SHUTDOWN_GRACE_MS: '5000' };
    const servers = [await start(database, env), await start(database, env)];
    const ports = servers.map((server) => new URL(server.url).port);
    cdn = await startVarnish({ backends: servers.map((server) => server.url) });
    const allHealthy = async () => {
      for (let waited = 0; waited < 20_000; waited += 200) {
        if (Object.values(await cdn!.backendHealth()).every(Boolean)) return;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error('a restarted container never passed the probe');
    };
    const restart = async (i: number) => {
      servers[i] = await start(database, { ...env, PORT: ports[i]! });
      await allHealthy();
    };

    let stop = false;
    const ops: Operation[] = futureSlots(1500, 14)
      .flatMap((slot) => [booking(slot), contact()])
      .map((op) => ({ ...op, key: crypto.randomUUID() }));
    const load = drive(
      cdn.url,
      ops,
      4,
      () => {},
      () => stop,
    );

    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const i of [0, 1]) {
      servers[i]!.child.kill('SIGTERM');
      expect((await servers[i]!.exited).code).toBe(0);
      await restart(i);
    }
    servers[0]!.child.kill('SIGKILL');
    await servers[0]!.exited;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await restart(0);
    stop = true;
    const outcomes = await load;

    expect(outcomes.filter((o) => 'lost' in o)).toEqual([]);
    expect(answered(outcomes).filter((o) => o.status !== 201)).toEqual([]);
    expect(ok(outcomes).length).toBeGreaterThan(50);
    await everyAcknowledgedWriteStored(await database.open(), outcomes);
  }, 180_000);
});
