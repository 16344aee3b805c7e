/**
 * Issue 20 item 2 (decision 036): an hour the attorney marked busy in Google Calendar is missing from
 * the booking modal's times while the next hour is offered, and when Google cannot be read the site
 * goes on offering times and the admin's Calendar log says so. Against the Google fake on
 * E2E_FAKES_PORT (where playwright.config.ts points the server), with an active Google integration
 * whose config holds the fake's refresh token, created through the admin API.
 *
 * Desktop and phone: a visitor books on a phone. Each test makes its own integration (the server keeps
 * busy times a minute and leaves an unreachable provider alone 30 s, per integration), and the
 * integration active before the spec is active again after it, as every spec shares one server.
 */
import type { APIRequestContext } from '@playwright/test';
import { firmInstant } from '../../src/shared/firm-time.ts';
import { expect, openAdminScreen, test } from '../support/admin.ts';
import { freeHourPair, modalTimes } from '../support/calendar-e2e.ts';
import { startCalendarFakes, type CalendarFakes } from '../support/calendar-fakes.ts';
import { expectNoAxeViolations, screenshot, watchConsole } from '../support/e2e.ts';

const fakesPort = Number(process.env.E2E_FAKES_PORT);
const credentials = { clientId: 'busy-e2e.apps.example.com', clientSecret: 'GOCSPX-busy-e2e-secret', refreshToken: '1//busy-e2e-refresh-token' };
const calendarId = 'attorney@firm.example.com';

/** A Google integration holding the fake's refresh token, made active; returns its id. */
async function activeGoogle(adminApi: APIRequestContext, name: string): Promise<string> {
  const config = { client_id: credentials.clientId, client_secret: credentials.clientSecret, calendar_id: calendarId, refresh_token: credentials.refreshToken };
  const created = await adminApi.post('/api/admin/calendar-settings', { data: { provider: 'google', name, config: JSON.stringify(config) } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  expect((await adminApi.put(`/api/admin/calendar-settings/${id}/activate`)).status()).toBe(200);
  return id;
}

test.describe('busy times of the firm’s Google Calendar', () => {
  let fakes: CalendarFakes;
  let before: string | null = null;
  const made: string[] = [];

  test.beforeAll(async ({ adminApi }) => {
    fakes = await startCalendarFakes({ port: fakesPort, google: { credentials } });
    const rows = (await (await adminApi.get('/api/admin/calendar-settings')).json()) as { id: string; isActive: boolean }[];
    before = rows.find((r) => r.isActive)?.id ?? null;
  });

  test.afterAll(async ({ adminApi }) => {
    // The integration active before is active again, and this spec's are gone.
    if (before) expect((await adminApi.put(`/api/admin/calendar-settings/${before}/activate`)).status()).toBe(200);
    for (const id of made) {
      if (!before) await adminApi.put(`/api/admin/calendar-settings/${id}/deactivate`);
      expect((await adminApi.delete(`/api/admin/calendar-settings/${id}`)).status()).toBe(204);
    }
    await fakes?.close();
  });

  test('an hour busy in Google Calendar is not offered in the booking modal; the next hour is', async ({ page, adminApi }, info) => {
    const logs = watchConsole(page);
    const { date, hour, next } = await freeHourPair(page.request);
    made.push(await activeGoogle(adminApi, `Busy hour ${info.project.name}`));
    // The attorney's court date, made in Google Calendar itself.
    fakes.google.addEvent({
      calendarId,
      summary: 'Court: hearing',
      start: { dateTime: firmInstant(date, hour).toISOString() },
      end: { dateTime: firmInstant(date, next).toISOString() },
    });

    const time = await modalTimes(page, date);
    const h = Number(hour.slice(0, 2));
    await expect(time(hour)).toBeDisabled();
    await expect(time(`${h}:30`)).toBeDisabled();
    await expect(time(next)).toBeEnabled();
    // Shown as the site shows a taken time: marked Unavailable, not by colour alone.
    await expect(time(hour)).toHaveAccessibleName(/Unavailable/);
    await expect(time(next)).not.toHaveAccessibleName(/Unavailable/);
    expect(fakes.google.freeBusyRequests().length).toBeGreaterThan(0);
    // On a phone the times are below the calendar: the picture shows them.
    await time(hour).scrollIntoViewIfNeeded();
    await screenshot(page, info, 'calendar-busy-modal', { fullPage: false });
    await expectNoAxeViolations(page, { label: 'booking modal with a busy hour' });
    logs.expectNone();
  });

  test('when Google cannot be read the modal still offers times, and the Calendar log says so', async ({ page, adminApi }, info) => {
    const logs = watchConsole(page);
    const { date, hour } = await freeHourPair(page.request);
    made.push(await activeGoogle(adminApi, `Outage ${info.project.name}`));
    fakes.google.addEvent({
      calendarId,
      start: { dateTime: firmInstant(date, hour).toISOString() },
      end: { dateTime: new Date(firmInstant(date, hour).getTime() + 30 * 60_000).toISOString() },
    });
    fakes.google.failNext(1000, { status: 503, match: (r) => r.path.endsWith('/freeBusy') });

    // Google is down: the site answers from its own bookings, so the busy time is offered.
    const time = await modalTimes(page, date);
    await expect(time(hour)).toBeEnabled();
    fakes.google.resetRequests();

    await openAdminScreen(page, '/admin/integrations', 'Integrations');
    await page.getByRole('tab', { name: 'Calendar', exact: true }).click();
    const log = page.getByTestId('calendar-log');
    await expect(log.getByRole('heading', { name: 'Calendar log' })).toBeVisible();
    const notice = log.getByTestId('calendar-notice').first();
    await expect(notice).toContainText('Could not be read');
    await expect(notice).toContainText('Google Calendar could not be read: the freeBusy request answered HTTP 503');
    await expect(notice).toContainText("bookings are taken on the site's own appointments only");
    await notice.scrollIntoViewIfNeeded();
    await screenshot(page, info, 'calendar-log', { fullPage: false });
    await expectNoAxeViolations(page, { label: 'Calendar tab with the Calendar log' });
    logs.expectNone();
  });
});
