/**
 * Calendar sync, inbound: Calendly's signed invitee.created and invitee.canceled
 * webhooks (POST /api/integrations/calendly/webhook) become and cancel appointments. Signed here the
 * way Calendly signs (t=<seconds>,v1=<hex HMAC-SHA256(signing key, "<t>.<raw body>")>), with the
 * firm's clock fixed; wrongly signed, stale, unsigned or tampered ones are refused with nothing written.
 */
import { asc, eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { book, claimsOf, NOW } from '../support/appointment-requests.ts';
import { timestampedSignature } from '../support/calendar-fakes.ts';
import { countRows, forEachDialect, type TestContext } from '../support/test-app.ts';

const nowSeconds = () => Math.floor(Date.parse(NOW) / 1000);

const signingKey = 'calendly-webhook-signing-key-8a7b6c5d';
const calendlyConfig = { username: 'firm-calendar', personal_access_token: 'calendly-pat-0123456789abcdef', webhook_signing_key: signingKey };
const PATH = '/api/integrations/calendly/webhook';

let invitees = 0;
/** A Calendly invitee.created body (the shape of Calendly's webhook payload), each with its own invitee URI. */
function inviteeCreated(overrides: { start?: string; end?: string; payload?: Record<string, unknown> } = {}) {
  const n = ++invitees;
  const start = overrides.start ?? '2030-08-05T16:00:00.000000Z';
  const end = overrides.end ?? '2030-08-05T16:30:00.000000Z';
  return {
    created_at: '2030-04-01T15:59:58.000000Z',
    created_by: 'https://api.calendly.com/users/AAAAAAAAAAAAAAAA',
    event: 'invitee.created',
    payload: {
      uri: `https://api.calendly.com/scheduled_events/EV${n}/invitees/INV${n}`,
      email: 'jordan.reyes@example.com',
      name: 'Jordan Reyes',
      first_name: null,
      last_name: null,
      status: 'active',
      timezone: 'America/Los_Angeles',
      text_reminder_number: '+1 619-555-0199',
      rescheduled: false,
      questions_and_answers: [
        { question: 'What would you like to discuss?', answer: 'Updating my living trust', position: 0 },
        { question: 'Anything else?', answer: '', position: 1 },
      ],
      scheduled_event: {
        uri: `https://api.calendly.com/scheduled_events/EV${n}`,
        name: '30 Minute Consultation',
        start_time: start,
        end_time: end,
        status: 'active',
      },
      ...overrides.payload,
    },
  };
}

function inviteeCanceled(uri: string) {
  return {
    created_at: '2030-04-01T16:00:00.000000Z',
    event: 'invitee.canceled',
    payload: { uri, email: 'jordan.reyes@example.com', status: 'canceled', rescheduled: false, cancellation: { canceler_type: 'invitee', reason: 'Conflict' } },
  };
}

/** POSTs the body as Calendly would: the exact text it signed. */
function deliver(
  ctx: TestContext,
  body: unknown,
  { key = signingKey, t = nowSeconds(), header, raw }: { key?: string; t?: number; header?: string | null; raw?: string } = {},
) {
  const text = raw ?? JSON.stringify(body);
  const headers: Record<string, string> = {};
  const signature = header === undefined ? timestampedSignature(key, JSON.stringify(body), t) : header;
  if (signature !== null) headers['Calendly-Webhook-Signature'] = signature;
  return ctx.call('POST', PATH, { rawBody: text, headers });
}

async function byExternalId(ctx: TestContext, uri: string) {
  const { db, t } = ctx.database;
  return db.select().from(t.appointments).where(eq(t.appointments.externalEventId, uri));
}

async function everything(ctx: TestContext) {
  return {
    appointments: await countRows(ctx, 'appointments'),
    claims: await countRows(ctx, 'appointmentSlotClaims'),
    deliveries: await countRows(ctx, 'deliveries'),
  };
}

forEachDialect('calendar sync: Calendly webhooks', (ctx) => {
  beforeEach(() => ctx().clock.set(NOW));

  it('refuses webhooks while no Calendly integration is active, writing nothing', async () => {
    const before = await everything(ctx());
    const res = await deliver(ctx(), inviteeCreated());
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('No active Calendly integration accepts webhooks.');
    expect(await everything(ctx())).toEqual(before);
  });

  it('creates an appointment from a correctly signed invitee.created, once even when sent twice', async () => {
    const created = await ctx().admin('POST', '/api/admin/calendar-settings', { provider: 'calendly', config: JSON.stringify(calendlyConfig) });
    expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${created.body.id}/activate`)).status).toBe(200);

    const body = inviteeCreated();
    const res = await deliver(ctx(), body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ received: true, outcome: 'created' });
    const [row] = await byExternalId(ctx(), body.payload.uri);
    expect(res.body.appointmentId).toBe(row!.id);
    expect(row).toMatchObject({
      firstName: 'Jordan',
      lastName: 'Reyes',
      email: 'jordan.reyes@example.com',
      phone: '+1 619-555-0199',
      consultationType: 'initial',
      practiceArea: 'other',
      status: 'scheduled',
      duration: 30,
      externalEventId: body.payload.uri,
      notes: 'Booked through Calendly: 30 Minute Consultation\nWhat would you like to discuss?: Updating my living trust\nAnything else?: (no answer)',
    });
    expect(row!.scheduledDate.toISOString()).toBe('2030-08-05T16:00:00.000Z');
    // The site stops offering that time: 9:00 AM on Monday 5 August 2030 is claimed.
    expect(await claimsOf(ctx(), row!.id)).toEqual(['2030-08-05T16:00:00.000Z']);
    const availability = await ctx().call('GET', '/api/appointments/availability?date=2030-08-05&consultationType=initial');
    expect(availability.body.slots.find((s: { time: string }) => s.time === '09:00')).toMatchObject({ available: false, reason: 'taken' });
    // The admin sees it like any booking.
    const list = await ctx().admin('GET', '/api/admin/appointments');
    expect(list.body.map((a: { id: string }) => a.id)).toContain(row!.id);

    const before = await everything(ctx());
    const again = await deliver(ctx(), body);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ outcome: 'duplicate', appointmentId: row!.id });
    expect(await everything(ctx())).toEqual(before);
  });

  it('books once when the same webhook arrives twice at the same moment', async () => {
    const body = inviteeCreated({ start: '2030-08-06T17:00:00Z', end: '2030-08-06T17:30:00Z' });
    const results = await Promise.all([deliver(ctx(), body), deliver(ctx(), body), deliver(ctx(), body)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    const rows = await byExternalId(ctx(), body.payload.uri);
    expect(rows).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.appointmentId))).toEqual(new Set([rows[0]!.id]));
  });

  it('records a booking that overlaps a site booking or is off the slot grid, claiming only the free cells', async () => {
    const site = await book(ctx(), { consultationType: 'initial', practiceArea: 'divorce', scheduledDate: '2030-08-07T10:00:00-07:00' });
    // 10:00 to 11:00 at Calendly: 10:00 is the site's, 10:30 is free.
    const overlapping = inviteeCreated({ start: '2030-08-07T17:00:00Z', end: '2030-08-07T18:00:00Z', payload: { first_name: 'Ana', last_name: 'de la Cruz' } });
    const res = await deliver(ctx(), overlapping);
    expect(res.status).toBe(201);
    const [row] = await byExternalId(ctx(), overlapping.payload.uri);
    expect(row).toMatchObject({ firstName: 'Ana', lastName: 'de la Cruz', duration: 60 });
    expect(await claimsOf(ctx(), row!.id)).toEqual(['2030-08-07T17:30:00.000Z']);
    expect(await claimsOf(ctx(), site.id)).toEqual(['2030-08-07T17:00:00.000Z']);

    // 9:10 to 9:55: not a slot, recorded all the same, holding the cells it touches.
    const offGrid = inviteeCreated({ start: '2030-08-08T16:10:00Z', end: '2030-08-08T16:55:00Z', payload: { name: 'Cher' } });
    expect((await deliver(ctx(), offGrid)).status).toBe(201);
    const [odd] = await byExternalId(ctx(), offGrid.payload.uri);
    expect(odd).toMatchObject({ firstName: 'Cher', lastName: '', duration: 45 });
    expect(await claimsOf(ctx(), odd!.id)).toEqual(['2030-08-08T16:00:00.000Z', '2030-08-08T16:30:00.000Z']);
  });

  it('cancels the appointment on invitee.canceled and frees its slot', async () => {
    const body = inviteeCreated({ start: '2030-08-09T20:00:00Z', end: '2030-08-09T20:30:00Z' });
    expect((await deliver(ctx(), body)).status).toBe(201);
    const [row] = await byExternalId(ctx(), body.payload.uri);
    expect(await claimsOf(ctx(), row!.id)).toHaveLength(1);

    const res = await deliver(ctx(), inviteeCanceled(body.payload.uri));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ outcome: 'cancelled', appointmentId: row!.id });
    const [cancelled] = await byExternalId(ctx(), body.payload.uri);
    expect(cancelled!.status).toBe('cancelled');
    expect(await claimsOf(ctx(), row!.id)).toEqual([]);

    // Again: nothing more happens.
    const again = await deliver(ctx(), inviteeCanceled(body.payload.uri));
    expect(again.status).toBe(200);
    expect((await byExternalId(ctx(), body.payload.uri))[0]!.status).toBe('cancelled');

    // A cancellation of something never booked here is acknowledged and ignored.
    const unknown = await deliver(ctx(), inviteeCanceled('https://api.calendly.com/scheduled_events/X/invitees/NEVER'));
    expect(unknown.status).toBe(200);
    expect(unknown.body.outcome).toBe('ignored');
  });

  it('announces a Calendly booking like a site booking; the calendar channel records why nothing goes back to Calendly', async () => {
    const body = inviteeCreated({ start: '2030-08-12T16:00:00Z', end: '2030-08-12T16:30:00Z' });
    const res = await deliver(ctx(), body);
    expect(res.status).toBe(201);
    await ctx().background.runDeliveries();
    const log = await ctx().admin('GET', `/api/admin/deliveries?channel=calendar&appointmentId=${res.body.appointmentId}`);
    expect(log.body).toHaveLength(1);
    expect(log.body[0]).toMatchObject({ purpose: 'event-create', status: 'skipped' });
    expect(log.body[0].lastError).toMatch(/^Calendly is inbound only/);
  });

  it('refuses wrongly signed, stale, unsigned, malformed and tampered webhooks, writing nothing', async () => {
    const body = inviteeCreated({ start: '2030-08-13T16:00:00Z', end: '2030-08-13T16:30:00Z' });
    const before = await everything(ctx());
    const cases: [string, Promise<{ status: number; body: { error: string } }>, number][] = [
      ['another key', deliver(ctx(), body, { key: 'not-the-signing-key' }), 401],
      ['four minutes old', deliver(ctx(), body, { t: nowSeconds() - 240 }), 401],
      ['four minutes ahead', deliver(ctx(), body, { t: nowSeconds() + 240 }), 401],
      ['no header', deliver(ctx(), body, { header: null }), 400],
      ['not t=,v1=', deliver(ctx(), body, { header: 'sha256=abcdef' }), 400],
      ['short v1', deliver(ctx(), body, { header: `t=${nowSeconds()},v1=abc` }), 400],
      ['body changed after signing', deliver(ctx(), body, { raw: JSON.stringify(body).replace('Jordan Reyes', 'Mallory') }), 401],
      ['a cancellation with a wrong key', deliver(ctx(), inviteeCanceled('https://api.calendly.com/x'), { key: 'wrong' }), 401],
    ];
    for (const [name, pending, status] of cases) {
      const res = await pending;
      expect(res.status, name).toBe(status);
      expect(res.body.error, name).toBeTypeOf('string');
    }
    expect(await byExternalId(ctx(), body.payload.uri)).toEqual([]);
    expect(await everything(ctx())).toEqual(before);
  });

  it('accepts a signature made just inside the three minutes', async () => {
    const body = inviteeCreated({ start: '2030-08-14T16:00:00Z', end: '2030-08-14T16:30:00Z' });
    expect((await deliver(ctx(), body, { t: nowSeconds() - 170 })).status).toBe(201);
  });

  it('answers 400 for a signed body that is not a usable invitee, writing nothing', async () => {
    const before = await everything(ctx());
    const noEmail = inviteeCreated();
    delete (noEmail.payload as { email?: string }).email;
    const backwards = inviteeCreated({ start: '2030-08-15T17:00:00Z', end: '2030-08-15T16:00:00Z' });
    for (const body of [noEmail, backwards, { hello: 'world' }]) {
      const res = await deliver(ctx(), body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
    }
    const notJson = await deliver(ctx(), null, { raw: 'not json', header: timestampedSignature(signingKey, 'not json', nowSeconds()) });
    expect(notJson.status).toBe(400);
    // Other Calendly events are acknowledged and left alone.
    const other = await deliver(ctx(), { event: 'routing_form_submission.created', payload: {} });
    expect(other.status).toBe(200);
    expect(other.body.outcome).toBe('ignored');
    expect(await everything(ctx())).toEqual(before);
  });

  it('refuses every webhook, 401, when the active Calendly integration has no signing key', async () => {
    const keyless = await ctx().admin('POST', '/api/admin/calendar-settings', {
      provider: 'calendly',
      config: JSON.stringify({ username: 'firm', personal_access_token: 'pat-0000000000000' }),
    });
    // The admin cannot activate it; one made active around the API (a restored backup) verifies nothing.
    const refused = await ctx().admin('PUT', `/api/admin/calendar-settings/${keyless.body.id}/activate`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain('"webhook_signing_key"');
    const { db, t } = ctx().database;
    await db.update(t.calendarSettings).set({ isActive: false });
    await db.update(t.calendarSettings).set({ isActive: true }).where(eq(t.calendarSettings.id, keyless.body.id));
    const before = await everything(ctx());
    const res = await deliver(ctx(), inviteeCreated());
    expect(res.status).toBe(401);
    expect(res.body.error).toContain('webhook_signing_key');
    expect(await everything(ctx())).toEqual(before);
  });
});
