/**
 * Self-service through a booking's own link (issue 18), on SQLite and PostgreSQL, with the clock
 * fixed: GET /api/appointments/manage, its availability, POST …/cancel and …/reschedule. The token
 * comes back with the booking and in the confirmation e-mail; what the visitor does sends what the
 * firm's own change sends (the visitor's e-mail, the calendar's update), and tells the firm.
 */
import { asc, eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { appointmentsRepository } from '../../api/appointments/appointments.repository.ts';
import { firmInstant } from '../../src/shared/firm-time.ts';
import { bookings, claimsOf, NOW, storedAppointment as stored } from '../support/appointment-requests.ts';
import { nthBookableDay } from '../support/bookable-days.ts';
import { forEachDialect, type TestContext } from '../support/test-app.ts';

const FIRM_INBOX = 'intake@firm.example';
const SITE = 'https://www.example-firm.com';
const TAKEN = 'That time was just booked. Please choose another.';
const INVALID = 'This link is not valid. Please open the link in your confirmation e-mail again, or call us at (619) 555-0123.';
const CANCELLED = 'This consultation was cancelled, so it can no longer be changed. You are welcome to schedule a new one.';
const STARTED = 'This consultation has already started, so it can no longer be changed online. Please call us at (619) 555-0123.';

/** Weekday slots from Monday 7 October 2030 on, each booked by a visitor of its own. */
let visitors = 0;
const { book } = bookings('2030-10-07', { body: () => ({ email: `visitor${++visitors}@example.com`, consultationType: 'initial' }) });
/** The n-th bookable day from Monday 2 December 2030 on, at a firm time: for the moves. */
const at = (n: number, time: string) => firmInstant(nthBookableDay('2030-12-02', n), time).toISOString();

const manage = (ctx: TestContext, method: 'GET' | 'POST', path: string, token: string | null, body?: unknown) =>
  ctx.call(method, `/api/appointments/manage${path}`, { body, headers: token === null ? {} : { 'X-Booking-Token': token } });
const show = (ctx: TestContext, token: string | null) => manage(ctx, 'GET', '', token);
const cancel = (ctx: TestContext, token: string | null) => manage(ctx, 'POST', '/cancel', token);
const reschedule = (ctx: TestContext, token: string | null, scheduledDate: string) => manage(ctx, 'POST', '/reschedule', token, { scheduledDate });

/** What the booking modal offers for that firm day (the public availability). */
async function offered(ctx: TestContext, instant: string, consultationType = 'initial') {
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(new Date(instant));
  const res = await ctx.call('GET', `/api/appointments/availability?date=${date}&consultationType=${consultationType}`);
  return (res.body.slots as { startsAt: string; available: boolean }[]).find((s) => s.startsAt === instant)?.available;
}

/** The mails sent so far (the development outbox: no e-mail setting here), after the deliveries ran. */
async function mails(ctx: TestContext) {
  await ctx.background.runDeliveries();
  return ctx.deps.outbox.list();
}

function icsOf(mail: { attachments?: { content: string }[] }) {
  const event = new ICAL.Event(new ICAL.Component(ICAL.parse(mail.attachments![0]!.content)).getFirstSubcomponent('vevent')!);
  return { uid: event.uid, sequence: event.sequence, start: event.startDate.toJSDate().toISOString() };
}

/** Another token of the same length and shape: one character of its signature changed. */
const tampered = (token: string) => `${token.slice(0, -5)}${token.slice(-5, -4) === 'x' ? 'y' : 'x'}${token.slice(-4)}`;

forEachDialect(
  'self-service',
  (ctx) => {
    beforeEach(() => ctx().clock.set(NOW));

    it('gives the visitor a token with the booking, and the page it opens shows the booking without personal details', async () => {
      const booked = await book(ctx());
      const token = (booked as unknown as { manageToken: string }).manageToken;
      expect(token).toMatch(new RegExp(`^${booked.id}\\.[A-Za-z0-9_-]{43}$`));
      const res = await show(ctx(), token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        reference: booked.id
          .replace(/-/g, '')
          .slice(0, 8)
          .toUpperCase()
          .replace(/^(.{4})/, '$1-'),
        firstName: 'Maria',
        consultationType: 'initial',
        scheduledDate: booked.scheduledDate,
        duration: 30,
        status: 'scheduled',
        changeable: true,
      });
      for (const secret of [booked.email, 'Lopez', '(619) 555-0142', 'trust']) expect(JSON.stringify(res.body)).not.toContain(secret);
      expect(res.headers.get('cache-control')).toBe('no-store');
    });

    it('refuses a missing, made-up, tampered or another booking’s token with 404 and changes nothing', async () => {
      const booked = await book(ctx());
      const other = await book(ctx());
      const token = (booked as unknown as { manageToken: string }).manageToken;
      const otherToken = (other as unknown as { manageToken: string }).manageToken;
      const forged = [
        null,
        '',
        booked.id,
        `${booked.id}.`,
        tampered(token),
        `${other.id}.${token.split('.')[1]}`, // this booking's signature on another's id
        `${booked.id}.${otherToken.split('.')[1]}`,
        token.slice(0, -1),
        `${token}A`,
        `${crypto.randomUUID()}.${token.split('.')[1]}`,
        `${booked.id.toUpperCase()}.${token.split('.')[1]}`,
        'x'.repeat(5000),
      ];
      for (const bad of forged) {
        for (const res of [await show(ctx(), bad), await cancel(ctx(), bad), await reschedule(ctx(), bad, at(0, '10:00'))]) {
          expect(res.status, String(bad)).toBe(404);
          expect(res.body.error).toBe(INVALID);
        }
      }
      expect((await stored(ctx(), booked.id))!.status).toBe('scheduled');
      expect((await stored(ctx(), booked.id))!.scheduledDate.toISOString()).toBe(booked.scheduledDate);
      expect(await claimsOf(ctx(), booked.id)).toEqual([booked.scheduledDate]);
      // A token in the query string is not read: URLs are logged.
      expect((await ctx().call('GET', `/api/appointments/manage?token=${encodeURIComponent(token)}`)).status).toBe(404);
    });

    it('a bot’s booking (honeypot filled) gets a token of the same shape that opens nothing', async () => {
      const res = await ctx().call('POST', '/api/appointments', {
        body: {
          firstName: 'Bot',
          lastName: 'Bot',
          email: 'bot@example.com',
          consultationType: 'initial',
          practiceArea: 'estate-planning',
          scheduledDate: at(3, '09:00'),
          website: 'http://spam.example',
        },
      });
      expect(res.status).toBe(201);
      expect(res.body.manageToken).toMatch(new RegExp(`^${res.body.id}\\.[A-Za-z0-9_-]{43}$`));
      expect((await show(ctx(), res.body.manageToken)).status).toBe(404);
    });

    it('cancels: the slot is free again, the visitor gets the cancellation, the firm is told, and the link used again says it is cancelled', async () => {
      const booked = await book(ctx(), { email: 'cancel.me@example.com' });
      const token = (booked as unknown as { manageToken: string }).manageToken;
      expect(await offered(ctx(), booked.scheduledDate)).toBe(false);
      await mails(ctx()); // the booking's own confirmation and notification
      const before = (await ctx().deps.outbox.list()).length;

      const res = await cancel(ctx(), token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'cancelled', changeable: false, reason: CANCELLED });
      expect((await stored(ctx(), booked.id))!.status).toBe('cancelled');
      expect(await claimsOf(ctx(), booked.id)).toEqual([]);
      expect(await offered(ctx(), booked.scheduledDate)).toBe(true);

      const sent = (await mails(ctx())).slice(before);
      expect(sent.map((m) => [m.to, m.subject.split(':')[0]])).toEqual(
        expect.arrayContaining([
          ['cancel.me@example.com', 'Cancelled'],
          [FIRM_INBOX, 'Cancelled by the client'],
        ]),
      );
      expect(sent).toHaveLength(2);
      expect(sent.find((m) => m.to === FIRM_INBOX)!.text).toContain('Cancelled; the time is free again');

      // Used twice (a second tab, a reload after the answer): said, not done again, nothing more sent.
      const again = await cancel(ctx(), token);
      expect(again.status).toBe(409);
      expect(again.body.error).toBe(CANCELLED);
      const page = await show(ctx(), token);
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ status: 'cancelled', changeable: false, reason: CANCELLED });
      expect((await reschedule(ctx(), token, at(0, '09:00'))).body.error).toBe(CANCELLED);
      expect((await mails(ctx())).length).toBe(before + 2);
    });

    it('expires when the consultation starts: the page says why, cancel and reschedule are refused', async () => {
      const booked = await book(ctx());
      const token = (booked as unknown as { manageToken: string }).manageToken;
      ctx().clock.set(booked.scheduledDate);
      const page = await show(ctx(), token);
      expect(page.body).toMatchObject({ status: 'scheduled', changeable: false, reason: STARTED });
      for (const res of [await cancel(ctx(), token), await reschedule(ctx(), token, at(0, '13:00'))]) {
        expect(res.status).toBe(409);
        expect(res.body.error).toBe(STARTED);
      }
      expect((await manage(ctx(), 'GET', `/availability?date=${at(0, '13:00').slice(0, 10)}`, token)).status).toBe(409);
      expect((await stored(ctx(), booked.id))!.status).toBe('scheduled');
      // A minute before, it could still be cancelled.
      ctx().clock.set(new Date(new Date(booked.scheduledDate).getTime() - 60_000));
      expect((await show(ctx(), token)).body.changeable).toBe(true);
    });

    it('reschedules: the old time is freed and the new one held in one go, the visitor gets an update of the same calendar event, the firm is told', async () => {
      const booked = await book(ctx(), { email: 'move.me@example.com', consultationType: 'estate-planning' });
      const token = (booked as unknown as { manageToken: string }).manageToken;
      const before = (await mails(ctx())).length;
      const confirmation = (await ctx().deps.outbox.list()).find((m) => m.to === 'move.me@example.com')!;
      const to = at(1, '14:00');

      const res = await reschedule(ctx(), token, to);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ scheduledDate: to, duration: 60, status: 'scheduled', changeable: true });
      const row = (await stored(ctx(), booked.id))!;
      expect(row.scheduledDate.toISOString()).toBe(to);
      // A 60-minute consultation holds two cells at its new time, none at its old one.
      expect(await claimsOf(ctx(), booked.id)).toEqual([to, new Date(new Date(to).getTime() + 30 * 60_000).toISOString()]);
      expect(await offered(ctx(), booked.scheduledDate, 'estate-planning')).toBe(true);
      expect(await offered(ctx(), to)).toBe(false);

      const sent = (await mails(ctx())).slice(before);
      expect(sent).toHaveLength(2);
      const toVisitor = sent.find((m) => m.to === 'move.me@example.com')!;
      expect(toVisitor.subject).toBe('Rescheduled: your consultation is now Tuesday, December 3, 2030 at 2:00 PM Pacific Time (San Diego)');
      expect(toVisitor.text).toContain('has moved from');
      // The same event, moved: the same UID, a higher SEQUENCE, the new start.
      const invitation = icsOf(confirmation);
      const update = icsOf(toVisitor);
      expect(update.uid).toBe(invitation.uid);
      expect(update.sequence).toBeGreaterThan(invitation.sequence);
      expect(update.start).toBe(to);
      const toFirm = sent.find((m) => m.to === FIRM_INBOX)!;
      expect(toFirm.subject).toBe('Rescheduled by the client: Maria Lopez, now Tuesday, December 3, 2030 at 2:00 PM');

      // The same move sent again (its answer was lost): done already, nothing more sent.
      expect((await reschedule(ctx(), token, to)).status).toBe(200);
      expect((await mails(ctx())).length).toBe(before + 2);
    });

    it('refuses a move into a taken slot with 409, and one the rules refuse with 400, changing nothing', async () => {
      const mine = await book(ctx());
      const token = (mine as unknown as { manageToken: string }).manageToken;
      const taken = await book(ctx(), { scheduledDate: at(2, '10:00') });
      const unchanged = async () => {
        expect((await stored(ctx(), mine.id))!.scheduledDate.toISOString()).toBe(mine.scheduledDate);
        expect(await claimsOf(ctx(), mine.id)).toEqual([mine.scheduledDate]);
        expect(await claimsOf(ctx(), taken.id)).toEqual([taken.scheduledDate]);
      };

      const res = await reschedule(ctx(), token, taken.scheduledDate);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: TAKEN, fields: { scheduledDate: TAKEN } });
      await unchanged();

      const refused: [string, string][] = [
        ['2030-12-25T10:00:00-08:00', 'We are closed for Christmas Day. Please choose another day.'],
        ['2030-12-07T10:00:00-08:00', 'We are closed on weekends. Please choose a weekday.'],
        ['2030-12-02T12:00:00-08:00', 'Please choose one of the listed times.'],
        ['2030-03-29T10:00:00-07:00', 'That time has already passed. Please choose a later time.'],
        ['2030-04-01T10:00:00-07:00', 'Please choose a time at least 2 hours from now.'],
      ];
      for (const [when, message] of refused) {
        const r = await reschedule(ctx(), token, when);
        expect(r.status, when).toBe(400);
        expect(r.body.error, when).toBe(message);
      }
      expect((await reschedule(ctx(), token, 'next Tuesday')).status).toBe(400);
      await unchanged();
    });

    it('lets a consultation move onto part of its own time, which the availability shows as free', async () => {
      const mine = await book(ctx(), { consultationType: 'estate-planning', scheduledDate: at(4, '10:00') });
      const token = (mine as unknown as { manageToken: string }).manageToken;
      const day = at(4, '10:00');
      const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(new Date(day));
      const slots = (await manage(ctx(), 'GET', `/availability?date=${date}`, token)).body.slots as { time: string; available: boolean }[];
      // Its own 10:00-11:00 counts as free for itself (a 60-minute consultation: 11:30 would run into noon).
      expect(slots.filter((s) => s.available).map((s) => s.time)).toEqual([
        '09:00',
        '09:30',
        '10:00',
        '10:30',
        '11:00',
        '13:00',
        '13:30',
        '14:00',
        '14:30',
        '15:00',
        '15:30',
        '16:00',
      ]);
      // The public availability still shows it taken.
      expect(await offered(ctx(), day)).toBe(false);

      const res = await reschedule(ctx(), token, at(4, '10:30'));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await claimsOf(ctx(), mine.id)).toEqual([at(4, '10:30'), at(4, '11:00')]);
      expect(await offered(ctx(), at(4, '10:00'))).toBe(true);
    });

    it('of two visitors moving to the same free time at once, exactly one gets it', async () => {
      const [a, b] = [await book(ctx()), await book(ctx())];
      const to = at(5, '15:00');
      const results = await Promise.all([a, b].map((booked) => reschedule(ctx(), (booked as unknown as { manageToken: string }).manageToken, to)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = results[0]!.status === 200 ? a : b;
      const loser = winner === a ? b : a;
      expect(await claimsOf(ctx(), winner.id)).toEqual([to]);
      expect(await claimsOf(ctx(), loser.id)).toEqual([loser.scheduledDate]);
    });

    it('a move judged on a stale read (the appointment changed meanwhile) changes nothing and leaves no claim behind', async () => {
      const mine = await book(ctx());
      const repo = appointmentsRepository(ctx().database);
      const to = new Date(at(6, '09:00'));
      const cells = [to];
      // Read as confirmed, but it is scheduled; then read at another time than its own.
      for (const stale of [
        { from: new Date(mine.scheduledDate), status: 'confirmed' },
        { from: new Date(at(6, '13:00')), status: 'scheduled' },
      ]) {
        expect(await repo.reschedule(mine.id, stale, { to, cells, reminderSent: false })).toEqual({ refused: 'changed' });
        expect(await claimsOf(ctx(), mine.id)).toEqual([mine.scheduledDate]);
        expect((await stored(ctx(), mine.id))!.scheduledDate.toISOString()).toBe(mine.scheduledDate);
      }
      expect(await offered(ctx(), to.toISOString())).toBe(true);
    });

    it('the confirmation e-mail carries the booking’s link, and the link works', async () => {
      const booked = await book(ctx(), { email: 'link.in.mail@example.com' });
      const confirmation = (await mails(ctx())).find((m) => m.to === 'link.in.mail@example.com')!;
      const link = confirmation.text.match(/https:\/\/www\.example-firm\.com\/manage-booking#(\S+)/);
      expect(link, confirmation.text).not.toBeNull();
      expect(confirmation.html).toContain(`href="${SITE}/manage-booking#${link![1]}"`);
      expect(link![1]).toBe((booked as unknown as { manageToken: string }).manageToken);
      expect((await show(ctx(), link![1]!)).body.status).toBe('scheduled');
    });

    it('updates the firm’s calendar as the admin’s changes do: the event moves, then is removed', async () => {
      const created = await ctx().admin('POST', '/api/admin/calendar-settings', {
        provider: 'custom',
        config: '{}',
        webhookUrl: 'https://hooks.example-firm.com/calendar',
        apiKey: 'whsec-self-service-test-key',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${created.body.id}/activate`)).status).toBe(200);
      try {
        const booked = await book(ctx());
        const token = (booked as unknown as { manageToken: string }).manageToken;
        expect((await reschedule(ctx(), token, at(7, '11:00'))).status).toBe(200);
        expect((await cancel(ctx(), token)).status).toBe(200);
        const { db, t } = ctx().database;
        const queued = await db
          .select({ purpose: t.deliveries.purpose, payload: t.deliveries.payload })
          .from(t.deliveries)
          .where(eq(t.deliveries.appointmentId, booked.id))
          .orderBy(asc(t.deliveries.createdAt));
        const calendar = queued.filter((d) => d.purpose.startsWith('event-'));
        expect(calendar.map((d) => d.purpose)).toEqual(['event-create', 'event-update', 'event-cancel']);
        const payload = calendar[1]!.payload;
        const update = (typeof payload === 'string' ? JSON.parse(payload) : payload) as { appointment: { scheduledDate: string } };
        expect(update.appointment.scheduledDate).toBe(at(7, '11:00'));
      } finally {
        // The admin cannot remove an integration yet (issue 19): the test removes its own.
        const { db, t } = ctx().database;
        await db.delete(t.calendarSettings).where(eq(t.calendarSettings.id, created.body.id));
      }
    });

    describe('cancelled by the firm', () => {
      it('the visitor’s link then says it is cancelled, and the firm is not told of its own change', async () => {
        const booked = await book(ctx(), { email: 'firm.cancels@example.com' });
        const before = (await mails(ctx())).length;
        expect((await ctx().admin('PUT', `/api/admin/appointments/${booked.id}`, { status: 'cancelled' })).status).toBe(200);
        const sent = (await mails(ctx())).slice(before);
        expect(sent.map((m) => m.to)).toEqual(['firm.cancels@example.com']);
        expect((await show(ctx(), (booked as unknown as { manageToken: string }).manageToken)).body.reason).toBe(CANCELLED);
      });
    });
  },
  { integrations: { firmNotificationEmail: FIRM_INBOX, siteUrl: SITE } },
);
