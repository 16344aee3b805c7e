/**
 * With the real server as a child process, on SQLite and PostgreSQL:
 * - `kill -9` in the middle of a booking and contact load, then a restart on the same database: every
 *   request that was answered 2xx is stored (by id, with what was sent), no slot was answered 2xx twice,
 *   and nothing is half stored (an appointment without its slot claims, or claims without their
 *   appointment). Requests in flight at the kill may or may not be stored.
 * - SIGTERM drains: requests in flight when it arrives are all answered and stored, new connections
 *   are refused meanwhile, and the process exits 0; a request that never finishes makes it give up at
 *   the deadline, exit non-zero and say so; a backlog of mail to deliver does not hold it (the
 *   delivery run stops after the delivery in hand, the rest waits for the next start).
 * - kill -9 with Idempotency-Keys (decision 016): after a restart, every request sent again with its
 *   key ends stored exactly once: an answered one gets its first answer again, one cut off by the kill
 *   gets the answer of its commit if it had one (a booking is not refused for its own slot), or is
 *   done now.
 * - SIGTERM behind a load balancer (decision 016): with SHUTDOWN_GRACE_MS, /api/health turns 503 at
 *   once while the server keeps accepting and answering for the grace period, so a steady stream of
 *   requests, sent until the balancer has seen the 503 and a while after, loses none.
 */
import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SHUTDOWN_DEADLINE_MS } from '../../api/server.ts';
import { createTestContext } from '../support/test-app.ts';
import type { Dialect } from '../../db/client.ts';
import {
  answered,
  appointmentFields,
  booking,
  contact,
  contactFields,
  drive,
  futureSlots,
  send,
  halfStored,
  logLines,
  ok,
  pathOf,
  sentBooking,
  serverDatabase,
  serverTracker,
  stored,
  type Booking,
  type Operation,
  type ServerDatabase,
} from '../support/server-process.ts';

const { start, killAll } = serverTracker();
afterEach(killAll);

/** Each scenario runs on each dialect, with a fresh database. */
function perDialect(name: string, suite: (database: () => ServerDatabase, dialect: Dialect) => void) {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    describe(`${name} [${dialect}]`, () => {
      let database: ServerDatabase | undefined;
      beforeAll(async () => {
        database = await serverDatabase(dialect);
      });
      afterAll(async () => {
        await database?.drop();
      });
      suite(() => database!, dialect);
    });
  }
}

const CLIENTS = 32;
const SLOTS = 260;
/** The kill comes after this many 2xx answers: well before the load's end (SLOTS * 2 bookings and SLOTS / 2 contacts). */
const KILL_AFTER = 120;

perDialect('kill -9 during a booking and contact load', (database) => {
  it('every 2xx is stored with its fields after a restart, no slot answered 2xx twice, nothing half stored', { timeout: 120_000 }, async () => {
    const slots = futureSlots(SLOTS, 60);
    // Each slot is asked for twice, one right after the other (two clients race for it), and a
    // message is sent between every few bookings.
    const ops: Operation[] = [];
    for (const [i, slot] of slots.entries()) {
      ops.push(booking(slot), booking(slot));
      if (i % 4 === 3) ops.push(contact(), contact());
    }

    const first = await start(database());
    let successes = 0;
    let killed = false;
    const phase1 = await drive(
      first.url,
      ops,
      CLIENTS,
      (outcome) => {
        if ('status' in outcome && outcome.status < 300 && ++successes === KILL_AFTER) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      },
      () => killed,
    );
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // The kill came in the middle: answers before it, requests cut off by it, and work never sent.
    const lost = phase1.filter((o) => 'lost' in o);
    expect(ok(phase1).length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(lost.length).toBeGreaterThan(0);
    expect(phase1.length).toBeLessThan(ops.length);
    // Before the kill, everything was either a 2xx or, for the second of a pair, the slot's 409.
    for (const o of answered(phase1)) expect([201, 409], JSON.stringify(o.body)).toContain(o.status);

    // Restart on the same database: it opens (recovering what the kill left) and answers.
    const second = await start(database());
    const db = await database().open();
    const after = await stored(db);

    // Every booking answered 201 is stored, by id, exactly as sent; every message answered 201 too.
    const byId = new Map(after.appointments.map((a) => [a.id, a]));
    const contactsById = new Map(after.contacts.map((c) => [c.id, c]));
    for (const o of ok(phase1)) {
      expect(o.body.id, JSON.stringify(o.body)).toEqual(expect.any(String));
      if (o.op.kind === 'booking') {
        const row = byId.get(o.body.id as string);
        expect(row, `booking ${o.body.id} answered 201 but not stored`).toBeDefined();
        expect(appointmentFields(row!)).toEqual(sentBooking(o.op.body));
      } else {
        const row = contactsById.get(o.body.id as string);
        expect(row, `message ${o.body.id} answered 201 but not stored`).toBeDefined();
        expect(contactFields(row!)).toEqual(o.op.body);
      }
    }

    // Nothing half stored, and nothing stored that was not sent (an in-flight request is stored whole or not at all).
    expect(halfStored(after)).toEqual([]);
    const sentBookings = ops.filter((op): op is Booking => op.kind === 'booking').map((op) => JSON.stringify(sentBooking(op.body)));
    for (const a of after.appointments) expect(sentBookings).toContain(JSON.stringify(appointmentFields(a)));
    const sentContacts = ops.filter((op) => op.kind === 'contact').map((op) => JSON.stringify(op.body));
    for (const c of after.contacts) expect(sentContacts).toContain(JSON.stringify(contactFields(c)));

    // The restarted server judges every slot again against what survived: a slot stored before the
    // kill is refused (its claim held), a free one is booked. No slot is ever answered 2xx twice.
    const phase2 = await drive(
      second.url,
      slots.map((slot) => booking(slot)),
      8,
      () => {},
    );
    expect(phase2.filter((o) => 'lost' in o)).toEqual([]);
    const storedSlots = new Set(after.appointments.map((a) => a.scheduledDate.toISOString()));
    for (const o of answered(phase2)) {
      const slot = (o.op as Booking).slot;
      expect(o.status, `${slot} after the restart`).toBe(storedSlots.has(slot) ? 409 : 201);
    }
    const wins = new Map<string, number>();
    for (const o of [...ok(phase1), ...ok(phase2)]) if (o.op.kind === 'booking') wins.set(o.op.slot, (wins.get(o.op.slot) ?? 0) + 1);
    expect([...wins].filter(([, n]) => n > 1)).toEqual([]);
    // A slot never answered 2xx was stored by a booking cut off by the kill (committed, its answer lost).
    const cutOff = new Set(lost.map((o) => JSON.stringify(o.op.kind === 'booking' ? sentBooking(o.op.body) : o.op.body)));
    for (const slot of slots.filter((s) => !wins.has(s))) {
      const row = after.appointments.find((a) => a.scheduledDate.toISOString() === slot);
      expect(row && cutOff.has(JSON.stringify(appointmentFields(row))), `${slot} has no 2xx and no booking cut off by the kill`).toBe(true);
    }
    // In the end every slot holds exactly one appointment, and still nothing is half stored.
    const final = await stored(db);
    expect(final.appointments.length).toBe(SLOTS);
    expect(new Set(final.appointments.map((a) => a.scheduledDate.toISOString())).size).toBe(SLOTS);
    expect(halfStored(final)).toEqual([]);

    second.child.kill('SIGTERM');
    expect(await second.exited, second.stderr.join('\n')).toEqual({ code: 0, signal: null });
  });
});

perDialect('kill -9 during a load with Idempotency-Keys, then every request sent again with its key', (database) => {
  it('each ends stored exactly once, answered 201; answered ones get their first answer back', { timeout: 120_000 }, async () => {
    const slots = futureSlots(120, 150);
    const ops: Operation[] = [];
    for (const [i, slot] of slots.entries()) {
      ops.push({ ...booking(slot), key: crypto.randomUUID() });
      if (i % 2 === 1) ops.push({ ...contact(), key: crypto.randomUUID() });
    }
    const first = await start(database());
    let successes = 0;
    let killed = false;
    const phase1 = await drive(
      first.url,
      ops,
      16,
      (outcome) => {
        if ('status' in outcome && outcome.status < 300 && ++successes === 60) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      },
      () => killed,
    );
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const lost = phase1.filter((o) => 'lost' in o);
    expect(lost.length).toBeGreaterThan(0);

    // The visitors' islands send each submission again, with its key, to the restarted server.
    const second = await start(database());
    const phase2 = await drive(second.url, ops, 8, () => {});
    expect(phase2.filter((o) => 'lost' in o)).toEqual([]);
    const again = new Map(answered(phase2).map((o) => [o.op, o]));
    for (const op of ops) expect(again.get(op)?.status, `${op.kind} ${JSON.stringify(again.get(op)?.body)}`).toBe(201);
    for (const o of ok(phase1)) expect(again.get(o.op)!.body).toEqual(o.body);

    // Exactly one row per submission, the one its answers name.
    const db = await database().open();
    const after = await stored(db);
    for (const op of ops) {
      const rows =
        op.kind === 'booking' ? after.appointments.filter((a) => a.email === op.body.email) : after.contacts.filter((c) => c.email === op.body.email);
      expect(
        rows.map((r) => r.id),
        `${op.kind} ${op.body.email}`,
      ).toEqual([again.get(op)!.body.id]);
    }
    expect(halfStored(after)).toEqual([]);
    second.child.kill('SIGTERM');
    expect(await second.exited, second.stderr.join('\n')).toEqual({ code: 0, signal: null });
  });
});

/** A POST that announces its body (Expect: 100-continue) and sends it only when told to. */
interface HeldRequest {
  op: Operation;
  /** Resolves once the server has read the request's headers: it is in flight. */
  inFlight: Promise<void>;
  /** Sends the body; resolves with the answer. */
  finish(): Promise<{ status: number; body: Record<string, unknown>; connection: string | undefined }>;
}
function holdRequest(url: string, agent: http.Agent, op: Operation): HeldRequest {
  const req = http.request(`${url}${pathOf(op)}`, { method: 'POST', agent, headers: { 'content-type': 'application/json', expect: '100-continue' } });
  const response = new Promise<{ status: number; body: Record<string, unknown>; connection: string | undefined }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, connection: res.headers.connection }),
      );
    });
    req.on('error', reject);
  });
  response.catch(() => {}); // reported by finish()
  const inFlight = new Promise<void>((resolve, reject) => {
    req.once('continue', () => resolve());
    req.once('error', reject);
  });
  req.flushHeaders();
  return {
    op,
    inFlight,
    finish() {
      req.end(JSON.stringify(op.body));
      return response;
    },
  };
}

/** Resolves with the error code of a new connection to `url` (or 'connected'). */
const connectOutcome = (url: string) =>
  new Promise<string>((resolve) => {
    const req = http.get(`${url}/api/health`, { agent: false }, (res) => {
      res.resume();
      resolve('connected');
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });

const IN_FLIGHT = 50;

perDialect('SIGTERM', (database) => {
  it(`drains: ${IN_FLIGHT} requests in flight are all answered 2xx and stored, new connections are refused, the process exits 0`, {
    timeout: 60_000,
  }, async () => {
    // With its logs on: the shutdown announces itself, and its lines are checked for personal data.
    const server = await start(database(), { LOG_QUIET: 'false' });
    const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
    const slots = futureSlots(IN_FLIGHT / 2, 90);
    const ops: Operation[] = [...slots.map((slot) => booking(slot)), ...slots.map(() => contact())];
    const held = ops.map((op) => holdRequest(server.url, agent, op));
    await Promise.all(held.map((h) => h.inFlight));

    server.child.kill('SIGTERM');
    const shuttingDown = JSON.parse(await server.waitForLine((line) => line.includes('"msg":"shutting down"'))) as { requestsInFlight: number };
    expect(shuttingDown.requestsInFlight).toBe(IN_FLIGHT);
    expect(await connectOutcome(server.url)).toBe('ECONNREFUSED');

    const answers = await Promise.all(held.map((h) => h.finish()));
    expect(answers.map((a) => a.status)).toEqual(ops.map(() => 201));
    // Keep-alive clients are told to let go, so the process need not wait for their timeout.
    expect(answers.map((a) => a.connection)).toEqual(ops.map(() => 'close'));
    expect(await server.exited, server.stderr.join('\n')).toEqual({ code: 0, signal: null });
    agent.destroy();

    const db = await database().open();
    const after = await stored(db);
    for (const [i, answer] of answers.entries()) {
      const op = ops[i]!;
      if (op.kind === 'booking') expect(appointmentFields(after.appointments.find((a) => a.id === answer.body.id)!)).toEqual(sentBooking(op.body));
      else expect(contactFields(after.contacts.find((c) => c.id === answer.body.id)!)).toEqual(op.body);
    }
    expect(halfStored(after)).toEqual([]);

    const lines = logLines(server.stdout);
    expect(lines.filter((l) => l.msg === 'request' && l.method === 'POST')).toHaveLength(IN_FLIGHT);
    expect(lines.at(-1)).toMatchObject({ msg: 'stopped' });
    // No personal data in anything the process wrote.
    const output = [...server.stdout, ...server.stderr].join('\n');
    for (const op of ops) for (const value of [op.body.email, op.body.firstName, op.body.notes ?? op.body.message]) expect(output).not.toContain(String(value));
  });
});

/** A load balancer's health check: a new connection each time; the status, or the connection's error. */
const checkHealth = (url: string) =>
  new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
    const req = http.get(`${url}/api/health`, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
  });

/** Well above the balancer's lag plus a slow health check on a busy machine (2 s failed once in a full run). */
const GRACE_MS = 4_000;
/** How long the balancer keeps routing after its first failed check (its unhealthy threshold). */
const BALANCER_LAG_MS = 600;
const STREAM_CLIENTS = 8;

perDialect('SIGTERM behind a load balancer', (database) => {
  it(`keeps serving for SHUTDOWN_GRACE_MS while /api/health answers 503: no request sent before or during the grace is lost, the process exits 0`, {
    timeout: 60_000,
  }, async () => {
    const server = await start(database(), { LOG_QUIET: 'false', SHUTDOWN_GRACE_MS: String(GRACE_MS) });
    const t0 = performance.now();
    const at = () => performance.now() - t0;

    // The balancer: a health check every 100 ms; it routes until BALANCER_LAG_MS after the first 503.
    const checks: { at: number; result: Awaited<ReturnType<typeof checkHealth>> }[] = [];
    let routing = true;
    let firstUnhealthy: number | null = null;
    const balancer = (async () => {
      for (;;) {
        const result = await checkHealth(server.url);
        checks.push({ at: at(), result });
        if ('error' in result) return void (routing = false); // down: it stops routing at once
        if (result.status === 503 && firstUnhealthy === null) {
          firstUnhealthy = at();
          setTimeout(() => (routing = false), BALANCER_LAG_MS);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    // A steady stream of messages over keep-alive connections, as a balancer's pool sends them.
    const agent = new http.Agent({ keepAlive: true, maxSockets: STREAM_CLIENTS });
    const sent: { op: Operation; sentAt: number; answer?: { status: number; body: Record<string, unknown> }; lost?: string }[] = [];
    let answeredCount = 0;
    const stream = Promise.all(
      Array.from({ length: STREAM_CLIENTS }, async () => {
        while (routing) {
          const entry: (typeof sent)[number] = { op: contact(), sentAt: at() };
          sent.push(entry);
          try {
            entry.answer = await send(server.url, agent, entry.op);
            answeredCount++;
          } catch (err) {
            entry.lost = (err as NodeJS.ErrnoException).code ?? String(err);
          }
        }
      }),
    );
    while (answeredCount < 100) await new Promise((resolve) => setTimeout(resolve, 20));

    const signalledAt = at();
    server.child.kill('SIGTERM');
    await stream;
    const exited = await server.exited;
    const exitedAt = at();
    await balancer;
    agent.destroy();
    expect(exited, server.stderr.join('\n')).toEqual({ code: 0, signal: null });

    // Every request sent, before the signal and during the grace, got a whole answer: no reset, no refusal.
    expect(sent.filter((s) => s.lost).map((s) => `${s.lost} at ${Math.round(s.sentAt - signalledAt)} ms`)).toEqual([]);
    expect(sent.map((s) => s.answer?.status)).toEqual(sent.map(() => 201));
    const duringGrace = sent.filter((s) => s.sentAt > signalledAt);
    expect(duringGrace.length).toBeGreaterThan(STREAM_CLIENTS);

    // Health: 200 before the signal, 503 'unavailable' (nothing else said) soon after it, for the whole
    // grace, over new connections; refused only once the grace is over.
    const statusOf = (c: (typeof checks)[number]) => ('status' in c.result ? c.result.status : c.result.error);
    const turned = checks.findIndex((c) => statusOf(c) === 503);
    expect(checks.slice(0, turned).map(statusOf)).toEqual(checks.slice(0, turned).map(() => 200));
    expect(turned).toBeGreaterThan(0);
    const unhealthy = checks.slice(turned, -1);
    expect(unhealthy.map((c) => c.result)).toEqual(unhealthy.map(() => ({ status: 503, body: JSON.stringify({ status: 'unavailable' }) })));
    expect(firstUnhealthy! - signalledAt).toBeLessThan(1000);
    // Still answered (on new connections) well after the balancer stopped sending.
    expect(unhealthy.at(-1)!.at - signalledAt).toBeGreaterThan(GRACE_MS - 600);
    // The check that found it gone: refused, or reset when its connection met the listener closing.
    expect(['ECONNREFUSED', 'ECONNRESET']).toContain((checks.at(-1)!.result as { error?: string }).error);
    expect(exitedAt - signalledAt).toBeGreaterThanOrEqual(GRACE_MS);

    // Every message answered 201 is stored, and the process said what it was doing.
    const db = await database().open();
    const ids = new Set((await stored(db)).contacts.map((c) => c.id));
    for (const s of sent) expect(ids.has(s.answer!.body.id as string)).toBe(true);
    const lines = logLines(server.stdout);
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'draining', graceMs: GRACE_MS }));
    expect(lines.findIndex((l) => l.msg === 'draining')).toBeLessThan(lines.findIndex((l) => l.msg === 'shutting down'));
    expect(lines.at(-1)).toMatchObject({ msg: 'stopped' });
  });
});

describe('SIGTERM with a request that never finishes', () => {
  let database: ServerDatabase;
  beforeAll(async () => {
    database = await serverDatabase('sqlite');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('gives up at the deadline: exits non-zero and logs why', { timeout: SHUTDOWN_DEADLINE_MS + 30_000 }, async () => {
    const server = await start(database);
    const agent = new http.Agent({ keepAlive: true });
    const stalled = holdRequest(server.url, agent, contact());
    await stalled.inFlight;
    server.child.kill('SIGTERM');
    // The body is never sent: the server cannot answer, so only the deadline ends the process.
    expect(await server.exited).toEqual({ code: 1, signal: null });
    const errors = logLines(server.stderr);
    expect(errors).toContainEqual(
      expect.objectContaining({ level: 'error', msg: 'shutdown deadline passed: exiting with work unfinished', signal: 'SIGTERM' }),
    );
    agent.destroy();
  });
});

describe('SIGTERM with a backlog of mail to deliver', () => {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    it(`stops the delivery run after the delivery in hand; the rest stays queued for the next start [${dialect}]`, async () => {
      const ctx = await createTestContext(dialect);
      try {
        ctx.clock.set('2030-04-01T16:00:00.000Z');
        // 30 bookings queue their confirmations and the firm's notifications.
        const days = ['2030-04-08', '2030-04-09', '2030-04-10'];
        for (const [n, date] of days
          .flatMap((d) => ['09:00', '10:00', '11:00', '13:00', '14:00', '15:00', '16:00', '09:30', '10:30', '11:30'].map((t) => `${d}T${t}:00-07:00`))
          .entries()) {
          const res = await ctx.call('POST', '/api/appointments', { body: { ...booking('').body, scheduledDate: date, notes: `Backlog ${n}` } });
          expect(res.status, JSON.stringify(res.body)).toBe(201);
        }
        const { db, t } = ctx.database;
        const queued = (await db.select().from(t.deliveries)).filter((d) => d.status === 'pending').length;
        expect(queued).toBeGreaterThanOrEqual(30);

        const run = ctx.background.runDeliveries();
        await ctx.background.stop();
        const delivered = await run;
        // Without the stop, one run delivers the whole backlog (and a shutdown would wait for all of it).
        expect(delivered).toBeLessThan(queued);
        const pending = (await db.select().from(t.deliveries)).filter((d) => d.status === 'pending').length;
        expect(pending).toBe(queued - delivered);
      } finally {
        await ctx.background.stop();
        await ctx.database.drop();
      }
    });
  }
});
