/**
 * Abuse limits in the browser (docs/decisions/013-abuse-limits.md): the honeypot field of
 * the contact form, the booking modal's details step and the calculator is off-screen, out of the Tab
 * order and out of the accessibility tree, so a person never meets it; the contact form still sends
 * (and stores) a person's message, and a bot that fills the trap is told "sent" while nothing is kept;
 * the form holds the API's bound on a message (5,000 characters), and the longest is kept whole.
 * The rate limits themselves are proven in tests/integration/abuse-limits.integration.test.ts.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { addDays, firmToday } from '../../src/shared/firm-time.ts';
import { isBookableDay } from '../support/bookable-days.ts';
import { bookingButton, bookingDialog, chooseDay, openBooking } from '../support/booking.ts';
import { expectToast, unique, watchConsole } from '../support/e2e.ts';

const dbPath = join(process.env.E2E_DATA_DIR ?? '', 'site.db');

function storedMessages(email: string) {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('select first_name, email, message from contact_submissions where email = ?').all(email);
  } finally {
    db.close();
  }
}

/** Bodies of POST /api/contact, as the browser sent them. */
function watchContactPosts(page: Page) {
  const sent: Record<string, unknown>[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && req.url().endsWith('/api/contact')) sent.push(req.postDataJSON() as Record<string, unknown>);
  });
  return sent;
}

const contactForm = (page: Page) => page.locator('[data-component="contact_form"]');
const sendButton = (page: Page) => contactForm(page).getByRole('button', { name: 'Send Message' });
const trap = (scope: Locator) => scope.locator('input[name="website"]');

async function openContact(page: Page) {
  await page.goto('/contact');
  await expect(sendButton(page)).toBeEnabled();
}

async function fillContact(page: Page, email: string) {
  const form = contactForm(page);
  await form.getByRole('textbox', { name: 'First Name', exact: true }).fill('Dana');
  await form.getByRole('textbox', { name: 'Last Name', exact: true }).fill('Reyes');
  await form.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await form.getByRole('combobox', { name: 'Practice Area' }).selectOption('estate-planning');
  await form.getByRole('textbox', { name: 'Message', exact: true }).fill('I would like to talk about a living trust.');
  await form.getByRole('checkbox', { name: /privacy policy/ }).check();
}

/**
 * The trap in `scope` exists, but a person cannot see it, reach it by Tab from `first` to `last`, or
 * hear it: it is outside the viewport, tabindex -1 and never autofilled, and absent from the scope's
 * accessibility tree (getByRole finds it only when told to include hidden elements).
 */
async function expectUnmeetable(page: Page, scope: Locator, first: Locator, last: Locator) {
  const field = trap(scope);
  await expect(field).toHaveCount(1);
  await expect(field).toHaveAttribute('tabindex', '-1');
  await expect(field).toHaveAttribute('autocomplete', 'off');
  await expect(field).not.toBeInViewport();
  const box = await field.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(0);

  await expect(scope.getByRole('textbox', { name: 'Website' })).toHaveCount(0);
  await expect(scope.getByRole('textbox', { name: 'Website', includeHidden: true })).toHaveCount(1);
  expect(await scope.ariaSnapshot()).not.toMatch(/website/i);

  // Tab from the first field to the last control: every stop is a visible control, never the trap.
  await first.focus();
  const stops: string[] = [];
  for (let i = 0; i < 20 && !(await last.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
    stops.push(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name ?? ''));
  }
  await expect(last).toBeFocused();
  expect(stops).not.toContain('website');
}

test('contact: the honeypot is unseen, unreachable by Tab and unheard; a person’s message is sent and kept', async ({ page }, info: TestInfo) => {
  const consoleErrors = watchConsole(page);
  const sent = watchContactPosts(page);
  await openContact(page);
  const form = contactForm(page);
  // The form with its honeypot as it opens: accessibility.spec.ts's crawl judges /contact with axe.
  await expectUnmeetable(page, form, form.getByRole('textbox', { name: 'First Name', exact: true }), sendButton(page));

  const email = `${unique(info, 'abuse-person', '-')}@example.com`;
  await fillContact(page, email);
  await sendButton(page).click();
  await expectToast(page, 'Message Sent Successfully', "Thank you for contacting us. We'll get back to you within 24 hours.");
  // A person's request carries no trace of the trap.
  expect(sent).toHaveLength(1);
  expect(sent[0]).not.toHaveProperty('website');
  expect(storedMessages(email)).toEqual([{ first_name: 'Dana', email, message: 'I would like to talk about a living trust.' }]);
  consoleErrors.expectNone();
});

test('contact: a bot that fills the honeypot is told the message was sent, and nothing is kept', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  const sent = watchContactPosts(page);
  await openContact(page);
  const email = `${unique(info, 'abuse-bot', '-')}@example.com`;
  await fillContact(page, email);
  // What a form-filling script does: every input gets something, seen or not.
  await trap(contactForm(page)).fill('https://cheap-pills.example', { force: true });
  await sendButton(page).click();
  await expectToast(page, 'Message Sent Successfully', "Thank you for contacting us. We'll get back to you within 24 hours.");
  expect(sent).toEqual([expect.objectContaining({ email, website: 'https://cheap-pills.example' })]);
  expect(storedMessages(email)).toEqual([]);
  consoleErrors.expectNone();
});

test('contact: the form holds the API’s bound, 5,000 characters: one more is refused beside the field, 5,000 are sent and kept', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  const sent = watchContactPosts(page);
  await openContact(page);
  const email = `${unique(info, 'abuse-long', '-')}@example.com`;
  await fillContact(page, email);
  const message = contactForm(page).getByRole('textbox', { name: 'Message', exact: true });
  await message.fill('a'.repeat(5001));
  await sendButton(page).click();
  await expect(message).toHaveAccessibleDescription(/Message must be at most 5000 characters/);
  expect(sent).toEqual([]);

  const longest = 'Long letter. '.repeat(400).slice(0, 5000);
  await message.fill(longest);
  await sendButton(page).click();
  await expectToast(page, 'Message Sent Successfully', "Thank you for contacting us. We'll get back to you within 24 hours.");
  expect(storedMessages(email)).toEqual([{ first_name: 'Dana', email, message: longest.trim() }]);
  consoleErrors.expectNone();
});

test('calculator and booking modal: their honeypots are unseen, unreachable by Tab and unheard', async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await page.goto('/probate-calculator');
  const calculator = page.locator('[data-component="probate_calculator"]');
  const calculate = calculator.getByRole('button', { name: 'Calculate Costs' });
  await expect(calculate).toBeEnabled();
  await expectUnmeetable(page, calculator, calculator.getByRole('textbox', { name: 'Estate Value', exact: true }), calculate);

  // The booking modal's details step (step 2), reached with any free time some weeks ahead (nothing is booked).
  await page.goto('/');
  await openBooking(page, page.getByRole('main').getByRole('link', { name: 'Schedule Consultation' }).first());
  const dialog = bookingDialog(page);
  await dialog.getByRole('radio', { name: /^Initial Consultation/ }).check();
  let date = addDays(firmToday(new Date()), 30);
  while (!isBookableDay(date)) date = addDays(date, 1);
  await chooseDay(page, date);
  await dialog
    .getByRole('radio', { name: /^\d{1,2}:\d{2} (AM|PM)/ })
    .and(dialog.locator(':enabled'))
    .first()
    .check();
  await bookingButton(page, 'Continue').click();
  const details = dialog.locator('form');
  await expect(details.getByRole('textbox', { name: 'First Name' })).toBeVisible();
  await expectUnmeetable(page, details, details.getByRole('textbox', { name: 'First Name' }), details.getByRole('textbox', { name: 'Notes', exact: true }));
  consoleErrors.expectNone();
});
