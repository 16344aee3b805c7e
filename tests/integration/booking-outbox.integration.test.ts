/**
 * The transactional outbox (docs/decisions/022), on SQLite and PostgreSQL: a booking and a contact
 * message commit with their deliveries, in one transaction. Right after the 201 the visitor's
 * confirmation, the firm's notification and the active calendar's event are stored (nothing runs
 * them in between); a refused booking queues nothing; and when a delivery cannot be written, the
 * booking or message is not stored either (the visitor gets an error, not a booking nobody hears of).
 * On PostgreSQL, a lone statement goes without BEGIN and COMMIT (one round trip), several in one transaction.
 */
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inTransaction } from '../../db/transactions.ts';
import { addDays, firmToday } from '../../src/shared/firm-time.ts';
import { book, freeSlots, visitorBooking } from '../support/appointment-requests.ts';
import { activeWebhook, clearActivity } from '../support/outbox.ts';
import { createTestContext, forEachDialect, type TestContext } from '../support/test-app.ts';

const freeSlot = freeSlots(addDays(firmToday(new Date()), 9), ['10:00', '14:00']);
const hookUrl = 'http://127.0.0.1:9/outbox-hook';

/** A planner whose write the database refuses (a channel its check constraint does not allow). */
function refusedDeliveryPlanner(ctx: TestContext) {
  const { t } = ctx.database;
  return ctx.deps.activity.planWith(() => [
    (tx) => tx.insert(t.deliveries).values({ channel: 'carrier-pigeon', purpose: 'refused', payload: '{}', nextAttemptAt: new Date() }).returning(),
  ]);
}

const message = {
  firstName: 'Ana',
  lastName: 'Ruiz',
  email: 'ana.ruiz@example.com',
  practiceArea: 'estate-planning',
  message: 'About my mother’s will.',
  consent: true,
};

forEachDialect('booking outbox', (ctx) => {
  beforeEach(() => clearActivity(ctx()));

  it("stores the booking's confirmation, the firm's notification and the active calendar's event with it", async () => {
    const integrationId = await activeWebhook(ctx(), { webhookUrl: hookUrl, apiKey: 'whsec-outbox-13579' });
    const booked = await book(ctx(), { ...visitorBooking, scheduledDate: freeSlot() });
    const { db, t } = ctx().database;
    // No delivery run in between (the test app runs nothing by itself): they came with the commit.
    const rows = await db.select().from(t.deliveries).where(eq(t.deliveries.appointmentId, booked.id));
    expect(rows.map((d) => [d.channel, d.purpose, d.status, d.dedupeKey]).sort()).toEqual(
      [
        ['calendar', 'event-create', 'pending', `event-create:${booked.id}:${integrationId}`],
        ['email', 'booking-confirmation', 'pending', `booking-confirmation:${booked.id}`],
        ['email', 'booking-notification', 'pending', `booking-notification:${booked.id}`],
      ].sort(),
    );
    const calendar = rows.find((d) => d.channel === 'calendar')!;
    expect(calendar).toMatchObject({ integrationId, recipient: hookUrl, attempts: 0 });
    expect(JSON.parse(calendar.payload)).toMatchObject({ action: 'create', appointment: { id: booked.id, email: visitorBooking.email } });
  });

  it('queues no calendar event while no integration is active, and nothing for a booking refused for its slot', async () => {
    const scheduledDate = freeSlot();
    const first = await book(ctx(), { ...visitorBooking, scheduledDate });
    const taken = await ctx().call('POST', '/api/appointments', { body: { ...visitorBooking, email: 'second@example.com', scheduledDate } });
    expect(taken.status).toBe(409);
    const { db, t } = ctx().database;
    const rows = await db.select().from(t.deliveries);
    expect(rows.map((d) => `${d.purpose}:${d.appointmentId}`).sort()).toEqual([`booking-confirmation:${first.id}`, `booking-notification:${first.id}`]);
  });

  it('stores no booking, and keeps its slot free, when its deliveries cannot be written', async () => {
    const scheduledDate = freeSlot();
    const stop = refusedDeliveryPlanner(ctx());
    try {
      const refused = await ctx().call('POST', '/api/appointments', { body: { ...visitorBooking, scheduledDate } });
      // (A check constraint's refusal is answered as a 400, whatever wrote it.)
      expect(refused.status).toBeGreaterThanOrEqual(400);
    } finally {
      stop();
    }
    const { db, t } = ctx().database;
    expect(await db.select().from(t.appointments)).toEqual([]);
    expect(await db.select().from(t.deliveries)).toEqual([]);
    // Nothing of it was kept: the slot is still free.
    await book(ctx(), { ...visitorBooking, scheduledDate });
  });

  it("stores a contact message with the firm's notification, and not at all when the notification cannot be written", async () => {
    const sent = await ctx().call('POST', '/api/contact', { body: message });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const { db, t } = ctx().database;
    expect((await db.select().from(t.deliveries)).map((d) => d.dedupeKey)).toEqual([`contact-notification:${sent.body.id}`]);

    const stop = refusedDeliveryPlanner(ctx());
    try {
      expect((await ctx().call('POST', '/api/contact', { body: { ...message, email: 'second@example.com' } })).status).toBeGreaterThanOrEqual(400);
    } finally {
      stop();
    }
    expect((await db.select().from(t.contactSubmissions)).map((m) => m.id)).toEqual([sent.body.id]);
  });
});

describe('transactions on PostgreSQL', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext('postgres');
  });
  afterAll(async () => {
    await ctx?.background.stop();
    await ctx?.database.drop();
  });

  /**
   * The statements the pg driver sends while `run` runs, and (with `answers`) "answered: …" where
   * each one's answer arrived, to show which were sent before any answer came back.
   */
  async function sent(run: () => Promise<unknown>, { answers = false } = {}): Promise<string[]> {
    const texts: string[] = [];
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0] as string | { text?: string };
      const text = (typeof first === 'string' ? first : (first?.text ?? '')).trim().split(/\s+/).slice(0, 3).join(' ').toLowerCase();
      texts.push(text);
      const result = (query as (...a: unknown[]) => unknown).apply(this, args);
      const done = () => answers && texts.push(`answered: ${text}`);
      if (result instanceof Promise) result.then(done, done);
      return result;
    } as typeof query;
    try {
      await run();
    } finally {
      pg.Client.prototype.query = query;
    }
    return texts;
  }

  it('sends a lone statement as it is (one round trip), and several between BEGIN and COMMIT, all or nothing', async () => {
    const { t } = ctx.database;
    const row = (purpose: string) => ({ channel: 'email', purpose, payload: '{}', nextAttemptAt: new Date(), dedupeKey: `tx-test:${purpose}` });
    expect(await sent(() => inTransaction(ctx.database, (tx) => [tx.insert(t.deliveries).values(row('one')).returning()]))).toEqual([
      'insert into "deliveries"',
    ]);
    const several = await sent(() =>
      inTransaction(ctx.database, (tx) => [tx.insert(t.deliveries).values(row('two')).returning(), tx.insert(t.deliveries).values(row('three')).returning()]),
    );
    expect(several).toEqual(['begin', 'insert into "deliveries"', 'insert into "deliveries"', 'commit']);
    // The second statement fails on an existing key: neither is kept, and the error is the key's
    // (not the "transaction is aborted" of what followed it).
    await expect(
      inTransaction(ctx.database, (tx) => [tx.insert(t.deliveries).values(row('four')).returning(), tx.insert(t.deliveries).values(row('two')).returning()]),
    ).rejects.toMatchObject({ cause: { code: '23505' } });
    const kept = await ctx.database.db.select({ key: t.deliveries.dedupeKey }).from(t.deliveries);
    expect(kept.map((r) => r.key).sort()).toEqual(['tx-test:one', 'tx-test:three', 'tx-test:two']);
    // The pooled client is usable again after the failed transaction.
    await inTransaction(ctx.database, (tx) => [
      tx.insert(t.deliveries).values(row('five')).returning(),
      tx.insert(t.deliveries).values(row('six')).returning(),
    ]);
    expect((await ctx.database.db.select().from(t.deliveries)).length).toBe(5);
  });

  it('pipelines a transaction: BEGIN, every statement and COMMIT are sent before the first answer (one round trip)', async () => {
    const { t } = ctx.database;
    const row = (purpose: string) => ({ channel: 'email', purpose, payload: '{}', nextAttemptAt: new Date(), dedupeKey: `pipeline-test:${purpose}` });
    const trace = await sent(
      () =>
        inTransaction(ctx.database, (tx) => [
          tx.insert(t.deliveries).values(row('a')).returning(),
          tx.insert(t.deliveries).values(row('b')).returning(),
          tx.insert(t.deliveries).values(row('c')).returning(),
        ]),
      { answers: true },
    );
    expect(trace.slice(0, 5)).toEqual(['begin', 'insert into "deliveries"', 'insert into "deliveries"', 'insert into "deliveries"', 'commit']);
    expect(trace.slice(5).every((entry) => entry.startsWith('answered: '))).toBe(true);
  });

  it('commits nothing when a statement could not be sent', async () => {
    const { t } = ctx.database;
    const before = (await ctx.database.db.select().from(t.deliveries)).length;
    // A statement whose `then` fails before it sends anything (as one that could not be built would).
    // biome-ignore lint/suspicious/noThenProperty: a thenable is what a statement is, here one that never sends
    const unsendable = { then: (_: unknown, reject: (err: Error) => void) => reject(new Error('could not be built')) } as PromiseLike<unknown>;
    await expect(
      inTransaction(ctx.database, (tx) => [
        tx.insert(t.deliveries).values({ channel: 'email', purpose: 'x', payload: '{}', nextAttemptAt: new Date(), dedupeKey: 'unsent:x' }).returning(),
        unsendable,
      ]),
    ).rejects.toThrow('could not be built');
    expect((await ctx.database.db.select().from(t.deliveries)).length).toBe(before);
  });
});
