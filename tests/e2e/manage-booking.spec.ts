/**
 * Self-service (issue 18): the booking's own page, /manage-booking#<token>, against the real server
 * and its SQLite file. From the modal's confirmation to the page; a move to another time and a
 * cancellation as a visitor makes them, with what the database then holds; a link used twice, a
 * tampered link, a time taken while the visitor chose it; axe in every mode with each panel open.
 *
 * The desktop and phone projects share one server: each test books its own weekday six or more
 * weeks ahead, mornings on desktop and afternoons on the phone.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { timeSlots } from '../../src/shared/constants.ts';
import { addDays, firmInstant, firmToday, longDateLabel } from '../../src/shared/firm-time.ts';
import { book } from '../support/appointment-requests.ts';
import { isBookableDay } from '../support/bookable-days.ts';
import { bookingButton, chooseDay as chooseModalDay, bookingDialog, fillDetails, openBooking, showMonthOf, slotLabel } from '../support/booking.ts';
import { expectNoAxeViolationsInEveryMode, screenshot, unique } from '../support/e2e.ts';

const dbPath = join(process.env.E2E_DATA_DIR ?? '', 'site.db');
const isPhone = (info: TestInfo) => info.project.name === 'phone';

/** The n-th bookable day from six weeks ahead (other specs book nearer), in the firm's calendar. */
function day(n: number): string {
  let date = addDays(firmToday(new Date()), 42);
  for (let left = n; !isBookableDay(date) || left > 0; date = addDays(date, 1)) if (isBookableDay(date)) left--;
  return date;
}
/** slot(0) is 9:00 AM on desktop and 1:00 PM on the phone. */
const slot = (info: TestInfo, i: number) => timeSlots[(isPhone(info) ? 6 : 0) + i]!;

async function bookVia(page: Page, info: TestInfo, label: string, date: string, time: string) {
  const booked = await book(page.request, {
    firstName: 'Rosa',
    lastName: 'Nguyen',
    email: `${unique(info, `manage-${label}`, '-')}@example.com`,
    consultationType: 'initial',
    practiceArea: 'other',
    scheduledDate: firmInstant(date, time).toISOString(),
  });
  return { ...booked, token: (booked as unknown as { manageToken: string }).manageToken };
}

function stored(id: string) {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('select status, scheduled_date from appointments where id = ?').get(id) as { status: string; scheduled_date: number };
  } finally {
    db.close();
  }
}

const main = (page: Page) => page.getByRole('main');
const details = (page: Page) => main(page).getByRole('region', { name: /your consultation/ });
const pageDay = (page: Page, date: string) => main(page).locator(`[data-date="${date}"]`);

async function choosePageDay(page: Page, date: string) {
  await showMonthOf(main(page), date, 4);
  await pageDay(page, date).click();
}

test('from the confirmation to the booking’s page: moved to another time, then cancelled; the link then says so', async ({ page }, info) => {
  test.setTimeout(90_000); // two panels judged by axe and HTML_CodeSniffer in three modes each
  const [date, later] = [day(0), day(1)];
  // Booked through the modal, as a visitor does.
  await page.goto('/');
  await openBooking(page, page.getByRole('main').getByRole('link', { name: 'Schedule Consultation' }).first());
  await bookingDialog(page)
    .getByRole('radio', { name: /^Initial Consultation/ })
    .check();
  await chooseModalDay(page, date);
  await bookingDialog(page)
    .getByRole('radio', { name: new RegExp(`^${slotLabel(slot(info, 0))}`) })
    .check();
  await bookingButton(page, 'Continue').click();
  await fillDetails(page, { firstName: 'Rosa', lastName: 'Nguyen', email: `${unique(info, 'manage-flow', '-')}@example.com`, practiceArea: 'other' });
  await bookingButton(page, 'Book Consultation').click();
  const link = bookingDialog(page).getByRole('link', { name: 'Reschedule or cancel online' });
  await expect(link).toBeVisible();
  const href = (await link.getAttribute('href'))!;
  expect(href).toMatch(/^\/manage-booking#[0-9a-f-]{36}\.[\w-]{43}$/);
  const id = href.slice('/manage-booking#'.length, '/manage-booking#'.length + 36);
  await link.click();

  await expect(page).toHaveURL(/\/manage-booking#/);
  await expect(page.getByRole('heading', { level: 1, name: 'Your Consultation' })).toBeVisible();
  await expect(details(page)).toContainText('Initial Consultation');
  await expect(details(page)).toContainText(longDateLabel(date));
  await expect(details(page)).toContainText(`${slotLabel(slot(info, 0))} Pacific Time (San Diego)`);
  await expect(details(page)).toContainText('Scheduled');
  await screenshot(page, info, 'manage-booking');

  // Reschedule: the present time is shown as such and cannot be chosen again.
  await main(page).getByRole('button', { name: 'Reschedule' }).click();
  await expect(main(page).getByRole('heading', { name: 'Choose a new time' })).toBeFocused();
  await expect(main(page).getByRole('radio', { name: `${slotLabel(slot(info, 0))} Your current time` })).toBeDisabled();
  await expect(main(page).getByRole('button', { name: 'Move Consultation' })).toBeDisabled();
  await expectNoAxeViolationsInEveryMode(page, { label: 'the reschedule panel', htmlcs: true });
  await choosePageDay(page, later);
  await main(page)
    .getByRole('radio', { name: new RegExp(`^${slotLabel(slot(info, 2))}`) })
    .check();
  const move = main(page).getByRole('button', { name: `Move to ${longDateLabel(later)}, ${slotLabel(slot(info, 2))}` });
  await screenshot(page, info, 'manage-booking-reschedule');
  await move.click();
  await expect(main(page).getByRole('status')).toHaveText(
    `Your consultation is moved to ${longDateLabel(later)} at ${slotLabel(slot(info, 2))} Pacific Time (San Diego).`,
  );
  await expect(main(page).getByRole('status')).toBeFocused();
  await expect(details(page)).toContainText(longDateLabel(later));
  expect(stored(id)).toEqual({ status: 'scheduled', scheduled_date: firmInstant(later, slot(info, 2)).getTime() });

  // Cancel: asked first; Keep My Consultation changes nothing.
  await main(page).getByRole('button', { name: 'Cancel Consultation' }).click();
  await expect(main(page).getByRole('heading', { name: 'Cancel your consultation?' })).toBeFocused();
  await expectNoAxeViolationsInEveryMode(page, { label: 'the cancel panel', htmlcs: true });
  await main(page).getByRole('button', { name: 'Keep My Consultation' }).click();
  expect(stored(id).status).toBe('scheduled');
  await main(page).getByRole('button', { name: 'Cancel Consultation' }).click();
  await main(page).getByRole('button', { name: 'Yes, Cancel It' }).click();
  await expect(main(page).getByRole('status')).toHaveText(
    `Your consultation on ${longDateLabel(later)} at ${slotLabel(slot(info, 2))} Pacific Time (San Diego) is cancelled.`,
  );
  await expect(details(page)).toContainText('Cancelled');
  await expect(main(page).getByRole('button', { name: 'Reschedule' })).toHaveCount(0);
  expect(stored(id).status).toBe('cancelled');
  await screenshot(page, info, 'manage-booking-cancelled');

  // The link used again: the page says it is cancelled and offers a new booking.
  await page.reload();
  await expect(main(page)).toContainText('This consultation was cancelled, so it can no longer be changed.');
  await expect(main(page).getByRole('link', { name: 'Schedule a New Consultation' })).toBeVisible();
  await expect(main(page).getByRole('button', { name: 'Cancel Consultation' })).toHaveCount(0);
});

test('a tampered link, or none, opens nothing and says what to do', async ({ page }, info) => {
  const booked = await bookVia(page, info, 'tampered', day(2), slot(info, 0));
  const last = booked.token.at(-2) === 'A' ? 'B' : 'A';
  for (const hash of [`#${booked.token.slice(0, -2)}${last}${booked.token.at(-1)}`, '', '#nonsense']) {
    await page.goto(`/manage-booking${hash}`);
    await expect(main(page).getByRole('alert')).toHaveText(
      'This link is not valid. Please open the link in your confirmation e-mail again, or call us at (619) 555-0123.',
    );
    await expect(main(page).getByRole('button', { name: /Cancel|Reschedule/ })).toHaveCount(0);
  }
  expect(stored(booked.id).status).toBe('scheduled');
  // The page is not for search engines.
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
});

test('a time taken while the visitor was choosing it: said beside the times, nothing moved', async ({ page }, info) => {
  const date = day(3);
  const booked = await bookVia(page, info, 'race', date, slot(info, 0));
  await page.goto(`/manage-booking#${booked.token}`);
  await main(page).getByRole('button', { name: 'Reschedule' }).click();
  await choosePageDay(page, date);
  await main(page)
    .getByRole('radio', { name: new RegExp(`^${slotLabel(slot(info, 3))}`) })
    .check();
  // Another visitor books that time first.
  await bookVia(page, info, 'race-other', date, slot(info, 3));
  await main(page)
    .getByRole('button', { name: /^Move to / })
    .click();
  await expect(main(page).getByRole('alert')).toHaveText('That time was just booked. Please choose another.');
  await expect(main(page).getByRole('radio', { name: `${slotLabel(slot(info, 3))} Unavailable` })).toBeDisabled();
  expect(stored(booked.id)).toEqual({ status: 'scheduled', scheduled_date: firmInstant(date, slot(info, 0)).getTime() });
});
