/**
 * Done when: "Playwright in Chromium configures each integration through the page and sees
 * the effect." As the signed-in admin, each integration is set up on /admin/integrations the way an
 * admin does it (the dialog, the provider's prefilled template edited with the local peer's address
 * and credentials, Activate), then what it does is checked at the peer the spec started itself:
 *   - Email over SMTP (smtp-server): a booking made in the public modal sends the visitor a
 *     confirmation whose .ics starts at the booked firm time (read with ical.js) and the firm a
 *     notification; a contact message notifies the firm; the Email tab logs them as sent.
 *   - A custom webhook (node:http): signed appointment.created, then appointment.cancelled when the
 *     admin cancels in /admin/appointments; the card's log; the API key never shown in full.
 *   - Google Calendar and Outlook (local fakes of their token and calendar endpoints on
 *     E2E_FAKES_PORT, where playwright.config.ts points the server): token, create, update on
 *     confirm, delete on cancel; activating Outlook leaves it the only active one.
 *   - Calendly: a correctly signed invitee.created webhook becomes an appointment the admin sees; a
 *     wrongly signed one is refused (401) and creates nothing.
 *   - A blog source (the feed server): first fetch on the card, articles on /external-articles and
 *     /blog, Fetch now adds a new one once, Delete removes them from the site.
 *
 * Desktop only: the effects do not depend on the width (the page itself is tested at both widths in
 * admin-integrations.spec.ts). Both projects and every spec share one server: the email setting and
 * the active calendar integration persist after this spec (there is no delete or deactivate), so it
 * ends with Calendly active (inbound only: later bookings send nothing) and mail pointing at this
 * spec's closed SMTP server (later mail fails and is retried quietly; bookings and messages still
 * succeed, see booking.spec.ts and contact.spec.ts).
 */
import type { Locator, Page, TestInfo } from '@playwright/test';
import ICAL from 'ical.js';
import { templateText, type CalendarIntegration } from '../../src/components/admin/integrations/integrations.ts';
import { addDays, firmDateOf, firmInstant, firmTimeOf, firmToday } from '../../src/shared/firm-time.ts';
import { isBookableDay } from '../support/bookable-days.ts';
import { timeSlots } from '../../src/shared/constants.ts';
import { expect, openAdminScreen, test } from '../support/admin.ts';
import { book, freeSlot } from '../support/appointment-requests.ts';
import { bookInModal, storedByEmail, type BookingVisitor, type StoredAppointment } from '../support/booking.ts';
import { startCalendarFakes, timestampedSignature, verifyTimestampedSignature, type CalendarFakes } from '../support/calendar-fakes.ts';
import { expectNoAxeViolations, expectToast, screenshot, toasts, unique, watchConsole } from '../support/e2e.ts';
import { feedPaths, startFeedServer, type FeedServer } from '../support/feed-server.ts';
import { startSmtpPeer, type ReceivedMail, type SmtpPeer } from '../support/mail-peers.ts';

const SCREEN = '/admin/integrations';
const FIRM_INBOX = 'intake@e2e.example.com';
const FIRM_ZONE = 'America/Los_Angeles';
const fakesPort = Number(process.env.E2E_FAKES_PORT);
/** Deliveries run within about a second in the server; a busy shared machine gets more. */
const EFFECT = { timeout: 20_000 };

// ---------------------------------------------------------------------------------------------
// The integrations page

const openIntegrations = (page: Page) => openAdminScreen(page, SCREEN, 'Integrations');

async function openTab(page: Page, name: 'Calendar' | 'Email' | 'Blog Sources') {
  await page.getByRole('tab', { name, exact: true }).click();
  await expect(page.getByRole('tab', { name, exact: true })).toHaveAttribute('aria-selected', 'true');
}

const select = (scope: Locator, name: string) => scope.getByRole('combobox', { name, exact: true });
const textbox = (scope: Locator, name: string) => scope.getByRole('textbox', { name, exact: true });
const integrationCard = (page: Page, id: string) => page.locator(`[data-testid="calendar-integration"][data-integration-id="${id}"]`);
const banner = (page: Page) => page.getByTestId('active-calendar-banner');
const sourceCard = (page: Page, name: string) => page.getByTestId('blog-source').filter({ has: page.getByRole('heading', { level: 3, name, exact: true }) });

type Provider = 'custom' | 'google' | 'outlook' | 'calendly';

/**
 * Add Integration as an admin fills it in: the provider, whose template prefills the configuration;
 * `config` edits that template (the admin fills in its values); then the webhook URL and API key.
 * Returns the stored row's id (from the POST's answer).
 */
async function addCalendarIntegration(
  page: Page,
  values: { provider: Provider; config?: (template: Record<string, unknown>) => Record<string, unknown>; webhookUrl?: string; apiKey?: string },
) {
  await openTab(page, 'Calendar');
  await page.getByRole('button', { name: 'Add Integration' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Calendar Integration' });
  await select(dialog, 'Provider').selectOption(values.provider);
  const config = textbox(dialog, 'Configuration (JSON)');
  await expect(config).toHaveValue(templateText(values.provider));
  if (values.config) await config.fill(JSON.stringify(values.config(JSON.parse(await config.inputValue()) as Record<string, unknown>), null, 2));
  if (values.webhookUrl !== undefined) await textbox(dialog, 'Webhook URL').fill(values.webhookUrl);
  if (values.apiKey !== undefined) {
    // SPEC §2: the API key input is masked.
    await expect(dialog.getByLabel('API Key')).toHaveAttribute('type', 'password');
    await dialog.getByLabel('API Key').fill(values.apiKey);
  }
  const answer = page.waitForResponse((res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/api/admin/calendar-settings');
  await dialog.getByRole('button', { name: 'Add Integration' }).click();
  const res = await answer;
  expect(res.status(), await res.text()).toBe(201);
  await expect(dialog).toBeHidden();
  await expectToast(page, 'Success', 'Calendar integration created successfully');
  const id = ((await res.json()) as CalendarIntegration).id;
  await expect(integrationCard(page, id)).toBeVisible();
  return id;
}

/** Activate on the card: its Active badge, the banner naming it, and no other card active. */
async function activate(page: Page, id: string, label: string) {
  const card = integrationCard(page, id);
  await card.getByRole('button', { name: /^Activate/ }).click();
  await expectToast(page, 'Success', 'Calendar integration activated');
  await expect(card.getByText('Active', { exact: true })).toBeVisible();
  await expect(banner(page)).toContainText(`Active: ${label}`);
  await expect(page.getByTestId('calendar-integration').filter({ has: page.getByText('Active', { exact: true }) })).toHaveCount(1);
}

/** A delivery log's Refresh, until `count` of its entries match (it loads once; the admin refreshes it). */
async function expectLogged(log: Locator, match: (entries: Locator) => Locator, count = 1) {
  await expect
    .poll(async () => {
      await log.getByRole('button', { name: /^Refresh/ }).click();
      await expect(log.getByRole('button', { name: /^Refresh/ })).toBeEnabled();
      return match(log.getByTestId('delivery')).count();
    }, EFFECT)
    .toBeGreaterThanOrEqual(count);
}

// ---------------------------------------------------------------------------------------------
// Appointments: booked by a visitor, changed by the admin

const visitor = (info: TestInfo, label: string): BookingVisitor => {
  const tag = unique(info, label, '-');
  return {
    firstName: 'Elena',
    lastName: `Marsh-${tag}`,
    email: `${tag}@example.com`,
    phone: '(619) 555-0177',
    practiceArea: 'estate-planning',
    notes: 'About a living trust.',
  };
};

/**
 * The days ahead this spec books in the modal: 10 to 12 weeks (other specs book 2 to 9 weeks ahead;
 * both projects share the database), and at most 88: chooseDay goes at most three months forward.
 */
const MODAL_DAYS: [number, number] = [70, 88];

/**
 * A booking through the public API (SPEC §7 POST /api/appointments), as another visitor would, when
 * the modal itself is not what is tested: the first free slot far ahead, as the availability shows it.
 */
async function bookThroughApi(page: Page, v: BookingVisitor) {
  const scheduledDate = await freeSlot(page.request);
  const { id, ...booked } = await book(page.request, {
    firstName: v.firstName,
    lastName: v.lastName,
    email: v.email,
    phone: v.phone,
    notes: v.notes,
    consultationType: 'initial',
    practiceArea: v.practiceArea,
    scheduledDate,
  });
  expect(booked.scheduledDate).toBe(scheduledDate);
  const start = new Date(scheduledDate);
  return { date: firmDateOf(start), time: firmTimeOf(start), appointment: { id, scheduledDate, firstName: v.firstName, lastName: v.lastName } };
}

const appointmentRow = (page: Page, id: string) => page.locator(`[data-testid="appointment"][data-appointment-id="${id}"]`);

/** Confirm or cancel on /admin/appointments, as the admin does it (SPEC §2, §4 Appointment status). */
async function changeStatusInAdmin(page: Page, a: Pick<StoredAppointment, 'id' | 'firstName' | 'lastName'>, to: 'Confirmed' | 'Cancelled') {
  const name = `${a.firstName} ${a.lastName}`;
  await openAdminScreen(page, '/admin/appointments', 'Appointments');
  const row = appointmentRow(page, a.id);
  await expect(row).toHaveCount(1);
  if (to === 'Confirmed') {
    await row.getByRole('button', { name: `Confirm appointment for ${name}` }).click();
  } else {
    await row.getByRole('button', { name: `Change Status for ${name}` }).click();
    await page.getByRole('menuitemradio', { name: 'Cancelled' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Mark as Cancelled' }).click();
  }
  await expectToast(page, 'Success', 'Appointment status updated successfully');
  await expect(row).toContainText(to);
}

// ---------------------------------------------------------------------------------------------
// Mail

function calendarFile(mail: ReceivedMail) {
  const files = mail.parsed.attachments.filter((a) => a.mimeType === 'text/calendar');
  expect(files, 'one text/calendar attachment').toHaveLength(1);
  const text = files[0]!.content as string;
  const calendar = new ICAL.Component(ICAL.parse(text));
  const vtimezone = calendar.getFirstSubcomponent('vtimezone');
  expect(vtimezone, 'a VTIMEZONE').not.toBeNull();
  // The file's own zone, not ical.js's built-in knowledge.
  ICAL.TimezoneService.reset();
  ICAL.TimezoneService.register(new ICAL.Timezone(vtimezone!));
  const vevent = calendar.getFirstSubcomponent('vevent')!;
  const event = new ICAL.Event(vevent);
  return {
    filename: files[0]!.filename,
    text,
    tzid: vevent.getFirstProperty('dtstart')!.getParameter('tzid'),
    wallClock: event.startDate.toString(),
    start: event.startDate.toJSDate(),
    end: event.endDate.toJSDate(),
    uid: event.uid,
  };
}

// ---------------------------------------------------------------------------------------------

test.describe('configured through the page, each integration has its effect', () => {
  let fakes: CalendarFakes;
  let smtp: SmtpPeer;
  let feeds: FeedServer;

  // Desktop only (playwright.config.ts): the effects do not depend on the width.
  test.beforeAll(async () => {
    // Google, Microsoft and the webhook receiver where playwright.config.ts points the server.
    fakes = await startCalendarFakes({ port: fakesPort });
    smtp = await startSmtpPeer({ user: 'office@firm.example', pass: `smtp-pass-${Date.now()}-e2e` });
    feeds = await startFeedServer();
  });

  // A blog source left behind by a failed test would keep articles whose images point at the stopped
  // feed server on the public pages, and fail the specs after it on their console errors.
  test.afterEach(async ({ adminApi }) => {
    const sources = (await (await adminApi.get('/api/admin/blog-sources')).json()) as { id: string; name: string }[];
    for (const source of sources.filter((s) => s.name.startsWith('Effects Feed'))) {
      expect((await adminApi.delete(`/api/admin/blog-sources/${source.id}`)).status()).toBe(204);
    }
  });

  test.afterAll(async () => {
    await fakes?.close();
    await smtp?.close();
    await feeds?.stop();
  });

  test('email held, then sent: with no setting a booking is held, not sent, and the dashboard says so; configured, the held messages go, a test e-mail arrives, and Remove holds mail again', async ({
    page,
    adminApi,
    adminAccount,
  }, info) => {
    test.setTimeout(120_000);
    const consoleErrors = watchConsole(page);
    // Whatever an earlier spec on this server configured: mail has nowhere to go.
    expect([204, 404]).toContain((await adminApi.delete('/api/admin/email-settings')).status());

    // A visitor books: the confirmation is held, and the log never calls it sent.
    const v = visitor(info, 'held');
    const {
      appointment: { id: appointmentId },
    } = await bookThroughApi(page, v);
    const statusesOf = async () =>
      ((await (await adminApi.get(`/api/admin/deliveries?channel=email&appointmentId=${appointmentId}`)).json()) as { status: string }[]).map((d) => d.status);
    await expect.poll(statusesOf, EFFECT).toEqual(['held', 'held']);

    // The dashboard warns, and its link opens the Email tab.
    await openAdminScreen(page, '/admin', 'Admin Dashboard');
    const warnings = page.getByTestId('delivery-warnings');
    const notConfigured = warnings.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'E-mail is not configured' }) });
    await expect(notConfigured).toContainText('Clients get no confirmations or reminders and the firm no notifications.');
    await expect(notConfigured).toContainText(/\d+ messages are held, not sent\./);
    // And how much the outbox keeps, since when (decision 042: the shared database, bounded).
    await expect(notConfigured).toContainText(/The development outbox keeps \d+ messages?, the oldest held (less than an hour|\d+ hours?|\d+ days) ago\./);
    const outboxText = async () => JSON.stringify(await (await adminApi.get('/api/admin/email-outbox')).json());
    expect(await outboxText()).toContain(v.email);
    await expectNoAxeViolations(page, { label: 'dashboard with the e-mail warning' });
    await screenshot(page, info, 'dashboard-email-warning', { fromTop: true, blur: true, unhover: true });
    await notConfigured.getByRole('link', { name: 'Configure e-mail' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Integrations' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Email' })).toHaveAttribute('aria-selected', 'true');
    const log = page.getByTestId('deliveries-email');
    const heldFor = (entries: Locator) => entries.filter({ hasText: `to ${v.email}` }).filter({ has: page.getByText('Held, not sent', { exact: true }) });
    await expectLogged(log, heldFor);
    await expect(
      log
        .getByTestId('delivery')
        .filter({ hasText: `to ${v.email}` })
        .getByText('Sent', { exact: true }),
    ).toHaveCount(0);

    // Configured: the held messages are offered, and sent once asked.
    await page.getByRole('button', { name: 'Configure Email' }).click();
    const dialog = page.getByRole('dialog', { name: 'Configure Email' });
    await select(dialog, 'Provider').selectOption('smtp');
    await textbox(dialog, 'Configuration (JSON)').fill(
      JSON.stringify({ host: '127.0.0.1', port: smtp.port, secure: false, auth: { user: smtp.user, pass: smtp.pass } }),
    );
    await dialog.getByRole('button', { name: 'Save Configuration' }).click();
    await expectToast(page, 'Success', 'Email integration created successfully');
    const heldCount = ((await (await adminApi.get('/api/admin/deliveries/attention')).json()) as { held: { email: number } }).held.email;
    expect(heldCount).toBeGreaterThanOrEqual(2);
    const held = page.getByTestId('held-messages');
    await expect(held).toContainText(`${heldCount} messages are held, never sent`);
    expect(smtp.to(v.email)).toEqual([]);
    await held.getByRole('button', { name: 'Send Held Messages' }).click();
    await expectToast(page, 'Success', `${heldCount} held messages queued to send: the log below shows how each went`);
    await expect.poll(() => smtp.to(v.email).length, EFFECT).toBe(1);
    expect(smtp.to(v.email)[0]!.parsed.subject).toMatch(/^Your consultation with /);
    await expect.poll(statusesOf, EFFECT).toEqual(['sent', 'sent']);
    await expect(held).toHaveCount(0);
    // Sent: their held copies are gone from the outbox.
    expect(await outboxText()).not.toContain(v.email);

    // Send Test Email: to the signed-in admin, said once the server accepted it.
    await page.getByRole('button', { name: 'Send Test Email' }).click();
    const testDialog = page.getByRole('dialog', { name: 'Send a test e-mail' });
    await expect(testDialog.getByRole('textbox', { name: 'Send to' })).toHaveValue(adminAccount.email);
    await expectNoAxeViolations(page, { label: 'Send a test e-mail dialog' });
    await testDialog.getByRole('textbox', { name: 'Send to' }).fill('not an address');
    await testDialog.getByRole('button', { name: 'Send Test Email' }).click();
    await expect(testDialog).toContainText('Please enter a valid email address');
    await testDialog.getByRole('textbox', { name: 'Send to' }).fill(adminAccount.email);
    await testDialog.getByRole('button', { name: 'Send Test Email' }).click();
    await expectToast(page, 'Test e-mail sent', `Accepted for delivery to ${adminAccount.email}. Check that inbox (and its spam folder).`);
    await expect(testDialog).toBeHidden();
    await expect.poll(() => smtp.to(adminAccount.email).map((m) => m.parsed.subject), EFFECT).toContain('Test e-mail from the Pacific Crest Law Group website');

    // Remove (after confirming): mail is held again, and the card says it is not configured.
    await page.getByTestId('email-status').getByRole('button', { name: 'Remove' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove the email setting?' });
    await expectNoAxeViolations(page, { label: 'Remove the email setting? dialog' });
    await confirm.getByRole('button', { name: 'Remove Email Setting' }).click();
    await expectToast(page, 'Success', 'Email setting removed: messages are held until e-mail is configured again');
    await expect(page.getByTestId('email-status').getByRole('heading', { name: 'Email Not Configured' })).toBeVisible();
    expect((await (await adminApi.get('/api/admin/email-settings')).json()) as unknown).toBeNull();
    consoleErrors.expectNone();
  });

  test('email over SMTP: a booking in the modal sends the confirmation with an .ics at the booked firm time and the firm’s notification; a contact message notifies the firm; the Email tab logs them sent', async ({
    page,
    adminApi,
  }, info) => {
    test.setTimeout(120_000);
    const consoleErrors = watchConsole(page);
    await openIntegrations(page);
    await openTab(page, 'Email');

    // Configure Email: SMTP's template, filled in with the local server's address and login.
    await page.getByRole('button', { name: 'Configure Email' }).click();
    const dialog = page.getByRole('dialog', { name: 'Configure Email' });
    await select(dialog, 'Provider').selectOption('smtp');
    const config = textbox(dialog, 'Configuration (JSON)');
    await expect(config).toHaveValue(templateText('smtp'));
    const template = JSON.parse(await config.inputValue()) as { host: string; port: number; secure: boolean; auth: { user: string; pass: string } };
    expect(template).toEqual({ host: '', port: 587, secure: false, auth: { user: '', pass: '' } });
    await config.fill(JSON.stringify({ ...template, host: '127.0.0.1', port: smtp.port, auth: { user: smtp.user, pass: smtp.pass } }, null, 2));
    await dialog.getByRole('button', { name: 'Save Configuration' }).click();
    await expect(dialog).toBeHidden();
    await expectToast(page, 'Success', 'Email integration created successfully');
    const status = page.getByTestId('email-status');
    await expect(status.getByRole('heading', { name: 'Configured' })).toBeVisible();
    await expect(status).toContainText('E-mail is sent through SMTP.');
    await expect(page.locator('body')).not.toContainText(smtp.pass);

    // A visitor books in the modal.
    const v = visitor(info, 'mail');
    const booked = await bookInModal(page, adminApi, v, { consultationType: 'estate-planning', daysAhead: MODAL_DAYS });

    // The visitor's confirmation, with the calendar file at the booked firm time.
    await expect.poll(() => smtp.to(v.email).length, EFFECT).toBe(1);
    const [confirmation] = smtp.to(v.email);
    expect(confirmation!.user).toBe(smtp.user);
    expect(confirmation!.parsed.subject).toMatch(/^Your consultation with /);
    expect(confirmation!.parsed.text).toContain(`${v.firstName}`);
    const ics = calendarFile(confirmation!);
    expect(ics.filename).toBe('consultation.ics');
    expect(ics.tzid).toBe(FIRM_ZONE);
    expect(ics.wallClock).toBe(`${booked.date}T${booked.time}:00`);
    expect(ics.text).toContain(`DTSTART;TZID=${FIRM_ZONE}:${booked.date.replaceAll('-', '')}T${booked.time.replace(':', '')}00`);
    expect(ics.start.toISOString()).toBe(firmInstant(booked.date, booked.time).toISOString());
    expect(ics.end.getTime() - ics.start.getTime()).toBe(booked.minutes * 60_000);
    expect(ics.uid).toContain(booked.appointment.id);

    // The firm's notification of it.
    const notificationsOf = (text: string) => smtp.to(FIRM_INBOX).filter((m) => (m.parsed.subject ?? '').includes(text));
    await expect.poll(() => notificationsOf(v.lastName).length, EFFECT).toBe(1);
    const [notification] = notificationsOf(v.lastName);
    expect(notification!.parsed.subject).toMatch(/^New consultation: /);
    expect(notification!.parsed.text).toContain(v.email);
    expect(notification!.parsed.replyTo?.[0]).toMatchObject({ address: v.email });

    // A message on /contact: the firm is told.
    const writer = { ...visitor(info, 'contact'), firstName: 'Noor' };
    await page.goto('/contact');
    const form = page.locator('[data-component="contact_form"]');
    await expect(form.getByRole('button', { name: 'Send Message' })).toBeEnabled();
    await form.getByRole('textbox', { name: 'First Name', exact: true }).fill(writer.firstName);
    await form.getByRole('textbox', { name: 'Last Name', exact: true }).fill(writer.lastName);
    await form.getByRole('textbox', { name: 'Email', exact: true }).fill(writer.email);
    await form.getByRole('textbox', { name: 'Phone', exact: true }).fill(writer.phone!);
    await form.getByRole('combobox', { name: 'Practice Area' }).selectOption('estate-planning');
    await form.getByRole('textbox', { name: 'Message', exact: true }).fill('I would like to set up a living trust for my family.');
    await form.getByRole('checkbox', { name: /privacy policy/ }).check();
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(toasts(page)).toContainText('Message Sent Successfully');
    await expect.poll(() => notificationsOf(writer.lastName).length, EFFECT).toBe(1);
    const [contact] = notificationsOf(writer.lastName);
    expect(contact!.parsed.subject).toBe(`New contact message: ${writer.firstName} ${writer.lastName} (Estate Planning)`);
    expect(contact!.parsed.text).toContain('living trust');

    // The Email tab's delivery log says they were sent.
    await openIntegrations(page);
    await openTab(page, 'Email');
    const log = page.getByTestId('deliveries-email');
    const sent = (entries: Locator, purpose: string, to: string) =>
      entries
        .filter({ hasText: purpose })
        .filter({ hasText: `to ${to}` })
        .filter({ has: page.getByText('Sent', { exact: true }) });
    await expectLogged(log, (entries) => sent(entries, 'Booking confirmation', v.email));
    await expectLogged(log, (entries) => sent(entries, 'Booking notification', FIRM_INBOX));
    await expectLogged(log, (entries) => sent(entries, 'Contact notification', FIRM_INBOX));
    // This booking's two e-mails, by the log's API: sent once each.
    const delivered = (await (await adminApi.get(`/api/admin/deliveries?channel=email&appointmentId=${booked.appointment.id}`)).json()) as {
      purpose: string;
      status: string;
    }[];
    expect(delivered.map((d) => `${d.purpose} ${d.status}`).sort()).toEqual(['booking-confirmation sent', 'booking-notification sent']);
    await expect(page.locator('body')).not.toContainText(smtp.pass);
    await screenshot(page, info, 'integrations-effects-email', { fromTop: true, blur: true, unhover: true });
    consoleErrors.expectNone();
  });

  test('custom webhook: a booking in the modal is POSTed signed as appointment.created, the admin’s cancellation as appointment.cancelled; the card logs both; the API key is never shown', async ({
    page,
    adminApi,
  }, info) => {
    test.setTimeout(120_000);
    const consoleErrors = watchConsole(page);
    const hookPath = `/webhook/${unique(info, 'effects', '-')}`;
    const signingKey = `whsec-${Date.now()}-effects-signing-key-K9Q2`;
    await openIntegrations(page);

    const id = await addCalendarIntegration(page, { provider: 'custom', webhookUrl: fakes.webhookUrl(hookPath.slice('/webhook'.length)), apiKey: signingKey });
    await activate(page, id, 'Custom webhook');
    const card = integrationCard(page, id);
    await expect(card).toContainText(`${fakes.url}${hookPath}`);
    await expect(card.getByTestId('api-key')).toHaveText(`••••${signingKey.slice(-4)}`);
    await expect(card).toContainText('Nothing synced yet');

    const v = visitor(info, 'webhook');
    const { appointment } = await bookInModal(page, adminApi, v, { consultationType: 'initial', daysAhead: MODAL_DAYS });

    await expect.poll(() => fakes.webhook.at(hookPath).length, EFFECT).toBe(1);
    const [created] = fakes.webhook.at(hookPath);
    expect(created!.method).toBe('POST');
    expect(created!.headers['x-firm-event']).toBe('appointment.created');
    expect(verifyTimestampedSignature(created!.headers['x-firm-signature'], created!.body, signingKey)).toBe(true);
    expect(verifyTimestampedSignature(created!.headers['x-firm-signature'], created!.body, `${signingKey}-not`)).toBe(false);
    expect(created!.json()).toMatchObject({
      type: 'appointment.created',
      appointment: {
        id: appointment.id,
        email: v.email,
        lastName: v.lastName,
        scheduledDate: appointment.scheduledDate,
        status: 'scheduled',
        timeZone: FIRM_ZONE,
      },
    });

    await changeStatusInAdmin(page, appointment, 'Cancelled');
    await expect.poll(() => fakes.webhook.at(hookPath).length, EFFECT).toBe(2);
    const cancelled = fakes.webhook.at(hookPath)[1]!;
    expect(cancelled.headers['x-firm-event']).toBe('appointment.cancelled');
    expect(verifyTimestampedSignature(cancelled.headers['x-firm-signature'], cancelled.body, signingKey)).toBe(true);
    expect(cancelled.json()).toMatchObject({
      type: 'appointment.cancelled',
      previousStatus: 'scheduled',
      appointment: { id: appointment.id, status: 'cancelled' },
    });
    expect(cancelled.headers['x-firm-delivery']).not.toBe(created!.headers['x-firm-delivery']);

    // The card's log: both deliveries sent to the webhook.
    await openIntegrations(page);
    const log = integrationCard(page, id).getByTestId('deliveries-calendar');
    const sent = (entries: Locator, purpose: string) =>
      entries
        .filter({ hasText: purpose })
        .filter({ hasText: `to ${fakes.url}${hookPath}` })
        .filter({ has: page.getByText('Sent', { exact: true }) });
    await expectLogged(log, (entries) => sent(entries, 'Event create'));
    await expectLogged(log, (entries) => sent(entries, 'Event cancel'));
    // Never in full, anywhere on the page or in what the page loads.
    expect(await page.content()).not.toContain(signingKey);
    expect(await (await adminApi.get('/api/admin/calendar-settings')).text()).not.toContain(signingKey);
    consoleErrors.expectNone();
  });

  test('Google Calendar, then Outlook: the token and the event created, updated on confirm and deleted on cancel; activating Outlook leaves it the only active one', async ({
    page,
    adminApi,
  }, info) => {
    test.setTimeout(150_000);
    const consoleErrors = watchConsole(page);
    const stamp = Date.now();
    const google = {
      clientId: `e2e-${stamp}.apps.googleusercontent.com`,
      clientSecret: `GOCSPX-effects-${stamp}`,
      refreshToken: `1//effects-refresh-${stamp}`,
      calendarId: `firm-${stamp}@group.calendar.google.com`,
    };
    const microsoft = {
      tenantId: `tenant-${stamp}`,
      clientId: `app-${stamp}`,
      clientSecret: `ms-secret-${stamp}-value`,
      mailbox: `calendar-${stamp}@firm.example`,
    };
    // Only the credentials typed in the page get a token.
    fakes.google.credentials = { clientId: google.clientId, clientSecret: google.clientSecret, refreshToken: google.refreshToken };
    fakes.microsoft.credentials = { tenantId: microsoft.tenantId, clientId: microsoft.clientId, clientSecret: microsoft.clientSecret };
    await openIntegrations(page);

    // Google: the SPEC §3 template (client_id, client_secret, redirect_uri, calendar_id) plus the refresh token.
    const googleId = await addCalendarIntegration(page, {
      provider: 'google',
      config: (template) => {
        expect(template).toEqual({ client_id: '', client_secret: '', redirect_uri: '', calendar_id: 'primary' });
        return {
          ...template,
          client_id: google.clientId,
          client_secret: google.clientSecret,
          redirect_uri: 'https://www.example-firm.com/oauth/google',
          calendar_id: google.calendarId,
          refresh_token: google.refreshToken,
        };
      },
    });
    await activate(page, googleId, 'Google Calendar');

    const first = visitor(info, 'google');
    const a = (await bookThroughApi(page, first)).appointment;
    const googleEvent = () =>
      [...fakes.google.events.values()].find(
        (e) =>
          e.calendarId === google.calendarId && (e.extendedProperties as { private?: { appointmentId?: string } } | undefined)?.private?.appointmentId === a.id,
      );
    await expect.poll(() => fakes.google.tokenRequests().filter((r) => r.form().refresh_token === google.refreshToken).length, EFFECT).toBeGreaterThan(0);
    await expect.poll(() => googleEvent()?.id ?? null, EFFECT).not.toBeNull();
    const eventId = googleEvent()!.id;
    expect(googleEvent()).toMatchObject({ status: 'tentative', start: { dateTime: a.scheduledDate, timeZone: FIRM_ZONE } });
    expect(googleEvent()!.summary).toContain(first.lastName);
    const eventRequests = (method: string) => fakes.google.apiRequests().filter((r) => r.method === method && r.path.endsWith(`/events/${eventId}`));

    // Confirmed in the admin: the event is updated.
    await changeStatusInAdmin(page, a, 'Confirmed');
    await expect.poll(() => eventRequests('PATCH').length, EFFECT).toBe(1);
    expect(googleEvent()).toMatchObject({ id: eventId, status: 'confirmed' });

    // Outlook: its template (client_id, client_secret, tenant_id) plus the mailbox.
    await openIntegrations(page);
    const outlookId = await addCalendarIntegration(page, {
      provider: 'outlook',
      config: (template) => {
        expect(template).toEqual({ client_id: '', client_secret: '', tenant_id: '' });
        return {
          ...template,
          client_id: microsoft.clientId,
          client_secret: microsoft.clientSecret,
          tenant_id: microsoft.tenantId,
          user_email: microsoft.mailbox,
        };
      },
    });
    await activate(page, outlookId, 'Outlook');
    // Google is no longer the active one: its Activate button is back, the banner names Outlook only.
    await expect(integrationCard(page, googleId).getByRole('button', { name: /^Activate/ })).toBeVisible();
    await expect(integrationCard(page, googleId).getByText('Active', { exact: true })).toHaveCount(0);
    await expect(banner(page)).not.toContainText('Google Calendar');
    expect(await (await page.request.get('/api/calendar-settings/active')).json()).toEqual({ provider: 'outlook', isActive: true });

    const second = visitor(info, 'outlook');
    const b = await bookThroughApi(page, second);
    const outlookEvent = () => [...fakes.microsoft.events.values()].find((e) => e.user === microsoft.mailbox && String(e.subject).includes(second.lastName));
    await expect
      .poll(() => fakes.microsoft.tokenRequests().filter((r) => r.path === `/microsoft-login/${microsoft.tenantId}/oauth2/v2.0/token`).length, EFFECT)
      .toBeGreaterThan(0);
    await expect.poll(() => outlookEvent()?.id ?? null, EFFECT).not.toBeNull();
    // The firm's wall clock, in the Windows name of its zone.
    expect(outlookEvent()).toMatchObject({ showAs: 'tentative', start: { dateTime: `${b.date}T${b.time}:00`, timeZone: 'Pacific Standard Time' } });
    const outlookEventId = outlookEvent()!.id;
    // Google heard nothing of the second booking.
    expect([...fakes.google.events.values()].filter((e) => String(e.summary).includes(second.lastName))).toEqual([]);

    // Cancelled in the admin: each calendar that holds the event loses it, Google's too though no longer active.
    await changeStatusInAdmin(page, b.appointment, 'Cancelled');
    await expect
      .poll(
        () => fakes.microsoft.apiRequests().filter((r) => r.method === 'DELETE' && decodeURIComponent(r.path).endsWith(`/events/${outlookEventId}`)).length,
        EFFECT,
      )
      .toBe(1);
    expect(fakes.microsoft.events.has(outlookEventId)).toBe(false);
    await changeStatusInAdmin(page, a, 'Cancelled');
    await expect.poll(() => eventRequests('DELETE').length, EFFECT).toBe(1);
    expect(fakes.google.deleted.has(eventId)).toBe(true);

    // The cards' logs.
    await openIntegrations(page);
    const sentIn = (purpose: string) => (entries: Locator) => entries.filter({ hasText: purpose }).filter({ has: page.getByText('Sent', { exact: true }) });
    const googleLog = integrationCard(page, googleId).getByTestId('deliveries-calendar');
    const outlookLog = integrationCard(page, outlookId).getByTestId('deliveries-calendar');
    for (const purpose of ['Event create', 'Event update', 'Event cancel']) await expectLogged(googleLog, sentIn(purpose));
    await expect(googleLog).toContainText(`to Google Calendar: ${google.calendarId}`);
    for (const purpose of ['Event create', 'Event cancel']) await expectLogged(outlookLog, sentIn(purpose));
    await expect(outlookLog).toContainText(`to Outlook: ${microsoft.mailbox}`);
    const html = await page.content();
    for (const secret of [google.clientSecret, google.refreshToken, microsoft.clientSecret]) expect(html).not.toContain(secret);
    await screenshot(page, info, 'integrations-effects-calendar', { fromTop: true, blur: true, unhover: true });
    consoleErrors.expectNone();
  });

  test('Calendly: a correctly signed invitee.created webhook becomes an appointment in the admin; a wrongly signed one gets 401 and creates nothing', async ({
    page,
    adminApi,
  }, info) => {
    test.setTimeout(90_000);
    const consoleErrors = watchConsole(page);
    const signingKey = `calendly-signing-${Date.now()}-key`;
    await openIntegrations(page);
    const id = await addCalendarIntegration(page, {
      provider: 'calendly',
      config: (template) => {
        expect(template).toEqual({ username: '', personal_access_token: '', webhook_signing_key: '' });
        return { ...template, username: 'pacific-crest-law', personal_access_token: `eyJ-pat-${Date.now()}`, webhook_signing_key: signingKey };
      },
    });
    await activate(page, id, 'Calendly');
    await expect(integrationCard(page, id)).toContainText('Calendly is inbound only');

    const invitee = (label: string) => {
      const tag = unique(info, label, '-');
      // A weekday morning 6 to 9 months ahead, 30 minutes.
      let date = addDays(firmToday(new Date()), 180 + Math.floor(Math.random() * 90));
      while (!isBookableDay(date)) date = addDays(date, 1);
      const start = firmInstant(date, timeSlots[Math.floor(Math.random() * 6)]!);
      return {
        email: `${tag}@example.com`,
        lastName: `Calendly-${tag}`,
        body: JSON.stringify({
          event: 'invitee.created',
          created_at: new Date().toISOString(),
          payload: {
            uri: `https://api.calendly.com/scheduled_events/${tag}/invitees/${tag}`,
            email: `${tag}@example.com`,
            name: `Rosa Calendly-${tag}`,
            text_reminder_number: null,
            questions_and_answers: [{ question: 'What would you like to discuss?', answer: 'A prenuptial agreement.' }],
            scheduled_event: {
              name: '30 Minute Consultation',
              start_time: start.toISOString(),
              end_time: new Date(start.getTime() + 30 * 60_000).toISOString(),
            },
          },
        }),
        start,
      };
    };
    const post = (body: string, key: string) =>
      page.request.post('/api/integrations/calendly/webhook', {
        headers: { 'content-type': 'application/json', 'Calendly-Webhook-Signature': timestampedSignature(key, body, Math.floor(Date.now() / 1000)) },
        data: body,
      });

    const good = invitee('calendly');
    const res = await post(good.body, signingKey);
    expect(res.status(), await res.text()).toBe(201);
    const [stored, ...more] = await storedByEmail(adminApi, good.email);
    expect(more).toEqual([]);
    expect(stored).toMatchObject({ firstName: 'Rosa', lastName: good.lastName, status: 'scheduled', scheduledDate: good.start.toISOString(), duration: 30 });

    const bad = invitee('forged');
    const refused = await post(bad.body, `${signingKey}-wrong`);
    expect(refused.status()).toBe(401);
    expect(await storedByEmail(adminApi, bad.email)).toEqual([]);

    // The admin sees the Calendly booking, and not the forged one.
    await openAdminScreen(page, '/admin/appointments', 'Appointments');
    const row = appointmentRow(page, stored!.id);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(`Rosa ${good.lastName}`);
    await expect(row).toContainText('Scheduled');
    await expect(page.getByTestId('appointment').filter({ hasText: bad.lastName })).toHaveCount(0);
    consoleErrors.expectNone();
  });

  test('blog source: added on the page, its first fetch shows; its articles appear on /external-articles and /blog; Fetch now adds a new one once; Delete removes them', async ({
    page,
  }, info) => {
    test.setTimeout(120_000);
    const consoleErrors = watchConsole(page);
    // The feed's images (/images/...) are not served by the feed server: the article cards hide them
    // (SPEC §8), and the browser logs their 404s. No other request may fail.
    const failed: string[] = [];
    page.on('response', (res) => {
      if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
    });
    const name = unique(info, 'Effects Feed');
    const tag = unique(info, 'news', '-');
    // Dated now, so they are the newest articles anywhere (the blog page shows the 8 newest).
    const fresh = [
      feeds.addItem({ title: `Court news ${tag}`, publishedAt: new Date(Date.now() - 60_000) }),
      feeds.addItem({ title: `Probate update ${tag}`, publishedAt: new Date() }),
    ];
    const total = feeds.items.length;

    await openIntegrations(page);
    await openTab(page, 'Blog Sources');
    await page.getByRole('button', { name: 'Add Blog Source' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Blog Source' });
    await textbox(dialog, 'Name').fill(name);
    await textbox(dialog, 'URL').fill(feeds.url(feedPaths.rss));
    await expect(select(dialog, 'Type')).toHaveValue('rss');
    await textbox(dialog, 'Number of articles').fill('10');
    await dialog.getByRole('button', { name: 'Add Blog Source' }).click();
    await expect(dialog).toBeHidden();
    await expectToast(page, 'Success', 'Blog source created successfully');

    // Fetched at once by the server; the card shows it without a reload.
    const card = sourceCard(page, name);
    await expect(card).toContainText('Shows 10 articles');
    await expect(card.getByTestId('last-fetched')).toHaveText(new RegExp(`^Last fetched .+ · ${total} articles stored$`), { timeout: 30_000 });
    await expect(card.getByTestId('last-error')).toHaveCount(0);

    // The public pages are republished with them.
    const ofSource = (p: Page) => p.getByRole('article').filter({ hasText: name });
    await expect
      .poll(async () => {
        await page.goto('/external-articles');
        return ofSource(page).count();
      }, EFFECT)
      .toBe(total);
    for (const item of feeds.items) await expect(ofSource(page).getByRole('link', { name: new RegExp(`^${escapeRegExp(item.title)}`) })).toHaveCount(1);
    // The images the feed names cannot be loaded (see above): hidden, not shown broken.
    await expect(ofSource(page).locator('img')).toHaveCount(0);
    await expect(ofSource(page).getByRole('link', { name: new RegExp(`^${escapeRegExp(fresh[1]!.title)}`) })).toHaveAttribute(
      'href',
      feeds.url(fresh[1]!.link),
    );
    const blogNews = page.locator('section[aria-labelledby="external-title"]');
    await expect
      .poll(async () => {
        await page.goto('/blog');
        return blogNews.getByRole('article').filter({ hasText: name }).filter({ hasText: tag }).count();
      }, EFFECT)
      .toBe(2);

    // A new article in the feed; Fetch now brings it, once.
    const added = feeds.addItem({ title: `Trust law ${tag}`, publishedAt: new Date() });
    await openIntegrations(page);
    await openTab(page, 'Blog Sources');
    await card.getByRole('button', { name: `Fetch now ${name}` }).click();
    await expectToast(page, 'Success', `${name} fetched: ${total + 1} articles stored`);
    await expect(card.getByTestId('last-fetched')).toContainText(`${total + 1} articles stored`);
    await expect
      .poll(async () => {
        await page.goto('/external-articles');
        return ofSource(page).count();
      }, EFFECT)
      .toBe(total + 1);
    await expect(ofSource(page).getByRole('link', { name: new RegExp(`^${escapeRegExp(added.title)}`) })).toHaveCount(1);
    for (const item of fresh) await expect(ofSource(page).getByRole('link', { name: new RegExp(`^${escapeRegExp(item.title)}`) })).toHaveCount(1);

    // Delete (after confirming): the articles leave the site.
    await openIntegrations(page);
    await openTab(page, 'Blog Sources');
    await card.getByRole('button', { name: `Delete ${name}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this blog source?' });
    await confirm.getByRole('button', { name: 'Delete Blog Source' }).click();
    await expect(confirm).toBeHidden();
    await expectToast(page, 'Success', 'Blog source deleted successfully');
    await expect(card).toHaveCount(0);
    await expect
      .poll(async () => {
        await page.goto('/external-articles');
        return ofSource(page).count();
      }, EFFECT)
      .toBe(0);
    await expect
      .poll(async () => {
        await page.goto('/blog');
        return blogNews.getByRole('article').filter({ hasText: tag }).count();
      }, EFFECT)
      .toBe(0);
    expect(failed.filter((f) => !f.startsWith(`404 ${feeds.url('/images/')}`))).toEqual([]);
    consoleErrors.expectOnlyFailedRequests(404);
  });
});

function escapeRegExp(s: string) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
