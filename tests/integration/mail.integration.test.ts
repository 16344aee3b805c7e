/**
 * Email that is sent, on SQLite and PostgreSQL, against real peers started here: an SMTP
 * server (smtp-server, login required, messages parsed with postal-mime) and a SendGrid v3 receiver
 * (node:http). Nothing runs by itself: the test books, writes, moves the clock and runs the
 * deliveries and the reminder scan when it wants them.
 */
import ICAL from 'ical.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { IntegrationSettings } from '../../api/deps.ts';
import { manageToken } from '../../api/appointments/manage-link.ts';
import { appointmentsService } from '../../api/appointments/appointments.service.ts';
import { RETRY_DELAYS_MS } from '../../api/deliveries/deliveries.ts';
import type { Logger } from '../../api/logger.ts';
import { scanReminders } from '../../api/mail/mail.ts';
import { bookings, NOW } from '../support/appointment-requests.ts';
import { startSendgridReceiver, startSmtpPeer, type HttpReceiver, type ReceivedMail, type SmtpPeer } from '../support/mail-peers.ts';
import { forEachDialect, NON_ADMIN_TOKEN, type TestContext } from '../support/test-app.ts';

const FIRM_INBOX = 'intake@firm.example';
const HOUR = 3_600_000;

let smtp: SmtpPeer;
let sendgrid: HttpReceiver;
/** Read when each dialect's context is made, after the receiver has started (beforeAll order). */
const integrations: Partial<IntegrationSettings> = { firmNotificationEmail: FIRM_INBOX, siteUrl: 'https://www.example-firm.com' };

beforeAll(async () => {
  smtp = await startSmtpPeer();
  sendgrid = await startSendgridReceiver();
  integrations.sendgridApiBase = `${sendgrid.url}/sendgrid`;
});
afterAll(async () => {
  await smtp?.close();
  await sendgrid?.close();
});

const SENDGRID_KEY = 'SG.test-sendgrid-key-abcdefghijklmnop';

const smtpConfig = (pass = smtp.pass) =>
  JSON.stringify({
    host: '127.0.0.1',
    port: smtp.port,
    secure: false,
    auth: { user: smtp.user, pass },
    from_email: 'office@firm.example',
    from_name: 'Pacific Crest Law Group',
  });

async function configure(ctx: TestContext, provider: 'smtp' | 'sendgrid', config: string) {
  const res = await ctx.admin('POST', '/api/admin/email-settings', { provider, isActive: true, config });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}
const configureSmtp = (ctx: TestContext, pass?: string) => configure(ctx, 'smtp', smtpConfig(pass));
const configureSendgrid = (ctx: TestContext) =>
  configure(ctx, 'sendgrid', JSON.stringify({ api_key: SENDGRID_KEY, from_email: 'office@firm.example', from_name: 'Pacific Crest Law Group' }));

/**
 * A weekday 10:00 AM slot of its own for each booking, from Monday 6 May 2030 on, by a visitor of its
 * own ('visitor<n>@example.com', 'Lopez <n>'), whose notes need escaping in HTML.
 */
let visitors = 0;
const { freeSlot, book } = bookings('2030-05-06', {
  times: ['10:00'],
  body: () => ({ email: `visitor${++visitors}@example.com`, lastName: `Lopez ${visitors}`, notes: 'Questions about my late father’s trust & the house.' }),
});

async function deliveriesOf(ctx: TestContext, appointmentId: string) {
  const res = await ctx.admin('GET', `/api/admin/deliveries?appointmentId=${appointmentId}`);
  expect(res.status).toBe(200);
  return res.body as { purpose: string; status: string; attempts: number; lastError: string | null; recipient: string | null }[];
}

async function storedDeliveries(ctx: TestContext, appointmentId: string) {
  const { db, t } = ctx.database;
  return db.select().from(t.deliveries).where(eq(t.deliveries.appointmentId, appointmentId));
}

function calendarOf(mail: ReceivedMail) {
  const ics = mail.parsed.attachments.filter((a) => a.mimeType === 'text/calendar');
  expect(ics, 'one text/calendar attachment').toHaveLength(1);
  return parseIcs(ics[0]!.content as string, ics[0]!.filename);
}

/** ical.js reads the file, with the file's own VTIMEZONE registered. */
function parseIcs(text: string, filename: string | null = null) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const vtimezone = calendar.getFirstSubcomponent('vtimezone');
  expect(vtimezone, 'a VTIMEZONE').not.toBeNull();
  ICAL.TimezoneService.reset();
  ICAL.TimezoneService.register(new ICAL.Timezone(vtimezone!));
  const vevent = calendar.getFirstSubcomponent('vevent')!;
  const event = new ICAL.Event(vevent);
  return {
    filename,
    text,
    method: calendar.getFirstPropertyValue('method'),
    uid: event.uid,
    sequence: event.sequence,
    status: vevent.getFirstPropertyValue('status'),
    tzid: vevent.getFirstProperty('dtstart')!.getParameter('tzid'),
    start: event.startDate.toJSDate(),
    end: event.endDate.toJSDate(),
  };
}

const subjects = (mails: ReceivedMail[]) => mails.map((m) => m.parsed.subject);

/** What the Calendly webhook stores (api/calendar-sync/calendly.ts), with its deliveries: 'Cal <lastName>' at the next free slot. */
async function calendlyBooking(ctx: TestContext, lastName: string, externalEventId: string) {
  const start = new Date(freeSlot());
  const { row } = await appointmentsService(ctx.deps).recordExternalBooking({
    firstName: 'Cal',
    lastName,
    email: `cal.${lastName.toLowerCase()}@example.com`,
    phone: null,
    consultationType: 'initial',
    practiceArea: 'other',
    notes: null,
    scheduledDate: start,
    duration: 30,
    status: 'scheduled',
    reminderSent: false,
    externalEventId,
  });
  return { row, start };
}

forEachDialect(
  'e-mail',
  (ctx) => {
    beforeEach(async () => {
      const { db, t } = ctx().database;
      await db.delete(t.deliveries);
      await db.delete(t.emailSettings);
      ctx().clock.set(NOW);
      smtp.reset();
      sendgrid.reset();
    });

    it('sends the visitor a confirmation with a valid .ics in firm time, and the firm its notification, through SMTP', async () => {
      await configureSmtp(ctx());
      // The Monday after daylight time ends: 9:00 AM PST is 17:00 UTC.
      const booked = await book(ctx(), { scheduledDate: '2030-11-04T09:00:00-08:00', consultationType: 'family-law' });
      expect(booked.scheduledDate).toBe('2030-11-04T17:00:00.000Z');
      expect(smtp.messages).toEqual([]); // queued, not sent during the request

      expect(await ctx().background.runDeliveries()).toBe(2);
      const [confirmation, ...moreToVisitor] = smtp.to(booked.email);
      expect(moreToVisitor).toEqual([]);
      expect(confirmation!.user).toBe(smtp.user);
      expect(confirmation!.parsed.from).toMatchObject({ address: 'office@firm.example', name: 'Pacific Crest Law Group' });
      expect(confirmation!.parsed.subject).toBe('Your consultation with Pacific Crest Law Group: Monday, November 4, 2030 at 9:00 AM Pacific Time (San Diego)');
      const text = confirmation!.parsed.text!;
      for (const part of [
        'Family Law Consultation',
        'Monday, November 4, 2030',
        '9:00 AM Pacific Time (San Diego)',
        '45 minutes',
        '600 West Broadway, Suite 1200, San Diego, CA 92101',
        '(619) 555-0123',
        'does not create an attorney-client relationship',
      ]) {
        expect(text).toContain(part);
      }
      expect(confirmation!.parsed.html).toContain('9:00 AM Pacific Time (San Diego)');

      const ics = calendarOf(confirmation!);
      expect(ics.filename).toBe('consultation.ics');
      expect(ics.method).toBe('REQUEST');
      expect(ics.tzid).toBe('America/Los_Angeles');
      expect(ics.text).toContain('DTSTART;TZID=America/Los_Angeles:20301104T090000');
      expect(ics.start.toISOString()).toBe(booked.scheduledDate);
      expect(ics.end.getTime() - ics.start.getTime()).toBe(45 * 60_000);
      expect(ics.uid).toContain(booked.id);

      const [notification, ...moreToFirm] = smtp.to(FIRM_INBOX);
      expect(moreToFirm).toEqual([]);
      const firmText = notification!.parsed.text!;
      for (const part of [
        `Maria ${booked.lastName}`,
        booked.email,
        '(619) 555-0142',
        'Family Law Consultation (45 minutes)',
        '9:00 AM Pacific Time (San Diego)',
        'Trust Administration',
        'Questions about my late father’s trust & the house.',
        'https://www.example-firm.com/admin/appointments',
      ]) {
        expect(firmText).toContain(part);
      }
      expect(notification!.parsed.html).toContain('trust &amp; the house');
      expect(notification!.parsed.replyTo?.[0]).toMatchObject({ address: booked.email });

      // Recorded as sent, with the Message-ID the SMTP client used; a second run sends nothing again.
      const log = await deliveriesOf(ctx(), booked.id);
      expect(log.map((d) => [d.purpose, d.status, d.attempts]).sort()).toEqual([
        ['booking-confirmation', 'sent', 1],
        ['booking-notification', 'sent', 1],
      ]);
      const stored = await storedDeliveries(ctx(), booked.id);
      const confirmationRow = stored.find((d) => d.purpose === 'booking-confirmation')!;
      expect(confirmationRow.externalRef).toBe(confirmation!.parsed.messageId);
      expect(await ctx().background.runDeliveries()).toBe(0);
      expect(smtp.messages).toHaveLength(2);
    });

    it('gives the firm a notification of each contact message', async () => {
      await configureSmtp(ctx());
      const res = await ctx().call('POST', '/api/contact', {
        body: {
          firstName: 'Ana',
          lastName: 'Ruiz',
          email: 'ana.ruiz@example.com',
          phone: '',
          practiceArea: 'estate-planning',
          message: 'I would like a living trust.\nPlease call me.',
        },
      });
      expect(res.status).toBe(201);
      expect(await ctx().background.runDeliveries()).toBe(1);
      expect(smtp.messages).toHaveLength(1);
      const [mail] = smtp.to(FIRM_INBOX);
      expect(mail!.parsed.subject).toBe('New contact message: Ana Ruiz (Estate Planning)');
      for (const part of [
        'Ana Ruiz',
        'ana.ruiz@example.com',
        'I would like a living trust.',
        'Please call me.',
        'https://www.example-firm.com/admin/contact-submissions',
      ]) {
        expect(mail!.parsed.text).toContain(part);
      }
      expect(mail!.parsed.replyTo?.[0]).toMatchObject({ address: 'ana.ruiz@example.com' });
    });

    it('sends exactly one reminder about 24 hours before, with the invitation, however often and however many scan', async () => {
      await configureSmtp(ctx());
      const booked = await book(ctx());
      await ctx().background.runDeliveries();
      expect(await ctx().background.scanReminders()).toBe(0); // weeks ahead: not yet

      ctx().clock.set(new Date(Date.parse(booked.scheduledDate) - 25 * HOUR));
      expect(await ctx().background.scanReminders()).toBe(0); // 25 hours ahead: not yet

      ctx().clock.set(new Date(Date.parse(booked.scheduledDate) - 23 * HOUR));
      // Two servers scanning at the same moment queue it once between them.
      const counts = await Promise.all([scanReminders(ctx().deps), ctx().background.scanReminders()]);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
      expect(await ctx().background.runDeliveries()).toBe(1);
      expect(await ctx().background.scanReminders()).toBe(0);
      expect(await ctx().background.runDeliveries()).toBe(0);
      ctx().clock.set(new Date(Date.parse(booked.scheduledDate) - 1 * HOUR));
      expect(await ctx().background.scanReminders()).toBe(0);
      expect(await ctx().background.runDeliveries()).toBe(0);

      const toVisitor = smtp.to(booked.email);
      const reminders = toVisitor.filter((m) => m.parsed.subject?.startsWith('Reminder'));
      expect(reminders).toHaveLength(1);
      expect(reminders[0]!.parsed.subject).toBe('Reminder: your consultation tomorrow at 10:00 AM Pacific Time (San Diego)');
      const ics = calendarOf(reminders[0]!);
      expect(ics.start.toISOString()).toBe(booked.scheduledDate);
      expect(ics.uid).toBe(calendarOf(toVisitor.find((m) => m.parsed.subject?.startsWith('Your consultation'))!).uid);

      const { db, t } = ctx().database;
      const [row] = await db.select().from(t.appointments).where(eq(t.appointments.id, booked.id));
      expect(row!.reminderSent).toBe(true);
      expect((await deliveriesOf(ctx(), booked.id)).filter((d) => d.purpose === 'reminder').map((d) => d.status)).toEqual(['sent']);
    });

    it('sends no reminder for a consultation booked less than 26 hours ahead (the confirmation just went out)', async () => {
      await configureSmtp(ctx());
      const start = new Date(freeSlot());
      ctx().clock.set(new Date(start.getTime() - 25 * HOUR));
      const booked = await book(ctx(), { scheduledDate: start.toISOString() });
      await ctx().background.runDeliveries();
      ctx().clock.set(new Date(start.getTime() - 23 * HOUR));
      expect(await ctx().background.scanReminders()).toBe(0);
      await ctx().background.runDeliveries();
      expect(subjects(smtp.to(booked.email))).toEqual([expect.stringMatching(/^Your consultation/)]);
    });

    it('never reminds about a consultation cancelled before the scan, and tells the visitor it is cancelled, with METHOD:CANCEL', async () => {
      await configureSmtp(ctx());
      const booked = await book(ctx());
      await ctx().background.runDeliveries();
      const cancel = await ctx().admin('PUT', `/api/admin/appointments/${booked.id}`, { status: 'cancelled' });
      expect(cancel.status).toBe(200);
      expect(await ctx().background.runDeliveries()).toBe(1);

      ctx().clock.set(new Date(Date.parse(booked.scheduledDate) - 23 * HOUR));
      expect(await ctx().background.scanReminders()).toBe(0);
      expect(await ctx().background.runDeliveries()).toBe(0);

      const toVisitor = smtp.to(booked.email);
      expect(subjects(toVisitor)).toEqual([expect.stringMatching(/^Your consultation/), expect.stringMatching(/^Cancelled: your consultation/)]);
      const invitation = calendarOf(toVisitor[0]!);
      const cancellation = calendarOf(toVisitor[1]!);
      expect(cancellation.method).toBe('CANCEL');
      expect(cancellation.status).toBe('CANCELLED');
      expect(cancellation.uid).toBe(invitation.uid);
      expect(cancellation.sequence).toBeGreaterThan(invitation.sequence);
      expect(cancellation.start.toISOString()).toBe(booked.scheduledDate);
    });

    it('tells the visitor when the firm confirms (updating their calendar event) or deletes a consultation still to come; nothing for one already over or cancelled', async () => {
      await configureSmtp(ctx());
      const confirmed = await book(ctx());
      const deleted = await book(ctx());
      const cancelledThenDeleted = await book(ctx());
      await ctx().background.runDeliveries();
      expect((await ctx().admin('PUT', `/api/admin/appointments/${confirmed.id}`, { status: 'confirmed' })).status).toBe(200);
      // Confirming again changes nothing and sends nothing more.
      expect((await ctx().admin('PUT', `/api/admin/appointments/${confirmed.id}`, { status: 'confirmed' })).status).toBe(200);
      expect((await ctx().admin('DELETE', `/api/admin/appointments/${deleted.id}`)).status).toBe(204);
      expect((await ctx().admin('PUT', `/api/admin/appointments/${cancelledThenDeleted.id}`, { status: 'cancelled' })).status).toBe(200);
      expect((await ctx().admin('DELETE', `/api/admin/appointments/${cancelledThenDeleted.id}`)).status).toBe(204);
      await ctx().background.runDeliveries();

      const [invitation, confirmation] = smtp.to(confirmed.email);
      expect(subjects([invitation!, confirmation!])).toEqual([
        expect.stringMatching(/^Your consultation/),
        expect.stringMatching(/^Confirmed: your consultation on /),
      ]);
      expect(smtp.to(confirmed.email)).toHaveLength(2);
      expect(confirmation!.parsed.text).toContain('has confirmed your consultation');
      const updated = calendarOf(confirmation!);
      expect(updated.method).toBe('REQUEST');
      expect(updated.uid).toBe(calendarOf(invitation!).uid);
      expect(updated.sequence).toBeGreaterThan(calendarOf(invitation!).sequence);
      expect(updated.start.toISOString()).toBe(confirmed.scheduledDate);

      // Deleted while still to come: cancelled for the visitor, with the CANCEL that removes it from their calendar.
      expect(subjects(smtp.to(deleted.email))).toEqual([expect.stringMatching(/^Your consultation/), expect.stringMatching(/^Cancelled: your consultation/)]);
      expect(calendarOf(smtp.to(deleted.email)[1]!).method).toBe('CANCEL');
      // Cancelled, then deleted: one cancellation, not two.
      expect(subjects(smtp.to(cancelledThenDeleted.email))).toEqual([expect.stringMatching(/^Your consultation/), expect.stringMatching(/^Cancelled/)]);

      // Over, then deleted: nothing.
      const over = await book(ctx());
      await ctx().background.runDeliveries();
      ctx().clock.set(new Date(Date.parse(over.scheduledDate) + 2 * HOUR));
      expect((await ctx().admin('DELETE', `/api/admin/appointments/${over.id}`)).status).toBe(204);
      await ctx().background.runDeliveries();
      expect(subjects(smtp.to(over.email))).toEqual([expect.stringMatching(/^Your consultation/)]);
    });

    it('a cancellation with a reason tells it to the visitor, and stores it; a reason without a cancellation is refused', async () => {
      await configureSmtp(ctx());
      const booked = await book(ctx());
      await ctx().background.runDeliveries();
      const refused = await ctx().admin('PUT', `/api/admin/appointments/${booked.id}`, { status: 'confirmed', reason: 'No reason needed' });
      expect(refused).toMatchObject({ status: 400, body: { fields: { reason: 'A reason goes with a cancellation only' } } });
      const tooLong = await ctx().admin('PUT', `/api/admin/appointments/${booked.id}`, { status: 'cancelled', reason: 'x'.repeat(501) });
      expect(tooLong).toMatchObject({ status: 400, body: { fields: { reason: 'Reason must be at most 500 characters' } } });
      expect((await storedDeliveries(ctx(), booked.id)).map((d) => d.purpose).sort()).toEqual(['booking-confirmation', 'booking-notification']);

      const reason = 'The attorney is in court that morning & we would like to offer you another time.';
      const cancelled = await ctx().admin('PUT', `/api/admin/appointments/${booked.id}`, { status: 'cancelled', reason: `  ${reason} ` });
      expect(cancelled).toMatchObject({ status: 200, body: { status: 'cancelled', cancellationReason: reason } });
      await ctx().background.runDeliveries();
      const [, cancellation] = smtp.to(booked.email);
      expect(cancellation!.parsed.subject).toMatch(/^Cancelled: /);
      expect(cancellation!.parsed.text).toContain(`Reason: ${reason}`);
      expect(cancellation!.parsed.html).toContain('The attorney is in court that morning &amp; we would like');
    });

    it('a confirmation is true when it goes: one per time (confirmed again after a move), none when no longer confirmed; a Calendly booking deleted here e-mails nothing', async () => {
      await configureSmtp(ctx());
      const booked = await book(ctx());
      await ctx().background.runDeliveries();
      const confirm = () => ctx().admin('PUT', `/api/admin/appointments/${booked.id}`, { status: 'confirmed' });
      expect((await confirm()).status).toBe(200);
      await ctx().background.runDeliveries();
      // The visitor moves it through their booking's link (scheduled again), and the firm confirms again.
      const later = new Date(freeSlot());
      const moved = await ctx().call('POST', '/api/appointments/manage/reschedule', {
        body: { scheduledDate: later.toISOString() },
        headers: { 'X-Booking-Token': manageToken(ctx().deps.secrets, booked.id) },
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect((await confirm()).status).toBe(200);
      await ctx().background.runDeliveries();
      const confirmations = smtp.to(booked.email).filter((m) => m.parsed.subject?.startsWith('Confirmed:'));
      expect(confirmations.map((m) => calendarOf(m).start.toISOString())).toEqual([booked.scheduledDate, later.toISOString()]);

      // Held while e-mail was off, then no longer confirmed: skipped when it would have gone.
      await ctx().admin('DELETE', '/api/admin/email-settings');
      const other = await book(ctx());
      await ctx().background.runDeliveries();
      expect((await ctx().admin('PUT', `/api/admin/appointments/${other.id}`, { status: 'confirmed' })).status).toBe(200);
      await ctx().background.runDeliveries();
      expect((await ctx().admin('PUT', `/api/admin/appointments/${other.id}`, { status: 'scheduled' })).status).toBe(200);
      await configureSmtp(ctx());
      await ctx().admin('POST', '/api/admin/email-settings/send-held');
      await ctx().background.runDeliveries();
      expect(smtp.to(other.email).map((m) => m.parsed.subject?.split(':')[0])).toEqual(['Your consultation with Pacific Crest Law Group']);
      expect((await deliveriesOf(ctx(), other.id)).find((d) => d.purpose === 'confirmed')).toMatchObject({
        status: 'skipped',
        lastError: 'The appointment is no longer confirmed at that time',
      });

      // A reason sent again for one already cancelled is refused, not dropped silently.
      expect((await ctx().admin('PUT', `/api/admin/appointments/${other.id}`, { status: 'cancelled', reason: 'First' })).status).toBe(200);
      expect(await ctx().admin('PUT', `/api/admin/appointments/${other.id}`, { status: 'cancelled', reason: 'Second' })).toMatchObject({
        status: 409,
        body: { error: 'This appointment is already cancelled; its reason can no longer change.' },
      });

      // Booked through Calendly, deleted here: still booked there, so nothing is said from here.
      const { row } = await calendlyBooking(ctx(), 'Deleted', `https://api.calendly.com/scheduled_events/DEL-${ctx().dialect}/invitees/INV`);
      await ctx().background.runDeliveries();
      expect((await ctx().admin('DELETE', `/api/admin/appointments/${row!.id}`)).status).toBe(204);
      await ctx().background.runDeliveries();
      expect(smtp.to('cal.deleted@example.com')).toEqual([]);
    });

    it('identity codes (Forgot password) go by e-mail once e-mail is configured, else to the development outbox', async () => {
      const { startIdentity } = await import('../../api/identity/identity.ts');
      const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
      const identity = await startIdentity({
        env: { NODE_ENV: 'production', ADMIN_EMAILS: '@firm.example' } as Parameters<typeof startIdentity>[0]['env'],
        database: ctx().database,
        secrets: ctx().deps.secrets,
        clock: ctx().clock,
        log: quiet,
        outbox: ctx().deps.outbox,
        integrations: ctx().deps.integrations,
      });
      const service = identity.embedded!;
      const username = `reset-${ctx().dialect}`;
      const email = `${username}@firm.example`;
      const call = (action: string, body: Record<string, unknown>) =>
        service.call(action, { ClientId: identity.info.clientId, ...body }, { clientAddress: '198.51.100.9' });
      const codeIn = (text: string | undefined) => /\b(\d{6})\b/.exec(text ?? '')?.[1];
      // Not configured: the sign-up code is kept in the outbox.
      expect(
        (await call('SignUp', { Username: username, Password: 'Harbor-Lantern-Quiet-42', UserAttributes: [{ Name: 'email', Value: email }] })).status,
      ).toBe(200);
      // Kept a moment later: the code is sent after the answer (every username answers alike).
      const keptFor = async () => (await ctx().deps.outbox.list()).filter((m) => m.to === email);
      await expect.poll(async () => (await keptFor()).length).toBe(1);
      const kept = await keptFor();
      expect((await call('ConfirmSignUp', { Username: username, ConfirmationCode: codeIn(kept[0]!.text) })).status).toBe(200);
      // Configured: the reset code is e-mailed (and not kept).
      await configureSmtp(ctx());
      expect((await call('ForgotPassword', { Username: username })).status).toBe(200);
      await expect.poll(() => smtp.to(email).length).toBe(1);
      expect(smtp.to(email)[0]!.parsed.subject).toBe('Your password reset code');
      expect(codeIn(smtp.to(email)[0]!.parsed.text)).toMatch(/^\d{6}$/);
      expect(await keptFor()).toHaveLength(1);
    });

    it('an admin invitation goes by the same path as identity codes: held in the outbox, then e-mailed once configured', async () => {
      const { startIdentity } = await import('../../api/identity/identity.ts');
      const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
      const identity = await startIdentity({
        env: { NODE_ENV: 'production', ADMIN_EMAILS: '' } as Parameters<typeof startIdentity>[0]['env'],
        database: ctx().database,
        secrets: ctx().deps.secrets,
        clock: ctx().clock,
        log: quiet,
        outbox: ctx().deps.outbox,
        integrations: ctx().deps.integrations,
      });
      const invitations = identity.admins.invitations!;
      const held = `held-${ctx().dialect}@colleagues.example`;
      const first = await invitations.create({ email: held, invitedBy: 'ana.partner' });
      expect(first).toMatchObject({ outcome: 'invited', delivered: 'held' });
      const kept = (await ctx().deps.outbox.list()).filter((m) => m.to === held);
      expect(kept).toHaveLength(1);
      expect(kept[0]!.text).toContain(first.outcome === 'invited' ? first.link : 'no link');
      await configureSmtp(ctx());
      const mailed = `mailed-${ctx().dialect}@colleagues.example`;
      const second = await invitations.create({ email: mailed, invitedBy: 'ana.partner' });
      expect(second).toMatchObject({ outcome: 'invited', delivered: 'sent' });
      await expect.poll(() => smtp.to(mailed).length).toBe(1);
      expect(smtp.to(mailed)[0]!.parsed.subject).toBe("You are invited to be an admin of Pacific Crest Law Group's website");
      expect(smtp.to(mailed)[0]!.parsed.text).toContain(second.outcome === 'invited' ? second.link : 'no link');
      expect((await ctx().deps.outbox.list()).filter((m) => m.to === mailed)).toHaveLength(0);
    });

    it('skips a reminder queued before the cancellation: it is never sent', async () => {
      await configureSmtp(ctx());
      const booked = await book(ctx());
      await ctx().background.runDeliveries();
      ctx().clock.set(new Date(Date.parse(booked.scheduledDate) - 23 * HOUR));
      expect(await ctx().background.scanReminders()).toBe(1);
      expect((await ctx().admin('PUT', `/api/admin/appointments/${booked.id}`, { status: 'cancelled' })).status).toBe(200);
      await ctx().background.runDeliveries();

      expect(subjects(smtp.to(booked.email))).toEqual([expect.stringMatching(/^Your consultation/), expect.stringMatching(/^Cancelled/)]);
      const reminder = (await deliveriesOf(ctx(), booked.id)).find((d) => d.purpose === 'reminder')!;
      expect(reminder).toMatchObject({ status: 'skipped', lastError: 'The appointment is cancelled' });
    });

    it('skips a queued reminder when the appointment was completed or deleted meanwhile', async () => {
      await configureSmtp(ctx());
      const completed = await book(ctx());
      const deleted = await book(ctx());
      await ctx().background.runDeliveries();
      // The slots are on different weekdays: each one's reminder is queued at its own time.
      ctx().clock.set(new Date(Date.parse(completed.scheduledDate) - 23 * HOUR));
      expect(await ctx().background.scanReminders()).toBe(1);
      ctx().clock.set(new Date(Date.parse(deleted.scheduledDate) - 23 * HOUR));
      expect(await ctx().background.scanReminders()).toBe(1);
      expect((await ctx().admin('PUT', `/api/admin/appointments/${completed.id}`, { status: 'completed' })).status).toBe(200);
      expect((await ctx().admin('DELETE', `/api/admin/appointments/${deleted.id}`)).status).toBe(204);
      await ctx().background.runDeliveries();

      expect(smtp.messages.filter((m) => m.parsed.subject?.startsWith('Reminder'))).toEqual([]);
      expect((await deliveriesOf(ctx(), completed.id)).find((d) => d.purpose === 'reminder')).toMatchObject({
        status: 'skipped',
        lastError: 'The appointment is completed',
      });
      expect((await deliveriesOf(ctx(), deleted.id)).find((d) => d.purpose === 'reminder')).toMatchObject({
        status: 'skipped',
        lastError: 'The appointment was deleted',
      });
    });

    it('for a booking made through Calendly, tells the firm but leaves the confirmation and reminder to Calendly', async () => {
      await configureSmtp(ctx());
      // What the Calendly webhook stores, with its deliveries (api/calendar-sync/calendly.ts).
      const { row, start } = await calendlyBooking(ctx(), 'Invitee', 'https://api.calendly.com/scheduled_events/EV1/invitees/INV1');
      await ctx().background.runDeliveries();
      expect(smtp.to('cal.invitee@example.com')).toEqual([]);
      expect(subjects(smtp.to(FIRM_INBOX))).toEqual([expect.stringMatching(/^New consultation: Cal Invitee/)]);

      ctx().clock.set(new Date(start.getTime() - 23 * HOUR));
      expect(await ctx().background.scanReminders()).toBe(0);

      // Cancelled here (Calendly does not hear of it): the visitor is told, without a calendar file
      // for an event we never sent.
      expect((await ctx().admin('PUT', `/api/admin/appointments/${row!.id}`, { status: 'cancelled' })).status).toBe(200);
      await ctx().background.runDeliveries();
      const [notice, ...more] = smtp.to('cal.invitee@example.com');
      expect(more).toEqual([]);
      expect(notice!.parsed.subject).toMatch(/^Cancelled: your consultation/);
      expect(notice!.parsed.attachments).toEqual([]);
    });

    it('fails for good, and says what to fix, when the saved configuration cannot be used', async () => {
      await configure(ctx(), 'smtp', JSON.stringify({ port: 587, auth: { user: 'office@firm.example', pass: 'unused-secret-value' } }));
      const booked = await book(ctx());
      await ctx().background.runDeliveries();
      const confirmation = (await deliveriesOf(ctx(), booked.id)).find((d) => d.purpose === 'booking-confirmation')!;
      expect(confirmation).toMatchObject({ status: 'failed', attempts: 1 });
      expect(confirmation.lastError).toMatch(/smtp email configuration is not valid \(host: is required\)/);
      expect(confirmation.lastError).not.toContain('unused-secret-value');
      expect(smtp.messages).toEqual([]);
    });

    it('retries a message the SMTP server refused once, after the backoff, and records the failure meanwhile', async () => {
      await configureSmtp(ctx());
      smtp.refuseNext(1, 451, 'Mailbox busy, try again later');
      const booked = await book(ctx());
      await ctx().background.runDeliveries();
      expect(smtp.refusals).toEqual(['data 451']);
      expect(smtp.messages).toEqual([]);

      const failed = (await deliveriesOf(ctx(), booked.id)).find((d) => d.purpose === 'booking-confirmation')!;
      expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
      expect(failed.lastError).toContain('451');
      expect(failed.lastError).toContain('Mailbox busy');

      // Not before the backoff.
      ctx().clock.set(new Date(Date.parse(NOW) + RETRY_DELAYS_MS[0] - 1000));
      await ctx().background.runDeliveries();
      expect(smtp.messages).toEqual([]);

      ctx().clock.set(new Date(Date.parse(NOW) + RETRY_DELAYS_MS[0]));
      await ctx().background.runDeliveries();
      expect(subjects(smtp.to(booked.email))).toEqual([expect.stringMatching(/^Your consultation/)]);
      expect(smtp.to(FIRM_INBOX)).toHaveLength(1);
      const log = await deliveriesOf(ctx(), booked.id);
      expect(log.find((d) => d.purpose === 'booking-confirmation')).toMatchObject({ status: 'sent', attempts: 2 });
    });

    it('fails for good with a wrong SMTP password, without retrying, and the booking still succeeds', async () => {
      const wrong = 'wrong-password-9876543210';
      await configureSmtp(ctx(), wrong);
      const booked = await book(ctx()); // book() asserts the 201
      await ctx().background.runDeliveries();
      expect(smtp.messages).toEqual([]);
      expect(smtp.refusals.filter((r) => r === 'auth').length).toBeGreaterThanOrEqual(1);

      const log = await deliveriesOf(ctx(), booked.id);
      expect(log.map((d) => [d.purpose, d.status, d.attempts]).sort()).toEqual([
        ['booking-confirmation', 'failed', 1],
        ['booking-notification', 'failed', 1],
      ]);
      for (const d of log) {
        expect(d.lastError).toMatch(/refused the login/);
        expect(d.lastError).toContain('535');
        expect(d.lastError).not.toContain(wrong);
      }
      // Failed stays failed: a later run tries nothing.
      ctx().clock.set(new Date(Date.parse(NOW) + 24 * HOUR));
      await ctx().background.runDeliveries();
      expect(smtp.refusals.filter((r) => r === 'auth')).toHaveLength(log.length);
      expect(JSON.stringify(await ctx().admin('GET', '/api/admin/deliveries'))).not.toContain(wrong);
    });

    it('sends through the SendGrid API with the key as a Bearer token and the .ics as a base64 attachment', async () => {
      await configureSendgrid(ctx());
      const booked = await book(ctx());
      expect(await ctx().background.runDeliveries()).toBe(2);
      expect(sendgrid.requests).toHaveLength(2);
      for (const req of sendgrid.requests) {
        expect(req.method).toBe('POST');
        expect(req.url).toBe('/sendgrid/v3/mail/send');
        expect(req.headers.authorization).toBe(`Bearer ${SENDGRID_KEY}`);
        expect(req.headers['content-type']).toBe('application/json');
      }
      const bodies = sendgrid.requests.map((r) => r.json());
      const confirmation = bodies.find((b) => b.personalizations[0].to[0].email === booked.email)!;
      expect(confirmation).toMatchObject({
        personalizations: [{ to: [{ email: booked.email, name: `Maria ${booked.lastName}` }] }],
        from: { email: 'office@firm.example', name: 'Pacific Crest Law Group' },
        subject: expect.stringMatching(/^Your consultation with Pacific Crest Law Group: /),
        content: [
          { type: 'text/plain', value: expect.stringContaining('10:00 AM Pacific Time (San Diego)') },
          { type: 'text/html', value: expect.stringContaining('10:00 AM Pacific Time (San Diego)') },
        ],
        attachments: [
          { filename: 'consultation.ics', type: 'text/calendar; charset=utf-8; method=REQUEST', disposition: 'attachment', content: expect.any(String) },
        ],
      });
      const ics = parseIcs(Buffer.from(confirmation.attachments[0].content, 'base64').toString('utf8'));
      expect(ics.tzid).toBe('America/Los_Angeles');
      expect(ics.start.toISOString()).toBe(booked.scheduledDate);
      const notification = bodies.find((b) => b.personalizations[0].to[0].email === FIRM_INBOX)!;
      expect(notification.content[0].value).toContain(booked.email);
      expect(notification.reply_to).toMatchObject({ email: booked.email });
      expect(notification.attachments).toBeUndefined();

      // SendGrid's X-Message-Id is kept as the delivery's reference.
      const refs = (await storedDeliveries(ctx(), booked.id)).map((d) => d.externalRef).sort();
      expect(refs).toEqual([expect.stringMatching(/^sg-message-\d+$/), expect.stringMatching(/^sg-message-\d+$/)]);
    });

    it('retries after SendGrid answers 500, and a refused key fails at once', async () => {
      await configureSendgrid(ctx());
      sendgrid.failNext(1, 500);
      const res = await ctx().call('POST', '/api/contact', {
        body: { firstName: 'Ana', lastName: 'Ruiz', email: 'ana.ruiz@example.com', practiceArea: 'family-law', message: 'Custody question.' },
      });
      expect(res.status).toBe(201);
      await ctx().background.runDeliveries();
      expect(sendgrid.requests).toHaveLength(1);
      const { db, t } = ctx().database;
      const [pending] = await db.select().from(t.deliveries).where(eq(t.deliveries.purpose, 'contact-notification'));
      expect(pending).toMatchObject({ status: 'pending', attempts: 1, lastError: expect.stringContaining('SendGrid answered 500') });

      ctx().clock.set(new Date(Date.parse(NOW) + RETRY_DELAYS_MS[0]));
      await ctx().background.runDeliveries();
      expect(sendgrid.requests).toHaveLength(2);
      expect(sendgrid.requests[1]!.body).toBe(sendgrid.requests[0]!.body);
      const [sent] = await db.select().from(t.deliveries).where(eq(t.deliveries.id, pending!.id));
      expect(sent).toMatchObject({ status: 'sent', attempts: 2, externalRef: 'sg-message-1' });

      sendgrid.failNext(1, 401, JSON.stringify({ errors: [{ message: 'The provided authorization grant is invalid, expired, or revoked', field: null }] }));
      const booked = await book(ctx());
      await ctx().background.runDeliveries();
      const log = await deliveriesOf(ctx(), booked.id);
      const confirmation = log.find((d) => d.purpose === 'booking-confirmation')!;
      expect(confirmation).toMatchObject({ status: 'failed', attempts: 1 });
      expect(confirmation.lastError).toMatch(/SendGrid refused the API key \(401\)/);
      expect(confirmation.lastError).not.toContain(SENDGRID_KEY);
    });

    it('keeps mail in the development outbox when no email setting exists, and shows it to the admin, newest first', async () => {
      const lines: { msg: string; fields?: Record<string, unknown> }[] = [];
      const quiet = ctx().deps.log;
      const recording: Logger = {
        info: (msg, fields) => lines.push({ msg, fields }),
        warn: (msg, fields) => lines.push({ msg, fields }),
        error: (msg, fields) => lines.push({ msg, fields }),
      };
      ctx().deps.log = recording;
      try {
        const booked = await book(ctx());
        expect(await ctx().background.runDeliveries()).toBe(2);
        expect(smtp.messages).toEqual([]);
        expect(sendgrid.requests).toEqual([]);

        // Held, never "sent" (issue 19): the log says so, with no time of sending.
        const stored = await storedDeliveries(ctx(), booked.id);
        expect(stored.map((d) => [d.status, d.externalRef, d.sentAt])).toEqual([
          ['held', 'outbox', null],
          ['held', 'outbox', null],
        ]);
        expect((await deliveriesOf(ctx(), booked.id)).map((d) => d.status)).toEqual(['held', 'held']);
        const kept = lines.filter((l) => l.msg.includes('development outbox'));
        expect(kept).toHaveLength(2);
        const logged = JSON.stringify(lines);
        for (const personal of [booked.email, booked.lastName, 'Maria']) expect(logged).not.toContain(personal);

        const res = await ctx().admin('GET', '/api/admin/email-outbox');
        expect(res.status).toBe(200);
        const [newest, previous] = res.body as {
          id: string;
          to: string;
          subject: string;
          text: string;
          createdAt: string;
          attachments: { filename: string; contentType: string }[];
        }[];
        expect(newest).toMatchObject({ to: FIRM_INBOX, subject: expect.stringMatching(/^New consultation: /), attachments: [] });
        expect(previous).toMatchObject({
          id: expect.any(String),
          to: booked.email,
          subject: expect.stringMatching(/^Your consultation/),
          text: expect.stringContaining('10:00 AM Pacific Time (San Diego)'),
          createdAt: expect.any(String),
          attachments: [{ filename: 'consultation.ics', contentType: 'text/calendar; charset=utf-8; method=REQUEST' }],
        });
        expect(Object.keys(previous!).sort()).toEqual(['attachments', 'createdAt', 'id', 'subject', 'text', 'to']);
        // The held copy keeps the calendar itself, for a developer to open.
        const file = (await ctx().deps.outbox.list()).find((m) => m.id === previous!.id)!;
        expect(parseIcs(file.attachments![0]!.content).start.toISOString()).toBe(booked.scheduledDate);
      } finally {
        ctx().deps.log = quiet;
      }
    });

    it('Send held messages: refused while e-mail is not configured; once it is, each held message goes once, in order, and a confirmation of a consultation already begun is skipped', async () => {
      const first = await book(ctx());
      const second = await book(ctx());
      expect(Date.parse(second.scheduledDate)).toBeGreaterThan(Date.parse(first.scheduledDate));
      const contact = await ctx().call('POST', '/api/contact', {
        body: {
          firstName: 'Ana',
          lastName: 'Held',
          email: 'ana.held@example.com',
          phone: '',
          practiceArea: 'estate-planning',
          message: 'Please call me about a trust.',
        },
      });
      expect(contact.status, JSON.stringify(contact.body)).toBe(201);
      expect(await ctx().background.runDeliveries()).toBe(5);
      const attention = async () => (await ctx().admin('GET', '/api/admin/deliveries/attention')).body;
      expect(await attention()).toMatchObject({ held: { email: 5, calendar: 0 }, failed: { email: 0, calendar: 0 } });

      // Not configured: refused, and nothing changes (they would only be held again).
      const refused = await ctx().admin('POST', '/api/admin/email-settings/send-held');
      expect(refused).toMatchObject({ status: 409, body: { error: 'E-mail is not configured: configure it first.' } });
      expect((await attention()).held.email).toBe(5);

      // Configured a while later: the first consultation has begun meanwhile, the second has not.
      ctx().clock.set(new Date(Date.parse(first.scheduledDate) + 60_000));
      await configureSmtp(ctx());
      const queued = await ctx().admin('POST', '/api/admin/email-settings/send-held');
      expect(queued).toMatchObject({ status: 200, body: { queued: 5 } });
      expect((await ctx().admin('POST', '/api/admin/email-settings/send-held')).body).toEqual({ queued: 0 });
      await ctx().background.runDeliveries();
      // Sent side by side (one appointment's in order): which, not in what order across them.
      expect(smtp.messages.map((m) => `${m.envelope.to.join()} ${m.parsed.subject?.split(':')[0]}`).sort()).toEqual(
        [
          `${FIRM_INBOX} New consultation`,
          `${FIRM_INBOX} New consultation`,
          `${FIRM_INBOX} New contact message`,
          `${second.email} Your consultation with Pacific Crest Law Group`,
        ].sort(),
      );
      const [skipped] = (await deliveriesOf(ctx(), first.id)).filter((d) => d.purpose === 'booking-confirmation');
      expect(skipped).toMatchObject({ status: 'skipped', lastError: expect.stringMatching(/had already started/) });
      expect((await deliveriesOf(ctx(), second.id)).map((d) => d.status)).toEqual(['sent', 'sent']);
      expect(await attention()).toMatchObject({ held: { email: 0 } });
      await ctx().background.runDeliveries();
      expect(smtp.messages).toHaveLength(4);

      expect((await ctx().call('POST', '/api/admin/email-settings/send-held')).status).toBe(401);
      expect((await ctx().call('POST', '/api/admin/email-settings/send-held', { token: NON_ADMIN_TOKEN })).status).toBe(403);
    });

    it('held messages released with a wrong password fail, and are offered again once the setting is fixed; a test that fails says it will not be retried', async () => {
      const booked = await book(ctx());
      await ctx().background.runDeliveries();
      const attention = async () => (await ctx().admin('GET', '/api/admin/deliveries/attention')).body;
      await configureSmtp(ctx(), 'wrong-password-123456');
      expect((await ctx().admin('POST', '/api/admin/email-settings/send-held')).body).toEqual({ queued: 2 });
      await ctx().background.runDeliveries();
      expect((await deliveriesOf(ctx(), booked.id)).map((d) => d.status)).toEqual(['failed', 'failed']);
      // Never sent: still offered, and counted among the failures too.
      expect(await attention()).toMatchObject({ held: { email: 2 }, failed: { email: 2 } });

      await configureSmtp(ctx());
      expect((await ctx().admin('POST', '/api/admin/email-settings/send-held')).body).toEqual({ queued: 2 });
      await ctx().background.runDeliveries();
      expect((await deliveriesOf(ctx(), booked.id)).map((d) => d.status)).toEqual(['sent', 'sent']);
      expect(smtp.messages).toHaveLength(2);
      expect(await attention()).toMatchObject({ held: { email: 0 } });
      expect((await ctx().admin('POST', '/api/admin/email-settings/send-held')).body).toEqual({ queued: 0 });

      await configureSendgrid(ctx());
      sendgrid.failNext(1, 503, 'Service Unavailable');
      const failed = await ctx().admin('POST', '/api/admin/email-settings/test', {});
      expect(failed.status).toBe(502);
      expect(failed.body.error).toMatch(/^The test e-mail was not sent: SendGrid answered 503\./);
      expect(failed.body.error).not.toContain('try again');
    });

    it('Send test e-mail: to the signed-in admin (or the address given), through the active setting, at once; refused without one; a refusal is said, never the password', async () => {
      expect(await ctx().admin('POST', '/api/admin/email-settings/test', {})).toMatchObject({
        status: 409,
        body: { error: 'E-mail is not configured: configure it first.' },
      });
      await configureSmtp(ctx());
      expect(await ctx().admin('POST', '/api/admin/email-settings/test', {})).toMatchObject({
        status: 200,
        body: { sentTo: 'admin@example.com', provider: 'smtp' },
      });
      expect(await ctx().admin('POST', '/api/admin/email-settings/test', { to: 'partner@firm.example' })).toMatchObject({
        status: 200,
        body: { sentTo: 'partner@firm.example' },
      });
      expect(smtp.messages.map((m) => [m.envelope.to, m.parsed.subject])).toEqual([
        [['admin@example.com'], 'Test e-mail from the Pacific Crest Law Group website'],
        [['partner@firm.example'], 'Test e-mail from the Pacific Crest Law Group website'],
      ]);
      expect(smtp.messages[0]!.parsed.text).toContain('sent through SMTP');
      // Not queued: the delivery log holds only the firm's real mail.
      expect(await ctx().database.db.select().from(ctx().database.t.deliveries)).toEqual([]);

      const invalid = await ctx().admin('POST', '/api/admin/email-settings/test', { to: 'not-an-address' });
      expect(invalid).toMatchObject({ status: 400, body: { fields: { to: 'Please enter a valid email address' } } });

      await configureSmtp(ctx(), 'wrong-password-123456');
      const failed = await ctx().admin('POST', '/api/admin/email-settings/test', {});
      expect(failed.status).toBe(502);
      expect(failed.body.error).toMatch(/^The test e-mail was not sent: The SMTP server refused the login/);
      expect(JSON.stringify(failed.body)).not.toContain('wrong-password-123456');
      expect(smtp.messages).toHaveLength(2);
      expect((await ctx().call('POST', '/api/admin/email-settings/test', { body: {} })).status).toBe(401);
    });

    it('removing the email setting holds mail again; removing none is 404; the dashboard counts failures of the last 7 days', async () => {
      await configureSmtp(ctx(), 'wrong-password-123456');
      const failed = await book(ctx());
      await ctx().background.runDeliveries();
      expect((await deliveriesOf(ctx(), failed.id)).map((d) => d.status)).toEqual(['failed', 'failed']);
      const attention = async () => (await ctx().admin('GET', '/api/admin/deliveries/attention')).body;
      expect(await attention()).toMatchObject({ held: { email: 0 }, failed: { email: 2, calendar: 0 } });

      expect((await ctx().admin('DELETE', '/api/admin/email-settings')).status).toBe(204);
      expect((await ctx().admin('GET', '/api/admin/email-settings')).body).toBeNull();
      expect((await ctx().call('GET', '/api/email-settings/active')).body).toBeNull();
      const held = await book(ctx());
      await ctx().background.runDeliveries();
      expect((await deliveriesOf(ctx(), held.id)).map((d) => d.status)).toEqual(['held', 'held']);
      expect(await ctx().admin('DELETE', '/api/admin/email-settings')).toMatchObject({ status: 404, body: { error: 'No email setting is configured.' } });

      ctx().clock.set(new Date(Date.parse(NOW) + 8 * 24 * HOUR));
      expect(await attention()).toMatchObject({ held: { email: 2 }, failed: { email: 0 } });
      expect((await ctx().call('DELETE', '/api/admin/email-settings', { token: NON_ADMIN_TOKEN })).status).toBe(403);
    });

    it('lists at most 50 outbox messages, and only to admins', async () => {
      for (let i = 0; i < 55; i++) await ctx().deps.outbox.deliver({ to: `bulk${i}@example.com`, subject: `Bulk ${i}`, text: 'x' });
      const res = await ctx().admin('GET', '/api/admin/email-outbox');
      expect(res.body).toHaveLength(50);
      expect(res.body[0].subject).toBe('Bulk 54');
      expect(res.body[49].subject).toBe('Bulk 5');
      expect((await ctx().call('GET', '/api/admin/email-outbox')).status).toBe(401);
      expect((await ctx().call('GET', '/api/admin/email-outbox', { token: NON_ADMIN_TOKEN })).status).toBe(403);
    });

    it('shows the configured setting with its secrets masked, never the SMTP password or the SendGrid key', async () => {
      expect((await ctx().admin('GET', '/api/admin/email-settings')).body).toBeNull();

      await configureSmtp(ctx());
      const smtpView = await ctx().admin('GET', '/api/admin/email-settings');
      expect(smtpView.status).toBe(200);
      expect(smtpView.body).toMatchObject({ id: expect.any(String), provider: 'smtp', isActive: true });
      expect(JSON.parse(smtpView.body.config)).toEqual({
        host: '127.0.0.1',
        port: smtp.port,
        secure: false,
        auth: { user: smtp.user, pass: `••••${smtp.pass.slice(-4)}` },
        from_email: 'office@firm.example',
        from_name: 'Pacific Crest Law Group',
      });
      expect(JSON.stringify(smtpView.body)).not.toContain(smtp.pass);

      await configureSendgrid(ctx());
      const sendgridView = await ctx().admin('GET', '/api/admin/email-settings');
      expect(sendgridView.body.provider).toBe('sendgrid');
      expect(JSON.parse(sendgridView.body.config)).toEqual({
        api_key: `••••${SENDGRID_KEY.slice(-4)}`,
        from_email: 'office@firm.example',
        from_name: 'Pacific Crest Law Group',
      });
      expect(JSON.stringify(sendgridView.body)).not.toContain(SENDGRID_KEY);

      expect((await ctx().call('GET', '/api/admin/email-settings')).status).toBe(401);
      expect((await ctx().call('GET', '/api/admin/email-settings', { token: NON_ADMIN_TOKEN })).status).toBe(403);
    });
  },
  { integrations },
);
