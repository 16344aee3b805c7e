/**
 * Calendar sync, outbound ("Done when"): bookings, status changes, cancellations and
 * deletions reach the active calendar integration. Real HTTP peers on loopback (tests/support/
 * calendar-fakes.ts): a webhook receiver whose signatures are checked here, and fakes of Google's
 * token endpoint + Calendar API v3 and of Microsoft's identity platform + Graph. Deliveries run by
 * hand (ctx.background.runDeliveries), the clock is fixed and moved past the backoff for retries.
 * Calendly (inbound) is in calendar-sync-calendly.integration.test.ts.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeEach, expect, it } from 'vitest';
import {
  startCalendarFakes,
  verifyTimestampedSignature,
  type RecordedRequest,
  googleTestConfig as googleConfig,
  outlookTestConfig as outlookConfig,
  testCredentials,
} from '../support/calendar-fakes.ts';
import { bookings, NOW, visitorBooking } from '../support/appointment-requests.ts';
import { countRows, forEachDialect, type TestContext } from '../support/test-app.ts';

const fakes = await startCalendarFakes(testCredentials);
afterAll(() => fakes.close());
/** The API's Google and Microsoft endpoints point at the fakes. */
const withFakes = { integrations: fakes.settings };

const webhookSecret = 'whsec-custom-signing-secret-5150';
/** Every secret configured in this file: none may come back from a GET or sit in the delivery log. */
const secrets = [webhookSecret, googleConfig.client_secret, googleConfig.refresh_token, outlookConfig.client_secret, 'hook-query-token-31337'];

/** A fresh weekday slot from Monday 1 July 2030 on for each booking. */
const { book } = bookings('2030-07-01');

const setStatus = async (ctx: TestContext, id: string, status: string) =>
  expect((await ctx.admin('PUT', `/api/admin/appointments/${id}`, { status })).status).toBe(200);
const remove = async (ctx: TestContext, id: string) => expect((await ctx.admin('DELETE', `/api/admin/appointments/${id}`)).status).toBe(204);

async function integration(ctx: TestContext, body: Record<string, unknown>, { activate = true } = {}): Promise<string> {
  const created = await ctx.admin('POST', '/api/admin/calendar-settings', {
    ...body,
    config: typeof body.config === 'string' ? body.config : JSON.stringify(body.config),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  if (activate) expect((await ctx.admin('PUT', `/api/admin/calendar-settings/${created.body.id}/activate`)).status).toBe(200);
  return created.body.id;
}

/**
 * An integration whose configuration lacks a key its provider needs: the admin cannot activate it
 * (409, naming the key); one made active around the API (a restored backup, a hand edit) fails its
 * deliveries, naming the key too.
 */
async function incompleteIntegration(ctx: TestContext, body: Record<string, unknown>, missingKey: string): Promise<string> {
  const id = await integration(ctx, body, { activate: false });
  const refused = await ctx.admin('PUT', `/api/admin/calendar-settings/${id}/activate`);
  expect(refused.status).toBe(409);
  expect(refused.body.error).toContain(`This integration cannot be activated yet.`);
  expect(refused.body.error).toContain(`"${missingKey}"`);
  const { db, t } = ctx.database;
  await db.update(t.calendarSettings).set({ isActive: false });
  await db.update(t.calendarSettings).set({ isActive: true }).where(eq(t.calendarSettings.id, id));
  return id;
}

/** The calendar delivery log of one appointment, oldest first, as the admin reads it. */
async function log(ctx: TestContext, appointmentId: string) {
  const res = await ctx.admin('GET', `/api/admin/deliveries?channel=calendar&appointmentId=${appointmentId}`);
  expect(res.status).toBe(200);
  return (res.body as { id: string; purpose: string; status: string; attempts: number; lastError: string | null; integrationId: string }[]).reverse();
}

async function storedAppointment(ctx: TestContext, id: string) {
  const { db, t } = ctx.database;
  const [row] = await db.select().from(t.appointments).where(eq(t.appointments.id, id));
  return row;
}

async function storedDelivery(ctx: TestContext, id: string) {
  const { db, t } = ctx.database;
  const [row] = await db.select().from(t.deliveries).where(eq(t.deliveries.id, id));
  return row!;
}

const run = (ctx: TestContext) => ctx.background.runDeliveries();
const later = (ctx: TestContext, ms: number) => ctx.clock.set(new Date(ctx.clock.now().getTime() + ms));

function resetFakes() {
  fakes.webhook.resetRequests();
  fakes.google.resetRequests();
  fakes.microsoft.resetRequests();
}

forEachDialect(
  'calendar sync: custom webhook',
  (ctx) => {
    beforeEach(() => {
      ctx().clock.set(NOW);
      resetFakes();
    });

    it('refuses a custom integration without a webhook URL or an API key, naming each field, and writes nothing', async () => {
      const before = await countRows(ctx(), 'calendarSettings');
      const missingBoth = await ctx().admin('POST', '/api/admin/calendar-settings', { provider: 'custom', config: '{}' });
      expect(missingBoth.status).toBe(400);
      expect(missingBoth.body.fields).toEqual({
        webhookUrl: 'Webhook URL is required for a custom integration: calendar events are posted to it',
        apiKey: 'API key is required for a custom integration: it signs the webhook posts',
      });
      const missingKey = await ctx().admin('POST', '/api/admin/calendar-settings', {
        provider: 'custom',
        config: '{}',
        webhookUrl: fakes.webhookUrl('/x'),
        apiKey: '  ',
      });
      expect(missingKey.status).toBe(400);
      expect(Object.keys(missingKey.body.fields)).toEqual(['apiKey']);
      const missingUrl = await ctx().admin('POST', '/api/admin/calendar-settings', { provider: 'custom', config: '{}', apiKey: webhookSecret });
      expect(Object.keys(missingUrl.body.fields)).toEqual(['webhookUrl']);
      expect(await countRows(ctx(), 'calendarSettings')).toBe(before);
    });

    it('posts signed created, updated, cancelled and deleted events that verify with the API key', async () => {
      const integrationId = await integration(ctx(), { provider: 'custom', config: {}, webhookUrl: fakes.webhookUrl('/signed'), apiKey: webhookSecret });
      const { id, scheduledDate } = await book(ctx());
      await run(ctx());
      await setStatus(ctx(), id, 'confirmed');
      await run(ctx());
      await setStatus(ctx(), id, 'cancelled');
      await run(ctx());
      await remove(ctx(), id);
      await run(ctx());

      const posts = fakes.webhook.at('/webhook/signed');
      expect(posts.map((p) => p.method)).toEqual(['POST', 'POST', 'POST', 'POST']);
      expect(posts.map((p) => p.headers['x-firm-event'])).toEqual([
        'appointment.created',
        'appointment.updated',
        'appointment.cancelled',
        'appointment.deleted',
      ]);
      const entries = await log(ctx(), id);
      expect(entries.map((e) => [e.purpose, e.status, e.attempts, e.integrationId])).toEqual([
        ['event-create', 'sent', 1, integrationId],
        ['event-update', 'sent', 1, integrationId],
        ['event-cancel', 'sent', 1, integrationId],
        ['event-delete', 'sent', 1, integrationId],
      ]);

      posts.forEach((post, i) => {
        expect(post.headers['content-type']).toBe('application/json');
        // The delivery id: the receiver's idempotency key, also the event's own id.
        expect(post.headers['x-firm-delivery']).toBe(entries[i]!.id);
        expect(post.json().id).toBe(entries[i]!.id);
        expect(verifyTimestampedSignature(post.headers['x-firm-signature'], post.body, webhookSecret), `post ${i} verifies`).toBe(true);
        // A changed body, or another secret, does not.
        expect(verifyTimestampedSignature(post.headers['x-firm-signature'], post.body.replace('Maria', 'Mario'), webhookSecret)).toBe(false);
        expect(verifyTimestampedSignature(post.headers['x-firm-signature'], post.body, 'another-secret')).toBe(false);
        expect(post.body).not.toContain(webhookSecret);
      });

      const [created, updated, cancelled, deleted] = posts.map((p) => p.json());
      expect(created).toMatchObject({
        type: 'appointment.created',
        previousStatus: null,
        appointment: {
          id,
          firstName: 'Maria',
          lastName: 'Lopez',
          email: visitorBooking.email,
          phone: visitorBooking.phone,
          consultationType: 'estate-planning',
          practiceArea: 'trust-administration',
          notes: visitorBooking.notes,
          scheduledDate,
          endDate: new Date(Date.parse(scheduledDate) + 60 * 60_000).toISOString(),
          duration: 60,
          timeZone: 'America/Los_Angeles',
          status: 'scheduled',
        },
      });
      expect(Date.parse(created.occurredAt)).not.toBeNaN();
      expect(updated).toMatchObject({ type: 'appointment.updated', previousStatus: 'scheduled', appointment: { id, status: 'confirmed' } });
      expect(cancelled).toMatchObject({ type: 'appointment.cancelled', previousStatus: 'confirmed', appointment: { id, status: 'cancelled' } });
      // The row is gone by now: the event still says which appointment it was.
      expect(await storedAppointment(ctx(), id)).toBeUndefined();
      expect(deleted).toMatchObject({ type: 'appointment.deleted', appointment: { id, firstName: 'Maria', scheduledDate, status: 'cancelled' } });
    });

    it('retries a post the receiver failed, after the backoff, with the same delivery id, and logs both attempts', async () => {
      await integration(ctx(), { provider: 'custom', config: {}, webhookUrl: fakes.webhookUrl('/flaky'), apiKey: webhookSecret });
      fakes.webhook.failNext(1, { status: 500 });
      const { id } = await book(ctx());
      await run(ctx());
      expect(fakes.webhook.at('/webhook/flaky')).toHaveLength(1);
      let [entry] = await log(ctx(), id);
      expect(entry).toMatchObject({ purpose: 'event-create', status: 'pending', attempts: 1, lastError: 'The webhook answered HTTP 500' });

      // Not due yet: nothing is sent again.
      await run(ctx());
      expect(fakes.webhook.at('/webhook/flaky')).toHaveLength(1);

      later(ctx(), 31_000);
      await run(ctx());
      const posts = fakes.webhook.at('/webhook/flaky');
      expect(posts).toHaveLength(2);
      expect(posts[1]!.headers['x-firm-delivery']).toBe(posts[0]!.headers['x-firm-delivery']);
      expect(verifyTimestampedSignature(posts[1]!.headers['x-firm-signature'], posts[1]!.body, webhookSecret)).toBe(true);
      [entry] = await log(ctx(), id);
      expect(entry).toMatchObject({ purpose: 'event-create', status: 'sent', attempts: 2, lastError: null });
    });

    it('retries when the receiver cannot be reached at all', async () => {
      // A port nothing listens on (the discard port is closed on loopback).
      await integration(ctx(), { provider: 'custom', config: {}, webhookUrl: 'http://127.0.0.1:9/hook', apiKey: webhookSecret });
      const { id } = await book(ctx());
      await run(ctx());
      const [entry] = await log(ctx(), id);
      expect(entry).toMatchObject({ status: 'pending', attempts: 1 });
      expect(entry!.lastError).toMatch(/Could not reach 127\.0\.0\.1:9/);
    });

    it('never returns a secret from any GET, the delivery log included', async () => {
      await integration(ctx(), {
        provider: 'custom',
        config: {},
        webhookUrl: `${fakes.webhookUrl('/masked')}?token=hook-query-token-31337`,
        apiKey: webhookSecret,
      });
      const { id } = await book(ctx());
      fakes.webhook.failNext(1, { status: 502 });
      await run(ctx());
      await integration(ctx(), { provider: 'google', config: { ...googleConfig, refresh_token: 'hook-query-token-31337' } }, { activate: false });
      const gets = [
        await ctx().admin('GET', '/api/admin/calendar-settings'),
        await ctx().admin('GET', '/api/admin/deliveries?channel=calendar'),
        await ctx().admin('GET', `/api/admin/deliveries?appointmentId=${id}`),
        await ctx().call('GET', '/api/calendar-settings/active'),
      ];
      for (const get of gets) {
        expect(get.status).toBe(200);
        for (const secret of secrets) expect(JSON.stringify(get.body)).not.toContain(secret);
      }
      const list = gets[0]!.body as { provider: string; apiKey: string; webhookUrl: string }[];
      const custom = list.find((r) => r.webhookUrl?.includes('/webhook/masked'))!;
      expect(custom.apiKey).toBe('••••5150');
      expect(custom.webhookUrl).toContain('token=••••');
    });
  },
  withFakes,
);

forEachDialect(
  'calendar sync: Google Calendar',
  (ctx) => {
    beforeEach(() => {
      ctx().clock.set(NOW);
      resetFakes();
    });

    const eventsPath = `/google/calendar/v3/calendars/${encodeURIComponent(googleConfig.calendar_id)}/events`;

    it('refreshes a token, then creates, updates and deletes the event, storing its id', async () => {
      const integrationId = await integration(ctx(), { provider: 'google', config: googleConfig });
      const { id, scheduledDate } = await book(ctx());
      await run(ctx());

      // The refresh grant, with the configured client and refresh token.
      const [tokenRequest] = fakes.google.tokenRequests();
      expect(tokenRequest!.method).toBe('POST');
      expect(tokenRequest!.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(tokenRequest!.form()).toEqual({
        grant_type: 'refresh_token',
        client_id: googleConfig.client_id,
        client_secret: googleConfig.client_secret,
        refresh_token: googleConfig.refresh_token,
      });

      const [insert] = fakes.google.eventRequests();
      expect([insert!.method, insert!.path]).toEqual(['POST', eventsPath]);
      expect(insert!.headers.authorization).toBe(`Bearer ${fakes.google.issuedTokens.at(-1)}`);
      const sent = insert!.json();
      expect(sent).toMatchObject({
        summary: 'Estate Planning Review: Maria Lopez',
        status: 'tentative',
        start: { dateTime: scheduledDate, timeZone: 'America/Los_Angeles' },
        end: { dateTime: new Date(Date.parse(scheduledDate) + 60 * 60_000).toISOString(), timeZone: 'America/Los_Angeles' },
        extendedProperties: { private: { appointmentId: id } },
      });
      expect(sent.description).toContain('maria.lopez@example.com');

      const eventId = sent.id as string;
      expect(fakes.google.events.get(eventId)).toMatchObject({ calendarId: googleConfig.calendar_id, status: 'tentative' });
      expect((await storedAppointment(ctx(), id))!.externalEventId).toBe(eventId);
      let entries = await log(ctx(), id);
      expect(entries.map((e) => [e.purpose, e.status, e.integrationId])).toEqual([['event-create', 'sent', integrationId]]);
      expect((await storedDelivery(ctx(), entries[0]!.id)).externalRef).toBe(eventId);

      await setStatus(ctx(), id, 'confirmed');
      await run(ctx());
      const patch = fakes.google.eventRequests()[1]!;
      expect([patch.method, patch.path]).toEqual(['PATCH', `${eventsPath}/${eventId}`]);
      expect(patch.json()).toMatchObject({ status: 'confirmed', description: expect.stringContaining('Status: Confirmed') });
      expect(fakes.google.events.get(eventId)!.status).toBe('confirmed');
      // The token was reused, not refreshed for every call.
      expect(fakes.google.tokenRequests()).toHaveLength(1);

      await setStatus(ctx(), id, 'cancelled');
      await run(ctx());
      const del = fakes.google.eventRequests()[2]!;
      expect([del.method, del.path]).toEqual(['DELETE', `${eventsPath}/${eventId}`]);
      expect(fakes.google.events.has(eventId)).toBe(false);

      // Deleting the cancelled appointment afterwards needs no call: its event is gone already.
      await remove(ctx(), id);
      await run(ctx());
      expect(fakes.google.eventRequests()).toHaveLength(3);
      entries = await log(ctx(), id);
      expect(entries.map((e) => [e.purpose, e.status])).toEqual([
        ['event-create', 'sent'],
        ['event-update', 'sent'],
        ['event-cancel', 'sent'],
        ['event-delete', 'skipped'],
      ]);
      expect(entries[3]!.lastError).toBe('The Google Calendar event was already removed.');
    });

    it('deletes the event of an appointment deleted outright, after its row is gone', async () => {
      await integration(ctx(), { provider: 'google', config: googleConfig });
      const { id } = await book(ctx());
      await run(ctx());
      const eventId = (await storedAppointment(ctx(), id))!.externalEventId!;
      expect(fakes.google.events.has(eventId)).toBe(true);
      await remove(ctx(), id);
      await run(ctx());
      const del = fakes.google.eventRequests().at(-1)!;
      expect([del.method, del.path]).toEqual(['DELETE', `${eventsPath}/${eventId}`]);
      expect(fakes.google.events.has(eventId)).toBe(false);
      expect((await log(ctx(), id)).map((e) => [e.purpose, e.status])).toEqual([
        ['event-create', 'sent'],
        ['event-delete', 'sent'],
      ]);
    });

    it('refreshes the token once it has expired, and again when Google refuses one early', async () => {
      await integration(ctx(), { provider: 'google', config: googleConfig });
      await book(ctx());
      await run(ctx());
      const tokensBefore = fakes.google.tokenRequests().length;

      // Two hours on: the cached token (valid for an hour) is not used any more.
      later(ctx(), 2 * 3600_000);
      await book(ctx());
      await run(ctx());
      expect(fakes.google.tokenRequests()).toHaveLength(tokensBefore + 1);
      const insert = fakes.google.eventRequests().at(-1)!;
      expect(insert.headers.authorization).toBe(`Bearer ${fakes.google.issuedTokens.at(-1)}`);

      // Revoked before it expired (after the booking read the calendar's busy times with it): the
      // 401 leads to one refresh and the call is repeated.
      const { id } = await book(ctx());
      fakes.google.revokeTokens();
      await run(ctx());
      expect(fakes.google.tokenRequests()).toHaveLength(tokensBefore + 2);
      const [refused, repeated] = fakes.google.eventRequests().slice(-2);
      expect([refused!.method, repeated!.method]).toEqual(['POST', 'POST']);
      expect(refused!.headers.authorization).not.toBe(repeated!.headers.authorization);
      expect((await log(ctx(), id)).map((e) => [e.status, e.attempts])).toEqual([['sent', 1]]);
      expect(fakes.google.events.has((await storedAppointment(ctx(), id))!.externalEventId!)).toBe(true);
    });

    it('retries a Google outage with backoff and creates the event once', async () => {
      await integration(ctx(), { provider: 'google', config: googleConfig });
      fakes.google.failNext(1, { status: 503, match: (r: RecordedRequest) => r.method === 'POST' && r.path === eventsPath });
      const { id } = await book(ctx());
      await run(ctx());
      let [entry] = await log(ctx(), id);
      expect(entry).toMatchObject({ status: 'pending', attempts: 1 });
      expect(entry!.lastError).toContain('HTTP 503');
      later(ctx(), 31_000);
      await run(ctx());
      [entry] = await log(ctx(), id);
      expect(entry).toMatchObject({ status: 'sent', attempts: 2 });
      const mine = [...fakes.google.events.values()].filter(
        (e) => (e.extendedProperties as { private: { appointmentId: string } }).private.appointmentId === id,
      );
      expect(mine).toHaveLength(1);
    });

    it('fails, without retrying, when the config has no refresh_token, and says what to add', async () => {
      const { refresh_token: _, ...withoutRefresh } = googleConfig;
      await incompleteIntegration(ctx(), { provider: 'google', config: withoutRefresh }, 'refresh_token');
      const { id } = await book(ctx());
      await run(ctx());
      const [entry] = await log(ctx(), id);
      expect(entry).toMatchObject({ purpose: 'event-create', status: 'failed', attempts: 1 });
      expect(entry!.lastError).toContain('The Google Calendar configuration has no "refresh_token": add "refresh_token": ');
      expect(fakes.google.requests).toHaveLength(0);
    });

    it('fails without retrying when Google refuses the refresh token, and logs no secret', async () => {
      await integration(ctx(), { provider: 'google', config: { ...googleConfig, refresh_token: '1//revoked-refresh-token-0000' } });
      const { id } = await book(ctx());
      await run(ctx());
      const [entry] = await log(ctx(), id);
      expect(entry).toMatchObject({ status: 'failed', attempts: 1 });
      expect(entry!.lastError).toContain('invalid_grant');
      expect(entry!.lastError).not.toContain('revoked-refresh-token');
      expect(fakes.google.eventRequests()).toHaveLength(0);
    });
  },
  withFakes,
);

forEachDialect(
  'calendar sync: Outlook',
  (ctx) => {
    beforeEach(() => {
      ctx().clock.set(NOW);
      resetFakes();
    });

    const eventsPath = `/graph/v1.0/users/${encodeURIComponent(outlookConfig.user_email)}/events`;

    it('gets an app token, then creates, updates and deletes the event in the mailbox, storing its id', async () => {
      await integration(ctx(), { provider: 'outlook', config: outlookConfig });
      const { id } = await book(ctx(), { scheduledDate: '2030-07-15T13:30:00-07:00', consultationType: 'initial' });
      await run(ctx());

      const [tokenRequest] = fakes.microsoft.tokenRequests();
      expect([tokenRequest!.method, tokenRequest!.path]).toEqual(['POST', '/microsoft-login/firm-tenant/oauth2/v2.0/token']);
      expect(tokenRequest!.form()).toEqual({
        grant_type: 'client_credentials',
        client_id: outlookConfig.client_id,
        client_secret: outlookConfig.client_secret,
        scope: 'https://graph.microsoft.com/.default',
      });

      const [create] = fakes.microsoft.eventRequests();
      expect([create!.method, create!.path]).toEqual(['POST', eventsPath]);
      expect(create!.headers.authorization).toBe(`Bearer ${fakes.microsoft.issuedTokens.at(-1)}`);
      const [entry] = await log(ctx(), id);
      // The firm's wall clock and its Windows zone name: 1:30 PM in San Diego.
      expect(create!.json()).toMatchObject({
        subject: 'Initial Consultation: Maria Lopez',
        start: { dateTime: '2030-07-15T13:30:00', timeZone: 'Pacific Standard Time' },
        end: { dateTime: '2030-07-15T14:00:00', timeZone: 'Pacific Standard Time' },
        showAs: 'tentative',
        transactionId: entry!.id,
        body: { contentType: 'text' },
      });
      const eventId = (await storedAppointment(ctx(), id))!.externalEventId!;
      expect(fakes.microsoft.events.get(eventId)).toMatchObject({ user: outlookConfig.user_email });
      expect((await storedDelivery(ctx(), entry!.id)).externalRef).toBe(eventId);

      await setStatus(ctx(), id, 'confirmed');
      await run(ctx());
      const patch = fakes.microsoft.eventRequests()[1]!;
      expect([patch.method, patch.path]).toEqual(['PATCH', `${eventsPath}/${encodeURIComponent(eventId)}`]);
      expect(fakes.microsoft.events.get(eventId)!.showAs).toBe('busy');

      await remove(ctx(), id);
      await run(ctx());
      const del = fakes.microsoft.eventRequests()[2]!;
      expect([del.method, del.path]).toEqual(['DELETE', `${eventsPath}/${encodeURIComponent(eventId)}`]);
      expect(fakes.microsoft.events.has(eventId)).toBe(false);
      expect(fakes.microsoft.tokenRequests()).toHaveLength(1);
      expect((await log(ctx(), id)).map((e) => [e.purpose, e.status])).toEqual([
        ['event-create', 'sent'],
        ['event-update', 'sent'],
        ['event-delete', 'sent'],
      ]);
    });

    it('gets a new token when Graph refuses the cached one', async () => {
      await integration(ctx(), { provider: 'outlook', config: outlookConfig });
      await book(ctx());
      await run(ctx());
      const tokensBefore = fakes.microsoft.tokenRequests().length;
      // Revoked after the booking read the calendar's busy times with it.
      const { id } = await book(ctx());
      fakes.microsoft.revokeTokens();
      await run(ctx());
      expect(fakes.microsoft.tokenRequests()).toHaveLength(tokensBefore + 1);
      const [refused, repeated] = fakes.microsoft.eventRequests().slice(-2);
      expect(refused!.headers.authorization).not.toBe(repeated!.headers.authorization);
      expect((await log(ctx(), id)).map((e) => e.status)).toEqual(['sent']);
    });

    it('fails, naming the key, when the config has no mailbox', async () => {
      const { user_email: _, ...withoutMailbox } = outlookConfig;
      await incompleteIntegration(ctx(), { provider: 'outlook', config: withoutMailbox }, 'user_email');
      const { id } = await book(ctx());
      await run(ctx());
      const [entry] = await log(ctx(), id);
      expect(entry).toMatchObject({ status: 'failed', attempts: 1 });
      expect(entry!.lastError).toContain('"user_email"');
      expect(fakes.microsoft.requests).toHaveLength(0);
    });
  },
  withFakes,
);

forEachDialect(
  'calendar sync: which integration hears of it',
  (ctx) => {
    beforeEach(() => {
      ctx().clock.set(NOW);
      resetFakes();
    });

    it('sends nothing while no integration is active', async () => {
      const { id } = await book(ctx());
      await run(ctx());
      expect(await log(ctx(), id)).toEqual([]);
      expect(fakes.webhook.requests).toHaveLength(0);
    });

    it('activating one integration deactivates the others, and only the active one receives events', async () => {
      const a = await integration(ctx(), { provider: 'custom', config: {}, webhookUrl: fakes.webhookUrl('/a'), apiKey: webhookSecret });
      const b = await integration(
        ctx(),
        { provider: 'custom', config: {}, webhookUrl: fakes.webhookUrl('/b'), apiKey: 'whsec-second-receiver-6262' },
        { activate: false },
      );
      const first = await book(ctx());
      await run(ctx());
      expect(fakes.webhook.at('/webhook/a').map((p) => p.json().appointment.id)).toEqual([first.id]);
      expect(fakes.webhook.at('/webhook/b')).toHaveLength(0);

      expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${b}/activate`)).status).toBe(200);
      const list = (await ctx().admin('GET', '/api/admin/calendar-settings')).body as { id: string; isActive: boolean }[];
      expect(list.filter((r) => r.isActive).map((r) => r.id)).toEqual([b]);

      const second = await book(ctx());
      await setStatus(ctx(), second.id, 'confirmed');
      await run(ctx());
      const toB = fakes.webhook.at('/webhook/b');
      expect(toB.map((p) => [p.json().type, p.json().appointment.id])).toEqual([
        ['appointment.created', second.id],
        ['appointment.updated', second.id],
      ]);
      expect(verifyTimestampedSignature(toB[0]!.headers['x-firm-signature'], toB[0]!.body, 'whsec-second-receiver-6262')).toBe(true);
      expect(fakes.webhook.at('/webhook/a')).toHaveLength(1);
      expect((await log(ctx(), second.id)).every((e) => e.integrationId === b)).toBe(true);
      void a;
    });

    it('skips a change queued for an integration that was deactivated before it went out', async () => {
      await integration(ctx(), { provider: 'custom', config: {}, webhookUrl: fakes.webhookUrl('/old'), apiKey: webhookSecret });
      const { id } = await book(ctx());
      await integration(ctx(), { provider: 'custom', config: {}, webhookUrl: fakes.webhookUrl('/new'), apiKey: webhookSecret });
      await run(ctx());
      expect(fakes.webhook.requests).toHaveLength(0);
      const [entry] = await log(ctx(), id);
      expect(entry).toMatchObject({ purpose: 'event-create', status: 'skipped' });
      expect(entry!.lastError).toContain('no longer the active one');
    });

    it('removes the event from the calendar that holds it after the firm switched provider', async () => {
      await integration(ctx(), { provider: 'google', config: googleConfig });
      const { id } = await book(ctx());
      await run(ctx());
      const googleEvent = (await storedAppointment(ctx(), id))!.externalEventId!;
      expect(fakes.google.events.has(googleEvent)).toBe(true);

      const outlook = await integration(ctx(), { provider: 'outlook', config: outlookConfig });
      await setStatus(ctx(), id, 'cancelled');
      await run(ctx());
      // Google, no longer active, still has its event taken away; Outlook never had one.
      expect(fakes.google.events.has(googleEvent)).toBe(false);
      expect(fakes.microsoft.eventRequests()).toHaveLength(0);
      const cancels = (await log(ctx(), id)).filter((e) => e.purpose === 'event-cancel');
      expect(cancels.map((e) => e.status).sort()).toEqual(['sent', 'skipped']);
      expect(cancels.find((e) => e.integrationId === outlook)!.status).toBe('skipped');
    });

    it('creates the event in the newly active calendar when an appointment it has not seen changes', async () => {
      await integration(ctx(), { provider: 'google', config: googleConfig });
      const { id } = await book(ctx());
      await run(ctx());
      await integration(ctx(), { provider: 'outlook', config: outlookConfig });
      await setStatus(ctx(), id, 'confirmed');
      await run(ctx());
      const [create] = fakes.microsoft.eventRequests();
      expect(create!.method).toBe('POST');
      const outlookEvent = (await storedAppointment(ctx(), id))!.externalEventId!;
      expect(fakes.microsoft.events.get(outlookEvent)).toMatchObject({ showAs: 'busy' });
    });

    it('records a skipped delivery, saying why, while Calendly (inbound only) is active', async () => {
      await integration(ctx(), {
        provider: 'calendly',
        config: { username: 'firm', personal_access_token: 'pat-123456789012', webhook_signing_key: 'calendly-signing-key-1234' },
      });
      const { id } = await book(ctx());
      await run(ctx());
      const [entry] = await log(ctx(), id);
      expect(entry).toMatchObject({ purpose: 'event-create', status: 'skipped' });
      expect(entry!.lastError).toMatch(/^Calendly is inbound only/);
      expect(fakes.webhook.requests.length + fakes.google.requests.length + fakes.microsoft.requests.length).toBe(0);
    });
  },
  withFakes,
);

forEachDialect(
  'calendar sync: private networks refused (production setting)',
  (ctx) => {
    beforeEach(() => ctx().clock.set(NOW));

    it('refuses a custom webhook URL on a loopback or private address when the integration is created', async () => {
      const before = await countRows(ctx(), 'calendarSettings');
      for (const webhookUrl of ['http://127.0.0.1:8080/hook', 'http://localhost/hook', 'https://10.1.2.3/hook', 'http://[::1]/hook']) {
        const res = await ctx().admin('POST', '/api/admin/calendar-settings', { provider: 'custom', config: '{}', webhookUrl, apiKey: webhookSecret });
        expect(res.status, webhookUrl).toBe(400);
        expect(res.body.fields).toEqual({
          webhookUrl: 'Webhook URL must be a public internet address: the server cannot post to private or loopback networks',
        });
      }
      expect(await countRows(ctx(), 'calendarSettings')).toBe(before);
    });

    it('fails a delivery to a private address for good, without contacting it', async () => {
      // Stored around the API (an older row): the send-time check still refuses it.
      const { db, t } = ctx().database;
      const [setting] = await db
        .insert(t.calendarSettings)
        .values({ provider: 'custom', config: '{}', webhookUrl: fakes.webhookUrl('/private'), apiKey: webhookSecret })
        .returning();
      expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${setting!.id}/activate`)).status).toBe(200);
      fakes.webhook.resetRequests();
      const { id } = await book(ctx());
      await run(ctx());
      const [entry] = await log(ctx(), id);
      expect(entry).toMatchObject({ status: 'failed', attempts: 1 });
      expect(entry!.lastError).toContain('private or loopback');
      expect(fakes.webhook.requests).toHaveLength(0);
    });
  },
  { integrations: { ...fakes.settings, allowPrivateNetworks: false } },
);
