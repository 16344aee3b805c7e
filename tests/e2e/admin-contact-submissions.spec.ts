/**
 * /admin/contact-submissions (SPEC §2, §4 Contact submission, §7 admin calls, §8 admin messages):
 * a message sent through the public contact form is found, opened (which marks it read), resolved;
 * Mark as Read / Mark as Resolved from the list; search, status and practice-area filters with
 * 'No Submissions Found' and Clear All Filters; 'No contact submissions yet'; every toast of SPEC §8
 * for this screen; keyboard use, axe and screenshots at desktop and phone width.
 */
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import type { ContactSubmission } from '../../src/components/admin/contact-submissions/contact-submissions.ts';
import { expect, openAdminScreen, test } from '../support/admin.ts';
import { expectNoAxeViolations, expectToastsGone, screenshot, screenshotDialog, toasts, unique, watchConsole } from '../support/e2e.ts';

const SCREEN = '/admin/contact-submissions';
const items = (page: Page) => page.getByTestId('submission');
const item = (page: Page, text: string) => items(page).filter({ hasText: text });
const dialog = (page: Page) => page.getByRole('dialog');
/** The dialog's footer Close (the corner X is also named Close). */
const closeButton = (page: Page) => dialog(page).getByRole('button', { name: 'Close', exact: true }).first();
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search' });
const statusFilter = (page: Page) => page.getByRole('combobox', { name: 'Status' });
const areaFilter = (page: Page) => page.getByRole('combobox', { name: 'Practice area' });

/** Unique per test, project and run (both projects share one server database); also an e-mail's local part. */
const tag = (info: TestInfo, label: string) => unique(info, label, '-');

const openScreen = (page: Page) => openAdminScreen(page, SCREEN, 'Contact Submissions');

async function stored(adminApi: APIRequestContext, email: string): Promise<ContactSubmission> {
  const res = await adminApi.get('/api/admin/contact-submissions');
  expect(res.status()).toBe(200);
  const row = ((await res.json()) as ContactSubmission[]).find((s) => s.email === email);
  expect(row, `no stored submission for ${email}`).toBeTruthy();
  return row!;
}

/** A submission arranged through the public API (what the contact form sends). */
async function submitThroughApi(
  page: Page,
  fields: { firstName: string; lastName: string; email: string; practiceArea: string; message: string; phone?: string },
) {
  const res = await page.request.post('/api/contact', { data: { phone: '', ...fields } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

test('a message sent through the public contact form is opened (marked read) and resolved', async ({ page, adminApi }, info) => {
  const consoleErrors = watchConsole(page);
  const id = tag(info, 'form');
  const visitor = {
    firstName: 'Dana',
    lastName: `Reyes ${id}`,
    email: `${id}@example.com`,
    phone: '(619) 555-0199',
    message: `My mother passed away in March and left a house in Chula Vista.\nDo we need to go through probate? (${id})`,
  };

  // As a visitor: the public contact form.
  await page.goto('/contact');
  const form = page.locator('[data-component="contact_form"]');
  await expect(form.getByRole('button', { name: 'Send Message' })).toBeEnabled();
  await form.getByRole('textbox', { name: 'First Name', exact: true }).fill(visitor.firstName);
  await form.getByRole('textbox', { name: 'Last Name', exact: true }).fill(visitor.lastName);
  await form.getByRole('textbox', { name: 'Email', exact: true }).fill(visitor.email);
  await form.getByRole('textbox', { name: 'Phone', exact: true }).fill(visitor.phone);
  await form.getByRole('combobox', { name: 'Practice Area' }).selectOption('trust-administration');
  await form.getByRole('textbox', { name: 'Message', exact: true }).fill(visitor.message);
  await form.getByRole('checkbox', { name: /privacy policy/ }).check();
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expect(toasts(page)).toContainText('Message Sent Successfully');

  // As the admin: the new submission heads the list, unread and pending.
  await openScreen(page);
  const row = item(page, visitor.email);
  await expect(row).toHaveCount(1);
  await expect(items(page).first()).toContainText(visitor.email); // newest first
  await expect(row.getByRole('heading', { level: 3 })).toHaveText(`${visitor.firstName} ${visitor.lastName}`);
  await expect(row).toContainText('New');
  await expect(row).toContainText('Pending');
  await expect(row).toContainText('Trust Administration');
  await expect(row).toContainText('My mother passed away in March and left a house in Chula Vista. Do we need');
  await expect(row.locator('time')).toHaveText(/\w{3}, \w{3} \d{1,2}, \d{4} at \d{1,2}:\d{2}\s[AP]M P[DS]T/);
  await expect(row.getByRole('link', { name: visitor.email })).toHaveAttribute('href', `mailto:${visitor.email}`);
  await expect(row.getByRole('link', { name: visitor.phone })).toHaveAttribute('href', 'tel:+16195550199');
  expect(await stored(adminApi, visitor.email)).toMatchObject({ isRead: false, isResolved: false, practiceArea: 'trust-administration' });

  // SPEC §4: opening the details marks it read.
  const details = row.getByRole('button', { name: `View Details for ${visitor.firstName} ${visitor.lastName}` });
  await details.click();
  await expect(dialog(page)).toBeVisible();
  await expect(dialog(page).getByRole('heading', { name: `${visitor.firstName} ${visitor.lastName}` })).toBeVisible();
  await expect(toasts(page)).toContainText('Success');
  await expect(toasts(page)).toContainText('Contact marked as read');
  await expect(dialog(page).getByText('Read', { exact: true })).toBeVisible();
  await expect(dialog(page).getByText('New', { exact: true })).toHaveCount(0);
  await expect(dialog(page).getByRole('button', { name: 'Mark as Read' })).toHaveCount(0);
  expect(await stored(adminApi, visitor.email)).toMatchObject({ isRead: true, isResolved: false });

  // Everything the firm needs to answer: the whole message as written, a reply and a call.
  await expect(dialog(page).locator('p.whitespace-pre-wrap')).toHaveText(visitor.message, { useInnerText: true });
  await expect(dialog(page)).toContainText('Trust Administration');
  const reply = dialog(page).getByRole('link', { name: 'Reply by Email' });
  expect(await reply.getAttribute('href')).toBe(
    `mailto:${visitor.email}?subject=${encodeURIComponent('Your Trust Administration inquiry with Pacific Crest Law Group')}`,
  );
  await expect(dialog(page).getByRole('link', { name: `Call ${visitor.phone}` })).toHaveAttribute('href', 'tel:+16195550199');
  await expect(dialog(page).getByText('Pending', { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotDialog(dialog(page), info, 'admin-contact-submissions-details');

  // Mark as Resolved, in the dialog: not reversible, so the button goes and the focus moves to Close.
  await dialog(page).getByRole('button', { name: 'Mark as Resolved' }).click();
  await expect(toasts(page)).toContainText('Contact marked as resolved');
  await expect(dialog(page).getByText('Resolved', { exact: true })).toBeVisible();
  await expect(dialog(page).getByRole('button', { name: 'Mark as Resolved' })).toHaveCount(0);
  await expect(closeButton(page)).toBeFocused();
  expect(await stored(adminApi, visitor.email)).toMatchObject({ isRead: true, isResolved: true });

  // Close; the focus returns to the button that opened the dialog.
  await closeButton(page).click();
  await expect(dialog(page)).toHaveCount(0);
  await expect(details).toBeFocused();
  await expect(row).toContainText('Read');
  await expect(row).toContainText('Resolved');
  await expect(row.getByRole('button', { name: /Mark as/ })).toHaveCount(0);

  // Reopening a read submission does not mark it again: no call, no toast.
  await expectToastsGone(page);
  const calls: string[] = [];
  page.on('request', (req) => req.method() === 'PUT' && calls.push(req.url()));
  await page.keyboard.press('Enter');
  await expect(dialog(page)).toBeVisible();
  await expect(closeButton(page)).toBeVisible();
  // The dialog's effects have run once a frame has been painted after it opened: a PUT they sent
  // would have been issued by then.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
  expect(calls).toEqual([]);
  await expect(toasts(page)).toHaveCount(0);
  // Escape closes it (no toast is open, so the dialog is the newest layer) and gives the focus back.
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toHaveCount(0);
  await expect(details).toBeFocused();
  consoleErrors.expectNone();
});

test('Mark as Read and Mark as Resolved from the list, with the keyboard', async ({ page, adminApi }, info) => {
  const consoleErrors = watchConsole(page);
  const id = tag(info, 'list');
  const email = `${id}@example.com`;
  await submitThroughApi(page, {
    firstName: 'Lee',
    lastName: `Park ${id}`,
    email,
    practiceArea: 'family-law',
    message: 'Question about custody arrangements.',
  });
  await openScreen(page);
  await searchBox(page).fill(email);
  const row = item(page, email);
  await expect(items(page)).toHaveCount(1);

  const markRead = row.getByRole('button', { name: `Mark as Read for Lee Park ${id}` });
  await markRead.focus();
  await page.keyboard.press('Enter');
  await expect(toasts(page)).toContainText('Contact marked as read');
  await expect(row).toContainText('Read');
  await expect(markRead).toHaveCount(0);
  // The button that did its job is gone; the focus stays on the same submission.
  await expect(row.getByRole('button', { name: /^View Details/ })).toBeFocused();
  expect(await stored(adminApi, email)).toMatchObject({ isRead: true, isResolved: false });

  await row.getByRole('button', { name: /^Mark as Resolved/ }).click();
  await expect(toasts(page)).toContainText('Contact marked as resolved');
  await expect(row).toContainText('Resolved');
  await expect(row).not.toContainText('Pending');
  expect(await stored(adminApi, email)).toMatchObject({ isRead: true, isResolved: true });
  consoleErrors.expectNone();
});

test('search, status filter, practice-area filter, No Submissions Found and Clear All Filters', async ({ page, adminApi }, info) => {
  const consoleErrors = watchConsole(page);
  const id = tag(info, 'filters');
  const people = {
    ana: {
      firstName: 'Ana',
      lastName: `Diaz ${id}`,
      email: `ana-${id}@example.com`,
      practiceArea: 'family-law',
      message: `Divorce and child support (${id}).`,
    },
    ben: {
      firstName: 'Ben',
      lastName: `Cole ${id}`,
      email: `ben-${id}@example.com`,
      practiceArea: 'trust-administration',
      message: `Successor trustee duties (${id}).`,
    },
    cara: {
      firstName: 'Cara',
      lastName: `Ng ${id}`,
      email: `cara-${id}@example.com`,
      practiceArea: 'other',
      message: `A question about a living will (${id}).`,
    },
  };
  const ids = { ana: await submitThroughApi(page, people.ana), ben: await submitThroughApi(page, people.ben), cara: await submitThroughApi(page, people.cara) };
  // Ben has been read; Cara read and resolved (arranged through the admin API).
  for (const [who, flag] of [
    ['ben', 'read'],
    ['cara', 'read'],
    ['cara', 'resolved'],
  ] as const) {
    expect((await adminApi.put(`/api/admin/contact-submissions/${ids[who]}/${flag}`)).status()).toBe(200);
  }

  await openScreen(page);
  await expect(statusFilter(page).locator('option')).toHaveText(['All statuses', 'New (unread)', 'Read', 'Pending', 'Resolved']);
  await expect(areaFilter(page).locator('option')).toHaveText(['All practice areas', 'Family Law', 'Estate Planning', 'Trust Administration', 'Other']);

  // The search looks in the name, the e-mail address and the message.
  const shown = () => items(page).getByRole('heading', { level: 3 });
  await searchBox(page).fill(id);
  await expect(shown()).toHaveText([`Cara Ng ${id}`, `Ben Cole ${id}`, `Ana Diaz ${id}`]);
  await expect(page.getByRole('status').filter({ hasText: 'Showing' })).toContainText('Showing 3 of');
  await searchBox(page).fill(`ben cole ${id}`);
  await expect(shown()).toHaveText([`Ben Cole ${id}`]);
  await searchBox(page).fill(people.ana.email.toUpperCase());
  await expect(shown()).toHaveText([`Ana Diaz ${id}`]);
  await searchBox(page).fill(`successor trustee duties (${id}`);
  await expect(shown()).toHaveText([`Ben Cole ${id}`]);

  // Status filter: each side of each flag.
  await searchBox(page).fill(id);
  const expectStatus = async (value: string, names: string[]) => {
    await statusFilter(page).selectOption(value);
    await expect(shown()).toHaveText(names.map((n) => `${n} ${id}`));
  };
  await expectStatus('new', ['Ana Diaz']);
  await expectStatus('read', ['Cara Ng', 'Ben Cole']);
  await expectStatus('pending', ['Ben Cole', 'Ana Diaz']);
  await expectStatus('resolved', ['Cara Ng']);
  await expectStatus('all', ['Cara Ng', 'Ben Cole', 'Ana Diaz']);

  // Practice-area filter, alone and with the others.
  await areaFilter(page).selectOption('trust-administration');
  await expect(shown()).toHaveText([`Ben Cole ${id}`]);
  await expect(items(page).first()).toContainText('Trust Administration');

  // The filters are in the address bar: a reload keeps them.
  await statusFilter(page).selectOption('pending');
  await expect(page).toHaveURL(/status=pending/);
  await expect(page).toHaveURL(/area=trust-administration/);
  await page.reload();
  await expect(searchBox(page)).toHaveValue(id);
  await expect(statusFilter(page)).toHaveValue('pending');
  await expect(areaFilter(page)).toHaveValue('trust-administration');
  await expect(shown()).toHaveText([`Ben Cole ${id}`]);

  // Nothing matches: 'No Submissions Found' and Clear All Filters.
  await statusFilter(page).selectOption('resolved');
  await expect(page.getByRole('heading', { name: 'No Submissions Found' })).toBeVisible();
  await expect(items(page)).toHaveCount(0);
  await expectNoAxeViolations(page);
  await screenshot(page, info, 'admin-contact-submissions-no-match');
  await page.getByRole('button', { name: 'Clear All Filters' }).click();
  await expect(searchBox(page)).toHaveValue('');
  await expect(statusFilter(page)).toHaveValue('all');
  await expect(areaFilter(page)).toHaveValue('all');
  await expect(searchBox(page)).toBeFocused();
  await expect(page.getByRole('heading', { name: 'No Submissions Found' })).toHaveCount(0);
  await expect(item(page, people.ana.email)).toHaveCount(1);
  await expect(item(page, people.cara.email)).toHaveCount(1);
  await expect(page).toHaveURL(new RegExp(`${SCREEN}$`));
  await expectNoAxeViolations(page, { fromTop: true });
  await screenshot(page, info, 'admin-contact-submissions');
  consoleErrors.expectNone();
});

test('Delete, for a deletion request: asks first, then the message and its notification are gone; Cancel keeps it', async ({ page, adminApi }, info) => {
  const consoleErrors = watchConsole(page);
  const id = tag(info, 'erase');
  const email = `${id}@example.com`;
  const submissionId = await submitThroughApi(page, {
    firstName: 'Rae',
    lastName: `Erase ${id}`,
    email,
    practiceArea: 'estate-planning',
    message: 'Please delete my details after our call.',
  });
  await openScreen(page);
  await searchBox(page).fill(email);
  const row = item(page, email);
  await expect(items(page)).toHaveCount(1);

  // Cancel keeps it.
  await row.getByRole('button', { name: `Delete message from Rae Erase ${id}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this message for good?' });
  await expect(confirm).toContainText(`The message from Rae Erase ${id} is deleted, with its notification in the delivery log and any copy held`);
  await expectNoAxeViolations(page, { label: 'the delete confirmation' });
  await screenshotDialog(confirm, info, 'admin-contact-submissions-delete');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toHaveCount(1);
  // Kept: the focus is back on its Delete button.
  await expect(row.getByRole('button', { name: `Delete message from Rae Erase ${id}` })).toBeFocused();
  expect((await stored(adminApi, email)).id).toBe(submissionId);

  // With e-mail not configured (as this server starts), its notification is held in the outbox first.
  const outboxText = async () => JSON.stringify(await (await adminApi.get('/api/admin/email-outbox')).json());
  const held = (await (await page.request.get('/api/email-settings/active')).json()) === null;
  if (held) await expect.poll(outboxText, { timeout: 20_000 }).toContain(email);

  // Delete: gone from the list and from the API.
  await row.getByRole('button', { name: `Delete message from Rae Erase ${id}` }).click();
  await confirm.getByRole('button', { name: 'Delete Message' }).click();
  await expect(toasts(page)).toContainText('Contact submission deleted');
  await expect(confirm).toBeHidden();
  await expect(items(page)).toHaveCount(0);
  // None left for the search (or none at all, when it was the only one); the focus is on a heading, not lost.
  await expect(page.getByRole('heading', { name: /^(No Submissions Found|No contact submissions yet)$/ })).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toMatch(/^H[12]$/);
  const all = (await (await adminApi.get('/api/admin/contact-submissions')).json()) as ContactSubmission[];
  expect(all.find((s) => s.email === email)).toBeUndefined();
  // No copy of it is left where the admin reads held mail (the integration tests check its deliveries too).
  expect(await outboxText()).not.toContain(email);
  consoleErrors.expectNone();
});

test("'No contact submissions yet' links to the contact form", async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  // The shared server database is never empty while other tests run: the empty list is served by a
  // route interception (the screen's behaviour for an empty answer is what is under test).
  await page.route('**/api/admin/contact-submissions', (route) => route.fulfill({ json: [] }));
  await openScreen(page);
  await expect(page.getByRole('heading', { name: 'No contact submissions yet' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'View Contact Form' })).toHaveAttribute('href', '/contact');
  await expect(searchBox(page)).toHaveCount(0);
  await expectNoAxeViolations(page);
  await screenshot(page, info, 'admin-contact-submissions-empty');
  await page.getByRole('link', { name: 'View Contact Form' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Get In Touch' })).toBeVisible();
  consoleErrors.expectNone();
});

test('failed calls: the SPEC §8 error toasts, and nothing shown as done', async ({ page, adminApi }, info) => {
  const consoleErrors = watchConsole(page);
  const id = tag(info, 'fail');
  const email = `${id}@example.com`;
  await submitThroughApi(page, { firstName: 'Sam', lastName: `Fail ${id}`, email, practiceArea: 'estate-planning', message: 'Will and trust review.' });
  await page.route('**/api/admin/contact-submissions/*/*', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Internal error"}' }),
  );
  await openScreen(page);
  await searchBox(page).fill(email);
  const row = item(page, email);

  await row.getByRole('button', { name: /^Mark as Read/ }).click();
  await expect(toasts(page)).toContainText('Error');
  await expect(toasts(page)).toContainText('Failed to mark contact as read');
  await expect(row).toContainText('New');

  await row.getByRole('button', { name: /^Mark as Resolved/ }).click();
  await expect(toasts(page)).toContainText('Failed to mark contact as resolved');
  await expect(row).toContainText('Pending');

  // Opening the details tries to mark it read; when that fails the dialog offers Mark as Read.
  await row.getByRole('button', { name: /^View Details/ }).click();
  await expect(toasts(page)).toContainText('Failed to mark contact as read');
  await expect(dialog(page).getByText('New', { exact: true })).toBeVisible();
  await expect(dialog(page).getByRole('button', { name: 'Mark as Read' })).toBeEnabled();
  await screenshot(page, info, 'admin-contact-submissions-failed', { fullPage: false });

  // The server is back: Mark as Read in the dialog works.
  await page.unroute('**/api/admin/contact-submissions/*/*');
  await dialog(page).getByRole('button', { name: 'Mark as Read' }).click();
  await expect(toasts(page)).toContainText('Contact marked as read');
  await expect(dialog(page).getByText('Read', { exact: true })).toBeVisible();
  expect(await stored(adminApi, email)).toMatchObject({ isRead: true, isResolved: false });

  // The browser logs the 500s; the mutation hook logs each failure it toasts.
  consoleErrors.expectOnly(/the server responded with a status of 500/, /^Failed to mark contact as (read|resolved)/);
});
