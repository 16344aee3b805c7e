/**
 * The booking modal (SPEC §2 and §4 Booking modal, §5 Booking form, §7 POST
 * /api/appointments, §8 booking toasts, §9 consultation types and time slots), against the real
 * server and its SQLite file: booking from the home page's hero, from /about and on a phone-width
 * screen, with the keyboard alone; the stored row (scheduledDate is the UTC instant of the chosen firm
 * time); taken slots shown as unavailable, their length counted; a lost race (409); 'Missing
 * Information'; a failed request; Book Another and Done; axe in three modes; the modal's code loaded
 * only on demand; the side menu's button; a visitor far from California.
 *
 * The desktop and phone projects share one server and database, so every test books its own slots: a
 * weekday of its own (2-4 weeks ahead, in firm dates), mornings on desktop and afternoons on the phone.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { dayState, firstSelectableDay } from '../../src/components/booking/calendar.ts';
import { addDays, firmInstant, firmToday, isWeekend, longDateLabel } from '../../src/shared/firm-time.ts';
import { isBookableDay } from '../support/bookable-days.ts';
import { holidaysOf } from '../../src/shared/booking/holidays.ts';
import { defaultBookingRules } from '../../src/shared/booking/rules.ts';
import { timeSlots } from '../../src/shared/constants.ts';
import { book } from '../support/appointment-requests.ts';
import {
  bookingButton as button,
  bookingDay as day,
  bookingDialog as dialog,
  bookingFields as fields,
  chooseDay,
  fillDetails,
  openBooking as openFrom,
  showMonthOf,
  slotLabel,
} from '../support/booking.ts';
import { expectNoAxeViolationsInEveryMode, screenshot, toasts, unique, watchConsole } from '../support/e2e.ts';

const dbPath = join(process.env.E2E_DATA_DIR ?? '', 'site.db');
const isPhone = (info: TestInfo) => info.project.name === 'phone';

/** The n-th weekday from two weeks ahead, in the firm's calendar. */
function bookingDay(n: number): string {
  let date = addDays(firmToday(new Date()), 14);
  for (let left = n; !isBookableDay(date) || left > 0; date = addDays(date, 1)) if (isBookableDay(date)) left--;
  return date;
}

/** This test's day and times: slot(0) is 9:00 AM on desktop and 1:00 PM on the phone, slot(1) the next one, ... */
function slotsFor(info: TestInfo, n: number) {
  const base = isPhone(info) ? 6 : 0;
  return { date: bookingDay(n), slot: (i: number) => timeSlots[base + i]! };
}

const visitor = (info: TestInfo, label: string) => ({
  firstName: 'Maria',
  lastName: `Alvarez-${label}`,
  email: `${unique(info, `booking-${label}`, '-')}@example.com`,
  phone: '(619) 555-0142',
  practiceArea: 'custody',
  notes: 'Two children; we would like to talk about a parenting plan.',
});
type Visitor = ReturnType<typeof visitor>;

const typeRadio = (page: Page, label: RegExp | string) => dialog(page).getByRole('radio', { name: label });
const timeRadio = (page: Page, time: string) => dialog(page).getByRole('radio', { name: new RegExp(`^${slotLabel(time)}`) });

/** Requests for the modal's own chunk (src/components/booking/open-booking.tsx). */
function watchModalChunk(page: Page) {
  const urls: string[] = [];
  page.on('request', (req) => {
    if (/\/_astro\/open-booking\.[\w-]+\.js$/.test(req.url())) urls.push(req.url());
  });
  return urls;
}

/** Step 1 with the pointer: type, then the month that holds the date, the date, and the time. */
async function chooseSlot(page: Page, choice: { type: RegExp | string; date: string; time: string }) {
  await typeRadio(page, choice.type).check();
  await chooseDay(page, choice.date);
  await expect(day(page, choice.date).locator('xpath=..')).toHaveAttribute('aria-selected', 'true');
  await timeRadio(page, choice.time).check();
  await expect(button(page, 'Continue')).toBeEnabled();
}

/** The page's own Schedule Consultation button, in its main content (the header has one too). */
const mainTrigger = (page: Page) => page.getByRole('main').getByRole('link', { name: 'Schedule Consultation' }).first();

/** Steps 1 and 2 with the pointer: the slot, Continue, and the visitor's details (not sent yet). */
async function chooseSlotAndFillDetails(page: Page, choice: Parameters<typeof chooseSlot>[1], v: Visitor) {
  await chooseSlot(page, choice);
  await button(page, 'Continue').click();
  await fillDetails(page, v);
}

function storedAppointments(email: string) {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        `select first_name, last_name, email, phone, consultation_type, practice_area, notes, scheduled_date, duration, status, reminder_sent
         from appointments where email = ? order by scheduled_date`,
      )
      .all(email);
  } finally {
    db.close();
  }
}

const storedRow = (v: Visitor, type: string, minutes: number, date: string, time: string) => ({
  first_name: v.firstName,
  last_name: v.lastName,
  email: v.email,
  phone: v.phone,
  consultation_type: type,
  practice_area: v.practiceArea,
  notes: v.notes,
  // Stored in UTC, the instant of the firm's wall-clock time (Drizzle's timestamp_ms).
  scheduled_date: firmInstant(date, time).getTime(),
  duration: minutes,
  status: 'scheduled',
  reminder_sent: 0,
});

/** A booking made straight through the API, as another visitor would. */
async function bookDirectly(page: Page, info: TestInfo, type: string, date: string, time: string) {
  await book(page.request, {
    firstName: 'Other',
    lastName: 'Visitor',
    email: `${unique(info, 'other', '-')}@example.com`,
    consultationType: type,
    practiceArea: 'other',
    scheduledDate: firmInstant(date, time).toISOString(),
  });
}

/** What the viewport shows (the modal is fixed), with no pointer hover left over: what a person sees. */
const shot = (page: Page, info: TestInfo, name: string) => screenshot(page, info, `booking-${name}`, { fullPage: false, unhover: true });

test('the hero opens the modal, whose code loads on demand; a booking is stored in UTC and confirmed', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  const chunk = watchModalChunk(page);
  const { date, slot } = slotsFor(info, 0);
  const v = visitor(info, 'hero');
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(chunk, 'the modal is not downloaded with the page').toEqual([]);

  const hero = page.locator('section[aria-labelledby="hero-title"]');
  const trigger = hero.getByRole('link', { name: 'Schedule Consultation' });
  await expect(trigger).toHaveAttribute('href', '/contact');
  await expect(trigger).toHaveAttribute('data-component', 'consultation_booking');
  await openFrom(page, trigger);
  expect(chunk).toHaveLength(1);
  await expect(page).toHaveURL(/\/$/); // the link's navigation was prevented

  // Step 1: nothing chosen, the five types with minutes, the zone, times only once a date is chosen.
  await expect(dialog(page).getByRole('radio', { checked: true })).toHaveCount(0);
  await expect(dialog(page).getByRole('group', { name: 'Consultation type' }).getByRole('radio')).toHaveCount(5);
  for (const label of [
    'Initial Consultation (30 min)',
    'Follow-up Meeting (30 min)',
    'Estate Planning Review (60 min)',
    'Family Law Consultation (45 min)',
    'Divorce Consultation (60 min)',
  ])
    await expect(typeRadio(page, label)).toBeVisible();
  await expect(dialog(page)).toContainText('Times are Pacific Time (San Diego).');
  await expect(dialog(page)).toContainText('Choose a date to see the available times.');
  await expect(dialog(page).getByRole('radio', { name: /AM|PM/ })).toHaveCount(0);
  await expect(button(page, 'Continue')).toBeDisabled();
  await shot(page, info, 'step1');

  await typeRadio(page, 'Estate Planning Review (60 min)').check();
  await expect(button(page, 'Continue')).toBeDisabled();
  await chooseDay(page, date);
  await expect(button(page, 'Continue')).toBeDisabled();
  const times = dialog(page)
    .getByRole('group', { name: `Available times for ${longDateLabel(date)}` })
    .getByRole('radio');
  await expect(times).toHaveCount(13);
  await timeRadio(page, slot(1)).check();
  await shot(page, info, 'step1-chosen');
  await button(page, 'Continue').click();

  // Step 2: the choice repeated, the required fields marked, the inquiry notice.
  await expect(dialog(page)).toHaveAccessibleDescription('Step 2 of 3: your contact details.');
  await expect(dialog(page)).toContainText(`Estate Planning Review (60 min)${longDateLabel(date)} at ${slotLabel(slot(1))} Pacific Time (San Diego)`);
  const f = fields(page);
  await expect(f.firstName).toBeFocused();
  for (const field of [f.firstName, f.lastName, f.email, f.practiceArea]) await expect(field).toHaveAttribute('aria-required', 'true');
  for (const field of [f.phone, f.notes]) await expect(field).not.toHaveAttribute('aria-required', 'true');
  await expect(f.practiceArea.locator('option:not([disabled])')).toHaveText([
    'Family Law',
    'Estate Planning',
    'Trust Administration',
    'Divorce',
    'Custody',
    'Other',
  ]);
  await expect(dialog(page)).toContainText('does not create an attorney-client relationship');
  await expect(dialog(page)).toContainText('Please do not include confidential information');
  await shot(page, info, 'step2');

  // Per-field messages from the shared schema; nothing is sent.
  await button(page, 'Book Consultation').click();
  for (const [field, message] of [
    [f.firstName, 'First name is required'],
    [f.lastName, 'Last name is required'],
    [f.email, 'Please enter a valid email address'],
    [f.practiceArea, 'Please choose a practice area'],
  ] as const) {
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(message);
  }
  await expect(f.firstName).toBeFocused();
  await f.phone.fill('call me maybe');
  await button(page, 'Book Consultation').click();
  await expect(f.phone).toHaveAccessibleDescription('(Optional) Please enter a valid phone number');
  await shot(page, info, 'step2-errors');
  expect(storedAppointments(v.email)).toEqual([]);

  // Back keeps step 1's choices; Continue returns to what was typed.
  await f.firstName.fill(v.firstName);
  await button(page, 'Back').click();
  await expect(typeRadio(page, 'Estate Planning Review (60 min)')).toBeChecked();
  await expect(day(page, date).locator('xpath=..')).toHaveAttribute('aria-selected', 'true');
  await expect(timeRadio(page, slot(1))).toBeChecked();
  await button(page, 'Continue').click();
  await expect(f.firstName).toHaveValue(v.firstName);
  await fillDetails(page, v);
  await button(page, 'Book Consultation').click();

  // Step 3 says SPEC §8's message itself; no toast covers its buttons (issue 18).
  await expect(dialog(page)).toHaveAccessibleDescription('Step 3 of 3: your consultation is booked.');
  await expect(dialog(page).getByRole('status')).toHaveText('Consultation Scheduled!');
  await expect(dialog(page)).toContainText("We'll send you a confirmation email with all the details.");
  await expect(toasts(page)).toHaveCount(0);
  const details = dialog(page).locator('dl');
  await expect(details).toContainText('Estate Planning Review');
  await expect(details).toContainText(longDateLabel(date));
  await expect(details).toContainText(`${slotLabel(slot(1))} Pacific Time (San Diego)`);
  await expect(details).toContainText('60 minutes');
  await expect(details).toContainText(`${v.firstName} ${v.lastName}`);
  await expect(details).toContainText(v.email);
  // A reference to quote, and the consultation one click from the visitor's calendar.
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  const { id } = db.prepare('select id from appointments where email = ?').get(v.email) as { id: string };
  db.close();
  const hex = id.replace(/-/g, '').slice(0, 8).toUpperCase();
  await expect(details).toContainText(`Booking reference${hex.slice(0, 4)}-${hex.slice(4)}`);
  const google = dialog(page).getByRole('link', { name: /Google Calendar/ });
  await expect(google).toHaveAttribute('href', /^https:\/\/calendar\.google\.com\/calendar\/render\?action=TEMPLATE/);
  await expect(google).toHaveAttribute('target', '_blank');
  await expect(dialog(page).getByRole('link', { name: /Outlook/ })).toHaveAttribute('href', /^https:\/\/outlook\.live\.com\//);
  await shot(page, info, 'step3');
  expect(storedAppointments(v.email)).toEqual([storedRow(v, 'estate-planning', 60, date, slot(1))]);

  // Done closes and gives the focus back to the hero's button.
  await button(page, 'Done').click();
  await expect(dialog(page)).toBeHidden();
  await expect(trigger).toBeFocused();
  consoleErrors.expectNone();
});

test('from /about: a page without its own Toaster, Book Another, and the booked slot shown as taken', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  const { date, slot } = slotsFor(info, 1);
  const v = visitor(info, 'about');
  await page.goto('/about');
  const trigger = mainTrigger(page);
  await openFrom(page, trigger);
  await chooseSlotAndFillDetails(page, { type: 'Initial Consultation (30 min)', date, time: slot(0) }, v);
  await button(page, 'Book Consultation').click();
  await expect(dialog(page).getByRole('status')).toHaveText('Consultation Scheduled!');
  await expect(toasts(page)).toHaveCount(0);
  expect(storedAppointments(v.email)).toEqual([storedRow(v, 'initial', 30, date, slot(0))]);

  // Book Another: a clean step 1.
  await button(page, 'Book Another').click();
  await expect(dialog(page)).toHaveAccessibleDescription('Step 1 of 3: choose a consultation type, a date and a time.');
  await expect(dialog(page).getByRole('radio', { checked: true })).toHaveCount(0);
  await expect(dialog(page).locator('td[aria-selected="true"]')).toHaveCount(0);
  await expect(button(page, 'Continue')).toBeDisabled();

  // The same slot again: taken, disabled and marked in words; its neighbour is still free.
  await typeRadio(page, 'Initial Consultation (30 min)').check();
  await chooseDay(page, date);
  await expect(timeRadio(page, slot(0))).toBeDisabled();
  await expect(timeRadio(page, slot(0))).toHaveAccessibleName(`${slotLabel(slot(0))} Unavailable`);
  await expect(timeRadio(page, slot(1))).toBeEnabled();
  await shot(page, info, 'taken');

  // Closed half-way, the modal keeps the choices for the next opening.
  await timeRadio(page, slot(1)).check();
  await button(page, 'Close').click();
  await expect(dialog(page)).toBeHidden();
  await openFrom(page, trigger);
  await expect(typeRadio(page, 'Initial Consultation (30 min)')).toBeChecked();
  await expect(timeRadio(page, slot(0))).toBeDisabled();
  await expect(timeRadio(page, slot(1))).toBeChecked();
  await expect(button(page, 'Continue')).toBeEnabled();
  await button(page, 'Close').click();
  await expect(dialog(page)).toBeHidden();
  consoleErrors.expectNone();
});

test('keyboard only: open, choose type, date and time, fill in, book and close without the mouse', { tag: '@any-width' }, async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  const { date, slot } = slotsFor(info, 2);
  const time = slot(2);
  const v = visitor(info, 'keyboard');
  await page.goto('/');
  const trigger = page.locator('section[aria-labelledby="hero-title"]').getByRole('link', { name: 'Schedule Consultation' });
  const focusedIs = (l: Locator) => l.evaluate((el) => el === document.activeElement);
  for (let i = 0; i < 40 && !(await focusedIs(trigger)); i++) await page.keyboard.press('Tab');
  await expect(trigger).toBeFocused();

  // Enter opens; Escape closes and returns the focus.
  await page.keyboard.press('Enter');
  await expect(dialog(page)).toBeVisible();
  await expect(button(page, 'Close')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toBeHidden();
  await expect(trigger).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog(page)).toBeVisible();

  // Type: the radio group, arrows move and choose.
  await page.keyboard.press('Tab');
  await expect(typeRadio(page, 'Initial Consultation (30 min)')).toBeFocused();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
  await expect(typeRadio(page, 'Family Law Consultation (45 min)')).toBeChecked();

  // Date: Tab passes the month buttons, then reaches the one day in the Tab order.
  const focusedDate = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.date ?? null);
  const passed: string[] = [];
  for (let i = 0; i < 4 && !(await focusedDate()); i++) {
    await page.keyboard.press('Tab');
    passed.push(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''));
  }
  expect(passed).toContain('Next month');
  expect(await focusedDate()).toBe(firstSelectableDay(new Date(), defaultBookingRules));
  // PageDown/PageUp by month, Home/End to the week's ends.
  const start = (await focusedDate())!;
  await page.keyboard.press('PageDown');
  expect(await focusedDate()).not.toBe(start);
  expect((await focusedDate())!.slice(0, 7)).not.toBe(start.slice(0, 7));
  await page.keyboard.press('PageUp');
  expect(await focusedDate()).toBe(start);
  await page.keyboard.press('End');
  const saturday = (await focusedDate())!;
  expect(isWeekend(saturday)).toBe(true);
  // A weekend day is reachable and announced as unavailable, and Enter does not choose it.
  await expect(day(page, saturday)).toHaveAttribute('aria-disabled', 'true');
  await expect(day(page, saturday)).toHaveAccessibleName(/unavailable \(closed on weekends\)$/);
  await page.keyboard.press('Enter');
  await expect(dialog(page).locator('td[aria-selected="true"]')).toHaveCount(0);
  await page.keyboard.press('Home');
  for (let i = 0; i < 60; i++) {
    const at = (await focusedDate())!;
    if (at === date) break;
    await page.keyboard.press(addDays(at, 7) <= date ? 'ArrowDown' : at < date ? 'ArrowRight' : 'ArrowLeft');
  }
  expect(await focusedDate()).toBe(date);
  await screenshot(page, info, 'booking-keyboard-calendar', { fullPage: false });
  await page.keyboard.press('Enter');
  await expect(day(page, date).locator('xpath=..')).toHaveAttribute('aria-selected', 'true');

  // Time: the first free slot takes the focus; arrows move to ours.
  await expect(dialog(page).getByRole('radio', { name: /AM|PM/ })).toHaveCount(13);
  await page.keyboard.press('Tab');
  for (let i = 0; i < 13 && !(await focusedIs(timeRadio(page, time))); i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');
  await expect(timeRadio(page, time)).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(button(page, 'Continue')).toBeFocused();
  await page.keyboard.press('Enter');

  // Details: typed field by field; the practice area by type-ahead.
  const f = fields(page);
  await expect(f.firstName).toBeFocused();
  await page.keyboard.type(v.firstName);
  await page.keyboard.press('Tab');
  await page.keyboard.type(v.lastName);
  await page.keyboard.press('Tab');
  await page.keyboard.type(v.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(v.phone);
  await page.keyboard.press('Tab');
  await expect(f.practiceArea).toBeFocused();
  await page.keyboard.type('Cus');
  await expect(f.practiceArea).toHaveValue('custody');
  await page.keyboard.press('Tab');
  await page.keyboard.type(v.notes);
  // The note's link to the privacy policy, then the buttons.
  await page.keyboard.press('Tab');
  await expect(dialog(page).getByRole('link', { name: /privacy policy/ })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(button(page, 'Back')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(button(page, 'Book Consultation')).toBeFocused();
  await page.keyboard.press('Enter');

  // Confirmation: Tab reaches the calendar links, Book Another, then Done; Enter closes; the focus is back on the hero.
  await expect(dialog(page)).toHaveAccessibleDescription('Step 3 of 3: your consultation is booked.');
  // The focus starts at the step's heading, as it appears.
  await expect(dialog(page).getByRole('heading', { name: 'Consultation scheduled' })).toBeFocused();
  // The calendar links, then Book Another.
  await page.keyboard.press('Tab');
  await expect(dialog(page).getByRole('link', { name: /Google Calendar/ })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog(page).getByRole('link', { name: /Outlook/ })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog(page).getByRole('link', { name: 'Reschedule or cancel online' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(button(page, 'Book Another')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(button(page, 'Done')).toBeFocused();
  // The focus stays in the dialog: from Done, Tab wraps round to the first control.
  await page.keyboard.press('Tab');
  await expect(button(page, 'Close')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(button(page, 'Done')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog(page)).toBeHidden();
  await expect(trigger).toBeFocused();
  expect(storedAppointments(v.email)).toEqual([storedRow(v, 'family-law', 45, date, time)]);
  consoleErrors.expectNone();
});

test("taken slots count the booking's length, and the slots follow the chosen type", async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  const { date, slot } = slotsFor(info, 3);
  // Another visitor holds a 60-minute divorce consultation at slot(2): it covers slot(2) and slot(3).
  await bookDirectly(page, info, 'divorce', date, slot(2));
  await page.goto('/practice-areas/family-law');
  await openFrom(page, mainTrigger(page));
  await chooseSlot(page, { type: 'Initial Consultation (30 min)', date, time: slot(1) });
  for (const taken of [slot(2), slot(3)]) {
    await expect(timeRadio(page, taken)).toBeDisabled();
    await expect(timeRadio(page, taken)).toHaveAccessibleName(`${slotLabel(taken)} Unavailable`);
  }
  await expect(timeRadio(page, slot(4))).toBeEnabled();

  // A 60-minute type from slot(1) would run into that booking: the slot goes, and so does the choice.
  await typeRadio(page, 'Divorce Consultation (60 min)').check();
  await expect(timeRadio(page, slot(1))).toBeDisabled();
  await expect(timeRadio(page, slot(1))).not.toBeChecked();
  await expect(dialog(page).getByRole('alert')).toHaveText('The time you chose is not free for this consultation. Please choose another time.');
  await expect(button(page, 'Continue')).toBeDisabled();
  await expect(timeRadio(page, slot(0))).toBeEnabled();
  // Back to 30 minutes: it is free again.
  await typeRadio(page, 'Follow-up Meeting (30 min)').check();
  await expect(timeRadio(page, slot(1))).toBeEnabled();
  await expect(dialog(page).getByRole('alert')).toHaveCount(0);
  await shot(page, info, 'type-length');
  consoleErrors.expectNone();
});

test('holidays are closed in the calendar, the availability and at the server, each naming the holiday; an hour never runs into noon', async ({
  page,
}, info) => {
  const consoleErrors = watchConsole(page);
  const today = firmToday(new Date());
  const year = Number(today.slice(0, 4));
  // The next holiday at least two days off, within the three months the calendar reaches with Next month.
  const holiday = [...holidaysOf(year), ...holidaysOf(year + 1)].find((h) => h.date > addDays(today, 1) && h.date <= addDays(today, 80))!;
  const message = `We are closed for ${holiday.name}. Please choose another day.`;

  // The API the modal asks, and the server's refusal of a booking sent anyway.
  const closed = await (await page.request.get(`/api/appointments/availability?date=${holiday.date}&consultationType=initial`)).json();
  expect(closed).toMatchObject({ date: holiday.date, bookable: false, message });
  const refused = await page.request.post('/api/appointments', {
    data: { ...visitor(info, 'holiday'), consultationType: 'initial', practiceArea: 'other', scheduledDate: firmInstant(holiday.date, '10:00').toISOString() },
  });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).fields).toEqual({ scheduledDate: message });

  // The calendar: the day is reachable, announced as closed for the holiday, and cannot be chosen.
  await page.goto('/');
  await openFrom(page, mainTrigger(page));
  await showMonthOf(dialog(page), holiday.date);
  await expect(day(page, holiday.date)).toHaveAttribute('aria-disabled', 'true');
  await expect(day(page, holiday.date)).toHaveAccessibleName(`${longDateLabel(holiday.date)}, unavailable (closed for ${holiday.name})`);
  await day(page, holiday.date).click({ force: true });
  await expect(dialog(page).locator('td[aria-selected="true"]')).toHaveCount(0);

  // An hour-long consultation can start at 11:00 but not at 11:30, which would run into the noon hour.
  const { date } = slotsFor(info, 11); // a day no other test books
  await typeRadio(page, 'Estate Planning Review (60 min)').check();
  await chooseDay(page, date);
  await expect(timeRadio(page, '11:30')).toBeDisabled();
  await expect(timeRadio(page, '11:30')).toHaveAccessibleName('11:30 AM Unavailable');
  await expect(timeRadio(page, '11:00')).toBeEnabled();
  await expect(timeRadio(page, '16:00')).toBeEnabled();
  await typeRadio(page, 'Initial Consultation (30 min)').check();
  await expect(timeRadio(page, '11:30')).toBeEnabled();
  consoleErrors.expectNone();
});

test('a slot taken while the visitor types: the 409 message, back to step 1, nothing typed is lost', { tag: '@any-width' }, async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  const { date, slot } = slotsFor(info, 4);
  const v = visitor(info, 'race');
  await page.goto('/about');
  await openFrom(page, mainTrigger(page));
  await chooseSlotAndFillDetails(page, { type: 'Initial Consultation (30 min)', date, time: slot(0) }, v);

  // Someone else books the same time first.
  await bookDirectly(page, info, 'initial', date, slot(0));
  await button(page, 'Book Consultation').click();

  // SPEC §8's failure, said beside the times (no toast over the dialog).
  const message = 'Booking Failed. That time was just booked. Please choose another.';
  await expect(dialog(page)).toHaveAccessibleDescription('Step 1 of 3: choose a consultation type, a date and a time.');
  await expect(dialog(page).getByRole('alert')).toHaveText(message);
  await expect(toasts(page)).toHaveCount(0);
  await expect(dialog(page).getByRole('alert')).toBeFocused();
  await expect(timeRadio(page, slot(0))).toBeDisabled();
  await expect(timeRadio(page, slot(0))).not.toBeChecked();
  await expect(button(page, 'Continue')).toBeDisabled();
  await expect(typeRadio(page, 'Initial Consultation (30 min)')).toBeChecked();
  await shot(page, info, 'conflict');

  await timeRadio(page, slot(1)).check();
  await expect(dialog(page).getByRole('alert')).toHaveCount(0);
  await button(page, 'Continue').click();
  const f = fields(page);
  await expect(f.firstName).toHaveValue(v.firstName);
  await expect(f.lastName).toHaveValue(v.lastName);
  await expect(f.email).toHaveValue(v.email);
  await expect(f.phone).toHaveValue(v.phone);
  await expect(f.practiceArea).toHaveValue(v.practiceArea);
  await expect(f.notes).toHaveValue(v.notes);
  await button(page, 'Book Consultation').click();
  await expect(dialog(page).getByRole('status')).toHaveText('Consultation Scheduled!');
  expect(storedAppointments(v.email)).toEqual([storedRow(v, 'initial', 30, date, slot(1))]);
  // SPEC §8: the failure was logged to the console, with the 409 the browser reports.
  consoleErrors.expectOnly(/status of 409/, /^Booking failed:/);
});

test("'Missing Information': the time went while the modal was closed at step 2", { tag: '@any-width' }, async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  const { date, slot } = slotsFor(info, 9);
  const v = visitor(info, 'missing');
  await page.goto('/about');
  const trigger = mainTrigger(page);
  await openFrom(page, trigger);
  await chooseSlotAndFillDetails(page, { type: 'Initial Consultation (30 min)', date, time: slot(0) }, v);
  await button(page, 'Close').click();
  await expect(dialog(page)).toBeHidden();

  // Meanwhile someone books that time; opening again refreshes the day and lets the time go.
  await bookDirectly(page, info, 'initial', date, slot(0));
  await trigger.click();
  await expect(dialog(page)).toHaveAccessibleDescription('Step 2 of 3: your contact details.');
  await expect(dialog(page)).not.toContainText(slotLabel(slot(0)));
  await button(page, 'Book Consultation').click();
  await expect(dialog(page)).toHaveAccessibleDescription('Step 1 of 3: choose a consultation type, a date and a time.');
  await expect(dialog(page).getByRole('alert')).toHaveText('Missing Information. Please select a date and time for your consultation.');
  await expect(dialog(page).getByRole('alert')).toBeFocused();
  await expect(timeRadio(page, slot(0))).toBeDisabled();
  await shot(page, info, 'missing');
  expect(storedAppointments(v.email)).toEqual([]);

  await timeRadio(page, slot(1)).check();
  await button(page, 'Continue').click();
  await expect(fields(page).email).toHaveValue(v.email);
  await button(page, 'Book Consultation').click();
  await expect(dialog(page).getByRole('status')).toHaveText('Consultation Scheduled!');
  expect(storedAppointments(v.email)).toEqual([storedRow(v, 'initial', 30, date, slot(1))]);
  consoleErrors.expectNone();
});

test(
  "a request that cannot reach the server: 'Booking Failed', logged, everything kept, then a retry books",
  { tag: '@any-width' },
  async ({ page, context }, info) => {
    const consoleErrors = watchConsole(page);
    const { date, slot } = slotsFor(info, 5);
    const v = visitor(info, 'offline');
    await page.goto('/about');
    await openFrom(page, mainTrigger(page));
    await chooseSlotAndFillDetails(page, { type: 'Follow-up Meeting (30 min)', date, time: slot(0) }, v);

    await context.setOffline(true);
    await button(page, 'Book Consultation').click();
    await expect(dialog(page)).toHaveAccessibleDescription('Step 2 of 3: your contact details.');
    // Said inside the dialog, beside Book Consultation, where a screen reader hears it.
    await expect(dialog(page).getByRole('alert')).toHaveText('Booking Failed. Please try again or call us directly at the office phone number.');
    await expect(fields(page).notes).toHaveValue(v.notes);
    await expect(button(page, 'Book Consultation')).toBeEnabled();
    expect(storedAppointments(v.email)).toEqual([]);

    await context.setOffline(false);
    await button(page, 'Book Consultation').click();
    await expect(dialog(page).getByRole('status')).toHaveText('Consultation Scheduled!');
    expect(storedAppointments(v.email)).toEqual([storedRow(v, 'follow-up', 30, date, slot(0))]);
    // The first Escape closes the dialog (no toast to take it first).
    await page.keyboard.press('Escape');
    await expect(dialog(page)).toBeHidden();
    consoleErrors.expectOnly(/^Booking failed:/, /ERR_INTERNET_DISCONNECTED/);
  },
);

test(
  'an answer lost on the way back: booking again carries the same Idempotency-Key and gets the booking, not "taken"',
  { tag: '@any-width' },
  async ({ page }, info) => {
    const consoleErrors = watchConsole(page);
    const { date, slot } = slotsFor(info, 10);
    const v = visitor(info, 'lost-answer');
    const keys: (string | undefined)[] = [];
    let loseTheAnswer = true;
    await page.route('**/api/appointments', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      keys.push(route.request().headers()['idempotency-key']);
      if (!loseTheAnswer) return route.continue();
      loseTheAnswer = false;
      // The booking is stored (its slot claimed); the answer never reaches the visitor.
      await route.fetch();
      await route.abort('connectionreset');
    });
    await page.goto('/about');
    await openFrom(page, mainTrigger(page));
    await chooseSlotAndFillDetails(page, { type: 'Follow-up Meeting (30 min)', date, time: slot(0) }, v);
    await button(page, 'Book Consultation').click();
    await expect(dialog(page).getByRole('alert')).toHaveText('Booking Failed. Please try again or call us directly at the office phone number.');
    expect(storedAppointments(v.email)).toEqual([storedRow(v, 'follow-up', 30, date, slot(0))]);

    // Without the key, this second try would be told its own slot is taken (409).
    await button(page, 'Book Consultation').click();
    await expect(dialog(page).getByRole('status')).toHaveText('Consultation Scheduled!');
    await expect(dialog(page)).toHaveAccessibleDescription('Step 3 of 3: your consultation is booked.');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(storedAppointments(v.email)).toEqual([storedRow(v, 'follow-up', 30, date, slot(0))]);
    consoleErrors.expectOnly(/^Booking failed:/, /ERR_CONNECTION_RESET/);
  },
);

test('no axe violations in the open modal, each step, in every visitor mode', async ({ page }, info) => {
  test.setTimeout(90_000); // four full-page axe runs, and the colour rules in two more modes at each
  const consoleErrors = watchConsole(page);
  const { date, slot } = slotsFor(info, 6);
  await page.goto('/about');
  await openFrom(page, mainTrigger(page));
  // In full in light mode, by the rules a mode can change in dark and warm (the class on <html>).
  const judged = (step: string) =>
    expectNoAxeViolationsInEveryMode(page, {
      label: step,
      htmlcs: true,
      each: async (mode) => (step === 'step 3' && mode !== 'light' ? shot(page, info, `step3-${mode}`) : undefined),
    });

  await judged('step 1');
  await chooseSlot(page, { type: 'Divorce Consultation (60 min)', date, time: slot(0) });
  await judged('step 1, chosen');
  await button(page, 'Continue').click();
  await button(page, 'Book Consultation').click();
  await expect(fields(page).firstName).toHaveAttribute('aria-invalid', 'true');
  await judged('step 2, field messages');
  await fillDetails(page, visitor(info, 'axe'));
  await button(page, 'Book Consultation').click();
  await expect(dialog(page)).toHaveAccessibleDescription('Step 3 of 3: your consultation is booked.');
  await judged('step 3');
  consoleErrors.expectNone();
});

test('on a phone-width screen: the side menu opens the modal, which fits and books', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  await page.setViewportSize({ width: 390, height: 844 });
  const { date, slot } = slotsFor(info, 7);
  const v = visitor(info, 'phone');
  await page.goto('/attorneys');
  const menu = page.getByRole('button', { name: 'Open menu' });
  await menu.click();
  await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Schedule Consultation' }).click();
  await expect(dialog(page)).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Menu' })).toHaveCount(0);

  // The modal fills the screen, nothing sticks out sideways, and its content scrolls.
  const box = (await dialog(page).boundingBox())!;
  expect(box.x).toBe(0);
  expect(box.width).toBe(390);
  expect(await dialog(page).evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  const dayBox = (await day(page, firstSelectableDay(new Date(), defaultBookingRules)).boundingBox())!;
  expect(dayBox.width).toBeGreaterThanOrEqual(44);
  expect(dayBox.height).toBeGreaterThanOrEqual(44);
  await shot(page, info, 'phone-step1');

  await chooseSlot(page, { type: 'Family Law Consultation (45 min)', date, time: slot(0) });
  await dialog(page)
    .getByRole('group', { name: /^Available times/ })
    .scrollIntoViewIfNeeded();
  await shot(page, info, 'phone-step1-chosen');
  await button(page, 'Continue').click();
  await fillDetails(page, v);
  await shot(page, info, 'phone-step2');
  await button(page, 'Book Consultation').click();
  await expect(button(page, 'Done')).toBeVisible();
  const doneBox = (await button(page, 'Done').boundingBox())!;
  expect(doneBox.height).toBeGreaterThanOrEqual(44);
  // Nothing lies over Done or Book Another: the point a finger taps is the button itself (no toast).
  for (const name of ['Done', 'Book Another']) {
    expect(
      await button(page, name).evaluate((el) => {
        const r = el.getBoundingClientRect();
        return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
      }),
      name,
    ).toBe(true);
  }
  await shot(page, info, 'phone-step3');
  expect(storedAppointments(v.email)).toEqual([storedRow(v, 'family-law', 45, date, slot(0))]);
  // Tapped at once, Done closes the dialog.
  await button(page, 'Done').click({ timeout: 2_000 });
  await expect(dialog(page)).toBeHidden();
  // The menu that held the button has gone: the focus returns to the button that opened the menu.
  await expect(menu).toBeFocused();
  consoleErrors.expectNone();
});

test.describe('a visitor far from California (Pacific/Kiritimati, UTC+14)', () => {
  test.use({ timezoneId: 'Pacific/Kiritimati' });

  test("the calendar, the times and the stored instant are the firm's", async ({ page }, info) => {
    const consoleErrors = watchConsole(page);
    const { date, slot } = slotsFor(info, 8);
    const v = visitor(info, 'kiritimati');
    await page.goto('/about');
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('Pacific/Kiritimati');
    // Kiritimati's calendar is a day ahead of San Diego's for most of the day.
    const now = new Date();
    const browserDay = await page.evaluate(() => {
      const d = new Date();
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    });
    await openFrom(page, mainTrigger(page));
    await expect(dialog(page).locator('[aria-current="date"]')).toHaveAttribute('data-date', firmToday(now));
    // The browser's "today" is usually the firm's tomorrow: it is judged by the firm's rule, not as today.
    if (browserDay !== firmToday(now) && (await day(page, browserDay).count())) {
      await expect(day(page, browserDay)).not.toHaveAttribute('aria-current', 'date');
      if (dayState(browserDay, now, defaultBookingRules).disabled) await expect(day(page, browserDay)).toHaveAttribute('aria-disabled', 'true');
      else await expect(day(page, browserDay)).not.toHaveAttribute('aria-disabled', 'true');
    }
    // The past is the firm's past: yesterday in San Diego cannot be chosen.
    const firmYesterday = addDays(firmToday(now), -1);
    if (await day(page, firmYesterday).count()) await expect(day(page, firmYesterday)).toHaveAttribute('aria-disabled', 'true');
    await chooseSlot(page, { type: 'Initial Consultation (30 min)', date, time: slot(0) });
    const labels = await dialog(page)
      .getByRole('group', { name: /^Available times/ })
      .locator('label > span:first-of-type')
      .allTextContents();
    expect(labels).toEqual(timeSlots.map(slotLabel));
    await button(page, 'Continue').click();
    await fillDetails(page, v);
    await button(page, 'Book Consultation').click();
    await expect(dialog(page).locator('dl')).toContainText(`${slotLabel(slot(0))} Pacific Time (San Diego)`);
    // ...and in the visitor's own time beside it.
    await expect(dialog(page).locator('dl')).toContainText('in your time zone (Pacific/Kiritimati)');
    await expect(dialog(page).locator('dl')).toContainText(longDateLabel(date));
    expect(storedAppointments(v.email)).toEqual([storedRow(v, 'initial', 30, date, slot(0))]);
    consoleErrors.expectNone();
  });
});

test('the calendar fits the smallest phones (320 px): no sideways scrolling inside the modal', async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto('/about');
  await openFrom(page, mainTrigger(page));
  const grid = dialog(page).getByRole('grid');
  await expect(grid).toBeVisible();
  const box = (await grid.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(320);
  expect(await dialog(page).evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  // Every day of the grid is on screen, with a target above WCAG 2.2's 24 px minimum.
  for (const cell of await grid.locator('[data-date]').all()) {
    const b = (await cell.boundingBox())!;
    expect(b.x + b.width).toBeLessThanOrEqual(320);
    expect(b.width).toBeGreaterThanOrEqual(24);
  }
  consoleErrors.expectNone();
});
