/**
 * POST /api/appointments, GET /api/appointments/availability and the admin calls (SPEC §7),
 * on SQLite and PostgreSQL, with the clock fixed. Races between many requests are in
 * booking-concurrency.integration.test.ts.
 */
import { readFileSync } from 'node:fs';
import { asc, eq, sql } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { bookings, claimsOf, NOW, storedAppointment, visitorBooking } from '../support/appointment-requests.ts';
import { countRows, forEachDialect, type TestContext } from '../support/test-app.ts';

/** SPEC §9 Consultation types: value -> minutes, written out here so the test does not trust the code's copy. */
const minutesByType: Record<string, number> = { initial: 30, 'follow-up': 30, 'estate-planning': 60, 'family-law': 45, divorce: 60 };

const TAKEN = 'That time was just booked. Please choose another.';

/** The booking modal's payload (SPEC §7), with every field it sends. */
const valid = {
  ...visitorBooking,
  scheduledDate: '2030-05-06T10:30:00-07:00',
  duration: 30,
  status: 'scheduled',
  reminderSent: false,
};

/** Bookings that are not about a particular time: weekdays from Monday 1 July 2030 on (tests about particular times use April to June). */
const { freeSlot, book } = bookings('2030-07-01', { body: () => valid });

const availability = (ctx: TestContext, query: string) => ctx.call('GET', `/api/appointments/availability?${query}`);
const unavailable = (body: { slots: { time: string; available: boolean; reason?: string }[] }) =>
  body.slots.filter((s) => !s.available).map((s) => `${s.time} ${s.reason}`);

forEachDialect('appointments', (ctx) => {
  beforeEach(() => ctx().clock.set(NOW));

  it('books an appointment and stores exactly what was sent, the instant in UTC, with its slot claims', async () => {
    const res = await ctx().call('POST', '/api/appointments', { body: valid });
    expect(res.status).toBe(201);
    const stored = await storedAppointment(ctx(), res.body.id);
    expect(stored).toEqual({
      id: res.body.id,
      firstName: 'Maria',
      lastName: 'Lopez',
      email: 'maria.lopez@example.com',
      phone: '(619) 555-0142',
      consultationType: 'estate-planning',
      practiceArea: 'trust-administration',
      notes: 'Questions about my late father’s trust.',
      // 10:30 at UTC-7 is 17:30 UTC: the same instant, whatever the server's time zone.
      scheduledDate: new Date('2030-05-06T17:30:00.000Z'),
      duration: 60,
      status: 'scheduled',
      reminderSent: false,
      externalEventId: null,
      cancellationReason: null,
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
    // A 60-minute consultation holds the 10:30 and 11:00 cells.
    expect(await claimsOf(ctx(), res.body.id)).toEqual(['2030-05-06T17:30:00.000Z', '2030-05-06T18:00:00.000Z']);
  });

  it('answers with what identifies the booking, never the personal details', async () => {
    const res = await ctx().call('POST', '/api/appointments', { body: { ...valid, scheduledDate: '2030-05-07T16:00:00.000Z' } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['consultationType', 'duration', 'id', 'manageToken', 'scheduledDate', 'status']);
    expect(res.body).toEqual({
      id: res.body.id,
      consultationType: 'estate-planning',
      scheduledDate: '2030-05-07T16:00:00.000Z',
      duration: 60,
      status: 'scheduled',
      // The booking's own link (self-service): its id and a signature.
      manageToken: expect.stringMatching(new RegExp(`^${res.body.id}\\.[A-Za-z0-9_-]{43}$`)),
    });
    const text = JSON.stringify(res.body);
    for (const secret of [valid.firstName, valid.lastName, valid.email, valid.phone, valid.notes]) expect(text).not.toContain(secret);
    expect(await storedAppointment(ctx(), res.body.id)).toBeDefined();
  });

  it('takes the duration from the consultation type, whatever duration was sent, and claims that long', async () => {
    for (const [type, minutes] of Object.entries(minutesByType)) {
      for (const duration of [5, 999, -1, '90', undefined]) {
        const res = await ctx().call('POST', '/api/appointments', { body: { ...valid, scheduledDate: freeSlot(), consultationType: type, duration } });
        expect(res.status, `${type} ${duration}`).toBe(201);
        expect(res.body.duration, `${type} ${duration}`).toBe(minutes);
        expect((await storedAppointment(ctx(), res.body.id))!.duration, `${type} ${duration}`).toBe(minutes);
        expect(await claimsOf(ctx(), res.body.id), `${type} ${duration}`).toHaveLength(Math.ceil(minutes / 30));
      }
    }
  });

  it('applies the SPEC defaults: phone and notes optional (null), scheduled, no reminder sent', async () => {
    const { phone: _phone, notes: _notes, status: _status, reminderSent: _reminder, duration: _duration, ...required } = valid;
    const res = await ctx().call('POST', '/api/appointments', { body: { ...required, scheduledDate: freeSlot() } });
    expect(res.status).toBe(201);
    expect(await storedAppointment(ctx(), res.body.id)).toMatchObject({ phone: null, notes: null, status: 'scheduled', reminderSent: false, duration: 60 });
    const blank = await ctx().call('POST', '/api/appointments', { body: { ...valid, scheduledDate: freeSlot(), phone: '  ', notes: '' } });
    expect(blank.status).toBe(201);
    expect(await storedAppointment(ctx(), blank.body.id)).toMatchObject({ phone: null, notes: null });
  });

  it('trims the text it stores', async () => {
    const { id } = await book(ctx(), { firstName: '  Ana ', lastName: ' Ruiz  ', email: ' ana@example.com ' });
    expect(await storedAppointment(ctx(), id)).toMatchObject({ firstName: 'Ana', lastName: 'Ruiz', email: 'ana@example.com' });
  });

  it('rejects an invalid booking with a message on the field and writes nothing', async () => {
    const before = [await countRows(ctx(), 'appointments'), await countRows(ctx(), 'appointmentSlotClaims')];
    // Every case is on a free, valid slot but for what it breaks.
    const free = '2030-05-08T09:00:00-07:00';
    const cases: [string, Record<string, unknown>, string][] = [
      ...(['firstName', 'lastName', 'email', 'consultationType', 'practiceArea', 'scheduledDate'] as const).map(
        (field): [string, Record<string, unknown>, string] => [`missing ${field}`, { ...valid, scheduledDate: free, [field]: undefined }, field],
      ),
      ['blank firstName', { ...valid, scheduledDate: free, firstName: '   ' }, 'firstName'],
      ['blank lastName', { ...valid, scheduledDate: free, lastName: '' }, 'lastName'],
      ['unknown consultationType', { ...valid, scheduledDate: free, consultationType: 'tax-advice' }, 'consultationType'],
      ['consultation label instead of value', { ...valid, scheduledDate: free, consultationType: 'Initial Consultation' }, 'consultationType'],
      ['practice area outside the booking list (probate)', { ...valid, scheduledDate: free, practiceArea: 'probate' }, 'practiceArea'],
      ['unknown practiceArea', { ...valid, scheduledDate: free, practiceArea: 'criminal-defense' }, 'practiceArea'],
      ['bad email', { ...valid, scheduledDate: free, email: 'maria.example.com' }, 'email'],
      ['email with a space', { ...valid, scheduledDate: free, email: 'maria lopez@example.com' }, 'email'],
      ['unparseable date', { ...valid, scheduledDate: 'next tuesday at ten' }, 'scheduledDate'],
      ['blank date', { ...valid, scheduledDate: '' }, 'scheduledDate'],
      ['impossible date (February 30)', { ...valid, scheduledDate: '2031-02-30T17:00:00Z' }, 'scheduledDate'],
      ['bare number as date', { ...valid, scheduledDate: '5' }, 'scheduledDate'],
      ['date and time without an offset', { ...valid, scheduledDate: '2030-05-08T09:00:00' }, 'scheduledDate'],
      ['epoch number as date', { ...valid, scheduledDate: Date.parse(free) }, 'scheduledDate'],
      ['status confirmed', { ...valid, scheduledDate: free, status: 'confirmed' }, 'status'],
      ['status completed', { ...valid, scheduledDate: free, status: 'completed' }, 'status'],
      ['status unknown', { ...valid, scheduledDate: free, status: 'pending' }, 'status'],
      ['reminderSent true', { ...valid, scheduledDate: free, reminderSent: true }, 'reminderSent'],
      ['bad phone', { ...valid, scheduledDate: free, phone: 'call me <b>maybe</b>' }, 'phone'],
      ['notes too long', { ...valid, scheduledDate: free, notes: 'x'.repeat(2001) }, 'notes'],
    ];
    for (const [label, body, field] of cases) {
      const res = await ctx().call('POST', '/api/appointments', { body });
      expect(res.status, label).toBe(400);
      expect(res.body.fields?.[field], label).toBeTypeOf('string');
    }
    const empty = await ctx().call('POST', '/api/appointments', { body: {} });
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body.fields).sort()).toEqual(['consultationType', 'email', 'firstName', 'lastName', 'practiceArea', 'scheduledDate']);
    expect([await countRows(ctx(), 'appointments'), await countRows(ctx(), 'appointmentSlotClaims')]).toEqual(before);
  });

  it('refuses a time that is not a bookable slot in firm time, saying why, and writes nothing', async () => {
    const before = [await countRows(ctx(), 'appointments'), await countRows(ctx(), 'appointmentSlotClaims')];
    const notASlot = 'Please choose one of the listed times.';
    const cases: [string, string, string][] = [
      ['noon (no 12 PM hour)', '2030-05-08T12:00:00-07:00', notASlot],
      ['9:15', '2030-05-08T09:15:00-07:00', notASlot],
      ['9:00 and 30 seconds', '2030-05-08T09:00:30-07:00', notASlot],
      ['8:30 (before opening)', '2030-05-08T08:30:00-07:00', notASlot],
      ['4:30 PM (after the last slot)', '2030-05-08T16:30:00-07:00', notASlot],
      ['9:00 in UTC (2:00 AM at the firm)', '2030-05-08T09:00:00Z', notASlot],
      ['9:00 in Tokyo (5:00 PM the day before at the firm)', '2030-05-08T09:00:00+09:00', notASlot],
      ['10:30 at UTC+2 (1:30 AM at the firm)', '2030-05-06T10:30:00+02:00', notASlot],
      ['Saturday', '2030-05-11T09:00:00-07:00', 'We are closed on weekends. Please choose a weekday.'],
      ['Sunday', '2030-05-12T16:00:00-07:00', 'We are closed on weekends. Please choose a weekday.'],
      ['earlier today', '2030-04-01T09:00:00-07:00', 'That time has already passed. Please choose a later time.'],
      ['last Friday', '2030-03-29T10:00:00-07:00', 'That time has already passed. Please choose a later time.'],
      ['a year ago', '2029-04-02T10:00:00-07:00', 'That time has already passed. Please choose a later time.'],
      ['a day beyond the 12 months', '2031-04-02T09:00:00-07:00', 'Please choose a date within the next 12 months.'],
      ['years ahead', '2035-05-07T09:00:00-07:00', 'Please choose a date within the next 12 months.'],
      ['half an hour from now (two hours of notice)', '2030-04-01T09:30:00-07:00', 'Please choose a time at least 2 hours from now.'],
      ['Memorial Day', '2030-05-27T10:00:00-07:00', 'We are closed for Memorial Day. Please choose another day.'],
      ['Thanksgiving', '2030-11-28T10:00:00-08:00', 'We are closed for Thanksgiving Day. Please choose another day.'],
      ['the day after Thanksgiving', '2030-11-29T10:00:00-08:00', 'We are closed for the day after Thanksgiving. Please choose another day.'],
      [
        'an hour-long consultation at 11:30 (into the noon hour)',
        '2030-05-08T11:30:00-07:00',
        'A 60-minute consultation at that time would run past our consultation hours. Please choose an earlier time.',
      ],
    ];
    for (const [label, scheduledDate, message] of cases) {
      const res = await ctx().call('POST', '/api/appointments', { body: { ...valid, scheduledDate } });
      expect(res.status, label).toBe(400);
      expect(res.body, label).toEqual({ error: message, fields: { scheduledDate: message }, requestId: expect.any(String) });
    }
    expect([await countRows(ctx(), 'appointments'), await countRows(ctx(), 'appointmentSlotClaims')]).toEqual(before);
    // Today itself is closed: Cesar Chavez Day (31 March) falls on the Sunday, and is observed on the Monday.
    const observed = await ctx().call('POST', '/api/appointments', { body: { ...valid, scheduledDate: '2030-04-01T13:00:00-07:00' } });
    expect(observed.body.error).toBe('We are closed for Cesar Chavez Day. Please choose another day.');
    // The edges that are allowed: later today, two hours ahead (on the next Monday, at 9:00); 11:30 for
    // half an hour; the last day of the window.
    ctx().clock.set('2030-04-08T16:00:00Z');
    await book(ctx(), { scheduledDate: '2030-04-08T11:00:00-07:00', consultationType: 'initial' });
    ctx().clock.set(NOW);
    await book(ctx(), { scheduledDate: '2030-05-08T11:30:00-07:00', consultationType: 'initial' });
    await book(ctx(), { scheduledDate: '2031-04-01T16:00:00-07:00', consultationType: 'initial' });
  });

  it('keeps 9:00 AM firm time across daylight saving: the Monday after spring-forward is 16:00 UTC', async () => {
    ctx().clock.set('2030-03-01T18:00:00Z');
    const friday = await ctx().call('POST', '/api/appointments', { body: { ...valid, scheduledDate: '2030-03-08T17:00:00.000Z' } });
    expect(friday.status).toBe(201); // 9:00 PST
    const monday = await ctx().call('POST', '/api/appointments', { body: { ...valid, scheduledDate: '2030-03-11T16:00:00.000Z' } });
    expect(monday.status).toBe(201); // 9:00 PDT
    const wrongHour = await ctx().call('POST', '/api/appointments', { body: { ...valid, scheduledDate: '2030-03-11T15:00:00.000Z' } });
    expect(wrongHour.status).toBe(400); // 8:00 PDT: the winter instant for 9:00, an hour off after the change
    const day = await availability(ctx(), 'date=2030-03-11&consultationType=initial');
    expect(day.body.slots[0]).toEqual({ time: '09:00', label: '9:00 AM', startsAt: '2030-03-11T16:00:00.000Z', available: false, reason: 'taken' });
    expect(unavailable(day.body)).toEqual(['09:00 taken', '09:30 taken']);
  });

  it('refuses a slot already taken with 409 and the message the modal shows, writing nothing', async () => {
    const scheduledDate = '2030-05-09T13:00:00-07:00';
    const first = await ctx().call('POST', '/api/appointments', { body: { ...valid, scheduledDate, consultationType: 'initial' } });
    expect(first.status).toBe(201);
    const before = [await countRows(ctx(), 'appointments'), await countRows(ctx(), 'appointmentSlotClaims')];
    for (const consultationType of ['initial', 'divorce']) {
      const again = await ctx().call('POST', '/api/appointments', { body: { ...valid, scheduledDate, consultationType, email: 'other@example.com' } });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ error: TAKEN, fields: { scheduledDate: TAKEN }, requestId: expect.any(String) });
    }
    // The same instant written in another offset is the same slot.
    const sameInstant = await ctx().call('POST', '/api/appointments', {
      body: { ...valid, scheduledDate: '2030-05-09T20:00:00Z', consultationType: 'initial' },
    });
    expect(sameInstant.status).toBe(409);
    expect([await countRows(ctx(), 'appointments'), await countRows(ctx(), 'appointmentSlotClaims')]).toEqual(before);
  });

  it('counts the duration: a 60-minute booking at 9:00 takes 9:30 too, and 10:00 stays free', async () => {
    const date = '2030-05-13';
    expect(
      (await ctx().call('POST', '/api/appointments', { body: { ...valid, consultationType: 'divorce', scheduledDate: `${date}T09:00:00-07:00` } })).status,
    ).toBe(201);
    const at930 = await ctx().call('POST', '/api/appointments', { body: { ...valid, consultationType: 'initial', scheduledDate: `${date}T09:30:00-07:00` } });
    expect(at930.status).toBe(409);
    expect(at930.body.error).toBe(TAKEN);
    expect(unavailable((await availability(ctx(), `date=${date}&consultationType=initial`)).body)).toEqual(['09:00 taken', '09:30 taken']);
    // 10:00 is free: the 60 minutes end as it starts.
    expect(
      (await ctx().call('POST', '/api/appointments', { body: { ...valid, consultationType: 'initial', scheduledDate: `${date}T10:00:00-07:00` } })).status,
    ).toBe(201);
    // 45 minutes at 11:00 holds 11:00 and 11:30: a 60-minute request at 10:30 now overlaps both neighbours.
    expect(
      (await ctx().call('POST', '/api/appointments', { body: { ...valid, consultationType: 'family-law', scheduledDate: `${date}T11:00:00-07:00` } })).status,
    ).toBe(201);
    const sixty = await availability(ctx(), `date=${date}&consultationType=estate-planning`);
    // (11:30 would run into the noon hour for an hour-long consultation anyway.)
    expect(unavailable(sixty.body)).toEqual(['09:00 taken', '09:30 taken', '10:00 taken', '10:30 taken', '11:00 taken', '11:30 hours']);
    const thirty = await availability(ctx(), `date=${date}`);
    expect(unavailable(thirty.body)).toEqual(['09:00 taken', '09:30 taken', '10:00 taken', '11:00 taken', '11:30 taken']);
    expect(
      (await ctx().call('POST', '/api/appointments', { body: { ...valid, consultationType: 'estate-planning', scheduledDate: `${date}T10:30:00-07:00` } }))
        .status,
    ).toBe(409);
    expect(
      (await ctx().call('POST', '/api/appointments', { body: { ...valid, consultationType: 'initial', scheduledDate: `${date}T10:30:00-07:00` } })).status,
    ).toBe(201);
  });

  it('frees the slot when the admin cancels or completes (rebooking succeeds); confirmed keeps it', async () => {
    const body = { ...valid, consultationType: 'divorce', scheduledDate: '2030-05-14T14:00:00-07:00' };
    const first = await ctx().call('POST', '/api/appointments', { body });
    expect(first.status).toBe(201);
    expect((await ctx().admin('PUT', `/api/admin/appointments/${first.body.id}`, { status: 'confirmed' })).status).toBe(200);
    expect((await ctx().call('POST', '/api/appointments', { body })).status).toBe(409);
    expect(await claimsOf(ctx(), first.body.id)).toHaveLength(2);

    const cancelled = await ctx().admin('PUT', `/api/admin/appointments/${first.body.id}`, { status: 'cancelled' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect(await claimsOf(ctx(), first.body.id)).toEqual([]);
    expect(unavailable((await availability(ctx(), 'date=2030-05-14')).body)).toEqual([]);
    const second = await ctx().call('POST', '/api/appointments', { body });
    expect(second.status).toBe(201);
    // The cancelled one stays in the admin's list, cancelled.
    expect((await storedAppointment(ctx(), first.body.id))!.status).toBe('cancelled');

    // Completed once it has started (issue 19): its claims go too.
    ctx().clock.set(new Date(Date.parse(body.scheduledDate) + 60_000));
    expect((await ctx().admin('PUT', `/api/admin/appointments/${second.body.id}`, { status: 'completed' })).status).toBe(200);
    expect(await claimsOf(ctx(), second.body.id)).toEqual([]);
    expect((await storedAppointment(ctx(), second.body.id))!.status).toBe('completed');
  });

  it('refuses Completed before the consultation starts, saying from when, and changes nothing', async () => {
    const { id, scheduledDate } = await book(ctx());
    const early = await ctx().admin('PUT', `/api/admin/appointments/${id}`, { status: 'completed' });
    expect(early.status).toBe(409);
    expect(early.body.error).toMatch(/^This consultation has not started yet: it can be marked completed from \w+day, \w+ \d+, 2030 at \d+:\d\d [AP]M/);
    expect((await storedAppointment(ctx(), id))!.status).toBe('scheduled');
    expect(await claimsOf(ctx(), id)).not.toEqual([]);
    ctx().clock.set(new Date(Date.parse(scheduledDate) - 1));
    expect((await ctx().admin('PUT', `/api/admin/appointments/${id}`, { status: 'completed' })).status).toBe(409);
    ctx().clock.set(new Date(scheduledDate));
    expect((await ctx().admin('PUT', `/api/admin/appointments/${id}`, { status: 'completed' })).status).toBe(200);
  });

  it('frees the slot when the admin deletes the appointment (its claims cascade)', async () => {
    const body = { ...valid, consultationType: 'initial', scheduledDate: '2030-05-15T15:30:00-07:00' };
    const first = await ctx().call('POST', '/api/appointments', { body });
    expect(first.status).toBe(201);
    expect((await ctx().admin('DELETE', `/api/admin/appointments/${first.body.id}`)).status).toBe(204);
    expect(await claimsOf(ctx(), first.body.id)).toEqual([]);
    expect((await ctx().call('POST', '/api/appointments', { body })).status).toBe(201);
  });

  it('answers availability for a firm day: taken, past, closed, with the UTC instants to send back', async () => {
    // Book 13:30 on Wednesday 3 April; now is Monday 1 April, 9:00.
    expect(
      (await ctx().call('POST', '/api/appointments', { body: { ...valid, consultationType: 'initial', scheduledDate: '2030-04-03T13:30:00-07:00' } })).status,
    ).toBe(201);
    const res = await availability(ctx(), 'date=2030-04-03&consultationType=initial');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({ date: '2030-04-03', timeZone: 'America/Los_Angeles', bookable: true });
    expect(res.body.slots).toHaveLength(13);
    expect(res.body.slots.map((s: { label: string }) => s.label)).toEqual([
      '9:00 AM',
      '9:30 AM',
      '10:00 AM',
      '10:30 AM',
      '11:00 AM',
      '11:30 AM',
      '1:00 PM',
      '1:30 PM',
      '2:00 PM',
      '2:30 PM',
      '3:00 PM',
      '3:30 PM',
      '4:00 PM',
    ]);
    expect(res.body.slots[7]).toEqual({ time: '13:30', label: '1:30 PM', startsAt: '2030-04-03T20:30:00.000Z', available: false, reason: 'taken' });
    expect(res.body.slots[6]).toEqual({ time: '13:00', label: '1:00 PM', startsAt: '2030-04-03T20:00:00.000Z', available: true });
    // A 60-minute consultation at 1:00 PM would run into it; one at 11:30 into the noon hour.
    expect(unavailable((await availability(ctx(), 'date=2030-04-03&consultationType=divorce')).body)).toEqual(['11:30 hours', '13:00 taken', '13:30 taken']);
    // Nothing personal in the answer.
    expect(JSON.stringify(res.body)).not.toContain(valid.email);

    // Today, 10:10 at the firm (Monday 8 April: 1 April is Cesar Chavez Day, observed): the slots up
    // to 10:00 have passed, and those before 12:10 are too soon.
    ctx().clock.set('2030-04-08T17:10:00Z');
    const today = await availability(ctx(), 'date=2030-04-08');
    expect(today.body.bookable).toBe(true);
    expect(unavailable(today.body)).toEqual(['09:00 past', '09:30 past', '10:00 past', '10:30 notice', '11:00 notice', '11:30 notice']);
    // At 2:30 PM no slot is two hours ahead: the day is closed, and says why.
    ctx().clock.set('2030-04-08T21:30:00Z');
    const late = await availability(ctx(), 'date=2030-04-08');
    expect(late.body).toMatchObject({
      bookable: false,
      message: "No times are left on this day: we need at least 2 hours' notice. Please choose another date.",
    });
    ctx().clock.set(NOW);

    // Memorial Day: closed, and the message names it.
    const memorial = await availability(ctx(), 'date=2030-05-27');
    expect(memorial.body).toMatchObject({ bookable: false, message: 'We are closed for Memorial Day. Please choose another day.' });
    expect(memorial.body.slots.every((s: { reason: string }) => s.reason === 'closed')).toBe(true);

    const saturday = await availability(ctx(), 'date=2030-04-06');
    expect(saturday.status).toBe(200);
    expect(saturday.body).toMatchObject({ bookable: false, message: 'We are closed on weekends. Please choose a weekday.' });
    expect(saturday.body.slots.every((s: { available: boolean; reason: string }) => !s.available && s.reason === 'closed')).toBe(true);
    const beyond = await availability(ctx(), 'date=2031-04-02');
    expect(beyond.body.bookable).toBe(false);
    expect(beyond.body.slots.every((s: { reason: string }) => s.reason === 'closed')).toBe(true);
    const lastDay = await availability(ctx(), 'date=2031-04-01');
    expect(lastDay.body.bookable).toBe(true);
    const yesterday = await availability(ctx(), 'date=2030-03-29');
    expect(yesterday.body.bookable).toBe(false);
    expect(yesterday.body.slots.every((s: { reason: string }) => s.reason === 'past')).toBe(true);
  });

  it('answers 400 in the standard shape for a bad date or consultation type', async () => {
    for (const query of [
      '',
      'date=',
      'date=2030-02-30',
      'date=2030-4-3',
      'date=04/03/2030',
      'date=tomorrow',
      'date=2030-04-03T09:00',
      'date=2030-04-03&consultationType=tax',
    ]) {
      const res = await availability(ctx(), query);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({ error: expect.any(String), fields: expect.any(Object), requestId: expect.any(String) });
    }
    expect((await availability(ctx(), 'date=2030-02-30')).body.fields.date).toBe('Date must be a real calendar date');
    expect((await availability(ctx(), 'date=2030-04-03&consultationType=tax')).body.fields.consultationType).toBeTypeOf('string');
  });

  it('lists appointments with their details for the admin', async () => {
    const { id } = await book(ctx(), { firstName: 'Listed', email: 'listed@example.com', scheduledDate: '2030-06-03T09:00:00-07:00' });
    const res = await ctx().admin('GET', '/api/admin/appointments');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(await countRows(ctx(), 'appointments'));
    expect(res.body.find((r: { id: string }) => r.id === id)).toMatchObject({
      firstName: 'Listed',
      email: 'listed@example.com',
      phone: valid.phone,
      scheduledDate: '2030-06-03T16:00:00.000Z',
      status: 'scheduled',
      duration: 60,
    });
    expect((await ctx().call('GET', '/api/admin/appointments')).status).toBe(401);
  });

  it('moves scheduled -> confirmed -> completed, each stored', async () => {
    const { id } = await book(ctx());
    const confirmed = await ctx().admin('PUT', `/api/admin/appointments/${id}`, { status: 'confirmed' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ id, status: 'confirmed' });
    expect((await storedAppointment(ctx(), id))!.status).toBe('confirmed');
    ctx().clock.set(new Date(Date.parse(confirmed.body.scheduledDate) + 60_000));
    const completed = await ctx().admin('PUT', `/api/admin/appointments/${id}`, { status: 'completed' });
    expect(completed.status).toBe(200);
    expect((await storedAppointment(ctx(), id))!.status).toBe('completed');
  });

  for (const terminal of ['completed', 'cancelled'] as const) {
    it(`treats ${terminal} as terminal: 409 on any change, the same status again a 200 no-op`, async () => {
      const { id, scheduledDate } = await book(ctx());
      // Once it has started, so that either is allowed.
      ctx().clock.set(new Date(Date.parse(scheduledDate) + 60_000));
      expect((await ctx().admin('PUT', `/api/admin/appointments/${id}`, { status: terminal })).status).toBe(200);
      const settled = await storedAppointment(ctx(), id);
      expect(settled!.status).toBe(terminal);
      for (const status of ['scheduled', 'confirmed', 'cancelled', 'completed'].filter((s) => s !== terminal)) {
        const res = await ctx().admin('PUT', `/api/admin/appointments/${id}`, { status });
        expect(res.status, status).toBe(409);
        expect(res.body.error).toBeTypeOf('string');
        expect((await storedAppointment(ctx(), id))!.status, status).toBe(terminal);
      }
      const again = await ctx().admin('PUT', `/api/admin/appointments/${id}`, { status: terminal });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ id, status: terminal });
      // A no-op writes nothing.
      expect((await storedAppointment(ctx(), id))!.updatedAt.getTime()).toBe(settled!.updatedAt.getTime());
    });
  }

  it('never leaves a terminal status when a cancel and a confirm race, and a cancelled one holds no slot', async () => {
    for (let i = 0; i < 5; i++) {
      const { id } = await book(ctx());
      const [cancel, confirm] = await Promise.all([
        ctx().admin('PUT', `/api/admin/appointments/${id}`, { status: 'cancelled' }),
        ctx().admin('PUT', `/api/admin/appointments/${id}`, { status: 'confirmed' }),
      ]);
      expect(cancel.status).toBe(200);
      expect([200, 409]).toContain(confirm.status);
      // Whichever came first, the cancellation stands, and its slot is free.
      expect((await storedAppointment(ctx(), id))!.status).toBe('cancelled');
      expect(await claimsOf(ctx(), id)).toEqual([]);
    }
  });

  it('rejects an unknown status with 400 and answers 404 for an unknown appointment', async () => {
    const { id } = await book(ctx());
    for (const body of [{ status: 'done' }, { status: 'Confirmed' }, { status: null }, {}]) {
      const res = await ctx().admin('PUT', `/api/admin/appointments/${id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.fields.status).toBeTypeOf('string');
    }
    expect((await storedAppointment(ctx(), id))!.status).toBe('scheduled');
    expect((await ctx().admin('PUT', '/api/admin/appointments/no-such-id', { status: 'confirmed' })).status).toBe(404);
  });

  it('deletes an appointment (204), then answers 404 for it', async () => {
    const { id } = await book(ctx());
    const before = await countRows(ctx(), 'appointments');
    expect((await ctx().admin('DELETE', `/api/admin/appointments/${id}`)).status).toBe(204);
    expect(await storedAppointment(ctx(), id)).toBeUndefined();
    expect(await countRows(ctx(), 'appointments')).toBe(before - 1);
    expect((await ctx().admin('DELETE', `/api/admin/appointments/${id}`)).status).toBe(404);
    expect((await ctx().admin('PUT', `/api/admin/appointments/${id}`, { status: 'confirmed' })).status).toBe(404);
    expect(await countRows(ctx(), 'appointments')).toBe(before - 1);
  });

  it("the migration's backfill claims the cells of appointments booked before it, scheduled and confirmed only", async () => {
    const { db, t, dialect } = ctx().database;
    // Rows as an older version stored them: straight into the table, no claims.
    const legacy = (id: string, scheduledDate: string, duration: number, status: string, createdAt: string) => ({
      id,
      firstName: 'Old',
      lastName: 'Booking',
      email: 'old@example.com',
      consultationType: 'initial',
      practiceArea: 'other',
      scheduledDate: new Date(scheduledDate),
      duration,
      status,
      createdAt: new Date(createdAt),
    });
    await db.insert(t.appointments).values([
      legacy('legacy-60', '2030-09-03T16:00:00Z', 60, 'scheduled', '2029-01-01T00:00:00Z'),
      legacy('legacy-45', '2030-09-03T20:00:00Z', 45, 'confirmed', '2029-01-01T00:00:01Z'),
      legacy('legacy-unaligned', '2030-09-04T16:15:00Z', 30, 'scheduled', '2029-01-01T00:00:02Z'), // 9:15: touches 9:00 and 9:30
      legacy('legacy-cancelled', '2030-09-05T16:00:00Z', 60, 'cancelled', '2029-01-01T00:00:03Z'),
      legacy('legacy-completed', '2030-09-05T18:00:00Z', 30, 'completed', '2029-01-01T00:00:04Z'),
      legacy('legacy-overlap', '2030-09-03T16:30:00Z', 30, 'scheduled', '2029-01-01T00:00:05Z'), // double-booked long ago
    ]);
    const file = new URL(`../../db/migrations/${dialect === 'sqlite' ? 'sqlite' : 'pg'}/0001_booking_slot_claims.sql`, import.meta.url);
    const backfill = readFileSync(file, 'utf8')
      .split('--> statement-breakpoint')
      .find((statement) => statement.includes('Backfill'))!;
    const run = (statement: string) =>
      dialect === 'sqlite' ? (db as unknown as { run(q: unknown): unknown }).run(sql.raw(statement)) : db.execute(sql.raw(statement));
    await run(backfill);
    await run(backfill); // safe to run twice
    expect(await claimsOf(ctx(), 'legacy-60')).toEqual(['2030-09-03T16:00:00.000Z', '2030-09-03T16:30:00.000Z']);
    expect(await claimsOf(ctx(), 'legacy-45')).toEqual(['2030-09-03T20:00:00.000Z', '2030-09-03T20:30:00.000Z']);
    expect(await claimsOf(ctx(), 'legacy-unaligned')).toEqual(['2030-09-04T16:00:00.000Z', '2030-09-04T16:30:00.000Z']);
    expect(await claimsOf(ctx(), 'legacy-cancelled')).toEqual([]);
    expect(await claimsOf(ctx(), 'legacy-completed')).toEqual([]);
    expect(await claimsOf(ctx(), 'legacy-overlap')).toEqual([]); // its one cell went to the earlier booking
    // And the API now sees those slots as taken.
    expect(unavailable((await availability(ctx(), 'date=2030-09-03')).body)).toEqual(['09:00 taken', '09:30 taken', '13:00 taken', '13:30 taken']);
    expect(
      (await ctx().call('POST', '/api/appointments', { body: { ...valid, consultationType: 'initial', scheduledDate: '2030-09-04T09:30:00-07:00' } })).status,
    ).toBe(409);
  });
});
