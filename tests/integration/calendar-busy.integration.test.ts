/**
 * Busy times block slots (issue 20 item 2, decision 036): the active Google or Outlook calendar's
 * busy periods leave GET /api/appointments/availability and refuse a booking (409, as a taken time),
 * read again at the booking whatever was kept; a minute's memory per container, dropped when the
 * integration's settings change; a provider that cannot be read leaves the site taking bookings on its
 * own data, with one notice per outage in the calendar log and a 'reachable again' after; a Calendly
 * booking blocks its whole time, also once the site booking it overlapped is cancelled. Against the
 * local fakes of Google's freeBusy and Graph's calendarView (tests/support/calendar-fakes.ts).
 */
import { afterAll, beforeEach, expect, it } from 'vitest';
import { bookingMessages } from '../../src/shared/booking/availability.ts';
import { addDays, firmInstant, type FirmDate } from '../../src/shared/firm-time.ts';
import { NOW, visitorBooking } from '../support/appointment-requests.ts';
import {
  startCalendarFakes,
  timestampedSignature,
  googleTestConfig as googleConfig,
  outlookTestConfig as outlookConfig,
  testCredentials,
} from '../support/calendar-fakes.ts';
import { countRows, forEachDialect, type TestContext } from '../support/test-app.ts';

const fakes = await startCalendarFakes(testCredentials);
afterAll(() => fakes.close());

const calendlyKey = 'calendly-webhook-signing-key-busy-4242';

/** From Monday 2 September 2030 (Labor Day: closed) on, weeks no other file books; each test its own weekdays. */
const day = (n: number): FirmDate => addDays('2030-09-02', n);
const at = (date: FirmDate, time: string) => firmInstant(date, time).toISOString();

async function integration(ctx: TestContext, provider: string, config: Record<string, unknown>): Promise<string> {
  const created = await ctx.admin('POST', '/api/admin/calendar-settings', { provider, config: JSON.stringify(config) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await ctx.admin('PUT', `/api/admin/calendar-settings/${created.body.id}/activate`)).status).toBe(200);
  return created.body.id;
}

type Slot = { time: string; available: boolean; reason?: string };
async function availability(ctx: TestContext, date: FirmDate, consultationType = 'initial'): Promise<Slot[]> {
  const res = await ctx.call('GET', `/api/appointments/availability?date=${date}&consultationType=${consultationType}`);
  expect(res.status).toBe(200);
  return res.body.slots;
}
const free = (slots: Slot[]) => slots.filter((s) => s.available).map((s) => s.time);

const bookAt = (ctx: TestContext, scheduledDate: string, consultationType = 'initial') =>
  ctx.call('POST', '/api/appointments', { body: { ...visitorBooking, consultationType, scheduledDate } });

type Notice = { provider: string; kind: string; message: string; count: number; endedAt: string | null; integrationId: string | null };
async function calendarLog(ctx: TestContext): Promise<Notice[]> {
  const res = await ctx.admin('GET', '/api/admin/calendar-notices');
  expect(res.status).toBe(200);
  return res.body;
}

const later = (ctx: TestContext, ms: number) => ctx.clock.set(new Date(ctx.clock.now().getTime() + ms));

forEachDialect(
  'busy times block slots',
  (ctx) => {
    beforeEach(async () => {
      ctx().clock.set(NOW);
      for (const fake of [fakes.google, fakes.microsoft]) {
        fake.resetRequests();
        fake.events.clear();
      }
      fakes.microsoft.calendarViewPageSize = 10;
      // Each test starts with nothing active and an empty log.
      const { db, t } = ctx().database;
      await db.update(t.calendarSettings).set({ isActive: false });
      await db.delete(t.calendarNotices);
    });

    it('a busy hour in Google Calendar is missing from the availability, and a booking at it is refused 409 with nothing written', async () => {
      await integration(ctx(), 'google', googleConfig);
      const date = day(4);
      fakes.google.addEvent({ calendarId: googleConfig.calendar_id, start: { dateTime: at(date, '10:00') }, end: { dateTime: at(date, '11:00') } });
      // Another calendar's event and a transparent ("free") one block nothing.
      fakes.google.addEvent({ calendarId: 'someone-else', start: { dateTime: at(date, '13:00') }, end: { dateTime: at(date, '14:00') } });
      // The account's main calendar is read too: the attorney's own court date at 16:00.
      fakes.google.addEvent({ calendarId: 'primary', start: { dateTime: at(date, '16:00') }, end: { dateTime: at(date, '16:30') } });
      fakes.google.addEvent({
        calendarId: googleConfig.calendar_id,
        start: { dateTime: at(date, '14:00') },
        end: { dateTime: at(date, '15:00') },
        transparency: 'transparent',
      });

      const slots = await availability(ctx(), date);
      expect(slots.filter((s) => s.time === '10:00' || s.time === '10:30')).toEqual([
        expect.objectContaining({ time: '10:00', available: false, reason: 'taken' }),
        expect.objectContaining({ time: '10:30', available: false, reason: 'taken' }),
      ]);
      expect(free(slots)).toEqual(expect.arrayContaining(['09:00', '09:30', '11:00', '13:00', '14:00']));
      expect(slots.find((s) => s.time === '16:00')).toEqual(expect.objectContaining({ available: false, reason: 'taken' }));
      // A 60-minute consultation at 9:30 would run into the busy hour.
      expect(free(await availability(ctx(), date, 'estate-planning'))).not.toContain('09:30');

      // The documented request: POST {root}/freeBusy for the firm's day, the calendar of the config and the main one.
      const [request] = fakes.google.freeBusyRequests();
      expect(request!.headers.authorization).toMatch(/^Bearer ya29\.fake-/);
      expect(request!.json()).toEqual({
        timeMin: at(date, '00:00'),
        timeMax: at(addDays(date, 1), '00:00'),
        timeZone: 'America/Los_Angeles',
        items: [{ id: googleConfig.calendar_id }, { id: 'primary' }],
      });

      const before = await countRows(ctx(), 'appointments');
      const refused = await bookAt(ctx(), at(date, '10:30'));
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ error: bookingMessages.taken, fields: { scheduledDate: bookingMessages.taken } });
      expect(await countRows(ctx(), 'appointments')).toBe(before);
      expect(await countRows(ctx(), 'deliveries')).toBe(0);
      expect((await bookAt(ctx(), at(date, '11:00'))).status).toBe(201);
    });

    it('keeps an answer a minute (a second availability asks Google no more), re-reads it at a booking, and drops it when the settings change', async () => {
      const id = await integration(ctx(), 'google', googleConfig);
      const date = day(1);
      expect(free(await availability(ctx(), date))).toContain('14:00');
      expect(free(await availability(ctx(), date, 'estate-planning'))).toContain('14:00');
      expect(fakes.google.freeBusyRequests()).toHaveLength(1);

      // The attorney adds a court date: the kept answer still says free, the booking asks again.
      fakes.google.addEvent({ calendarId: googleConfig.calendar_id, start: { dateTime: at(date, '14:00') }, end: { dateTime: at(date, '15:30') } });
      expect(free(await availability(ctx(), date))).toContain('14:00');
      expect(fakes.google.freeBusyRequests()).toHaveLength(1);
      const refused = await bookAt(ctx(), at(date, '14:00'));
      expect(refused.status).toBe(409);
      expect(refused.body.fields).toEqual({ scheduledDate: bookingMessages.taken });
      expect(fakes.google.freeBusyRequests()).toHaveLength(2);
      // The booking's read asked for its own time only.
      expect(fakes.google.freeBusyRequests()[1]!.json()).toMatchObject({ timeMin: at(date, '14:00'), timeMax: at(date, '14:30') });

      // A minute later the day is read again.
      later(ctx(), 61_000);
      expect(free(await availability(ctx(), date))).not.toContain('14:00');
      expect(fakes.google.freeBusyRequests()).toHaveLength(3);
      fakes.google.events.clear();
      expect(free(await availability(ctx(), date))).not.toContain('14:00');
      expect(fakes.google.freeBusyRequests()).toHaveLength(3);

      // A change of the integration's settings drops what was kept.
      const changed = await ctx().admin('PUT', `/api/admin/calendar-settings/${id}/settings`, { config: JSON.stringify(googleConfig) });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(free(await availability(ctx(), date))).toContain('14:00');
      expect(fakes.google.freeBusyRequests()).toHaveLength(4);
    });

    it('reads Outlook through calendarView in UTC, page after page: busy, tentative and away block; free, working elsewhere and cancelled do not', async () => {
      await integration(ctx(), 'outlook', outlookConfig);
      fakes.microsoft.calendarViewPageSize = 2;
      const date = day(2);
      const user = outlookConfig.user_email;
      const wall = (time: string) => ({ dateTime: `${date}T${time}:00.0000000`, timeZone: 'Pacific Standard Time' });
      fakes.microsoft.addEvent({ user, start: wall('09:00'), end: wall('09:30'), showAs: 'free' });
      fakes.microsoft.addEvent({ user, start: wall('10:00'), end: wall('11:00'), showAs: 'busy' });
      fakes.microsoft.addEvent({ user, start: wall('11:00'), end: wall('11:30'), showAs: 'workingElsewhere' });
      fakes.microsoft.addEvent({ user, start: wall('13:00'), end: wall('13:30'), showAs: 'busy', isCancelled: true });
      fakes.microsoft.addEvent({ user, start: wall('14:00'), end: wall('14:30'), showAs: 'tentative' });
      fakes.microsoft.addEvent({ user, start: wall('15:00'), end: wall('15:30'), showAs: 'oof' });
      // Another calendar of the mailbox is not the one the integration uses.
      fakes.microsoft.addEvent({ user, calendarId: 'AAMkAGother=', start: wall('16:00'), end: wall('16:30') });

      const slots = await availability(ctx(), date);
      const taken = slots.filter((s) => s.reason === 'taken').map((s) => s.time);
      expect(taken).toEqual(['10:00', '10:30', '14:00', '15:00']);
      expect(free(slots)).toEqual(expect.arrayContaining(['09:00', '11:00', '13:00', '16:00']));

      // Three pages of two, followed through @odata.nextLink, each asked in UTC with the fields needed.
      const pages = fakes.microsoft.calendarViewRequests();
      expect(pages).toHaveLength(3);
      expect(pages[0]!.path).toBe(`/graph/v1.0/users/${encodeURIComponent(user)}/calendarView`);
      expect(pages[0]!.query).toMatchObject({ startDateTime: at(date, '00:00'), endDateTime: at(day(3), '00:00'), $select: 'showAs,start,end,isCancelled' });
      for (const page of pages) expect(page.headers.prefer).toBe('outlook.timezone="UTC"');
      expect(pages[2]!.query.$skip).toBe('4');

      expect((await bookAt(ctx(), at(date, '10:00'))).status).toBe(409);
      expect((await bookAt(ctx(), at(date, '13:00'))).status).toBe(201);
    });

    it('reads the chosen Outlook calendar when the config names one', async () => {
      await integration(ctx(), 'outlook', { ...outlookConfig, calendar_id: 'AAMkAGcourt=' });
      const date = day(3);
      const user = outlookConfig.user_email;
      fakes.microsoft.addEvent({
        user,
        calendarId: 'AAMkAGcourt=',
        start: { dateTime: `${date}T09:00:00`, timeZone: 'Pacific Standard Time' },
        end: { dateTime: `${date}T10:00:00`, timeZone: 'Pacific Standard Time' },
      });
      const slots = await availability(ctx(), date);
      expect(slots.filter((s) => s.reason === 'taken').map((s) => s.time)).toEqual(['09:00', '09:30']);
      // The chosen calendar and the mailbox's main one.
      expect(fakes.microsoft.calendarViewRequests().map((r) => r.path)).toEqual(
        expect.arrayContaining([
          `/graph/v1.0/users/${encodeURIComponent(user)}/calendars/AAMkAGcourt%3D/calendarView`,
          `/graph/v1.0/users/${encodeURIComponent(user)}/calendarView`,
        ]),
      );
    });

    it('an all-day event blocks the whole day, and the next day stays open', async () => {
      await integration(ctx(), 'google', googleConfig);
      const date = day(7);
      fakes.google.addEvent({ calendarId: googleConfig.calendar_id, start: { date }, end: { date: day(8) } });
      const slots = await availability(ctx(), date);
      expect(free(slots)).toEqual([]);
      expect(slots.every((s) => s.reason === 'taken')).toBe(true);
      expect(free(await availability(ctx(), day(8)))).toContain('09:00');
      expect((await bookAt(ctx(), at(date, '15:00'))).status).toBe(409);
    });

    it('while Google cannot be read, the site takes bookings on its own data: one notice for the outage, Google left alone 30 s, then "reachable again"', async () => {
      const id = await integration(ctx(), 'google', googleConfig);
      const date = day(8);
      fakes.google.addEvent({ calendarId: googleConfig.calendar_id, start: { dateTime: at(date, '10:00') }, end: { dateTime: at(date, '11:00') } });
      fakes.google.failNext(1000, { status: 503, match: (r) => r.path.endsWith('/freeBusy') });

      // The availability answers from the site's own data: 10:00 is offered.
      expect(free(await availability(ctx(), date))).toContain('10:00');
      expect(fakes.google.freeBusyRequests()).toHaveLength(1);
      // Within 30 s Google is not asked again, by the availability nor by a booking, which goes through.
      for (let i = 0; i < 5; i++) expect(free(await availability(ctx(), date))).toContain('10:00');
      const booked = await bookAt(ctx(), at(date, '10:00'));
      expect(booked.status).toBe(201);
      expect(fakes.google.freeBusyRequests()).toHaveLength(1);
      // Later, still down: the same notice counts it.
      later(ctx(), 31_000);
      await availability(ctx(), day(9));
      expect(fakes.google.freeBusyRequests()).toHaveLength(2);
      let log = await calendarLog(ctx());
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({ integrationId: id, provider: 'Google Calendar', kind: 'unreachable', count: 2, endedAt: null });
      expect(log[0]!.message).toContain('Google Calendar could not be read: the freeBusy request answered HTTP 503 (Injected failure)');
      expect(log[0]!.message).toContain("bookings are taken on the site's own appointments only");

      // Google answers again: the outage ends, and the log says so.
      fakes.google.resetRequests();
      later(ctx(), 31_000);
      expect(free(await availability(ctx(), date))).not.toContain('10:30');
      log = await calendarLog(ctx());
      expect(log.map((n) => [n.kind, n.count])).toEqual([
        ['reachable-again', 1],
        ['unreachable', 2],
      ]);
      expect(log[0]!.message).toContain('Google Calendar is reachable again: its busy times block slots again. It could not be read 2 times since');
      expect(log[1]!.endedAt).not.toBeNull();
      // Another read that works adds nothing.
      later(ctx(), 61_000);
      await availability(ctx(), date);
      expect(await calendarLog(ctx())).toHaveLength(2);
    });

    it("waits at most 3 seconds for Google: a slow answer is an outage, and the visitor gets the site's own times", async () => {
      await integration(ctx(), 'google', googleConfig);
      fakes.google.failNext(1, { status: 200, delayMs: 6_000, match: (r) => r.path.endsWith('/freeBusy') });
      const started = performance.now();
      expect(free(await availability(ctx(), day(15)))).toContain('09:00');
      expect(performance.now() - started).toBeLessThan(5_000);
      const [notice] = await calendarLog(ctx());
      expect(notice!.message).toContain('Google Calendar could not be read: it did not answer within 3 seconds.');
    });

    it("a move through the booking's own link: the busy hour is not offered and refused; its own event does not block its own time", async () => {
      await integration(ctx(), 'google', googleConfig);
      const date = day(16);
      const booked = await bookAt(ctx(), at(date, '09:00'), 'estate-planning');
      expect(booked.status).toBe(201);
      const headers = { 'X-Booking-Token': booked.body.manageToken as string };
      // Its own event in the firm's calendar (calendar sync put it there), and the attorney's court date.
      fakes.google.addEvent({ calendarId: googleConfig.calendar_id, start: { dateTime: at(date, '09:00') }, end: { dateTime: at(date, '10:00') } });
      fakes.google.addEvent({ calendarId: googleConfig.calendar_id, start: { dateTime: at(date, '11:00') }, end: { dateTime: at(date, '12:00') } });
      const res = await ctx().call('GET', `/api/appointments/manage/availability?date=${date}`, { headers });
      expect(res.status).toBe(200);
      const slots = res.body.slots as Slot[];
      expect(free(slots)).toEqual(expect.arrayContaining(['09:30', '10:00']));
      expect(free(slots)).not.toContain('11:00');
      expect(free(slots)).not.toContain('10:30'); // 60 minutes from 10:30 run into 11:00

      const refused = await ctx().call('POST', '/api/appointments/manage/reschedule', { headers, body: { scheduledDate: at(date, '11:00') } });
      expect(refused.status).toBe(409);
      expect(refused.body.fields).toEqual({ scheduledDate: bookingMessages.taken });
      const moved = await ctx().call('POST', '/api/appointments/manage/reschedule', { headers, body: { scheduledDate: at(date, '09:30') } });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(moved.body.scheduledDate).toBe(at(date, '09:30'));
    });

    it('a refused token and a calendar Google cannot read are outages too, never "free"', async () => {
      await integration(ctx(), 'google', { ...googleConfig, refresh_token: '1//revoked-refresh-token' });
      const date = day(9);
      expect(free(await availability(ctx(), date))).toContain('09:00');
      let [notice] = await calendarLog(ctx());
      expect(notice!.message).toContain('Google refused the configured credentials');

      await ctx().database.db.delete(ctx().database.t.calendarNotices);
      await integration(ctx(), 'google', googleConfig);
      fakes.google.failNext(1, {
        status: 200,
        body: { kind: 'calendar#freeBusy', calendars: { [googleConfig.calendar_id]: { busy: [], errors: [{ domain: 'global', reason: 'notFound' }] } } },
        match: (r) => r.path.endsWith('/freeBusy'),
      });
      expect(free(await availability(ctx(), day(10)))).toContain('09:00');
      [notice] = await calendarLog(ctx());
      expect(notice!.message).toContain(`it could not give the busy times of the calendar "${googleConfig.calendar_id}" (notFound)`);
    });

    it('a Calendly booking over a site booking is logged, and keeps its time blocked once the site booking is cancelled', async () => {
      const date = day(14);
      const site = await bookAt(ctx(), at(date, '10:00'), 'estate-planning');
      expect(site.status).toBe(201);
      const calendlyId = await integration(ctx(), 'calendly', { webhook_signing_key: calendlyKey });
      const uri = `https://api.calendly.com/scheduled_events/BUSY-${ctx().database.dialect}/invitees/ONE`;
      const body = {
        event: 'invitee.created',
        created_at: NOW,
        payload: {
          uri,
          email: 'jordan.reyes@example.com',
          name: 'Jordan Reyes',
          scheduled_event: { name: '30 Minute Consultation', start_time: at(date, '10:30'), end_time: at(date, '11:00') },
        },
      };
      const text = JSON.stringify(body);
      const signature = timestampedSignature(calendlyKey, text, Math.floor(Date.parse(NOW) / 1000));
      const received = await ctx().call('POST', '/api/integrations/calendly/webhook', { rawBody: text, headers: { 'Calendly-Webhook-Signature': signature } });
      expect(received.status).toBe(201);

      const [notice, ...others] = await calendarLog(ctx());
      expect(others).toEqual([]);
      expect(notice).toMatchObject({ integrationId: calendlyId, provider: 'Calendly', kind: 'overlap', count: 1 });
      expect(notice!.message).toBe(
        'A Calendly booking ("30 Minute Consultation", Monday, September 16, 2030 at 10:30 AM Pacific Time (San Diego), 30 minutes) landed on time already booked on the site (Estate Planning Review, Monday, September 16, 2030 at 10:00 AM Pacific Time (San Diego), 60 minutes). Both are kept; that time stays blocked until both are settled with the clients.',
      );
      // No client's personal data in the log.
      for (const personal of ['Jordan', 'Reyes', 'jordan.reyes', 'Maria', 'Lopez', 'maria.lopez']) expect(notice!.message).not.toContain(personal);

      // The site booking is cancelled: its cells are freed, but the Calendly booking still holds 10:30.
      expect((await ctx().admin('PUT', `/api/admin/appointments/${site.body.id}`, { status: 'cancelled' })).status).toBe(200);
      const slots = await availability(ctx(), date);
      expect(slots.find((s) => s.time === '10:30')).toMatchObject({ available: false, reason: 'taken' });
      expect(free(slots)).toEqual(expect.arrayContaining(['10:00', '11:00']));
      const refused = await bookAt(ctx(), at(date, '10:30'));
      expect(refused.status).toBe(409);
      expect(refused.body.fields).toEqual({ scheduledDate: bookingMessages.taken });
      // 10:00 for 60 minutes would run into it too.
      expect((await bookAt(ctx(), at(date, '10:00'), 'estate-planning')).status).toBe(409);
      expect((await bookAt(ctx(), at(date, '10:00'))).status).toBe(201);
    });
  },
  { integrations: fakes.settings },
);
