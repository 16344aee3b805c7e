/**
 * Both ways (issue 20, item 3): an appointment booked on the site has its event in the firm's Google
 * Calendar (the fake on E2E_FAKES_PORT); the attorney deletes that event in Google's own screen; within
 * the poll interval (CALENDAR_POLL_SECONDS, small in playwright.config.ts) the admin's Appointments
 * screen shows it cancelled, reloaded as an admin would, and the client's cancellation mail is in the
 * development outbox (no e-mail is configured on this server). Desktop: the screen is the admin's.
 */
import { expect, openAdminScreen, test } from '../support/admin.ts';
import { book, freeSlot } from '../support/appointment-requests.ts';
import { CALENDAR_EFFECT, expectCancelledFromGoogle } from '../support/calendar-e2e.ts';
import { startCalendarFakes, type CalendarFakes } from '../support/calendar-fakes.ts';
import { screenshot, unique, watchConsole } from '../support/e2e.ts';

const fakesPort = Number(process.env.E2E_FAKES_PORT);

test.describe('the firm’s calendar comes back to the site', () => {
  let fakes: CalendarFakes;
  let integrationId: string | null = null;

  test.beforeAll(async () => {
    fakes = await startCalendarFakes({ port: fakesPort });
  });

  test.afterAll(async () => {
    await fakes?.close();
  });

  test.afterEach(async ({ adminApi }) => {
    // Other specs expect no calendar to be active.
    if (integrationId) expect([200, 404]).toContain((await adminApi.put(`/api/admin/calendar-settings/${integrationId}/deactivate`)).status());
  });

  test('an event deleted in Google Calendar cancels its appointment: the admin sees it cancelled and the client’s mail is in the outbox', async ({
    page,
    adminApi,
  }, info) => {
    test.setTimeout(120_000);
    const consoleErrors = watchConsole(page);
    const stamp = Date.now();
    const google = {
      client_id: `both-ways-${stamp}.apps.googleusercontent.com`,
      client_secret: `GOCSPX-both-ways-${stamp}`,
      redirect_uri: 'https://www.example-firm.com/oauth/google',
      calendar_id: `both-ways-${stamp}@group.calendar.google.com`,
      refresh_token: `1//both-ways-refresh-${stamp}`,
    };
    fakes.google.credentials = { clientId: google.client_id, clientSecret: google.client_secret, refreshToken: google.refresh_token };
    // No e-mail configured: the client's mail is kept in the development outbox.
    expect([204, 404]).toContain((await adminApi.delete('/api/admin/email-settings')).status());
    const created = await adminApi.post('/api/admin/calendar-settings', { data: { provider: 'google', config: JSON.stringify(google) } });
    expect(created.status()).toBe(201);
    integrationId = ((await created.json()) as { id: string }).id;
    expect((await adminApi.put(`/api/admin/calendar-settings/${integrationId}/activate`)).status()).toBe(200);

    // A visitor books; the site writes the event to the firm's calendar.
    const tag = unique(info, 'both-ways', '-');
    const email = `${tag}@example.com`;
    const booked = await book(page.request, {
      firstName: 'Iris',
      lastName: `Calloway-${tag}`,
      email,
      consultationType: 'initial',
      practiceArea: 'estate-planning',
      scheduledDate: await freeSlot(page.request),
    });
    const event = () =>
      [...fakes.google.events.values()].find(
        (e) =>
          e.calendarId === google.calendar_id &&
          (e.extendedProperties as { private?: { appointmentId?: string } } | undefined)?.private?.appointmentId === booked.id,
      );
    await expect.poll(() => event()?.id ?? null, CALENDAR_EFFECT).not.toBeNull();
    const eventId = event()!.id;

    const row = page.locator(`[data-testid="appointment"][data-appointment-id="${booked.id}"]`);
    await openAdminScreen(page, '/admin/appointments', 'Appointments');
    await expect(row).toContainText('Scheduled');

    // Whether the site read the calendar before or only after this (a first, full read lists deleted
    // events too), the deletion is found.
    // The attorney deletes the event in Google Calendar.
    fakes.google.deleteEventAsOwner(eventId);

    // The admin reloads the Appointments screen, as they would, until it shows; the client is told once.
    await expectCancelledFromGoogle(page, adminApi, booked.id, email);
    await screenshot(page, info, 'calendar-both-ways-cancelled');
    consoleErrors.expectNone();
  });
});
