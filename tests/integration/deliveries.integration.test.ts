/**
 * The delivery queue and runner (docs/decisions/010) on SQLite and PostgreSQL: what is
 * enqueued is delivered once, failures are retried after the backoff and recorded, permanent failures
 * and exhausted retries end 'failed', one appointment's calendar changes run in order, a delivery
 * left half-done by a dead process is taken over when its lease runs out, two runners never send
 * the same delivery twice, and the admin log shows no payload and no secret.
 */
import { eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import {
  createDeliveryRunner,
  LEASE_MS,
  MAX_ATTEMPTS,
  PermanentDeliveryError,
  RETRY_DELAYS_MS,
  type Delivery,
  type DeliveryHandler,
} from '../../api/deliveries/deliveries.ts';
import { appointmentsRepository, claimCells } from '../../api/appointments/appointments.repository.ts';
import { deliveriesRepository } from '../../api/deliveries/deliveries.repository.ts';
import { createLogger } from '../../api/logger.ts';
import { forEachDialect, NON_ADMIN_TOKEN, type TestContext } from '../support/test-app.ts';

const START = new Date('2030-04-01T16:00:00.000Z');

/** A handler that records what it was given and does what the test says, per call. */
function recorder(behaviour: (delivery: Delivery, call: number) => ReturnType<DeliveryHandler> = async () => ({ status: 'sent' })) {
  const calls: { id: string; purpose: string; payload: unknown }[] = [];
  const handler: DeliveryHandler = async (delivery, payload) => {
    calls.push({ id: delivery.id, purpose: delivery.purpose, payload });
    return behaviour(delivery, calls.length);
  };
  return { calls, handler };
}

function runnerFor(ctx: TestContext, email: DeliveryHandler, calendar: DeliveryHandler = email) {
  return createDeliveryRunner({ database: ctx.database, clock: ctx.clock, log: createLogger({ silent: true }), handlers: { email, calendar } });
}

async function row(ctx: TestContext, id: string) {
  const { db, t } = ctx.database;
  const [found] = await db.select().from(t.deliveries).where(eq(t.deliveries.id, id));
  return found!;
}

const later = (ms: number) => new Date(START.getTime() + ms);

forEachDialect('deliveries', (ctx) => {
  beforeEach(async () => {
    const { db, t } = ctx().database;
    await db.delete(t.deliveries);
    ctx().clock.set(START);
  });

  it('delivers what was enqueued once, with its payload, and records it as sent', async () => {
    const queued = await ctx().deps.deliveries.enqueue({
      channel: 'email',
      purpose: 'booking-confirmation',
      payload: { to: 'maria@example.com', n: 1 },
      recipient: 'maria@example.com',
    });
    const { calls, handler } = recorder(async () => ({ status: 'sent', externalRef: 'msg-1' }));
    const runner = runnerFor(ctx(), handler);
    expect(await runner.runDue()).toBe(1);
    expect(await runner.runDue()).toBe(0);
    expect(calls).toEqual([{ id: queued!.id, purpose: 'booking-confirmation', payload: { to: 'maria@example.com', n: 1 } }]);
    const stored = await row(ctx(), queued!.id);
    expect(stored).toMatchObject({ status: 'sent', attempts: 1, externalRef: 'msg-1', lastError: null, leaseExpiresAt: null });
    expect(stored.sentAt?.toISOString()).toBe(START.toISOString());
  });

  it('stores a second delivery with the same dedupe key not at all', async () => {
    const first = await ctx().deps.deliveries.enqueue({ channel: 'email', purpose: 'reminder', payload: {}, dedupeKey: 'reminder:a1' });
    const second = await ctx().deps.deliveries.enqueue({ channel: 'email', purpose: 'reminder', payload: {}, dedupeKey: 'reminder:a1' });
    expect(first).not.toBeNull();
    expect(second).toBeNull();
    const { calls, handler } = recorder();
    await runnerFor(ctx(), handler).runDue();
    expect(calls).toHaveLength(1);
  });

  it('waits for notBefore', async () => {
    await ctx().deps.deliveries.enqueue({ channel: 'email', purpose: 'later', payload: {}, notBefore: later(60_000) });
    const { calls, handler } = recorder();
    const runner = runnerFor(ctx(), handler);
    expect(await runner.runDue()).toBe(0);
    ctx().clock.set(later(60_000));
    expect(await runner.runDue()).toBe(1);
    expect(calls).toHaveLength(1);
  });

  it('retries a failure after the backoff, records the error, then delivers', async () => {
    const queued = await ctx().deps.deliveries.enqueue({ channel: 'calendar', purpose: 'event-create', payload: {} });
    const { calls, handler } = recorder(async (_d, call) => {
      if (call === 1) throw new Error('connect ECONNREFUSED https://hooks.example.com/x?token=supersecretvalue123');
      return { status: 'sent' };
    });
    const runner = runnerFor(ctx(), handler);
    await runner.runDue();
    let stored = await row(ctx(), queued!.id);
    expect(stored.status).toBe('pending');
    expect(stored.attempts).toBe(1);
    expect(stored.nextAttemptAt.toISOString()).toBe(later(RETRY_DELAYS_MS[0]).toISOString());
    // The error is kept, with the URL's secret masked.
    expect(stored.lastError).toContain('ECONNREFUSED');
    expect(stored.lastError).not.toContain('supersecretvalue123');

    ctx().clock.set(later(RETRY_DELAYS_MS[0] - 1));
    expect(await runner.runDue()).toBe(0);
    ctx().clock.set(later(RETRY_DELAYS_MS[0]));
    expect(await runner.runDue()).toBe(1);
    stored = await row(ctx(), queued!.id);
    expect(stored).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    expect(calls).toHaveLength(2);
  });

  it('gives up after the last attempt, and at once on a permanent failure', async () => {
    const flaky = await ctx().deps.deliveries.enqueue({ channel: 'email', purpose: 'flaky', payload: {} });
    const refused = await ctx().deps.deliveries.enqueue({ channel: 'email', purpose: 'refused', payload: {} });
    const { calls, handler } = recorder(async (d) => {
      if (d.purpose === 'refused') throw new PermanentDeliveryError('535 Authentication failed');
      throw new Error('timeout');
    });
    const runner = runnerFor(ctx(), handler);
    let elapsed = 0;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await runner.runDue();
      elapsed += RETRY_DELAYS_MS[attempt - 1] ?? 0;
      ctx().clock.set(later(elapsed));
    }
    await runner.runDue();
    expect(await row(ctx(), refused!.id)).toMatchObject({ status: 'failed', attempts: 1, lastError: '535 Authentication failed' });
    expect(await row(ctx(), flaky!.id)).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, lastError: 'timeout' });
    expect(calls.filter((c) => c.purpose === 'flaky')).toHaveLength(MAX_ATTEMPTS);
  });

  it('records a skipped delivery with its reason', async () => {
    const queued = await ctx().deps.deliveries.enqueue({ channel: 'email', purpose: 'reminder', payload: {} });
    await runnerFor(ctx(), async () => ({ status: 'skipped', reason: 'The appointment was cancelled.' })).runDue();
    expect(await row(ctx(), queued!.id)).toMatchObject({ status: 'skipped', lastError: 'The appointment was cancelled.', sentAt: null });
  });

  it("runs one appointment's calendar changes in order: an update waits while the create is being retried", async () => {
    const create = await ctx().deps.deliveries.enqueue({ channel: 'calendar', purpose: 'event-create', payload: {}, appointmentId: 'apt-1' });
    ctx().clock.set(later(1));
    const update = await ctx().deps.deliveries.enqueue({ channel: 'calendar', purpose: 'event-update', payload: {}, appointmentId: 'apt-1' });
    const other = await ctx().deps.deliveries.enqueue({ channel: 'calendar', purpose: 'event-create', payload: {}, appointmentId: 'apt-2' });
    const { calls, handler } = recorder(async (d) => {
      // The create's first attempt fails (deliveries run side by side, so not necessarily the first call).
      if (d.id === create!.id && d.attempts === 1) throw new Error('503');
      return { status: 'sent' };
    });
    const runner = runnerFor(ctx(), handler);
    await runner.runDue();
    // The create failed and waits for its retry; the update must not overtake it; apt-2 is unaffected.
    expect(calls.map((c) => c.id).sort()).toEqual([create!.id, other!.id].sort());
    expect((await row(ctx(), update!.id)).status).toBe('pending');
    ctx().clock.set(later(RETRY_DELAYS_MS[0] + 1));
    await runner.runDue();
    expect(calls.slice(2).map((c) => c.id)).toEqual([create!.id, update!.id]);
  });

  it('does not let deliveries waiting their turn starve the others', async () => {
    // 30 appointments whose creates keep failing, each with an update waiting behind it: more than a batch.
    for (let i = 0; i < 30; i++) await ctx().deps.deliveries.enqueue({ channel: 'calendar', purpose: 'event-create', payload: {}, appointmentId: `apt-${i}` });
    ctx().clock.set(later(1));
    for (let i = 0; i < 30; i++) await ctx().deps.deliveries.enqueue({ channel: 'calendar', purpose: 'event-update', payload: {}, appointmentId: `apt-${i}` });
    ctx().clock.set(later(2));
    const mail = await ctx().deps.deliveries.enqueue({ channel: 'email', purpose: 'contact-notification', payload: {} });
    const { calls, handler } = recorder(async (d) => {
      if (d.purpose === 'event-create') throw new Error('calendar down');
      return { status: 'sent' };
    });
    await runnerFor(ctx(), handler).runDue();
    expect((await row(ctx(), mail!.id)).status).toBe('sent');
    expect(calls.filter((c) => c.purpose === 'event-update')).toHaveLength(0);
  });

  it("sends other appointments' deliveries while one is slow, and keeps the slow one's next delivery behind it", async () => {
    const slow = await ctx().deps.deliveries.enqueue({ channel: 'email', purpose: 'booking-confirmation', payload: {}, appointmentId: 'apt-slow' });
    ctx().clock.set(later(1));
    const behind = await ctx().deps.deliveries.enqueue({ channel: 'email', purpose: 'booking-notification', payload: {}, appointmentId: 'apt-slow' });
    const others = [];
    for (let i = 0; i < 6; i++)
      others.push((await ctx().deps.deliveries.enqueue({ channel: 'email', purpose: 'booking-confirmation', payload: {}, appointmentId: `apt-${i}` }))!);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { calls, handler } = recorder(async (d) => {
      if (d.id === slow!.id) await gate;
      return { status: 'sent' };
    });
    const run = runnerFor(ctx(), handler).runDue();
    // A mail server that takes its time with one message holds up nobody else.
    for (const other of others) await expect.poll(async () => (await row(ctx(), other.id)).status).toBe('sent');
    expect((await row(ctx(), slow!.id)).status).toBe('sending');
    expect((await row(ctx(), behind!.id)).status).toBe('pending');
    release();
    expect(await run).toBe(8);
    expect((await row(ctx(), behind!.id)).status).toBe('sent');
    const order = calls.map((c) => c.id);
    expect(order.indexOf(behind!.id)).toBeGreaterThan(order.indexOf(slow!.id));
  });

  it('keeps a delivery enqueued in the same moment as a booking refused for its slot', async () => {
    // On SQLite both writes share one commit (db/transactions.ts): the refused booking rolls back alone.
    const appointments = appointmentsRepository(ctx().database);
    const when = later(3 * 24 * 60 * 60_000);
    const values = {
      firstName: 'Ana',
      lastName: 'Ruiz',
      email: 'ana@example.com',
      phone: null,
      consultationType: 'initial',
      practiceArea: 'estate-planning',
      notes: null,
      scheduledDate: when,
      duration: 30,
      status: 'scheduled',
      reminderSent: false,
    };
    expect(await appointments.createWithClaims(values, claimCells(when, 30))).not.toBeNull();
    const [refused, queued] = await Promise.all([
      appointments.createWithClaims({ ...values, email: 'second@example.com' }, claimCells(when, 30)),
      ctx().deps.deliveries.enqueue({ channel: 'email', purpose: 'contact-notification', payload: { n: 1 } }),
    ]);
    expect(refused).toBeNull();
    expect(queued).not.toBeNull();
    expect((await row(ctx(), queued!.id)).status).toBe('pending');
  });

  it('takes over a delivery left sending by a process that died, once its lease has run out', async () => {
    const queued = await ctx().deps.deliveries.enqueue({ channel: 'email', purpose: 'booking-notification', payload: {} });
    // A runner whose handler never returns: the process "dies" mid-send.
    void runnerFor(ctx(), () => new Promise(() => {})).runDue();
    await expect.poll(async () => (await row(ctx(), queued!.id)).status).toBe('sending');
    const { calls, handler } = recorder();
    const survivor = runnerFor(ctx(), handler);
    expect(await survivor.runDue()).toBe(0);
    ctx().clock.set(later(LEASE_MS + 1));
    expect(await survivor.runDue()).toBe(1);
    expect(calls).toHaveLength(1);
    expect(await row(ctx(), queued!.id)).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('a run stopped by a shutdown finishes what it started and leaves the rest pending, as before its claim', async () => {
    for (let i = 0; i < 5; i++) await ctx().deps.deliveries.enqueue({ channel: 'email', purpose: `stop-${i}`, payload: { i } });
    let stopping = false;
    const { calls, handler } = recorder(async () => {
      stopping = true; // the shutdown comes while the first delivery is being sent
      return { status: 'sent' };
    });
    const runner = createDeliveryRunner({
      database: ctx().database,
      clock: ctx().clock,
      log: createLogger({ silent: true }),
      handlers: { email: handler, calendar: handler },
      concurrency: 1,
      stopped: () => stopping,
    });
    expect(await runner.runDue()).toBe(1);
    expect(calls).toHaveLength(1);
    const { db, t } = ctx().database;
    const rows = await db.select().from(t.deliveries);
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(1);
    expect(rows.filter((r) => r.status === 'pending').map((r) => ({ attempts: r.attempts, leaseExpiresAt: r.leaseExpiresAt }))).toEqual(
      Array(4).fill({ attempts: 0, leaseExpiresAt: null }),
    );
    // The next start sends them at once, not when a lease runs out.
    const next = recorder();
    expect(await runnerFor(ctx(), next.handler).runDue()).toBe(4);
  });

  it("finds what is due through the unfinished rows' indexes, so a long log of sent deliveries costs nothing", async () => {
    const { database } = ctx();
    const query = deliveriesRepository(database).due(START, 25).toSQL();
    let plan: string;
    if (database.dialect === 'sqlite') {
      const raw = (database.db as unknown as { $client: { prepare(sql: string): { all(...params: unknown[]): { detail: string }[] } } }).$client;
      const params = query.params.map((p) => (p instanceof Date ? p.getTime() : p));
      plan = raw
        .prepare(`explain query plan ${query.sql}`)
        .all(...params)
        .map((row) => row.detail)
        .join('\n');
    } else {
      // The planner's choice for a table this small may be a scan: with scans priced out, what it
      // can use is what the indexes allow.
      const client = await database.pgPool!.connect();
      try {
        await client.query('set enable_seqscan = off');
        plan = (await client.query(`explain ${query.sql}`, query.params as unknown[])).rows.map((row) => row['QUERY PLAN']).join('\n');
        await client.query('reset enable_seqscan');
      } finally {
        client.release();
      }
    }
    expect(plan).toMatch(/deliveries_unfinished_idx|deliveries_unfinished_by_appointment_idx/);
    expect(plan).toMatch(/deliveries_unfinished_by_appointment_idx/);
    expect(plan).not.toMatch(/SCAN deliveries$|Seq Scan/m);
  });

  it('never gives one delivery to two runners at once', async () => {
    const ids = [];
    for (let i = 0; i < 20; i++) ids.push((await ctx().deps.deliveries.enqueue({ channel: 'email', purpose: `m${i}`, payload: { i } }))!.id);
    const { calls, handler } = recorder(async () => {
      await new Promise((r) => setTimeout(r, 2));
      return { status: 'sent' };
    });
    const runners = [runnerFor(ctx(), handler), runnerFor(ctx(), handler), runnerFor(ctx(), handler)];
    const counts = await Promise.all(runners.map((r) => r.runDue()));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(20);
    expect(calls.map((c) => c.id).sort()).toEqual([...ids].sort());
  });

  it('shows the log to admins only, newest first, filtered, with no payload and secrets masked', async () => {
    const a = await ctx().deps.deliveries.enqueue({
      channel: 'email',
      purpose: 'booking-confirmation',
      payload: { secretish: 'client details' },
      recipient: 'maria@example.com',
      appointmentId: 'apt-9',
    });
    // createdAt is the database's own time (the order of the log and of a channel's deliveries), so
    // "newer" needs real time to pass, not the test clock.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const b = await ctx().deps.deliveries.enqueue({
      channel: 'calendar',
      purpose: 'event-create',
      payload: {},
      integrationId: 'int-1',
      recipient: 'https://hooks.example.com/in?api_key=abcdefghijklmnop',
    });
    expect((await ctx().call('GET', '/api/admin/deliveries')).status).toBe(401);
    expect((await ctx().call('GET', '/api/admin/deliveries', { token: NON_ADMIN_TOKEN })).status).toBe(403);

    const all = await ctx().admin('GET', '/api/admin/deliveries');
    expect(all.status).toBe(200);
    expect(all.body.map((d: { id: string }) => d.id)).toEqual([b!.id, a!.id]);
    expect(JSON.stringify(all.body)).not.toContain('client details');
    expect(JSON.stringify(all.body)).not.toContain('abcdefghijklmnop');
    expect(all.body[0]).toMatchObject({ channel: 'calendar', purpose: 'event-create', status: 'pending', attempts: 0, integrationId: 'int-1' });
    expect(all.body[0]).not.toHaveProperty('payload');

    expect((await ctx().admin('GET', '/api/admin/deliveries?channel=email')).body.map((d: { id: string }) => d.id)).toEqual([a!.id]);
    expect((await ctx().admin('GET', '/api/admin/deliveries?appointmentId=apt-9')).body).toHaveLength(1);
    expect((await ctx().admin('GET', '/api/admin/deliveries?integrationId=int-1')).body).toHaveLength(1);
    expect((await ctx().admin('GET', '/api/admin/deliveries?limit=1')).body).toHaveLength(1);
    const bad = await ctx().admin('GET', '/api/admin/deliveries?channel=fax&limit=0');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual(['channel', 'limit']);
  });
});
