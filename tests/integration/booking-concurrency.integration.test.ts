/**
 * Visitors racing for one slot, on SQLite and PostgreSQL. Exactly one
 * wins, the others get 409 with the modal's message, and nothing else is stored, whether the race runs
 * through one app, two apps on separate connections, or two processes (docs/decisions/008: the slot
 * claims' primary key is the lock, not anything in memory).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../api/app.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import { NOW } from '../support/appointment-requests.ts';
import { countRows, forEachDialect, testDeps, type TestContext } from '../support/test-app.ts';

const TAKEN = 'That time was just booked. Please choose another.';
const RACERS = 50;

const visitor = (n: number, scheduledDate: string, consultationType = 'initial') => ({
  firstName: `Visitor${n}`,
  lastName: 'Racer',
  email: `visitor${n}@example.com`,
  phone: null,
  consultationType,
  practiceArea: 'family-law',
  notes: null,
  scheduledDate,
});

async function post(app: App, body: unknown): Promise<{ status: number; body: { error?: string; id?: string } }> {
  const res = await app.request('/api/appointments', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { error?: string; id?: string } };
}

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

/**
 * The invariant, read straight from the appointments (not the claims): no two scheduled or confirmed
 * appointments overlap. Returns the overlapping pairs.
 */
async function overlaps(ctx: TestContext): Promise<string[]> {
  const { db, t } = ctx.database;
  const rows = await db
    .select()
    .from(t.appointments)
    .where(inArray(t.appointments.status, ['scheduled', 'confirmed']));
  const found: string[] = [];
  const sorted = rows.sort((a, b) => a.scheduledDate.getTime() - b.scheduledDate.getTime());
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i]!;
    for (let j = i + 1; j < sorted.length; j++) {
      const b = sorted[j]!;
      if (b.scheduledDate.getTime() >= a.scheduledDate.getTime() + a.duration * 60_000) break;
      found.push(`${a.scheduledDate.toISOString()} (${a.duration} min) overlaps ${b.scheduledDate.toISOString()}`);
    }
  }
  return found;
}

/** The 13 slot instants of a weekday in PDT (April to October), to build distinct slots from. */
const slotsOf = (date: string) =>
  ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '13:00', '13:30', '14:00', '14:30', '15:00', '15:30', '16:00'].map(
    (time) => `${date}T${time}:00-07:00`,
  );

/** A second, independent connection (pool) to the same database, and an app over it. */
async function secondApp(ctx: TestContext): Promise<{ app: App; database: Database }> {
  const location = ctx.database.location;
  const database = await openDatabase(ctx.dialect === 'sqlite' ? { sqlitePath: location } : { databaseUrl: location, poolSize: 20 });
  const app = createApp(testDeps(database, { clock: ctx.clock }));
  return { app, database };
}

const moduleUrl = (path: string) => new URL(path, import.meta.url).href;

/**
 * Another Node process with its own connection and app over the same database. Each line it reads is
 * one round ({ body, count }): it sends `count` identical bookings at once and prints their statuses.
 */
function bookingProcess(
  location: string,
  now: string,
): { child: ChildProcess; ready: Promise<void>; round(body: unknown, count: number): Promise<number[]>; stop(): Promise<void> } {
  const script = `
    import { createInterface } from 'node:readline';
    import { openDatabase } from ${JSON.stringify(moduleUrl('../../db/client.ts'))};
    import { createApp } from ${JSON.stringify(moduleUrl('../../api/app.ts'))};
    import { testDeps } from ${JSON.stringify(moduleUrl('../support/test-deps.ts'))};
    const location = process.env.BOOKING_DATABASE;
    const database = await openDatabase(location.startsWith('postgres') ? { databaseUrl: location, poolSize: 20 } : { sqlitePath: location });
    const now = new Date(process.env.BOOKING_NOW);
    const app = createApp(testDeps(database, { clock: { now: () => now } }));
    await app.request('/api/appointments/availability?date=2030-04-02'); // warm up: the first request compiles the route
    console.log('ready');
    for await (const line of createInterface({ input: process.stdin })) {
      const { body, count } = JSON.parse(line);
      const statuses = await Promise.all(Array.from({ length: count }, () =>
        app.request('/api/appointments', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.status)));
      console.log(JSON.stringify(statuses));
    }
    await database.close();
  `;
  const child = spawn(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], {
    env: { ...process.env, BOOKING_DATABASE: location, BOOKING_NOW: now },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const nextLine = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`the booking process ended early (exit ${child.exitCode}):\n${stderr}`);
    return value as string;
  };
  return {
    child,
    ready: nextLine().then((line) => {
      if (line !== 'ready') throw new Error(`unexpected line from the booking process: ${line}\n${stderr}`);
    }),
    async round(body, count) {
      child.stdin!.write(`${JSON.stringify({ body, count })}\n`);
      return JSON.parse(await nextLine()) as number[];
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin!.end();
      }),
  };
}

forEachDialect('booking races', (ctx) => {
  beforeEach(() => ctx().clock.set(NOW));

  it(`${RACERS} visitors racing for one slot: exactly one 201, ${RACERS - 1} 409s with the message, one appointment stored`, async () => {
    const before = await countRows(ctx(), 'appointments');
    const scheduledDate = '2030-04-02T10:00:00-07:00';
    const results = await Promise.all(Array.from({ length: RACERS }, (_, n) => post(ctx().app, visitor(n, scheduledDate))));
    expect(tally(results.map((r) => r.status))).toEqual({ 201: 1, 409: RACERS - 1 });
    for (const r of results.filter((r) => r.status === 409)) expect(r.body.error).toBe(TAKEN);
    expect(await countRows(ctx(), 'appointments')).toBe(before + 1);
    const winner = results.find((r) => r.status === 201)!.body.id!;
    const claims = await ctx().database.db.select().from(ctx().database.t.appointmentSlotClaims);
    expect(claims.filter((c) => c.startsAt.toISOString() === '2030-04-02T17:00:00.000Z')).toEqual([
      { startsAt: new Date('2030-04-02T17:00:00.000Z'), appointmentId: winner },
    ]);
    expect(await overlaps(ctx())).toEqual([]);
  });

  it(`${RACERS} visitors booking ${RACERS} different free slots at once all succeed`, async () => {
    const before = await countRows(ctx(), 'appointments');
    const slots = [...slotsOf('2030-04-08'), ...slotsOf('2030-04-09'), ...slotsOf('2030-04-10'), ...slotsOf('2030-04-11')].slice(0, RACERS);
    expect(new Set(slots).size).toBe(RACERS);
    const results = await Promise.all(slots.map((slot, n) => post(ctx().app, visitor(n, slot))));
    expect(tally(results.map((r) => r.status))).toEqual({ 201: RACERS });
    expect(await countRows(ctx(), 'appointments')).toBe(before + RACERS);
    expect(await overlaps(ctx())).toEqual([]);
  });

  it('pairs of visitors for 25 slots at once: one of each pair wins, independently of the others', async () => {
    // On SQLite these share one transaction (group commit, decision 008): a refused claim must undo its
    // own booking only.
    const before = await countRows(ctx(), 'appointments');
    const slots = [...slotsOf('2030-04-22'), ...slotsOf('2030-04-23')].slice(0, RACERS / 2);
    const results = await Promise.all(slots.flatMap((slot, n) => [post(ctx().app, visitor(2 * n, slot)), post(ctx().app, visitor(2 * n + 1, slot))]));
    expect(tally(results.map((r) => r.status))).toEqual({ 201: RACERS / 2, 409: RACERS / 2 });
    for (let n = 0; n < slots.length; n++) expect([results[2 * n]!.status, results[2 * n + 1]!.status].sort(), slots[n]).toEqual([201, 409]);
    expect(await countRows(ctx(), 'appointments')).toBe(before + RACERS / 2);
    expect(await overlaps(ctx())).toEqual([]);
  });

  it('counts durations in the race: 60-minute bookings at 9:00 against 30-minute ones at 9:30, one winner in all', async () => {
    const before = await countRows(ctx(), 'appointments');
    const bodies = Array.from({ length: RACERS }, (_, n) =>
      n % 2 ? visitor(n, '2030-04-03T09:30:00-07:00', 'initial') : visitor(n, '2030-04-03T09:00:00-07:00', n % 4 ? 'divorce' : 'family-law'),
    );
    const results = await Promise.all(bodies.map((body) => post(ctx().app, body)));
    expect(tally(results.map((r) => r.status))).toEqual({ 201: 1, 409: RACERS - 1 });
    expect(await countRows(ctx(), 'appointments')).toBe(before + 1);
    expect(await overlaps(ctx())).toEqual([]);
  });

  it('a cancellation racing with new bookings for its slot: the slot ends up held once at most', async () => {
    const scheduledDate = '2030-04-04T14:00:00-07:00';
    const first = await post(ctx().app, visitor(0, scheduledDate, 'divorce'));
    expect(first.status).toBe(201);
    const [cancel, ...bookings] = await Promise.all([
      ctx().admin('PUT', `/api/admin/appointments/${first.body.id}`, { status: 'cancelled' }),
      ...Array.from({ length: 20 }, (_, n) => post(ctx().app, visitor(n + 1, scheduledDate, 'initial'))),
    ]);
    expect(cancel!.status).toBe(200);
    const statuses = tally(bookings.map((r) => r.status));
    expect((statuses[201] ?? 0) + (statuses[409] ?? 0)).toBe(20);
    expect(statuses[201] ?? 0).toBeLessThanOrEqual(1);
    expect(await overlaps(ctx())).toEqual([]);
    // Whatever happened during the race, the slot is free now or held by the one winner.
    const after = await post(ctx().app, visitor(99, scheduledDate, 'initial'));
    expect(after.status).toBe(statuses[201] ? 409 : 201);
  });

  describe('across connections', () => {
    let second: { app: App; database: Database };
    beforeAll(async () => {
      second = await secondApp(ctx());
    });
    afterAll(async () => {
      await second?.database.close();
    });

    it('two apps on separate connections to the same database: still exactly one winner per slot', async () => {
      for (const [round, scheduledDate] of slotsOf('2030-04-05').slice(0, 5).entries()) {
        const before = await countRows(ctx(), 'appointments');
        const results = await Promise.all(
          Array.from({ length: RACERS }, (_, n) => post(n % 2 ? second.app : ctx().app, visitor(n, scheduledDate, round % 2 ? 'initial' : 'follow-up'))),
        );
        expect(tally(results.map((r) => r.status)), scheduledDate).toEqual({ 201: 1, 409: RACERS - 1 });
        expect(await countRows(ctx(), 'appointments')).toBe(before + 1);
      }
      // Each connection sees what the other booked.
      const seen = await second.app.request('/api/appointments/availability?date=2030-04-05');
      expect(((await seen.json()) as { slots: { available: boolean }[] }).slots.slice(0, 5).every((s) => !s.available)).toBe(true);
      expect(await overlaps(ctx())).toEqual([]);
    });
  });

  describe('across processes', () => {
    let other: ReturnType<typeof bookingProcess>;
    beforeAll(async () => {
      other = bookingProcess(ctx().database.location, NOW);
      await other.ready;
    }, 30_000);
    afterAll(async () => {
      await other?.stop();
    });

    it('another Node process booking the same slots at the same moment: exactly one winner per slot', async () => {
      const wins = { here: 0, there: 0 };
      const slots = slotsOf('2030-04-15');
      for (const scheduledDate of slots) {
        const before = await countRows(ctx(), 'appointments');
        const half = RACERS / 2;
        // The other process starts its half as soon as it reads the line; this one starts at once.
        const [there, here] = await Promise.all([
          other.round(visitor(1000, scheduledDate), half),
          Promise.all(Array.from({ length: half }, (_, n) => post(ctx().app, visitor(n, scheduledDate)).then((r) => r.status))),
        ]);
        expect(tally([...there, ...here]), scheduledDate).toEqual({ 201: 1, 409: RACERS - 1 });
        if (here.includes(201)) wins.here++;
        else wins.there++;
        expect(await countRows(ctx(), 'appointments')).toBe(before + 1);
      }
      expect(wins.here + wins.there).toBe(slots.length);
      expect(await overlaps(ctx())).toEqual([]);
    });
  });
});
