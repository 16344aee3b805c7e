/**
 * /admin/appointments (SPEC §2, §4 Appointment status, §7 admin calls, §8 admin messages): a booking
 * made on the public site is confirmed, moved between statuses and deleted; the details dialog shows
 * every field; completed and cancelled are final (no Confirm, no dropdown; the server's 409 message
 * when a change is refused); count cards, status filter, upcoming first, 'No appointments found';
 * every toast of SPEC §8 for this screen; axe and screenshots at desktop and phone width.
 */
import type { APIRequestContext, Locator, Page, TestInfo } from '@playwright/test';
import type { consultationTypes } from '../../src/shared/constants.ts';
import { clientNotice, weekOf } from '../../src/components/admin/appointments/appointments.ts';
import { firmDateOf, firmInstant } from '../../src/shared/firm-time.ts';
import { expect, openAdminScreen, test } from '../support/admin.ts';
import { bookInModal, slotLabel, type BookingVisitor, type StoredAppointment } from '../support/booking.ts';
import { expectNoAxeViolations, expectNoSideways, expectToastsGone, screenshot, screenshotDialog, toasts, unique, watchConsole } from '../support/e2e.ts';

const SCREEN = '/admin/appointments';
const FIRM_ZONE = 'America/Los_Angeles';

interface Booking extends BookingVisitor {
  consultationType: (typeof consultationTypes)[number]['value'];
}

interface Booked {
  id: string;
  scheduledDate: string;
  /** The slot chosen, firm wall-clock time ('10:30'). */
  time: string;
  name: string;
}

const item = (page: Page, text: string) => page.getByTestId('appointment').filter({ hasText: text });
const details = (page: Page) => page.getByRole('dialog');
const alert = (page: Page) => page.getByRole('alertdialog');
const count = (page: Page, status: string) => page.getByTestId(`count-${status}`).locator('p').nth(1);
const statusFilter = (page: Page) => page.getByRole('combobox', { name: 'Status' });

/** Unique per test, project and run (both projects share one server database); also an e-mail's local part. */
const tag = (info: TestInfo, label: string) => unique(info, label, '-');

const firmDateText = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: FIRM_ZONE, weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' }).format(new Date(iso));

/**
 * Books a consultation on the public site as a visitor does (bookInModal), on a weekday of weeks
 * `weeksAhead` from today (weeks 3 and 4 unless told otherwise). Returns what this spec follows: the
 * stored appointment's id and date, the slot chosen and the name the admin list shows.
 */
async function bookThroughPublicSite(
  page: Page,
  adminApi: APIRequestContext,
  booking: Booking,
  { weeksAhead = [3, 4] as [number, number] } = {},
): Promise<Booked> {
  const { appointment, time } = await bookInModal(page, adminApi, booking, {
    consultationType: booking.consultationType,
    daysAhead: [weeksAhead[0] * 7, weeksAhead[1] * 7 + 6],
  });
  return { id: appointment.id, scheduledDate: appointment.scheduledDate, time, name: `${booking.firstName} ${booking.lastName}` };
}

async function stored(adminApi: APIRequestContext, id: string): Promise<StoredAppointment | undefined> {
  const res = await adminApi.get('/api/admin/appointments');
  expect(res.status()).toBe(200);
  return ((await res.json()) as StoredAppointment[]).find((a) => a.id === id);
}

const openScreen = (page: Page) => openAdminScreen(page, SCREEN, 'Appointments');

/** What a cancellation dialog says the client hears, by whether e-mail is configured on this server now (an earlier spec may have). */
async function cancellationNotice(page: Page) {
  const active = (await (await page.request.get('/api/email-settings/active')).json()) as { isActive: boolean } | null;
  return clientNotice(
    'cancel',
    { status: 'scheduled', scheduledDate: '2999-01-01T00:00:00Z', externalEventId: null },
    { now: new Date(), emailConfigured: Boolean(active?.isActive) },
  );
}

async function counts(page: Page) {
  const read = async (status: string) => Number(await count(page, status).textContent());
  return { scheduled: await read('scheduled'), confirmed: await read('confirmed'), completed: await read('completed'), cancelled: await read('cancelled') };
}

async function chooseStatus(page: Page, scope: Locator, status: string) {
  await scope.getByRole('button', { name: /^Change Status/ }).click();
  await page.getByRole('menuitemradio', { name: status }).click();
}

test('a booking from the public site is confirmed, changed and deleted', async ({ page, adminApi }, info) => {
  // The longest flow here (a booking, three changes, axe twice): slow phone runs on a busy CI machine need more than 30 s.
  test.setTimeout(60_000);
  const consoleErrors = watchConsole(page);
  const id = tag(info, 'flow');
  await openScreen(page);
  const before = await counts(page);
  const booked = await bookThroughPublicSite(page, adminApi, {
    firstName: 'Maria',
    lastName: `Lopez ${id}`,
    email: `${id}@example.com`,
    phone: '(619) 555-0142',
    consultationType: 'family-law',
    practiceArea: 'custody',
    notes: 'Two children; current order from 2021.',
  });

  await openScreen(page);
  const row = item(page, booked.name);
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('heading', { level: 4 })).toHaveText(booked.name);
  await expect(row).toContainText('Scheduled');
  await expect(row).toContainText('Family Law Consultation (45 min)');
  await expect(row).toContainText('Practice area: Custody');
  await expect(row.locator('time')).toHaveText(firmDateText(booked.scheduledDate));
  // The firm's time, with the zone: the slot as booked, 45 minutes long.
  await expect(row).toContainText(new RegExp(`${slotLabel(booked.time)} – \\d{1,2}:\\d{2}\\s[AP]M P[DS]T`));
  await expect(
    page
      .getByRole('region', { name: /Upcoming/ })
      .getByTestId('appointment')
      .filter({ hasText: booked.name }),
  ).toHaveCount(1);
  await expect(count(page, 'scheduled')).toHaveText(String(before.scheduled + 1));

  // Confirm: only for scheduled ones.
  await row.getByRole('button', { name: `Confirm appointment for ${booked.name}` }).click();
  await expect(toasts(page)).toContainText('Success');
  await expect(toasts(page)).toContainText('Appointment status updated successfully');
  await expect(row).toContainText('Confirmed');
  await expect(row.getByRole('button', { name: /^Confirm/ })).toHaveCount(0);
  await expect(row.getByRole('button', { name: /^View Details/ })).toBeFocused();
  expect((await stored(adminApi, booked.id))?.status).toBe('confirmed');
  await expect(count(page, 'scheduled')).toHaveText(String(before.scheduled));
  await expect(count(page, 'confirmed')).toHaveText(String(before.confirmed + 1));

  // The status dropdown: all four values, the current one checked; back to scheduled brings Confirm back.
  // By keyboard: nothing changes while moving through the values, only on Enter.
  await row.getByRole('button', { name: `Change Status for ${booked.name}` }).focus();
  await page.keyboard.press('Enter');
  // Completed is there, disabled until the consultation has started (the server refuses it too).
  await expect(page.getByRole('menuitemradio')).toHaveText(['Scheduled', 'Confirmed', 'Completed (once it has started)', 'Cancelled']);
  await expect(page.getByRole('menuitemradio', { name: /^Completed/ })).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByRole('menuitemradio', { name: 'Confirmed' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('menuitemradio', { name: 'Scheduled' })).toBeFocused();
  for (const [key, focused] of [
    ['ArrowDown', 'Confirmed'],
    ['ArrowDown', 'Cancelled'],
    ['ArrowUp', 'Confirmed'],
    ['ArrowUp', 'Scheduled'],
  ]) {
    await page.keyboard.press(key!);
    await expect(page.getByRole('menuitemradio', { name: focused })).toBeFocused();
  }
  expect((await stored(adminApi, booked.id))?.status).toBe('confirmed');
  await expectNoAxeViolations(page);
  await screenshot(page, info, 'admin-appointments-status-menu', { fullPage: false });
  await page.keyboard.press('Enter');
  await expect(toasts(page)).toContainText('Appointment status updated successfully');
  await expect(row).toContainText('Scheduled');
  await expect(row.getByRole('button', { name: /^Confirm/ })).toBeVisible();
  expect((await stored(adminApi, booked.id))?.status).toBe('scheduled');

  // Cancelled is final: the screen asks first, says what the client hears, then neither Confirm nor the dropdown remain.
  await chooseStatus(page, row, 'Cancelled');
  await expect(alert(page)).toContainText('Mark this appointment as cancelled?');
  await expect(alert(page)).toContainText(booked.name);
  await expect(alert(page)).toContainText('its status cannot be changed again');
  await expect(alert(page)).toContainText(await cancellationNotice(page));
  // An optional reason, told to the client in the cancellation e-mail.
  await alert(page)
    .getByRole('textbox', { name: /^Reason/ })
    .fill('The attorney is in court that morning.');
  await expectNoAxeViolations(page);
  await screenshot(page, info, 'admin-appointments-final-status', { fullPage: false });
  await alert(page).getByRole('button', { name: 'Mark as Cancelled' }).click();
  await expect(alert(page)).toHaveCount(0);
  await expect(toasts(page)).toContainText('Appointment status updated successfully');
  await expect(row).toContainText('Cancelled');
  await expect(row).toContainText('Cancellation reason: The attorney is in court that morning.');
  await expect(row.getByRole('button', { name: /^Confirm/ })).toHaveCount(0);
  await expect(row.getByRole('button', { name: /^Change Status/ })).toHaveCount(0);
  expect((await stored(adminApi, booked.id))?.status).toBe('cancelled');
  await expect(count(page, 'cancelled')).toHaveText(String(before.cancelled + 1));

  // Delete asks for confirmation; Cancel keeps it.
  await row.getByRole('button', { name: `Delete appointment for ${booked.name}` }).click();
  await expect(alert(page)).toContainText('Delete this appointment?');
  await alert(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(alert(page)).toHaveCount(0);
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /^Delete/ }).click();
  // Already cancelled (its e-mail went then): the deletion tells the client nothing more.
  await expect(alert(page)).toContainText('The client is not e-mailed: it has already started or ended.');
  await expectNoAxeViolations(page);
  await screenshot(page, info, 'admin-appointments-delete', { fullPage: false });
  await alert(page).getByRole('button', { name: 'Delete Appointment' }).click();
  await expect(toasts(page)).toContainText('Appointment deleted successfully');
  await expect(row).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Appointment list' })).toBeFocused();
  expect(await stored(adminApi, booked.id)).toBeUndefined();
  await expect(count(page, 'cancelled')).toHaveText(String(before.cancelled));
  consoleErrors.expectNone();
});

test('the details dialog shows every field; confirm, cancel and delete from it', async ({ page, adminApi }, info) => {
  const consoleErrors = watchConsole(page);
  const id = tag(info, 'details');
  const booking: Booking = {
    firstName: 'Robert',
    lastName: `Chen ${id}`,
    email: `${id}@example.com`,
    phone: '(858) 555-0110',
    consultationType: 'estate-planning',
    practiceArea: 'trust-administration',
    notes: 'Successor trustee for my late aunt’s trust.\nThree beneficiaries, one out of state.',
  };
  const booked = await bookThroughPublicSite(page, adminApi, booking);
  await openScreen(page);
  const row = item(page, booked.name);
  const opener = row.getByRole('button', { name: `View Details for ${booked.name}` });
  await opener.click();

  const d = details(page);
  await expect(d.getByRole('heading', { name: booked.name })).toBeVisible();
  const field = (term: string) =>
    d
      .locator('dl > div')
      .filter({ has: page.locator('dt', { hasText: new RegExp(`^${term}$`) }) })
      .locator('dd');
  await expect(field('Status')).toHaveText('Scheduled');
  await expect(field('Consultation type')).toHaveText('Estate Planning Review');
  await expect(field('Date')).toHaveText(firmDateText(booked.scheduledDate));
  await expect(field('Time')).toHaveText(new RegExp(`^${slotLabel(booked.time)} – \\d{1,2}:\\d{2}\\s[AP]M P[DS]T$`));
  await expect(field('Duration')).toHaveText('60 minutes');
  await expect(field('Practice area')).toHaveText('Trust Administration');
  await expect(field('Email').getByRole('link', { name: booking.email })).toHaveAttribute('href', new RegExp(`^mailto:${booking.email}\\?subject=`));
  await expect(field('Phone').getByRole('link', { name: booking.phone! })).toHaveAttribute('href', 'tel:+18585550110');
  await expect(field('Reminder sent')).toHaveText('No');
  await expect(field('Booked')).toHaveText(/\w{3}, \w{3} \d{1,2}, \d{4} at \d{1,2}:\d{2}\s[AP]M P[DS]T/);
  await expect(field('Last updated')).toHaveText(/P[DS]T$/);
  await expect(field('Notes')).toHaveText(booking.notes!, { useInnerText: true });
  await expectNoAxeViolations(page);
  await screenshotDialog(d, info, 'admin-appointments-details');

  // Confirm from the dialog; the focus goes to Close when the button is gone.
  await d.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(toasts(page)).toContainText('Appointment status updated successfully');
  await expect(field('Status')).toHaveText('Confirmed');
  await expect(d.getByRole('button', { name: 'Confirm', exact: true })).toHaveCount(0);
  await expect(d.getByRole('button', { name: 'Close', exact: true }).first()).toBeFocused();

  // Cancelled is final: Keep Current Status changes nothing; Mark as Cancelled does.
  await chooseStatus(page, d, 'Cancelled');
  await expect(alert(page)).toContainText('Mark this appointment as cancelled?');
  await alert(page).getByRole('button', { name: 'Keep Current Status' }).click();
  await expect(alert(page)).toHaveCount(0);
  await expect(field('Status')).toHaveText('Confirmed');
  expect((await stored(adminApi, booked.id))?.status).toBe('confirmed');
  await chooseStatus(page, d, 'Cancelled');
  await alert(page).getByRole('button', { name: 'Mark as Cancelled' }).click();
  await expect(toasts(page)).toContainText('Appointment status updated successfully');
  await expect(field('Status')).toHaveText('Cancelled');
  await expect(d.getByRole('button', { name: /^Change Status/ })).toHaveCount(0);
  await expect(d.getByRole('button', { name: 'Confirm', exact: true })).toHaveCount(0);
  expect((await stored(adminApi, booked.id))?.status).toBe('cancelled');

  // Escape closes and gives the focus back (once the toast, the newest layer, has gone: until then
  // Escape dismisses the toast first); then delete from the dialog.
  await expectToastsGone(page);
  await page.keyboard.press('Escape');
  await expect(d).toHaveCount(0);
  await expect(opener).toBeFocused();
  await expect(row).toContainText('Cancelled');
  await opener.click();
  await d.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(alert(page)).toContainText(booked.name);
  await alert(page).getByRole('button', { name: 'Delete Appointment' }).click();
  await expect(toasts(page)).toContainText('Appointment deleted successfully');
  await expect(alert(page)).toHaveCount(0);
  await expect(d).toHaveCount(0);
  await expect(row).toHaveCount(0);
  expect(await stored(adminApi, booked.id)).toBeUndefined();
  consoleErrors.expectNone();
});

test("a refused status change shows the server's 409 message and the current status", async ({ page, adminApi }, info) => {
  const consoleErrors = watchConsole(page);
  const id = tag(info, 'conflict');
  const booked = await bookThroughPublicSite(page, adminApi, {
    firstName: 'Ava',
    lastName: `Stone ${id}`,
    email: `${id}@example.com`,
    consultationType: 'initial',
    practiceArea: 'divorce',
  });
  await openScreen(page);
  const row = item(page, booked.name);
  await expect(row).toContainText('Scheduled');

  // Someone else cancels it meanwhile; this screen still shows it scheduled.
  expect((await adminApi.put(`/api/admin/appointments/${booked.id}`, { data: { status: 'cancelled' } })).status()).toBe(200);
  await row.getByRole('button', { name: /^Confirm/ }).click();
  await expect(toasts(page)).toContainText('Error');
  await expect(toasts(page)).toContainText('Failed to update appointment. This appointment is already cancelled; its status can no longer change.');
  // The list is reloaded: the real status, and no actions it no longer allows.
  await expect(row).toContainText('Cancelled');
  await expect(row.getByRole('button', { name: /^Confirm/ })).toHaveCount(0);
  await expect(row.getByRole('button', { name: /^Change Status/ })).toHaveCount(0);
  await expect(row.getByRole('button', { name: /^View Details/ })).toBeFocused();
  await screenshot(page, info, 'admin-appointments-refused');
  expect((await adminApi.delete(`/api/admin/appointments/${booked.id}`)).status()).toBe(204);
  consoleErrors.expectOnly(/the server responded with a status of 409/, /^Failed to update appointment/);
});

test('failed update and delete show the SPEC §8 error toasts and change nothing', async ({ page, adminApi }, info) => {
  const consoleErrors = watchConsole(page);
  const id = tag(info, 'fail');
  const booked = await bookThroughPublicSite(page, adminApi, {
    firstName: 'Noah',
    lastName: `Fail ${id}`,
    email: `${id}@example.com`,
    consultationType: 'follow-up',
    practiceArea: 'other',
  });
  await page.route(`**/api/admin/appointments/${booked.id}`, (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Internal error"}' }),
  );
  await openScreen(page);
  const row = item(page, booked.name);

  await row.getByRole('button', { name: /^Confirm/ }).click();
  await expect(toasts(page)).toContainText('Error');
  await expect(toasts(page)).toContainText('Failed to update appointment');
  await expect(toasts(page)).not.toContainText('Failed to update appointment.');
  await expect(row).toContainText('Scheduled');

  await row.getByRole('button', { name: /^Delete/ }).click();
  await alert(page).getByRole('button', { name: 'Delete Appointment' }).click();
  await expect(toasts(page)).toContainText('Failed to delete appointment');
  await expect(alert(page)).toHaveCount(0);
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('button', { name: /^Delete/ })).toBeFocused();
  expect((await stored(adminApi, booked.id))?.status).toBe('scheduled');

  await page.unroute(`**/api/admin/appointments/${booked.id}`);
  expect((await adminApi.delete(`/api/admin/appointments/${booked.id}`)).status()).toBe(204);
  consoleErrors.expectOnly(/the server responded with a status of 500/, /^Failed to (update|delete) appointment/);
});

test('status filter and count cards', async ({ page, adminApi }, info) => {
  const consoleErrors = watchConsole(page);
  const id = tag(info, 'filter');
  const first = await bookThroughPublicSite(
    page,
    adminApi,
    { firstName: 'Iris', lastName: `Early ${id}`, email: `early-${id}@example.com`, consultationType: 'divorce', practiceArea: 'divorce' },
    { weeksAhead: [3, 3] },
  );
  const second = await bookThroughPublicSite(
    page,
    adminApi,
    { firstName: 'Omar', lastName: `Later ${id}`, email: `later-${id}@example.com`, consultationType: 'initial', practiceArea: 'family-law' },
    { weeksAhead: [5, 5] },
  );
  expect((await adminApi.put(`/api/admin/appointments/${second.id}`, { data: { status: 'confirmed' } })).status()).toBe(200);

  await openScreen(page);
  await expect(statusFilter(page).locator('option')).toHaveText(['All statuses', 'Scheduled', 'Confirmed', 'Completed', 'Cancelled']);
  // The cards count every appointment by status, whatever the filter.
  const all = (await (await adminApi.get('/api/admin/appointments')).json()) as StoredAppointment[];
  for (const status of ['scheduled', 'confirmed', 'completed', 'cancelled']) {
    await expect(count(page, status)).toHaveText(String(all.filter((a) => a.status === status).length));
  }
  await expect(page.getByRole('status').filter({ hasText: 'in total' })).toHaveText(`${all.length} appointments in total`);

  // Upcoming first, soonest first.
  const mine = page.getByTestId('appointment').filter({ hasText: id }).getByRole('heading', { level: 4 });
  await expect(mine).toHaveText([first.name, second.name]);

  await statusFilter(page).selectOption('confirmed');
  await expect(mine).toHaveText([second.name]);
  await expect(page.getByTestId('appointment').filter({ hasNotText: 'Confirmed' })).toHaveCount(0);
  await expect(page).toHaveURL(/\?status=confirmed$/);
  await expect(count(page, 'scheduled')).toHaveText(String(all.filter((a) => a.status === 'scheduled').length));
  await statusFilter(page).selectOption('scheduled');
  await expect(mine).toHaveText([first.name]);
  await page.reload();
  await expect(statusFilter(page)).toHaveValue('scheduled');
  await expect(mine).toHaveText([first.name]);
  await statusFilter(page).selectOption('all');
  await expect(page).toHaveURL(new RegExp(`${SCREEN}$`));
  await expectNoAxeViolations(page, { fromTop: true });
  await screenshot(page, info, 'admin-appointments');

  for (const b of [first, second]) expect((await adminApi.delete(`/api/admin/appointments/${b.id}`)).status()).toBe(204);
  consoleErrors.expectNone();
});

test('search and date range: by name, e-mail or reference, between two firm days; kept in the address bar across a reload', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  // A fixed list (the shared database holds every spec's bookings): the screen's filtering is under test.
  const day = 86_400_000;
  const now = Date.now();
  const row = (name: string, offsetDays: number, id: string) => ({
    id,
    firstName: name,
    lastName: 'Filter',
    email: `${name.toLowerCase()}@example.com`,
    phone: name === 'Ines' ? '(858) 555-0142' : null,
    consultationType: 'initial',
    scheduledDate: new Date(now + offsetDays * day).toISOString(),
    duration: 30,
    status: 'scheduled',
    notes: null,
    practiceArea: 'family-law',
    reminderSent: false,
    externalEventId: null,
    createdAt: new Date(now - day).toISOString(),
    updatedAt: new Date(now - day).toISOString(),
  });
  const rows = [
    row('Ines', 3, 'c0ffee00-1111-4222-8333-444455556666'),
    row('Omar', 10, 'bead0000-1111-4222-8333-444455556666'),
    row('Zoe', 20, 'f00d0000-1111-4222-8333-444455556666'),
  ];
  await page.route('**/api/admin/appointments', (route) => route.fulfill({ json: rows }));
  await openScreen(page);
  const names = () => page.getByRole('heading', { level: 4 });
  const search = page.getByRole('searchbox', { name: 'Search' });
  await search.fill('omar');
  await expect(names()).toHaveText(['Omar Filter']);
  await expect(page.getByText('Showing 1 of 3 appointments')).toBeVisible();
  await search.fill('C0FF-EE00');
  await expect(names()).toHaveText(['Ines Filter']);
  await search.fill('858 555');
  await expect(names()).toHaveText(['Ines Filter']);
  await search.fill('');

  // Between two firm days, both included.
  const firmDay = (offset: number) => firmDateOf(new Date(now + offset * day));
  await page.getByLabel('From').fill(firmDay(5));
  await page.getByLabel('To').fill(firmDay(20));
  await expect(names()).toHaveText(['Omar Filter', 'Zoe Filter']);
  await expect(page).toHaveURL(new RegExp(`from=${firmDay(5)}&to=${firmDay(20)}$`));
  await expectNoAxeViolations(page, { label: 'appointments filtered' });
  await screenshot(page, info, 'admin-appointments-filtered');
  await page.reload();
  await expect(page.getByLabel('From')).toHaveValue(firmDay(5));
  await expect(names()).toHaveText(['Omar Filter', 'Zoe Filter']);

  // The week view: this week's consultations on their days; the next week one click away.
  await page.getByRole('button', { name: 'Clear Filters' }).click();
  await page.getByRole('button', { name: 'Week', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Week', exact: true })).toHaveAttribute('aria-pressed', 'true');
  const weekView = page.getByTestId('week-view');
  const inWeek = (start: string) => rows.filter((r) => weekOf(start).includes(firmDateOf(new Date(r.scheduledDate)))).map((r) => `${r.firstName} Filter`);
  const shownInWeek = () => weekView.getByTestId('week-appointment').locator('p.font-semibold');
  const today = firmDateOf(new Date(now));
  await expect(shownInWeek()).toHaveText(inWeek(today));
  await expect(weekView.locator(`[data-day="${today}"]`)).toContainText('(today)');
  await expectNoAxeViolations(page, { label: 'appointments, week view' });
  await screenshot(page, info, 'admin-appointments-week');
  await weekView.getByRole('button', { name: 'Next Week' }).click();
  await expect(shownInWeek()).toHaveText(inWeek(firmDateOf(new Date(now + 7 * day))));
  await weekView.getByRole('button', { name: 'Next Week' }).click();
  await expect(shownInWeek()).toHaveText(inWeek(firmDateOf(new Date(now + 14 * day))));
  await weekView.getByRole('button', { name: 'This Week' }).click();
  await expect(shownInWeek()).toHaveText(inWeek(today));
  await page.getByRole('button', { name: 'List', exact: true }).click();

  // Nothing matches: said, with the way back.
  await page.getByRole('searchbox', { name: 'Search' }).fill('nobody by that name');
  await expect(page.getByText('No appointment matches these filters.')).toBeVisible();
  await page.getByRole('button', { name: 'Show All Appointments' }).click();
  await expect(names()).toHaveCount(3);
  await expect(page).toHaveURL(/\/admin\/appointments$/);
  consoleErrors.expectNone();
});

test('the day view: one firm day in time order, the day before and after, today; the filters apply; usable at phone width', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  const day = 86_400_000;
  const now = Date.now();
  const inTwoDays = firmDateOf(new Date(now + 2 * day));
  const at = (date: string, time: string) => firmInstant(date, time).toISOString();
  const row = (name: string, scheduledDate: string, status: string, id: string) => ({
    id,
    firstName: name,
    lastName: 'Daily',
    email: `${name.toLowerCase()}@example.com`,
    phone: null,
    consultationType: 'estate-planning',
    scheduledDate,
    duration: 60,
    status,
    notes: null,
    practiceArea: 'estate-planning',
    reminderSent: false,
    externalEventId: null,
    createdAt: new Date(now - day).toISOString(),
    updatedAt: new Date(now - day).toISOString(),
  });
  // Listed out of order; the day shows them by time.
  const rows = [
    row('Afternoon', at(inTwoDays, '14:00'), 'confirmed', 'a0000000-1111-4222-8333-444455556666'),
    row('Morning', at(inTwoDays, '09:00'), 'scheduled', 'b0000000-1111-4222-8333-444455556666'),
    row('Noon', at(inTwoDays, '11:00'), 'confirmed', 'c0000000-1111-4222-8333-444455556666'),
    row('Later', at(firmDateOf(new Date(now + 3 * day)), '10:00'), 'scheduled', 'd0000000-1111-4222-8333-444455556666'),
  ];
  await page.route('**/api/admin/appointments', (route) => route.fulfill({ json: rows }));
  await openAdminScreen(page, SCREEN, 'Appointments');
  await page.getByRole('button', { name: 'Day', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Day', exact: true })).toHaveAttribute('aria-pressed', 'true');
  const dayView = page.getByTestId('day-view');
  const names = () => dayView.getByTestId('day-appointment').locator('p.font-semibold');
  const today = firmDateOf(new Date(now));
  await expect(dayView).toHaveAttribute('data-day', today);
  await expect(dayView.getByRole('heading', { level: 3 })).toContainText('(today)');
  await dayView.getByRole('button', { name: 'Next Day' }).click();
  await dayView.getByRole('button', { name: 'Next Day' }).click();
  await expect(dayView).toHaveAttribute('data-day', inTwoDays);
  await expect(names()).toHaveText(['Morning Daily', 'Noon Daily', 'Afternoon Daily']);
  await expect(dayView.getByTestId('day-appointment').first()).toContainText('Estate Planning Review (60 min)');
  await expectNoAxeViolations(page, { label: 'appointments, day view' });
  await screenshot(page, info, 'admin-appointments-day');
  // At phone width (this spec runs on desktop only): the rows stack, nothing is wider than the screen.
  const desktop = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSideways(page);
  for (const row of await dayView.getByTestId('day-appointment').all()) {
    const box = (await row.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  await screenshot(page, info, 'admin-appointments-day-390');
  await page.setViewportSize(desktop);
  // The status filter applies here too.
  await statusFilter(page).selectOption('confirmed');
  await expect(names()).toHaveText(['Noon Daily', 'Afternoon Daily']);
  await statusFilter(page).selectOption('all');
  // View Details opens the same dialog.
  await dayView.getByRole('button', { name: 'View Details for Noon Daily' }).click();
  await expect(details(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dayView.getByRole('button', { name: 'View Details for Noon Daily' })).toBeFocused();
  await dayView.getByRole('button', { name: 'Next Day' }).click();
  await expect(names()).toHaveText(['Later Daily']);
  await dayView.getByRole('button', { name: 'Previous Day' }).click();
  await expect(dayView).toHaveAttribute('data-day', inTwoDays);
  await dayView.getByRole('button', { name: 'Today' }).click();
  await expect(dayView).toHaveAttribute('data-day', today);
  await expect(dayView.getByText('No appointments on this day.')).toBeVisible();
  consoleErrors.expectNone();
});

test("past appointments after upcoming ones, and 'No appointments found'", async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  // Past consultations cannot be booked through the public API (the server refuses a past slot), and
  // an empty list cannot be had on the shared database: both are served by a route interception, as
  // the screen's handling of such an answer is what is under test.
  const now = Date.now();
  const day = 86_400_000;
  const row = (name: string, offsetDays: number, status: string) => ({
    id: `mock-${name}`,
    firstName: name,
    lastName: 'Mock',
    email: `${name.toLowerCase()}@example.com`,
    phone: null,
    consultationType: 'initial',
    scheduledDate: new Date(now + offsetDays * day).toISOString(),
    duration: 30,
    status,
    notes: null,
    practiceArea: 'family-law',
    reminderSent: false,
    externalEventId: null,
    createdAt: new Date(now - 30 * day).toISOString(),
    updatedAt: new Date(now - 30 * day).toISOString(),
  });
  const rows = [
    row('LastWeek', -7, 'completed'),
    row('NextMonth', 30, 'scheduled'),
    row('Yesterday', -1, 'confirmed'),
    row('Tomorrow', 1, 'confirmed'),
    row('LongAgo', -60, 'completed'),
  ];
  await page.route('**/api/admin/appointments', (route) => route.fulfill({ json: rows }));
  await openScreen(page);
  await expect(page.getByRole('region', { name: /Upcoming/ }).getByRole('heading', { level: 4 })).toHaveText(['Tomorrow Mock', 'NextMonth Mock']);
  await expect(page.getByRole('region', { name: /Past/ }).getByRole('heading', { level: 4 })).toHaveText(['Yesterday Mock', 'LastWeek Mock', 'LongAgo Mock']);
  await expect(page.getByRole('heading', { level: 4 })).toHaveText(['Tomorrow Mock', 'NextMonth Mock', 'Yesterday Mock', 'LastWeek Mock', 'LongAgo Mock']);
  await expect(count(page, 'scheduled')).toHaveText('1');
  await expect(count(page, 'confirmed')).toHaveText('2');
  await expect(count(page, 'completed')).toHaveText('2');
  await expect(count(page, 'cancelled')).toHaveText('0');

  // A filter with no match: 'No appointments found', and a way back to all of them.
  await statusFilter(page).selectOption('cancelled');
  await expect(page.getByRole('heading', { name: 'No appointments found' })).toBeVisible();
  await expect(page.getByText('No appointment is cancelled.')).toBeVisible();
  await page.getByRole('button', { name: 'Show All Appointments' }).click();
  await expect(statusFilter(page)).toHaveValue('all');
  await expect(page.getByRole('heading', { level: 4 })).toHaveCount(5);

  await page.unroute('**/api/admin/appointments');
  await page.route('**/api/admin/appointments', (route) => route.fulfill({ json: [] }));
  await openScreen(page);
  await expect(page.getByRole('heading', { name: 'No appointments found' })).toBeVisible();
  for (const status of ['scheduled', 'confirmed', 'completed', 'cancelled']) await expect(count(page, status)).toHaveText('0');
  await expectNoAxeViolations(page);
  await screenshot(page, info, 'admin-appointments-empty');
  consoleErrors.expectNone();
});
