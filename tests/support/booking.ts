/**
 * The public booking modal (SPEC §4 Booking modal, §5 Booking form), driven as a visitor drives it:
 * shared by the specs that book through it (booking.spec.ts, and admin-appointments.spec.ts and
 * integrations-effects.spec.ts, which book on the public site and then follow the booking).
 */
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { addDays, firmInstant, firmToday } from '../../src/shared/firm-time.ts';
import { isBookableDay } from './bookable-days.ts';
import { consultationTypes, timeSlots } from '../../src/shared/constants.ts';

/** A visitor's step 2 details; phone and notes are optional, as on the form. */
export interface BookingVisitor {
  firstName: string;
  lastName: string;
  email: string;
  phone?: string;
  practiceArea: string;
  notes?: string;
}

export const bookingDialog = (page: Page) => page.getByRole('dialog', { name: 'Schedule a Consultation' });
export const bookingButton = (page: Page, name: string) => bookingDialog(page).getByRole('button', { name, exact: true });
/** A day of the calendar, by its firm date ('2026-05-14'). */
export const bookingDay = (page: Page, date: string) => bookingDialog(page).locator(`[data-date="${date}"]`);

export const bookingFields = (page: Page) => ({
  firstName: bookingDialog(page).getByRole('textbox', { name: 'First Name' }),
  lastName: bookingDialog(page).getByRole('textbox', { name: 'Last Name' }),
  email: bookingDialog(page).getByRole('textbox', { name: 'Email Address' }),
  phone: bookingDialog(page).getByRole('textbox', { name: 'Phone', exact: true }),
  practiceArea: bookingDialog(page).getByRole('combobox', { name: 'Practice Area' }),
  notes: bookingDialog(page).getByRole('textbox', { name: 'Notes', exact: true }),
});

/** '10:30' -> '10:30 AM': the slot labels of SPEC §9, independent of the modal's own formatting. */
export const slotLabel = (time: string) => {
  const [h = 0, m = 0] = time.split(':').map(Number);
  return `${h % 12 || 12}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
};

/** Opens the modal with one of the site's Schedule Consultation buttons: step 1. */
export async function openBooking(page: Page, trigger: Locator) {
  await trigger.click();
  await expect(bookingDialog(page)).toBeVisible();
  await expect(bookingDialog(page)).toHaveAccessibleDescription('Step 1 of 3: choose a consultation type, a date and a time.');
}

/**
 * A calendar (the modal's, or a booking page's) moved on with Next month until `date`'s day shows, at
 * most `max` times. The calendar is waited for first: isVisible() does not wait, so on a slow machine
 * a calendar still being drawn looked like another month, and the clicks went past the date's.
 */
export async function showMonthOf(scope: Locator, date: string, max = 3) {
  await expect(scope.locator('[data-date]').first()).toBeVisible();
  for (let i = 0; i < max && !(await scope.locator(`[data-date="${date}"]`).isVisible()); i++) await scope.getByRole('button', { name: 'Next month' }).click();
}

/** Step 1's calendar: Next month until the month that holds the date shows (at most three), then the date. */
export async function chooseDay(page: Page, date: string) {
  await showMonthOf(bookingDialog(page), date);
  await bookingDay(page, date).click();
}

/** Step 2 with the pointer: every field the visitor has. */
export async function fillDetails(page: Page, v: BookingVisitor) {
  const f = bookingFields(page);
  await f.firstName.fill(v.firstName);
  await f.lastName.fill(v.lastName);
  await f.email.fill(v.email);
  if (v.phone) await f.phone.fill(v.phone);
  await f.practiceArea.selectOption(v.practiceArea);
  if (v.notes) await f.notes.fill(v.notes);
}

/** An appointment as GET /api/admin/appointments lists it (the fields the specs read). */
export interface StoredAppointment {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  status: string;
  scheduledDate: string;
  duration: number;
}

/** The stored appointments booked with `email` (the specs' e-mails are unique per test, project and run). */
export async function storedByEmail(adminApi: APIRequestContext, email: string): Promise<StoredAppointment[]> {
  const res = await adminApi.get('/api/admin/appointments');
  expect(res.status()).toBe(200);
  return ((await res.json()) as StoredAppointment[]).filter((a) => a.email === email);
}

/**
 * Books a consultation as a visitor does: on the home page, the hero's Schedule Consultation opens the
 * modal; step 1 takes the consultation type, a weekday `daysAhead[0]` to `daysAhead[1]` days after firm
 * today and one of its free times (SPEC §9 slots, firm time); step 2 the visitor's details; step 3
 * confirms ('Consultation Scheduled!'). Both projects and every spec book into one database, so the
 * day is picked at random (each spec from days of its own) and a time already taken (shown
 * Unavailable) is skipped. Returns the firm date and time chosen, the type's minutes and the one
 * appointment stored for the visitor's e-mail, still scheduled.
 */
export async function bookInModal(
  page: Page,
  adminApi: APIRequestContext,
  visitor: BookingVisitor,
  { consultationType, daysAhead }: { consultationType: (typeof consultationTypes)[number]['value']; daysAhead: [number, number] },
) {
  const today = firmToday(new Date());
  const days: string[] = [];
  for (let d = daysAhead[0]; d <= daysAhead[1]; d++) if (isBookableDay(addDays(today, d))) days.push(addDays(today, d));
  const date = days[Math.floor(Math.random() * days.length)]!;
  const type = consultationTypes.find((t) => t.value === consultationType)!;

  await page.goto('/');
  const modal = bookingDialog(page);
  await openBooking(page, page.locator('section[aria-labelledby="hero-title"]').getByRole('link', { name: 'Schedule Consultation' }));

  await modal.getByRole('radio', { name: `${type.label} (${type.minutes} min)` }).check();
  await chooseDay(page, date);
  const times = modal.getByRole('group', { name: /^Available times for/ }).getByRole('radio');
  await expect(times).toHaveCount(timeSlots.length);
  const free: string[] = [];
  for (const [i, time] of timeSlots.entries()) if (await times.nth(i).isEnabled()) free.push(time);
  expect(free.length, `no free time on ${date}`).toBeGreaterThan(0);
  const time = free[Math.floor(Math.random() * free.length)]!;
  await times.nth(timeSlots.indexOf(time as (typeof timeSlots)[number])).check();
  await bookingButton(page, 'Continue').click();

  await expect(modal).toHaveAccessibleDescription(/^Step 2 of 3/);
  await fillDetails(page, visitor);
  await bookingButton(page, 'Book Consultation').click();

  await expect(modal).toHaveAccessibleDescription(/^Step 3 of 3/);
  await expect(modal.getByRole('status')).toHaveText('Consultation Scheduled!');
  await bookingButton(page, 'Done').click();
  await expect(modal).toBeHidden();

  const [appointment, ...more] = await storedByEmail(adminApi, visitor.email);
  expect(appointment, `no appointment stored for ${visitor.email}`).toBeTruthy();
  expect(more).toEqual([]);
  expect(appointment!.scheduledDate).toBe(firmInstant(date, time).toISOString());
  expect(appointment!.status).toBe('scheduled');
  return { date, time, minutes: type.minutes, appointment: appointment! };
}
