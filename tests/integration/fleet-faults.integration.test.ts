/**
 * What production does to the fleet (decision 017, "what each fault does"), with two real server
 * processes on one PostgreSQL database under a booking and contact load, checking afterwards that
 * every write answered 2xx is stored exactly once:
 * - every backend connection of the site terminated again and again (a failover, an idle timeout, a
 *   pgbouncer or RDS restart does this): no process dies, a request cut off answers 503 with
 *   Retry-After (reads are sent again inside the server), and both answer again at once.
 */
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
  startServerProcess,
  stored,
  type Operation,
  type ServerDatabase,
  type ServerProcess,
} from '../support/server-process.ts';
import { testDatabaseUrl } from '../support/test-database.ts';

const running = new Set<ServerProcess>();
async function start(database: ServerDatabase, env: Record<string, string> = {}) {
  const server = await startServerProcess({ ...database.env, ...env });
  running.add(server);
  void server.exited.then(() => running.delete(server));
  return server;
}
afterEach(async () => {
  for (const server of running) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
});

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
