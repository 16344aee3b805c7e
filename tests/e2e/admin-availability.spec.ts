/**
 * /admin/availability (decision 032), signed in as an admin made by `npm run admin:create`'s script:
 * the admin closes a day and the public booking modal no longer offers it (struck through, with the
 * reason), and the availability answer says why; hours with a break, the live summary, a refused value
 * said beside its field with nothing sent, and the unsaved-changes guard. Desktop and phone width (the
 * projects run one after the other on one server); each test puts the firm's rules back afterwards.
 */
import type { Page, TestInfo } from '@playwright/test';
import { addDays, firmToday, longDateLabel } from '../../src/shared/firm-time.ts';
import { defaultBookingRulesSettings } from '../../src/shared/schemas/booking-rules.ts';
import { expect, openAdminScreen, test } from '../support/admin.ts';
import { isBookableDay } from '../support/bookable-days.ts';
import { bookingButton, bookingDay, bookingDialog, openBooking, showMonthOf } from '../support/booking.ts';
import { expectNoAxeViolations, expectNoSideways, screenshot, toasts, watchConsole } from '../support/e2e.ts';

const SCREEN = '/admin/availability';
const API = '/api/admin/booking-rules';

const summary = (page: Page) => page.getByTestId('availability-summary');
const bar = (page: Page) => page.getByRole('region', { name: 'Unsaved changes' });
const closures = (page: Page) => page.getByRole('region', { name: 'Closures' });

/** A day the firm is open, six to eight weeks ahead (past the other specs' bookings), one of its own per project. */
function dayToClose(info: TestInfo): string {
  let date = addDays(firmToday(new Date()), info.project.name === 'phone' ? 45 : 42);
  while (!isBookableDay(date)) date = addDays(date, 1);
  return date;
}

async function openScreen(page: Page) {
  await openAdminScreen(page, SCREEN, 'Availability');
  await expect(summary(page)).toBeVisible();
}

test.afterEach(async ({ adminApi }) => {
  const res = await adminApi.put(API, { data: defaultBookingRulesSettings });
  expect(res.ok(), `restore the rules: ${await res.text()}`).toBe(true);
});

test('the admin closes a day, and the booking modal no longer offers it', async ({ page, adminApi }, info) => {
  const consoleErrors = watchConsole(page);
  const date = dayToClose(info);
  await openScreen(page);
  await expect(summary(page)).toHaveText(
    'Open Mon–Fri 9:00 AM–12:00 PM and 1:00 PM–5:00 PM Pacific Time (San Diego); closed on court holidays; book 2 hours to 365 days ahead.',
  );
  await expect(page.getByText('Appointments already booked stay where they are')).toBeVisible();
  await expect(bar(page)).toHaveCount(0);
  await expectNoAxeViolations(page, { label: 'availability', fromTop: true });
  await screenshot(page, info, 'admin-availability');

  await closures(page).getByRole('button', { name: 'Add Closure' }).click();
  const first = closures(page).getByLabel('First day');
  await expect(first).toBeFocused();
  await first.fill(date);
  await closures(page).getByLabel('Last day').fill(date);
  await closures(page).getByRole('textbox', { name: 'Reason' }).fill('Firm retreat');
  await expect(summary(page)).toContainText('; 1 closure to come.');
  await expect(bar(page)).toBeVisible();
  await screenshot(page, info, 'admin-availability-closure');
  await bar(page).getByRole('button', { name: 'Save Changes' }).click();
  await expect(toasts(page).filter({ hasText: 'Availability updated successfully' })).toHaveCount(1);
  await expect(toasts(page).first()).toContainText('Success');
  await expect(bar(page)).toHaveCount(0);
  // Stored as the server keeps it.
  const stored = await (await adminApi.get(API)).json();
  expect(stored.closures).toEqual([{ from: date, to: date, reason: 'Firm retreat' }]);

  // A visitor: the day is struck through, says why, and cannot be chosen.
  await page.goto('/');
  await openBooking(page, page.getByRole('main').getByRole('link', { name: 'Schedule Consultation' }).first());
  await showMonthOf(bookingDialog(page), date);
  const day = bookingDay(page, date);
  await expect(day).toHaveAttribute('aria-disabled', 'true');
  await expect(day).toHaveAccessibleName(`${longDateLabel(date)}, unavailable (closed: Firm retreat)`);
  // Still reachable (a screen reader announces it), but choosing it chooses nothing.
  await day.click({ force: true });
  await expect(day.locator('xpath=..')).toHaveAttribute('aria-selected', 'false');
  await expect(bookingDialog(page).getByText('Choose a date to see the available times.')).toBeVisible();
  await screenshot(page, info, 'admin-availability-modal', { fullPage: false });
  // The server says the same, in the visitor's words.
  const answer = await (await page.request.get(`/api/appointments/availability?date=${date}&consultationType=initial`)).json();
  expect(answer).toMatchObject({ bookable: false, message: 'We are closed that day (Firm retreat). Please choose another day.' });
  consoleErrors.expectNone();
});

test('hours with a break, a refused value beside its field with nothing sent, and the unsaved-changes guard', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  const puts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().includes(API)) puts.push(r.postData() ?? '');
  });
  await openScreen(page);
  const friday = page.locator('[data-weekday="friday"]');
  await friday.getByRole('button', { name: 'Remove the Break on Friday' }).click();
  await expect(friday.getByText('9:00 AM–5:00 PM')).toBeVisible();
  await expect(summary(page)).toContainText('Mon–Thu 9:00 AM–12:00 PM and 1:00 PM–5:00 PM, Fri 9:00 AM–5:00 PM');
  await friday.getByRole('combobox', { name: 'Friday, Until' }).selectOption('12:00');
  await friday.getByRole('button', { name: 'Add a Break on Friday' }).click();
  await expect(friday.getByRole('combobox', { name: 'Friday, after the break, From' })).toHaveValue('11:00');
  const monday = page.locator('[data-weekday="monday"]');
  await monday.getByRole('switch', { name: 'Monday: Open' }).click();
  await expect(monday.getByRole('switch', { name: 'Monday: Closed' })).toHaveAttribute('aria-checked', 'false');
  await expect(summary(page)).toContainText('Open Tue–Thu 9:00 AM–12:00 PM and 1:00 PM–5:00 PM, Fri 9:00 AM–10:00 AM and 11:00 AM–12:00 PM');

  // A notice longer than the horizon: said beside the field, which takes the focus; nothing is sent.
  const notice = page.getByRole('textbox', { name: 'Minimum notice (hours)' });
  await notice.fill('48');
  await page.getByRole('textbox', { name: 'Booking horizon (days)' }).fill('2');
  await expect(summary(page)).toContainText('book 48 hours to 2 days ahead');
  await bar(page).getByRole('button', { name: 'Save Changes' }).click();
  await expect(notice).toBeFocused();
  await expect(notice).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('The minimum notice must be shorter than the booking horizon, or no day could be booked')).toBeVisible();
  expect(puts).toEqual([]);
  await expectNoAxeViolations(page, { label: 'availability with an error' });
  await expectNoSideways(page);
  await screenshot(page, info, 'admin-availability-error');

  // Leaving asks first; staying keeps the changes; Cancel puts the stored rules back.
  const asked = new Promise<string>((resolve) => page.once('dialog', (d) => void d.dismiss().then(() => resolve(d.type()))));
  await page.getByRole('link', { name: 'Back to Admin Dashboard' }).click();
  expect(await asked).toBe('beforeunload');
  await expect(page).toHaveURL(new RegExp(`${SCREEN}$`));
  await expect(notice).toHaveValue('48');
  await bar(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(notice).toHaveValue('2');
  await expect(bar(page)).toHaveCount(0);
  await expect(summary(page)).toContainText('Open Mon–Fri 9:00 AM–12:00 PM and 1:00 PM–5:00 PM');
  expect(puts).toEqual([]);
  consoleErrors.expectNone();
});
