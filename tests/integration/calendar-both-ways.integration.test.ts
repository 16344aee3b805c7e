/**
 * Calendar sync both ways (issue 20, item 3; docs/decisions/037): an appointment's event the firm
 * deletes or moves in its own Google Calendar or Outlook comes back to the site, the visitor told
 * as when an admin does it here, once. Against the fakes (tests/support/calendar-fakes.ts) as real
 * HTTP servers: Google's events.list with sync tokens and watch channels, Graph's calendarView/delta
 * and subscriptions. The fakes' notifications reach the in-process app through a loopback relay
 * (the notification base the providers would post to). The clock is fixed; syncs run by hand
 * (ctx.background.syncCalendarChanges), and after a notification the test waits for the sync it asked for.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { calendarInbound } from '../../api/calendar-sync/calendar-inbound.ts';
import { startBackgroundWork } from '../../api/composition.ts';
import { bookings, claimsOf, NOW, storedAppointment } from '../support/appointment-requests.ts';
import { startCalendarFakes, googleTestConfig as googleConfig, outlookTestConfig as outlookConfig, testCredentials } from '../support/calendar-fakes.ts';
import { forEachDialect, testDeps, type TestContext } from '../support/test-app.ts';

const fakes = await startCalendarFakes(testCredentials);

/** Where the fakes post notifications: forwarded to the app of the suite running now. */
let relayTarget: TestContext | null = null;
const relay = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', async () => {
    if (!relayTarget) return res.writeHead(503).end();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'connection') headers[k] = v;
    const body = chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined;
    const answer = await relayTarget.app.request(req.url ?? '/', { method: req.method, headers, body });
    const text = await answer.text();
    res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(text);
  });
});
await new Promise<void>((done) => relay.listen(0, '127.0.0.1', done));
const relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
afterAll(async () => {
  await fakes.close();
  relay.closeAllConnections();
  await new Promise((done) => relay.close(done));
});

const { book } = bookings('2030-09-02');
/** Bookings of their own days, clear of the moves the tests above make. */
const { book: bookApart } = bookings('2030-10-07');

async function integration(ctx: TestContext, provider: 'google' | 'outlook'): Promise<string> {
  const config = provider === 'google' ? googleConfig : outlookConfig;
  const created = await ctx.admin('POST', '/api/admin/calendar-settings', { provider, config: JSON.stringify(config) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await ctx.admin('PUT', `/api/admin/calendar-settings/${created.body.id}/activate`)).status).toBe(200);
  return created.body.id;
}

/** A booking whose event is in the calendar, the calendar read once (so only later changes are news). */
async function bookedWithEvent(ctx: TestContext) {
  const booked = await book(ctx);
  await ctx.background.runDeliveries();
  const eventId = (await storedAppointment(ctx, booked.id))!.externalEventId!;
  expect(eventId).toBeTruthy();
  expect(await ctx.background.syncCalendarChanges()).toBe(0);
  return { ...booked, eventId };
}

/** The visitor's mails about this appointment queued so far, by purpose. */
async function mails(ctx: TestContext, appointmentId: string, purpose: string) {
  const { db, t } = ctx.database;
  return db
    .select()
    .from(t.deliveries)
    .where(and(eq(t.deliveries.channel, 'email'), eq(t.deliveries.appointmentId, appointmentId), eq(t.deliveries.purpose, purpose)));
}

function resetFakes(ctx: TestContext) {
  // One fake calendar for both dialects: an earlier test's events would be busy time (decision 036) for this one's bookings.
  fakes.google.events.clear();
  fakes.google.deleted.clear();
  fakes.microsoft.events.clear();
  fakes.google.resetRequests();
  fakes.microsoft.resetRequests();
  fakes.google.pageSize = 250;
  fakes.microsoft.pageSize = 100;
  fakes.google.now = () => ctx.clock.now().getTime();
  fakes.microsoft.now = () => ctx.clock.now().getTime();
}

const hour = 60 * 60_000;
const plus = (iso: string | Date, ms: number) => new Date(new Date(iso).getTime() + ms);

forEachDialect(
  'calendar both ways: Google, polled',
  (ctx) => {
    beforeEach(async () => {
      ctx().clock.set(NOW);
      resetFakes(ctx());
    });

    it('an event deleted in Google Calendar cancels its appointment and queues the visitor one cancellation mail', async () => {
      await integration(ctx(), 'google');
      const { id, eventId } = await bookedWithEvent(ctx());
      fakes.google.deleteEventAsOwner(eventId);

      expect(await ctx().background.syncCalendarChanges()).toBe(1);
      const row = (await storedAppointment(ctx(), id))!;
      expect(row.status).toBe('cancelled');
      expect(row.cancellationReason).toBe("Cancelled in the firm's Google Calendar.");
      expect(await claimsOf(ctx(), id)).toEqual([]);
      expect(await mails(ctx(), id, 'cancellation')).toHaveLength(1);
      // The admin's list says so too.
      const listed = (await ctx().admin('GET', '/api/admin/appointments')).body.find((a: { id: string }) => a.id === id);
      expect(listed.status).toBe('cancelled');

      // Read again (the same change, a later poll): nothing more happens, no second mail.
      expect(await ctx().background.syncCalendarChanges()).toBe(0);
      await ctx().background.runDeliveries();
      expect(await ctx().background.syncCalendarChanges()).toBe(0);
      expect(await mails(ctx(), id, 'cancellation')).toHaveLength(1);
    });

    it('an event moved in Google Calendar moves its appointment, off the slot grid too, and the visitor is told; our own update coming back changes nothing', async () => {
      await integration(ctx(), 'google');
      const { id, eventId, scheduledDate } = await bookedWithEvent(ctx());
      await ctx().admin('PUT', `/api/admin/appointments/${id}`, { status: 'confirmed' });
      await ctx().background.runDeliveries();
      expect(await ctx().background.syncCalendarChanges()).toBe(0);

      // A day later, a quarter past: the firm chose it.
      const to = plus(scheduledDate, 24 * hour + 15 * 60_000);
      fakes.google.moveEvent(eventId, to, plus(to.toISOString(), hour));
      expect(await ctx().background.syncCalendarChanges()).toBe(1);
      const row = (await storedAppointment(ctx(), id))!;
      expect(row.scheduledDate.toISOString()).toBe(to.toISOString());
      // The firm confirmed it and chose the new time: it stays confirmed.
      expect(row.status).toBe('confirmed');
      expect(await claimsOf(ctx(), id)).toEqual([
        new Date(to.getTime() - 15 * 60_000).toISOString(),
        new Date(to.getTime() + 15 * 60_000).toISOString(),
        new Date(to.getTime() + 45 * 60_000).toISOString(),
      ]);
      const moved = await mails(ctx(), id, 'rescheduled');
      expect(moved).toHaveLength(1);
      expect(JSON.parse(moved[0]!.payload)).toMatchObject({ previousDate: scheduledDate, appointment: { scheduledDate: to.toISOString() } });

      // The site writes the event back (our PATCH), which Google lists as a change: equal, so nothing.
      const patchesBefore = fakes.google.apiRequests().filter((r) => r.method === 'PATCH').length;
      await ctx().background.runDeliveries();
      expect(fakes.google.apiRequests().filter((r) => r.method === 'PATCH').length).toBe(patchesBefore + 1);
      expect(await ctx().background.syncCalendarChanges()).toBe(0);
      expect(await mails(ctx(), id, 'rescheduled')).toHaveLength(1);
      expect((await storedAppointment(ctx(), id))!.scheduledDate.toISOString()).toBe(to.toISOString());
    });

    it('a stale sync token (410 Gone) makes a full read, which still finds the deleted event; pages are followed', async () => {
      await integration(ctx(), 'google');
      const first = await bookedWithEvent(ctx());
      const second = await bookedWithEvent(ctx());
      fakes.google.expireSyncTokens();
      fakes.google.pageSize = 1;
      fakes.google.deleteEventAsOwner(second.eventId);
      fakes.google.resetRequests();

      expect(await ctx().background.syncCalendarChanges()).toBe(1);
      const lists = fakes.google.apiRequests().filter((r) => r.method === 'GET');
      expect(lists[0]!.query.syncToken).toBeTruthy();
      // The full read: from now, deleted events shown, one page at a time.
      expect(lists[1]!.query).toMatchObject({ showDeleted: 'true', singleEvents: 'true', timeMin: NOW });
      expect(lists.length).toBeGreaterThan(2);
      expect(lists.at(-1)!.query.pageToken).toBeTruthy();
      expect((await storedAppointment(ctx(), second.id))!.status).toBe('cancelled');
      expect((await storedAppointment(ctx(), first.id))!.status).toBe('scheduled');
      expect(await mails(ctx(), second.id, 'cancellation')).toHaveLength(1);
      // The new token works: nothing new.
      expect(await ctx().background.syncCalendarChanges()).toBe(0);
    });

    it('an appointment cancelled on the site whose event then goes is not cancelled twice', async () => {
      await integration(ctx(), 'google');
      const { id } = await bookedWithEvent(ctx());
      await ctx().admin('PUT', `/api/admin/appointments/${id}`, { status: 'cancelled' });
      await ctx().background.runDeliveries();
      expect(await ctx().background.syncCalendarChanges()).toBe(0);
      expect((await storedAppointment(ctx(), id))!.cancellationReason).toBeNull();
      expect(await mails(ctx(), id, 'cancellation')).toHaveLength(1);
    });

    it('the timer reads once the poll interval has passed since the last read began', async () => {
      await integration(ctx(), 'google');
      const inbound = calendarInbound(ctx().deps);
      const reads = () => fakes.google.apiRequests().filter((r) => r.method === 'GET').length;
      await inbound.syncActive({ onlyIfDue: true });
      expect(reads()).toBe(1);
      ctx().clock.set(plus(NOW, 30_000));
      await inbound.syncActive({ onlyIfDue: true });
      expect(reads()).toBe(1);
      ctx().clock.set(plus(NOW, 60_000));
      await inbound.syncActive({ onlyIfDue: true });
      expect(reads()).toBe(2);
    });

    it('two app instances on one database syncing at once: one cancellation, one mail', async () => {
      await integration(ctx(), 'google');
      const { id, eventId } = await bookedWithEvent(ctx());
      const other = startBackgroundWork(testDeps(ctx().database, { clock: ctx().clock, integrations: ctx().deps.integrations }), { schedule: false });
      try {
        fakes.google.deleteEventAsOwner(eventId);
        const results = await Promise.all([ctx().background.syncCalendarChanges(), other.syncCalendarChanges(), ctx().background.syncCalendarChanges()]);
        expect(results.reduce((a, b) => a + b, 0)).toBe(1);
        // Whichever lost the lease reads now: nothing left.
        expect(await other.syncCalendarChanges()).toBe(0);
        expect((await storedAppointment(ctx(), id))!.status).toBe('cancelled');
        expect(await mails(ctx(), id, 'cancellation')).toHaveLength(1);
      } finally {
        await other.stop();
      }
    });

    it('another calendar picked: the events already made stay in the old calendar and are still updated and removed there', async () => {
      const integrationId = await integration(ctx(), 'google');
      const first = await bookApart(ctx());
      const second = await bookApart(ctx());
      await ctx().background.runDeliveries();
      const firstEvent = (await storedAppointment(ctx(), first.id))!.externalEventId!;
      const secondEvent = (await storedAppointment(ctx(), second.id))!.externalEventId!;
      expect(fakes.google.events.get(firstEvent)?.calendarId).toBe(googleConfig.calendar_id);

      const picked = await ctx().admin('PUT', `/api/admin/calendar-settings/${integrationId}/calendar`, {
        calendarId: 'court-dates@group.calendar.google.com',
      });
      expect(picked.status, JSON.stringify(picked.body)).toBe(200);
      expect((await ctx().admin('PUT', `/api/admin/appointments/${first.id}`, { status: 'confirmed' })).status).toBe(200);
      expect((await ctx().admin('PUT', `/api/admin/appointments/${second.id}`, { status: 'cancelled' })).status).toBe(200);
      await ctx().background.runDeliveries();

      // Confirmed: its event in the old calendar says so (it is not lost as "deleted there").
      expect(fakes.google.events.get(firstEvent)).toMatchObject({ calendarId: googleConfig.calendar_id, status: 'confirmed' });
      // Cancelled: its event is gone from the old calendar, not left there as a consultation that will not happen.
      expect(fakes.google.events.has(secondEvent)).toBe(false);
      // A new booking goes to the picked calendar.
      const third = await bookApart(ctx());
      await ctx().background.runDeliveries();
      expect(fakes.google.events.get((await storedAppointment(ctx(), third.id))!.externalEventId!)?.calendarId).toBe('court-dates@group.calendar.google.com');
    });

    it('an event moved in Google Calendar onto another client’s booking: the move stands, both are kept, and the calendar log says so', async () => {
      await integration(ctx(), 'google');
      const mine = await bookApart(ctx());
      const theirs = await bookApart(ctx());
      await ctx().background.runDeliveries();
      expect(await ctx().background.syncCalendarChanges()).toBe(0);
      const eventId = (await storedAppointment(ctx(), mine.id))!.externalEventId!;

      fakes.google.moveEvent(eventId, theirs.scheduledDate, plus(theirs.scheduledDate, hour));
      expect(await ctx().background.syncCalendarChanges()).toBe(1);
      expect((await storedAppointment(ctx(), mine.id))!.scheduledDate.toISOString()).toBe(theirs.scheduledDate);
      expect((await storedAppointment(ctx(), theirs.id))!.status).toBe('scheduled');
      const log = (await ctx().admin('GET', '/api/admin/calendar-notices')).body as { kind: string; message: string }[];
      const overlap = log.filter((n) => n.kind === 'overlap');
      expect(overlap).toHaveLength(1);
      expect(overlap[0]!.message).toMatch(/^An appointment moved in the firm's Google Calendar .* landed on time already booked on the site/);
      // Read again: nothing new, no second notice.
      expect(await ctx().background.syncCalendarChanges()).toBe(0);
      expect(((await ctx().admin('GET', '/api/admin/calendar-notices')).body as { kind: string }[]).filter((n) => n.kind === 'overlap')).toHaveLength(1);
    });
  },
  { integrations: fakes.settings },
);

forEachDialect(
  'calendar both ways: Outlook, polled',
  (ctx) => {
    beforeEach(() => {
      ctx().clock.set(NOW);
      resetFakes(ctx());
    });

    it('an event deleted in Outlook cancels its appointment (Graph delta, @removed), one mail', async () => {
      await integration(ctx(), 'outlook');
      const { id, eventId } = await bookedWithEvent(ctx());
      const [firstRound] = fakes.microsoft.apiRequests().filter((r) => r.path.endsWith('/calendarView/delta'));
      expect(firstRound!.path).toBe(`/graph/v1.0/users/${encodeURIComponent(outlookConfig.user_email)}/calendarView/delta`);
      expect(firstRound!.query.startDateTime).toBe(NOW);
      fakes.microsoft.deleteEventAsOwner(eventId);
      expect(await ctx().background.syncCalendarChanges()).toBe(1);
      const row = (await storedAppointment(ctx(), id))!;
      expect(row.status).toBe('cancelled');
      expect(row.cancellationReason).toBe("Cancelled in the firm's Outlook.");
      expect(await ctx().background.syncCalendarChanges()).toBe(0);
      expect(await mails(ctx(), id, 'cancellation')).toHaveLength(1);
    });

    it('an event moved in Outlook moves its appointment and the visitor is told; our update coming back (in the firm zone) changes nothing', async () => {
      await integration(ctx(), 'outlook');
      const { id, eventId, scheduledDate } = await bookedWithEvent(ctx());
      const to = plus(scheduledDate, 2 * 24 * hour);
      fakes.microsoft.moveEvent(eventId, to, plus(to.toISOString(), hour));
      expect(await ctx().background.syncCalendarChanges()).toBe(1);
      expect((await storedAppointment(ctx(), id))!.scheduledDate.toISOString()).toBe(to.toISOString());
      expect(await mails(ctx(), id, 'rescheduled')).toHaveLength(1);
      await ctx().background.runDeliveries();
      expect(await ctx().background.syncCalendarChanges()).toBe(0);
      expect(await mails(ctx(), id, 'rescheduled')).toHaveLength(1);
    });

    it('a stale delta link makes a new first round', async () => {
      await integration(ctx(), 'outlook');
      const { id, eventId, scheduledDate } = await bookedWithEvent(ctx());
      fakes.microsoft.expireDeltaLinks();
      const to = plus(scheduledDate, hour);
      fakes.microsoft.moveEvent(eventId, to, plus(to.toISOString(), hour));
      expect(await ctx().background.syncCalendarChanges()).toBe(1);
      expect((await storedAppointment(ctx(), id))!.scheduledDate.toISOString()).toBe(to.toISOString());
    });
  },
  { integrations: fakes.settings },
);

const waitForPush = async (ctx: TestContext) => {
  await fakes.google.notificationsSettled();
  await fakes.microsoft.notificationsSettled();
  await calendarInbound(ctx.deps).settled();
};

forEachDialect(
  'calendar both ways: push',
  (ctx) => {
    beforeEach(async () => {
      ctx().clock.set(NOW);
      resetFakes(ctx());
      relayTarget = ctx();
    });

    describe('Google watch channels', () => {
      it('opens a channel to the notification address; a deleted event is pushed and cancels its appointment', async () => {
        await integration(ctx(), 'google');
        const { id, eventId } = await bookedWithEvent(ctx());
        const channel = [...fakes.google.channels.values()].at(-1);
        expect(channel).toMatchObject({ address: `${relayUrl}/api/integrations/google/notifications`, calendarId: googleConfig.calendar_id });
        // The secret is stored sealed, never as given to Google.
        const { db, t } = ctx().database;
        const [state] = await db.select().from(t.calendarSyncStates);
        expect(state!.channelId).toBe(channel!.id);
        expect(state!.channelSecret).not.toContain(channel!.token!);
        await waitForPush(ctx());
        // Google's first message ('sync') was acknowledged.
        expect(fakes.google.notifications.find((n) => n.state === 'sync')?.status).toBe(200);

        fakes.google.deleteEventAsOwner(eventId);
        await waitForPush(ctx());
        expect(fakes.google.notifications.at(-1)).toMatchObject({ state: 'exists', status: 200 });
        expect((await storedAppointment(ctx(), id))!.status).toBe('cancelled');
        expect(await mails(ctx(), id, 'cancellation')).toHaveLength(1);
      });

      it('refuses a notification with a wrong token or an unknown channel alike (403), and syncs nothing', async () => {
        await integration(ctx(), 'google');
        await bookedWithEvent(ctx());
        await waitForPush(ctx());
        const channel = [...fakes.google.channels.values()].at(-1);
        fakes.google.resetRequests();
        const notify = (headers: Record<string, string>) =>
          ctx().call('POST', '/api/integrations/google/notifications', { headers: { 'x-goog-resource-state': 'exists', ...headers } });
        const wrongToken = await notify({ 'x-goog-channel-id': channel!.id, 'x-goog-channel-token': `${channel!.token}x` });
        const unknown = await notify({ 'x-goog-channel-id': 'no-such-channel', 'x-goog-channel-token': channel!.token! });
        const none = await notify({});
        for (const answer of [wrongToken, unknown, none]) {
          expect(answer.status).toBe(403);
          expect(answer.body.error).toBe('Not accepted.');
        }
        await waitForPush(ctx());
        expect(fakes.google.apiRequests()).toHaveLength(0);
        // The right one is taken.
        expect((await notify({ 'x-goog-channel-id': channel!.id, 'x-goog-channel-token': channel!.token! })).status).toBe(200);
        await waitForPush(ctx());
        expect(fakes.google.apiRequests().filter((r) => r.method === 'GET')).toHaveLength(1);
      });

      it('with a channel open, the timer reads only at the safety interval', async () => {
        await integration(ctx(), 'google');
        const inbound = calendarInbound(ctx().deps);
        await inbound.syncActive({ onlyIfDue: true });
        await waitForPush(ctx());
        const reads = () => fakes.google.apiRequests().filter((r) => r.method === 'GET').length;
        const before = reads();
        ctx().clock.set(plus(NOW, 5 * 60_000));
        await inbound.syncActive({ onlyIfDue: true });
        expect(reads()).toBe(before);
        ctx().clock.set(plus(NOW, 15 * 60_000));
        await inbound.syncActive({ onlyIfDue: true });
        expect(reads()).toBe(before + 1);
      });

      it('renews the channel before it lapses and stops the old one; stops it when the integration is deactivated', async () => {
        const integrationId = await integration(ctx(), 'google');
        await ctx().background.syncCalendarChanges();
        const first = [...fakes.google.channels.values()].at(-1);
        ctx().clock.set(new Date(Date.parse(NOW) + 20 * hour));
        await ctx().background.syncCalendarChanges();
        expect(fakes.google.stoppedChannels).toContain(first!.id);
        const second = [...fakes.google.channels.values()].at(-1);
        expect(second!.id).not.toBe(first!.id);

        expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${integrationId}/deactivate`)).status).toBe(200);
        await ctx().background.syncCalendarChanges();
        expect(fakes.google.stoppedChannels).toContain(second!.id);
        expect(fakes.google.channels.size).toBe(0);
        await waitForPush(ctx());
      });
      it('another calendar picked: the old channel is stopped, the new calendar read from now and watched, and its deleted event cancels its appointment', async () => {
        const integrationId = await integration(ctx(), 'google');
        await bookedWithEvent(ctx());
        await waitForPush(ctx());
        const old = [...fakes.google.channels.values()].at(-1)!;
        expect(old.calendarId).toBe(googleConfig.calendar_id);
        const before = new Set(fakes.google.channels.keys());

        const picked = await ctx().admin('PUT', `/api/admin/calendar-settings/${integrationId}/calendar`, {
          calendarId: 'court-dates@group.calendar.google.com',
        });
        expect(picked.status, JSON.stringify(picked.body)).toBe(200);
        fakes.google.resetRequests();
        await ctx().background.syncCalendarChanges();
        await waitForPush(ctx());
        // The old calendar's sync token says nothing about this one: a full list of the new calendar.
        const reads = fakes.google.apiRequests().filter((r) => r.method === 'GET' && r.path.includes('/events'));
        expect(reads.length).toBeGreaterThan(0);
        for (const read of reads) {
          expect(read.path).toContain(encodeURIComponent('court-dates@group.calendar.google.com'));
          expect(read.query.syncToken).toBeUndefined();
        }
        expect(fakes.google.stoppedChannels).toContain(old.id);
        const watching = [...fakes.google.channels.values()].filter((c) => !before.has(c.id));
        expect(watching.map((c) => c.calendarId)).toEqual(['court-dates@group.calendar.google.com']);

        // A booking now lands in the new calendar; deleted there, it is pushed and cancelled.
        const { id, eventId } = await bookedWithEvent(ctx());
        fakes.google.deleteEventAsOwner(eventId);
        await waitForPush(ctx());
        expect((await storedAppointment(ctx(), id))!.status).toBe('cancelled');
        // The next tick keeps the new channel.
        await ctx().background.syncCalendarChanges();
        expect([...fakes.google.channels.values()].filter((c) => !before.has(c.id)).map((c) => c.id)).toEqual(watching.map((c) => c.id));
        expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${integrationId}/deactivate`)).status).toBe(200);
        await ctx().background.syncCalendarChanges();
        expect(fakes.google.stoppedChannels).toContain(watching[0]!.id);
      });
      it('Disconnect stops the push channel while the token still works, and a reconnected account is read from now', async () => {
        const integrationId = await integration(ctx(), 'google');
        await bookedWithEvent(ctx());
        await waitForPush(ctx());
        const channel = [...fakes.google.channels.values()].at(-1)!;

        const disconnected = await ctx().admin('POST', `/api/admin/calendar-settings/${integrationId}/disconnect`);
        expect(disconnected.status, JSON.stringify(disconnected.body)).toBe(200);
        expect(fakes.google.stoppedChannels).toContain(channel.id);
        const { db, t } = ctx().database;
        const [state] = await db.select().from(t.calendarSyncStates).where(eq(t.calendarSyncStates.integrationId, integrationId));
        expect(state).toMatchObject({ channelId: null, channelSecret: null, cursor: null });
        // Nothing is left for the timer to retry (it used to warn on every tick, the token gone).
        const warn = vi.spyOn(ctx().deps.log, 'warn');
        try {
          await ctx().background.syncCalendarChanges();
          await ctx().background.syncCalendarChanges();
          expect(warn).not.toHaveBeenCalled();
        } finally {
          warn.mockRestore();
        }
      });
    });

    describe('Graph subscriptions', () => {
      it('answers the validation handshake with the token as plain text', async () => {
        const token = 'Validation: Testing client application reachability for subscription Request-Id: 1234';
        const answer = await ctx().app.request(`/api/integrations/outlook/notifications?validationToken=${encodeURIComponent(token)}`, { method: 'POST' });
        expect(answer.status).toBe(200);
        expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
        expect(await answer.text()).toBe(token);
      });

      it('subscribes (the fake validates the address), a deleted event is notified and cancels its appointment; a wrong clientState is refused', async () => {
        await integration(ctx(), 'outlook');
        const { id, eventId } = await bookedWithEvent(ctx());
        const sub = [...fakes.microsoft.subscriptions.values()].at(-1);
        expect(sub).toMatchObject({
          changeType: 'updated,deleted',
          resource: `users/${encodeURIComponent(outlookConfig.user_email)}/events`,
          notificationUrl: `${relayUrl}/api/integrations/outlook/notifications`,
        });
        await waitForPush(ctx());

        fakes.microsoft.resetRequests();
        const forged = await ctx().call('POST', '/api/integrations/outlook/notifications', {
          body: { value: [{ subscriptionId: sub!.id, clientState: 'guessed', changeType: 'deleted', resource: `Users/x/Events/${eventId}` }] },
        });
        expect(forged.status).toBe(403);
        const garbage = await ctx().call('POST', '/api/integrations/outlook/notifications', {
          rawBody: '{"value":',
          headers: { 'content-type': 'application/json' },
        });
        expect(garbage.status).toBe(400);
        await waitForPush(ctx());
        expect(fakes.microsoft.apiRequests()).toHaveLength(0);
        expect((await storedAppointment(ctx(), id))!.status).toBe('scheduled');

        fakes.microsoft.deleteEventAsOwner(eventId);
        await waitForPush(ctx());
        expect(fakes.microsoft.notifications.at(-1)).toMatchObject({ changeType: 'deleted', status: 202 });
        expect((await storedAppointment(ctx(), id))!.status).toBe('cancelled');
        expect(await mails(ctx(), id, 'cancellation')).toHaveLength(1);
      });

      it('renews the subscription by PATCH before it lapses', async () => {
        await integration(ctx(), 'outlook');
        await ctx().background.syncCalendarChanges();
        const sub = [...fakes.microsoft.subscriptions.values()].at(-1);
        ctx().clock.set(new Date(Date.parse(NOW) + 20 * hour));
        fakes.microsoft.resetRequests();
        await ctx().background.syncCalendarChanges();
        const patch = fakes.microsoft.apiRequests().find((r) => r.method === 'PATCH');
        expect(patch!.path).toBe(`/graph/v1.0/subscriptions/${sub!.id}`);
        expect(fakes.microsoft.subscriptions.get(sub!.id)!.expirationDateTime).toBe(new Date(Date.parse(NOW) + 44 * hour).toISOString());
        await waitForPush(ctx());
      });
    });
  },
  { integrations: { ...fakes.settings, calendarNotificationBaseUrl: relayUrl } },
);
