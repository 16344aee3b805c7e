/**
 * The public booking modal (SPEC §4 Booking modal, §5 Booking form), driven as a visitor drives it:
 * shared by the specs that book through it (booking.spec.ts, and admin-appointments.spec.ts, which
 * books on the public site and then works with the booking in the admin).
 */
import { expect, type Locator, type Page } from '@playwright/test';

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
  phone: bookingDialog(page).getByRole('textbox', { name: /^Phone/ }),
  practiceArea: bookingDialog(page).getByRole('combobox', { name: 'Practice Area' }),
  notes: bookingDialog(page).getByRole('textbox', { name: /^Notes/ }),
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

/** Step 1's calendar: Next month until the month that holds the date shows (at most three), then the date. */
export async function chooseDay(page: Page, date: string) {
  for (let i = 0; i < 3 && !(await bookingDay(page, date).isVisible()); i++) await bookingButton(page, 'Next month').click();
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
