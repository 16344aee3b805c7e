/**
 * /contact (SPEC §2, §5 Contact form, §7 POST /api/contact, §8): Get In Touch, the consultation form
 * (required fields, consent, ?service= preselection, the stored row, reset on success, nothing lost
 * on failure, keyboard only), the contact card, the map placeholder and JSON-LD.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { firm, firmAddressLine } from '../../src/config/firm.ts';
import { expectNoAxeViolationsInEveryMode, screenshot, toasts, unique, watchConsole } from '../support/e2e.ts';

const dbPath = join(process.env.E2E_DATA_DIR ?? '', 'site.db');

function watchSubmissions(page: Page) {
  const sent: unknown[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && req.url().endsWith('/api/contact')) sent.push(req.postDataJSON());
  });
  return sent;
}

const form = (page: Page) => page.locator('[data-component="contact_form"]');
const fields = (page: Page) => ({
  firstName: form(page).getByRole('textbox', { name: 'First Name', exact: true }),
  lastName: form(page).getByRole('textbox', { name: 'Last Name', exact: true }),
  email: form(page).getByRole('textbox', { name: 'Email', exact: true }),
  phone: form(page).getByRole('textbox', { name: 'Phone', exact: true }),
  practiceArea: form(page).getByRole('combobox', { name: 'Practice Area' }),
  message: form(page).getByRole('textbox', { name: 'Message', exact: true }),
  consent: form(page).getByRole('checkbox', { name: /privacy policy/ }),
});
const sendButton = (page: Page) => form(page).getByRole('button', { name: 'Send Message' });

async function openContact(page: Page, query = '') {
  await page.goto(`/contact${query}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Get In Touch' })).toBeVisible();
  // The island is ready when its button is enabled (it stays disabled until hydration).
  await expect(sendButton(page)).toBeEnabled();
}

/** Every test owns its data: a unique address per test, project and run. */
const visitor = (info: TestInfo, label: string) => ({
  firstName: 'Dana',
  lastName: `Reyes-${label}`,
  email: `${unique(info, `contact-${label}`, '-')}@example.com`,
  phone: '(619) 555-0199',
  practiceArea: 'estate-planning',
  message: 'I would like to talk about setting up a living trust for my family.',
});

async function fillForm(page: Page, v: ReturnType<typeof visitor>) {
  const f = fields(page);
  await f.firstName.fill(v.firstName);
  await f.lastName.fill(v.lastName);
  await f.email.fill(v.email);
  await f.phone.fill(v.phone);
  await f.practiceArea.selectOption(v.practiceArea);
  await f.message.fill(v.message);
  await f.consent.check();
}

function storedSubmissions(email: string) {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare('select first_name, last_name, email, phone, practice_area, message, is_read, is_resolved from contact_submissions where email = ?')
      .all(email);
  } finally {
    db.close();
  }
}

const storedRow = (v: ReturnType<typeof visitor>) => ({
  first_name: v.firstName,
  last_name: v.lastName,
  email: v.email,
  phone: v.phone,
  practice_area: v.practiceArea,
  message: v.message,
  is_read: 0,
  is_resolved: 0,
});

test('the page: heading, form, contact card, map placeholder, directions and JSON-LD', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  await openContact(page);
  await expect(page).toHaveTitle(/Contact/);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /24 hours/);

  const f = fields(page);
  for (const field of [f.firstName, f.lastName, f.email, f.practiceArea, f.message, f.consent]) await expect(field).toHaveAttribute('aria-required', 'true');
  await expect(f.phone).not.toHaveAttribute('aria-required', 'true');
  await expect(f.practiceArea.locator('option:not([disabled])')).toHaveText(['Family Law', 'Estate Planning', 'Trust Administration', 'Other']);
  await expect(f.practiceArea).toHaveValue('');
  await expect(form(page)).toContainText('does not create an attorney-client relationship');
  await expect(form(page)).toContainText('do not include confidential information');

  const card = page.getByRole('region', { name: 'Contact Information' });
  await expect(card.getByRole('link', { name: firm.phone })).toHaveAttribute('href', firm.phoneHref);
  await expect(card.getByRole('link', { name: 'Call Office' })).toHaveAttribute('href', firm.phoneHref);
  await expect(card.getByRole('link', { name: firm.email })).toHaveAttribute('href', `mailto:${firm.email}`);
  await expect(card).toContainText(firm.address.street);
  await expect(card).toContainText(`${firm.address.city}, ${firm.address.region} ${firm.address.postalCode}`);
  await expect(card).toContainText('Monday-Friday 8:00 AM-6:00 PM');
  await expect(card).toContainText('Saturday by appointment');
  await expect(card.getByRole('img', { name: `Map placeholder: ${firm.name}, ${firmAddressLine}` })).toBeVisible();
  await expect(card.locator('iframe')).toHaveCount(0);
  const directions = card.getByRole('link', { name: /Get Directions/ });
  await expect(directions).toHaveAttribute('target', '_blank');
  await expect(directions).toHaveAttribute('rel', 'noopener noreferrer');
  const href = (await directions.getAttribute('href'))!;
  expect(href).toMatch(/^https:\/\/www\.google\.com\/maps\/dir\/\?api=1&destination=/);
  expect(new URL(href).searchParams.get('destination')).toContain(firm.address.street);

  const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents();
  const legalService = jsonLd.map((t) => JSON.parse(t) as Record<string, unknown>).find((d) => d['@type'] === 'LegalService');
  expect(legalService).toMatchObject({
    '@context': 'https://schema.org',
    name: firm.name,
    legalName: firm.legalName,
    telephone: '+16195550123',
    email: firm.email,
    address: { '@type': 'PostalAddress', streetAddress: firm.address.street, addressLocality: firm.address.city, postalCode: firm.address.postalCode },
  });

  await screenshot(page, info, 'contact-before', { fromTop: true });
  consoleErrors.expectNone();
});

test('submitting an empty form shows a message beside each required field and sends nothing', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  const sent = watchSubmissions(page);
  await openContact(page);
  await sendButton(page).click();

  const f = fields(page);
  const expected: [keyof typeof f, string][] = [
    ['firstName', 'First name is required'],
    ['lastName', 'Last name is required'],
    ['email', 'Please enter a valid email address'],
    ['practiceArea', 'Please choose a practice area'],
    ['message', 'Message is required'],
    ['consent', 'Please agree to the privacy policy to send your message'],
  ];
  for (const [name, message] of expected) {
    await expect(f[name]).toHaveAttribute('aria-invalid', 'true');
    await expect(f[name]).toHaveAccessibleDescription(message);
  }
  await expect(f.phone).not.toHaveAttribute('aria-invalid', 'true');
  // Named by its label alone; '(Optional)' beside the label is its description.
  await expect(f.phone).toHaveAccessibleDescription('(Optional)');
  await expect(f.firstName).toBeFocused();

  // An invalid phone has its own message; fixing a field clears its message on the next try.
  await f.phone.fill('call me maybe');
  await f.firstName.fill('Dana');
  await sendButton(page).click();
  await expect(f.phone).toHaveAccessibleDescription('(Optional) Please enter a valid phone number');
  await expect(f.firstName).not.toHaveAttribute('aria-invalid', 'true');

  await screenshot(page, info, 'contact-errors', { fromTop: true });
  expect(sent).toEqual([]);
  consoleErrors.expectNone();
});

test('the privacy-policy consent is required', { tag: '@any-width' }, async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  const sent = watchSubmissions(page);
  await openContact(page);
  await fillForm(page, visitor(info, 'consent'));
  await fields(page).consent.uncheck();
  await sendButton(page).click();
  await expect(fields(page).consent).toHaveAccessibleDescription('Please agree to the privacy policy to send your message');
  await expect(fields(page).consent).toBeFocused();
  await expect(form(page).locator('[aria-invalid="true"]')).toHaveCount(1);
  expect(sent).toEqual([]);
  consoleErrors.expectNone();
});

test('?service=estate-planning preselects the practice area; an unknown value is ignored', { tag: '@any-width' }, async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await openContact(page, '?service=estate-planning');
  await expect(fields(page).practiceArea).toHaveValue('estate-planning');
  await openContact(page, '?service=trust-administration');
  await expect(fields(page).practiceArea).toHaveValue('trust-administration');
  await openContact(page, '?service=not-a-service');
  await expect(fields(page).practiceArea).toHaveValue('');
  consoleErrors.expectNone();
});

test('a submission is stored exactly, then the form resets with the success toast', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  const sent = watchSubmissions(page);
  const v = visitor(info, 'stored');
  await openContact(page);
  await fillForm(page, v);
  await sendButton(page).click();

  await expect(toasts(page)).toContainText('Message Sent Successfully');
  await expect(toasts(page)).toContainText("Thank you for contacting us. We'll get back to you within 24 hours.");
  expect(sent).toEqual([{ ...v }]);
  expect(storedSubmissions(v.email)).toEqual([storedRow(v)]);

  const f = fields(page);
  for (const field of [f.firstName, f.lastName, f.email, f.phone, f.practiceArea, f.message]) await expect(field).toHaveValue('');
  await expect(f.consent).not.toBeChecked();
  await expect(sendButton(page)).toBeEnabled();
  await screenshot(page, info, 'contact-after', { fromTop: true });
  consoleErrors.expectNone();
});

test("a failed submission shows 'Submission Failed' and keeps everything typed", async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  await page.route('**/api/contact', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Internal error"}' }));
  const v = visitor(info, 'failed');
  await openContact(page);
  await fillForm(page, v);
  await sendButton(page).click();

  await expect(toasts(page)).toContainText('Submission Failed');
  await expect(toasts(page)).toContainText('Please try again or call us directly at the office phone number.');
  const f = fields(page);
  await expect(f.firstName).toHaveValue(v.firstName);
  await expect(f.lastName).toHaveValue(v.lastName);
  await expect(f.email).toHaveValue(v.email);
  await expect(f.phone).toHaveValue(v.phone);
  await expect(f.practiceArea).toHaveValue(v.practiceArea);
  await expect(f.message).toHaveValue(v.message);
  await expect(f.consent).toBeChecked();
  await expect(sendButton(page)).toBeEnabled();
  expect(storedSubmissions(v.email)).toEqual([]);
  await screenshot(page, info, 'contact-failed', { fromTop: true });
  consoleErrors.expectOnlyFailedRequests(500);
});

test(
  'an answer lost on the way back: Send again carries the same Idempotency-Key, and the message is stored once',
  { tag: '@any-width' },
  async ({ page }, info) => {
    const consoleErrors = watchConsole(page);
    const keys: (string | undefined)[] = [];
    let loseTheAnswer = true;
    await page.route('**/api/contact', async (route) => {
      keys.push(route.request().headers()['idempotency-key']);
      if (!loseTheAnswer) return route.continue();
      loseTheAnswer = false;
      // The server receives and stores the message; its answer never reaches the phone.
      await route.fetch();
      await route.abort('connectionreset');
    });
    const v = visitor(info, 'lost-answer');
    await openContact(page);
    await fillForm(page, v);
    await sendButton(page).click();
    await expect(toasts(page)).toContainText('Submission Failed');
    expect(storedSubmissions(v.email)).toEqual([storedRow(v)]);

    const retried = page.waitForResponse((res) => res.url().endsWith('/api/contact'));
    await sendButton(page).click();
    const answer = await retried;
    expect(answer.status()).toBe(201);
    expect(answer.headers()['idempotent-replayed']).toBe('true');
    await expect(toasts(page)).toContainText('Message Sent Successfully');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(storedSubmissions(v.email)).toEqual([storedRow(v)]);

    // The next message, word for word the same, is a new submission: a new key, a second row.
    await fillForm(page, v);
    await sendButton(page).click();
    await expect(fields(page).firstName).toHaveValue('');
    expect(keys).toHaveLength(3);
    expect(keys[2]).not.toBe(keys[0]);
    expect(storedSubmissions(v.email)).toEqual([storedRow(v), storedRow(v)]);
    consoleErrors.expectOnly(/ERR_CONNECTION_RESET/);
  },
);

test('the form can be completed and sent with the keyboard alone', { tag: '@any-width' }, async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  const v = visitor(info, 'keyboard');
  await openContact(page);
  const f = fields(page);

  // From the top of the page, Tab until the first field has the focus.
  for (let i = 0; i < 60 && !(await f.firstName.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
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
  await page.keyboard.type('Estate'); // type-ahead on the closed select
  await expect(f.practiceArea).toHaveValue('estate-planning');
  await page.keyboard.press('Tab');
  await page.keyboard.type(v.message);
  await page.keyboard.press('Tab');
  await expect(f.consent).toBeFocused();
  await page.keyboard.press('Space');
  await expect(f.consent).toBeChecked();
  // The consent line's link to the privacy policy, then Send Message.
  await page.keyboard.press('Tab');
  await expect(form(page).getByRole('link', { name: /privacy policy/ })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(sendButton(page)).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(toasts(page)).toContainText('Message Sent Successfully');
  expect(storedSubmissions(v.email)).toEqual([storedRow(v)]);
  consoleErrors.expectNone();
});

// The form as it opens is judged by accessibility.spec.ts's crawl; here, with its field messages, in
// full in light mode and by the colour rules in dark and warm (expectNoAxeViolationsInEveryMode).
test('no axe violations in any visitor mode with field messages', async ({ page }, info) => {
  await openContact(page);
  await sendButton(page).click();
  await expect(fields(page).firstName).toHaveAttribute('aria-invalid', 'true');
  // From the top of the page: target-size counts a field scrolled under the sticky header as obscured.
  await expectNoAxeViolationsInEveryMode(page, {
    label: 'with field messages',
    fromTop: true,
    htmlcs: true,
    each: async (mode) => (mode === 'light' ? undefined : screenshot(page, info, `contact-${mode}`, { fromTop: true })),
  });
});
