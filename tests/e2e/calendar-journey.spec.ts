/**
 * Issue 20's journey, as the firm lives it, against the fake Google on E2E_FAKES_PORT (where
 * playwright.config.ts points the server's OAuth, Calendar and token URLs):
 *   1. The admin adds a Google integration with SPEC's template, presses Connect with Google, allows
 *      access on the (fake) consent page, picks "Court dates" for the appointments, and activates it.
 *   2. The attorney has a hearing in their main Google calendar: that hour vanishes from the booking
 *      modal, while the hour after it is offered.
 *   3. A visitor books the hour after it in the modal: the event appears in "Court dates" at Google.
 *   4. The attorney deletes that event in Google Calendar: within the poll interval the admin's
 *      Appointments screen shows the appointment cancelled, with the reason, and the client's
 *      cancellation mail is kept (no mail is configured on the e2e server: the development outbox).
 *
 * Desktop: the journey is the admin's (each part is also checked on its own, at phone width where a
 * phone changes it, in calendar-busy, calendar-connect and calendar-both-ways). The integration active
 * before the spec is active again after it, and this spec's is deleted: every spec shares one server.
 */
import type { Page } from '@playwright/test';
import type { CalendarIntegration } from '../../src/components/admin/integrations/integrations.ts';
import { connectOutcomes } from '../../src/shared/calendar-connect.ts';
import { firmInstant } from '../../src/shared/firm-time.ts';
import { expect, openAdminScreen, test } from '../support/admin.ts';
import { bookingButton, bookingDialog, fillDetails, storedByEmail } from '../support/booking.ts';
import { CALENDAR_EFFECT, expectCancelledFromGoogle, freeHourPair, modalTimes } from '../support/calendar-e2e.ts';
import { startCalendarFakes, type CalendarFakes } from '../support/calendar-fakes.ts';
import { expectToast, screenshot, unique, watchConsole } from '../support/e2e.ts';

const SCREEN = '/admin/integrations';
const fakesPort = Number(process.env.E2E_FAKES_PORT);
const CLIENT = { clientId: 'e2e-journey.apps.example.com', clientSecret: 'GOCSPX-e2e-journey-secret' };
/** The server's SITE_URL (the default), whose callback is registered with the client; see calendar-connect.spec.ts. */
const SITE_URL = 'http://localhost:4321';
const CALLBACK = `${SITE_URL}/api/integrations/google/callback`;
const COURT_DATES = 'court-dates@group.calendar.google.com';

const card = (page: Page, id: string) => page.locator(`[data-testid="calendar-integration"][data-integration-id="${id}"]`);

test.describe('a Google calendar connected, read and written both ways', () => {
  let fakes: CalendarFakes;
  let before: string | null = null;
  let made: string | null = null;

  test.beforeAll(async ({ adminApi }) => {
    fakes = await startCalendarFakes({ port: fakesPort });
    fakes.google.oauth.clients.push({ ...CLIENT, redirectUris: [CALLBACK] });
    const rows = (await (await adminApi.get('/api/admin/calendar-settings')).json()) as CalendarIntegration[];
    before = rows.find((r) => r.isActive)?.id ?? null;
  });

  test.beforeEach(async ({ page, baseURL }) => {
    // The browser reaches SITE_URL at the test server, as DNS would send it there.
    await page.route(`${SITE_URL}/**`, (route) => route.fulfill({ status: 307, headers: { location: route.request().url().replace(SITE_URL, baseURL!) } }));
  });

  test.afterAll(async ({ adminApi }) => {
    if (before) expect((await adminApi.put(`/api/admin/calendar-settings/${before}/activate`)).status()).toBe(200);
    if (made) {
      if (!before) await adminApi.put(`/api/admin/calendar-settings/${made}/deactivate`);
      // A connected integration is deleted only once disconnected (decision 038); 409: not connected.
      expect([200, 409]).toContain((await adminApi.post(`/api/admin/calendar-settings/${made}/disconnect`)).status());
      expect((await adminApi.delete(`/api/admin/calendar-settings/${made}`)).status()).toBe(204);
    }
    await fakes?.close();
  });

  test('connect through the consent page, pick a calendar; a busy hour vanishes from the modal; a booking lands at Google; deleted there, it is cancelled here', async ({
    page,
    adminApi,
  }, info) => {
    test.setTimeout(180_000);
    const logs = watchConsole(page);
    const { date, hour, next } = await freeHourPair(page.request);
    // No e-mail configured: the client's mail is kept in the development outbox.
    expect([204, 404]).toContain((await adminApi.delete('/api/admin/email-settings')).status());

    // 1. Add Google with SPEC's template, as the admin fills it in.
    await openAdminScreen(page, SCREEN, 'Integrations');
    await page.getByRole('button', { name: 'Add Integration' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Calendar Integration' });
    await dialog.getByRole('combobox', { name: 'Provider', exact: true }).selectOption('google');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(`Firm calendar ${Date.now()}`);
    await dialog
      .getByRole('textbox', { name: 'Configuration (JSON)', exact: true })
      .fill(JSON.stringify({ client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret, redirect_uri: CALLBACK, calendar_id: 'primary' }, null, 2));
    const answer = page.waitForResponse((res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/api/admin/calendar-settings');
    await dialog.getByRole('button', { name: 'Add Integration' }).click();
    const created = await answer;
    expect(created.status(), await created.text()).toBe(201);
    const id = ((await created.json()) as CalendarIntegration).id;
    made = id;
    await expectToast(page, 'Success', 'Calendar integration created successfully');

    // Connect with Google: the consent page, Allow, back to the picker; "Court dates" for the appointments.
    const connection = card(page, id).getByTestId('calendar-connection');
    await connection.getByRole('button', { name: /^Connect with Google/ }).click();
    await expect(page.getByRole('heading', { name: 'Google: allow access?' })).toBeVisible();
    await page.getByRole('button', { name: 'Allow' }).click();
    await expect(page).toHaveURL(new RegExp(`${SCREEN}$`));
    await expect(page.getByTestId('calendar-connect-outcome')).toContainText(connectOutcomes.connected);
    const picker = page.getByRole('dialog', { name: 'Choose the calendar' });
    await picker.getByRole('radio', { name: 'Court dates' }).check();
    await picker.getByRole('button', { name: 'Use This Calendar' }).click();
    await expectToast(page, 'Success', 'Appointments now go to Court dates');
    await expect(connection.getByTestId('connected-calendar')).toHaveText('Court dates');

    // Activate it: the banner names it.
    await card(page, id)
      .getByRole('button', { name: /^Activate/ })
      .click();
    await expectToast(page, 'Success', 'Calendar integration activated');
    await expect(page.getByTestId('active-calendar-banner')).toBeVisible();
    await screenshot(page, info, 'calendar-journey-connected', { unhover: true, blur: true });

    // 2. The attorney's hearing, made in their main Google calendar.
    fakes.google.addEvent({
      calendarId: 'primary',
      summary: 'Court: hearing',
      start: { dateTime: firmInstant(date, hour).toISOString() },
      end: { dateTime: firmInstant(date, next).toISOString() },
    });

    // A visitor opens the modal on that day: the hearing's hour is not offered, the next one is.
    const time = await modalTimes(page, date);
    await expect(time(hour)).toBeDisabled();
    await expect(time(`${Number(hour.slice(0, 2))}:30`)).toBeDisabled();
    await expect(time(next)).toBeEnabled();
    await screenshot(page, info, 'calendar-journey-busy-hour', { fullPage: false });

    // 3. The visitor books the next hour.
    const email = `${unique(info, 'journey', '-')}@example.com`;
    await time(next).check();
    await bookingButton(page, 'Continue').click();
    await fillDetails(page, { firstName: 'Nora', lastName: 'Ashby', email, phone: '(619) 555-0142', practiceArea: 'estate-planning' });
    await bookingButton(page, 'Book Consultation').click();
    await expect(bookingDialog(page).getByRole('status')).toHaveText('Consultation Scheduled!');
    await bookingButton(page, 'Done').click();
    const [stored] = await storedByEmail(adminApi, email);
    expect(stored!.scheduledDate).toBe(firmInstant(date, next).toISOString());

    // Its event, at Google, in Court dates, at that hour.
    const event = () =>
      [...fakes.google.events.values()].find(
        (e) => (e.extendedProperties as { private?: { appointmentId?: string } } | undefined)?.private?.appointmentId === stored!.id,
      );
    await expect.poll(() => event()?.calendarId ?? null, CALENDAR_EFFECT).toBe(COURT_DATES);
    expect(new Date(event()!.start!.dateTime!).toISOString()).toBe(firmInstant(date, next).toISOString());

    // 4. The attorney deletes it in Google Calendar; the admin reloads Appointments until it shows.
    fakes.google.deleteEventAsOwner(event()!.id);
    await openAdminScreen(page, '/admin/appointments', 'Appointments');
    await expectCancelledFromGoogle(page, adminApi, stored!.id, email);
    await screenshot(page, info, 'calendar-journey-cancelled');
    logs.expectNone();
  });
});
