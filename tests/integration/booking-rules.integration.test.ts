/**
 * The firm's availability (decision 032): GET and PUT /api/admin/booking-rules and the public GET
 * /api/booking-rules, on SQLite and PostgreSQL with the clock fixed. Migration 0013 stores the rules
 * that were code; a refused change names its field and writes nothing; a saved one is announced and
 * followed at once by the public rules, the availability answer, the refusal of a booking (with its
 * reason) and of a move through the booking's own link, while appointments already booked stay. On
 * PostgreSQL, a second container hears of the change through the content bus and follows too.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import { createContentBus, type ContentBus } from '../../api/content-bus.ts';
import { createContentEvents } from '../../api/content-events.ts';
import { createLogger } from '../../api/logger.ts';
import { bookingMessages } from '../../src/shared/booking/availability.ts';
import { defaultBookingRules } from '../../src/shared/booking/rules.ts';
import { firmInstant } from '../../src/shared/firm-time.ts';
import { defaultBookingRulesSettings, type BookingRulesSettings } from '../../src/shared/schemas/booking-rules.ts';
import { NOW, visitorBooking } from '../support/appointment-requests.ts';
import { nthBookableDay } from '../support/bookable-days.ts';
import { createTestContext, forEachDialect, testDeps, type TestContext } from '../support/test-app.ts';

const ADMIN_API = '/api/admin/booking-rules';

const settings = (changes: Partial<BookingRulesSettings> = {}): BookingRulesSettings => ({ ...structuredClone(defaultBookingRulesSettings), ...changes });

/** Fridays morning only; Monday to Thursday as before. */
const fridayMornings = (): BookingRulesSettings['hours'] => ({
  ...structuredClone(defaultBookingRulesSettings.hours),
  friday: [{ start: '09:00', end: '12:00' }],
});

// Days of the clock's future (NOW is Monday 1 April 2030) that the defaults keep open.
const monday = nthBookableDay('2030-05-06'); // Monday 6 May 2030
const friday = '2030-05-10';

const availability = (ctx: TestContext, date: string, consultationType = 'initial') =>
  ctx.call('GET', `/api/appointments/availability?date=${date}&consultationType=${consultationType}`);
const book = (ctx: TestContext, date: string, time: string) =>
  ctx.call('POST', '/api/appointments', { body: { ...visitorBooking, consultationType: 'initial', scheduledDate: firmInstant(date, time).toISOString() } });
const put = (ctx: TestContext, body: unknown) => ctx.admin('PUT', ADMIN_API, body);

forEachDialect('booking rules', (ctx) => {
  beforeEach(() => ctx().clock.set(NOW));
  // Each test starts from the rules a new install has.
  afterEach(async () => {
    expect((await put(ctx(), settings())).status).toBe(200);
  });

  it('starts with the rules that were code (migration 0013), for the admin and for the booking modal', async () => {
    const admin = await ctx().admin('GET', ADMIN_API);
    expect(admin.status).toBe(200);
    expect(admin.body).toEqual({ ...defaultBookingRulesSettings, updatedAt: expect.any(String) });
    const pub = await ctx().call('GET', '/api/booking-rules');
    expect(pub.status).toBe(200);
    expect(pub.body).toEqual(JSON.parse(JSON.stringify(defaultBookingRules)));
    // A public list, kept and named for the CDN.
    expect(pub.headers.get('cache-control')).toContain('public');
    expect(pub.headers.get('surrogate-key')).toBe('site booking-rules');
  });

  it('is for admins only', async () => {
    expect((await ctx().call('GET', ADMIN_API)).status).toBe(401);
    expect((await ctx().call('PUT', ADMIN_API, { body: settings() })).status).toBe(401);
  });

  it('refuses bad settings with a message per field, and writes nothing', async () => {
    const before = (await ctx().admin('GET', ADMIN_API)).body;
    ctx().changes.length = 0;
    const cases: [unknown, Record<string, string>][] = [
      [
        { ...settings(), hours: { ...settings().hours, monday: [{ start: '08:00', end: '12:00' }] } },
        { 'hours.monday.0.start': 'Start must be a half hour from 9:00 AM to 5:00 PM' },
      ],
      [
        { ...settings(), hours: { ...settings().hours, tuesday: [{ start: '13:00', end: '12:00' }] } },
        { 'hours.tuesday.0.end': 'The end must be later than the start' },
      ],
      [
        { ...settings(), hours: { ...settings().hours, saturday: [{ start: '09:00', end: '12:00' }] } },
        { hours: 'Consultations are held on weekdays only (Monday to Friday)' },
      ],
      [settings({ minimumNoticeHours: 721 }), { minimumNoticeHours: 'Minimum notice must be from 0 to 720 hours' }],
      [settings({ bookingHorizonDays: 0 }), { bookingHorizonDays: 'Booking horizon must be from 1 to 730 days' }],
      [
        settings({ closures: [{ from: '2030-05-10', to: '2030-05-09', reason: 'Move' }] }),
        { 'closures.0.to': 'The last day must be on or after the first day' },
      ],
      [settings({ closures: [{ from: '2030-05-10', to: '2030-05-10', reason: '' }] }), { 'closures.0.reason': 'Reason is required' }],
      [
        settings({ closures: Array.from({ length: 201 }, () => ({ from: '2030-05-10', to: '2030-05-10', reason: 'Closed' })) }),
        { closures: 'At most 200 closures; remove past ones first' },
      ],
    ];
    for (const [body, fields] of cases) {
      const res = await put(ctx(), body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(res.body).toMatchObject({ error: 'Please check the highlighted fields.', fields });
    }
    expect((await ctx().admin('GET', ADMIN_API)).body).toEqual(before);
    expect(ctx().changes).toEqual([]);
  });

  it('stores a change, announces it, and the public rules and the availability follow at once', async () => {
    // Asked first, so what is kept (the public list, the rules in memory) must be dropped by the change.
    expect((await ctx().call('GET', '/api/booking-rules')).body.closures).toEqual([]);
    expect((await availability(ctx(), monday)).body.bookable).toBe(true);
    ctx().changes.length = 0;

    const next = settings({
      hours: fridayMornings(),
      observeHolidays: true,
      minimumNoticeHours: 24,
      bookingHorizonDays: 60,
      closures: [{ from: monday, to: monday, reason: 'Office move' }],
    });
    const res = await put(ctx(), next);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...next, updatedAt: expect.any(String) });
    expect((await ctx().admin('GET', ADMIN_API)).body).toEqual(res.body);
    expect(ctx().changes).toEqual([{ topic: 'booking-rules' }]);

    const pub = (await ctx().call('GET', '/api/booking-rules')).body;
    expect(pub).toMatchObject({ minimumNoticeMinutes: 1440, windowDays: 60, closures: [{ from: monday, to: monday, reason: 'Office move' }] });
    expect(pub.hours[5]).toEqual([{ start: '09:00', end: '12:00' }]);

    const closed = (await availability(ctx(), monday)).body;
    expect(closed).toMatchObject({ bookable: false, message: bookingMessages.closure('Office move') });
    expect(closed.slots.every((s: { available: boolean }) => !s.available)).toBe(true);
    // Friday afternoons are no longer consultation hours.
    const fri = (await availability(ctx(), friday)).body;
    expect(fri.slots.filter((s: { available: boolean }) => s.available).map((s: { time: string }) => s.time)).toEqual([
      '09:00',
      '09:30',
      '10:00',
      '10:30',
      '11:00',
      '11:30',
    ]);
    // 60 days ahead: 31 May is the last day open, 3 June beyond.
    expect((await availability(ctx(), '2030-05-31')).body.bookable).toBe(true);
    expect((await availability(ctx(), '2030-06-03')).body).toMatchObject({ bookable: false, message: bookingMessages.beyondWindow(60) });
  });

  it('refuses a booking outside the new hours with its reason; appointments already booked stay', async () => {
    const earlier = await book(ctx(), friday, '14:00');
    expect(earlier.status).toBe(201);
    expect((await put(ctx(), settings({ hours: fridayMornings(), closures: [{ from: monday, to: monday, reason: 'Office move' }] }))).status).toBe(200);

    const afternoon = await book(ctx(), friday, '15:00');
    expect(afternoon.status).toBe(400);
    expect(afternoon.body).toMatchObject({ error: bookingMessages.hours(30), fields: { scheduledDate: bookingMessages.hours(30) } });
    // The hours end at noon on Fridays: a 30-minute consultation at 11:30 fits, an hour does not.
    expect((await book(ctx(), friday, '11:30')).status).toBe(201);
    const closure = await book(ctx(), monday, '10:00');
    expect(closure.status).toBe(400);
    expect(closure.body.fields).toEqual({ scheduledDate: bookingMessages.closure('Office move') });

    const list = (await ctx().admin('GET', '/api/admin/appointments')).body as { id: string; status: string }[];
    expect(list.find((a) => a.id === earlier.body.id)).toMatchObject({ status: 'scheduled' });
  });

  it("refuses a move through the booking's own link into a closure, with its reason", async () => {
    const booked = await book(ctx(), nthBookableDay('2030-05-13'), '09:00');
    expect(booked.status).toBe(201);
    const closedDay = nthBookableDay('2030-05-20');
    expect((await put(ctx(), settings({ closures: [{ from: closedDay, to: closedDay, reason: 'Staff training' }] }))).status).toBe(200);
    const moved = await ctx().call('POST', '/api/appointments/manage/reschedule', {
      headers: { 'x-booking-token': booked.body.manageToken },
      body: { scheduledDate: firmInstant(closedDay, '10:00').toISOString() },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.fields).toEqual({ scheduledDate: bookingMessages.closure('Staff training') });
  });

  it('opens the holidays when the firm says it works them, and takes bookings with no notice at all', async () => {
    const thanksgiving = '2030-11-28';
    expect((await availability(ctx(), thanksgiving)).body).toMatchObject({ bookable: false, message: bookingMessages.holiday('Thanksgiving Day') });
    expect((await put(ctx(), settings({ observeHolidays: false, minimumNoticeHours: 0 }))).status).toBe(200);
    expect((await availability(ctx(), thanksgiving)).body.bookable).toBe(true);
    // NOW is 9:00 on Monday 1 April: 9:30 the same morning, with no notice needed.
    expect((await book(ctx(), '2030-04-01', '09:30')).status).toBe(201);
  });
});

describe('two containers on one PostgreSQL database', () => {
  let ctx: TestContext;
  const buses: ContentBus[] = [];
  beforeAll(async () => {
    ctx = await createTestContext('postgres');
  });
  afterAll(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.stop()));
    await ctx?.background.stop();
    await ctx?.database.drop();
  });

  it('a change saved through one is followed by the other at once', async () => {
    ctx.clock.set(NOW);
    const { database } = ctx;
    const log = createLogger({ silent: true });
    // Container A is the context's app; B has its own events and kept rules, as another process would.
    const eventsB = createContentEvents();
    const b = createApp(testDeps(database, { clock: ctx.clock, events: eventsB }));
    for (const events of [ctx.deps.events, eventsB]) {
      const bus = await createContentBus({ databaseUrl: database.location, database, events, log, pollMs: 60_000, reconnectMs: 50 });
      buses.push(bus);
      await bus.listen();
    }
    const day = nthBookableDay('2030-06-03');
    const onB = async () =>
      (await (await b.request(`/api/appointments/availability?date=${day}&consultationType=initial`)).json()) as { bookable: boolean; message?: string };
    const rulesOnB = async () => (await (await b.request('/api/booking-rules')).json()) as { closures: unknown[] };
    // B has read (and keeps) the rules and the public list before the change.
    expect((await onB()).bookable).toBe(true);
    expect((await rulesOnB()).closures).toEqual([]);
    expect((await put(ctx, settings({ closures: [{ from: day, to: day, reason: 'Firm retreat' }] }))).status).toBe(200);
    await expect.poll(onB).toEqual(expect.objectContaining({ bookable: false, message: bookingMessages.closure('Firm retreat') }));
    expect((await rulesOnB()).closures).toEqual([{ from: day, to: day, reason: 'Firm retreat' }]);
    expect((await put(ctx, settings())).status).toBe(200);
    await expect.poll(async () => (await onB()).bookable).toBe(true);
  });
});
