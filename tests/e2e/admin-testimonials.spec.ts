/**
 * /admin/testimonials (SPEC §2, §4 Testimonial, §5 defaults and delete confirmation, §7 admin calls,
 * §8 toasts and 'No Testimonials Yet'), worked through as an admin would: add, edit, unpublish,
 * publish and delete, each seen on the home page (which shows the 3 latest published testimonials);
 * one testimonial added with the keyboard only; every success and failure toast; axe; screenshots.
 *
 * Both projects share one server database, so every test makes its own uniquely named testimonials
 * and checks only those.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import type { Testimonial } from '../../src/components/admin/testimonials/testimonial-form.ts';
import { expect, openAdminScreen, test } from '../support/admin.ts';
import { expectNoAxeViolations, expectNoSideways, expectToast, screenshot, unique, watchConsole } from '../support/e2e.ts';

const openScreen = (page: Page) => openAdminScreen(page, '/admin/testimonials', 'Testimonials');

const card = (page: Page, clientName: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: clientName, exact: true }) });

async function stored(adminApi: APIRequestContext, clientName: string) {
  const rows = (await (await adminApi.get('/api/admin/testimonials')).json()) as Testimonial[];
  return rows.find((r) => r.clientName === clientName) ?? null;
}

async function arrange(adminApi: APIRequestContext, clientName: string, extra: Partial<Testimonial> = {}) {
  const res = await adminApi.post('/api/admin/testimonials', {
    data: { clientName, rating: 5, content: `Arranged testimonial for ${clientName}.`, practiceArea: 'estate-planning', isPublished: false, ...extra },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Testimonial;
}

const homeHtml = async (page: Page) => (await page.request.get('/')).text();

test('add, edit, unpublish, publish and delete a testimonial; the home page follows each change', async ({ page, adminApi }, info) => {
  const consoleErrors = watchConsole(page);
  const clientName = unique(info, 'Maria G.');
  const content = `Calm and clear advice through our custody case ${Date.now()}`;
  const edited = `Edited: they explained every step of the custody case ${Date.now()}`;
  await openScreen(page);

  // Add, with the defaults of SPEC §5: rating 5, published.
  const addButton = page.getByRole('button', { name: 'Add Testimonial' });
  await addButton.click();
  const dialog = page.getByRole('dialog', { name: 'Add Testimonial' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Client Name' })).toBeFocused();
  await expect(dialog.getByRole('combobox', { name: 'Rating' })).toHaveValue('5');
  await expect(dialog.getByRole('combobox', { name: 'Practice Area' })).toHaveValue('');
  await expect(dialog.getByRole('switch', { name: 'Published' })).toHaveAttribute('aria-checked', 'true');
  // The practice areas of SPEC §9, labelled.
  await expect(dialog.getByRole('combobox', { name: 'Practice Area' }).getByRole('option')).toHaveText([
    'Select a practice area',
    'Divorce',
    'Estate Planning',
    'Custody',
    'Trust Administration',
    'Family Law',
    'Other',
  ]);

  // Nothing filled in: the field messages of the shared schema, and nothing sent.
  await dialog.getByRole('button', { name: 'Add Testimonial' }).click();
  await expect(dialog.getByText('Client name is required')).toBeVisible();
  await expect(dialog.getByText('Please choose a practice area')).toBeVisible();
  await expect(dialog.getByText('Testimonial is required')).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Client Name' })).toBeFocused();
  await expect(dialog.getByRole('textbox', { name: 'Client Name' })).toHaveAttribute('aria-invalid', 'true');

  await dialog.getByRole('textbox', { name: 'Client Name' }).fill(clientName);
  await dialog.getByRole('combobox', { name: 'Rating' }).selectOption('4');
  await dialog.getByRole('combobox', { name: 'Practice Area' }).selectOption('custody');
  await dialog.getByRole('textbox', { name: 'Testimonial', exact: true }).fill(content);
  await dialog.getByRole('button', { name: 'Add Testimonial' }).click();
  await expect(dialog).toBeHidden();
  await expect(addButton).toBeFocused(); // focus back where it was
  await expectToast(page, 'Success', 'Testimonial created successfully');

  const row = card(page, clientName);
  await expect(row).toContainText('4 out of 5 stars');
  await expect(row).toContainText('Custody');
  await expect(row).toContainText(content);
  await expect(row.getByText('Published', { exact: true })).toBeVisible();
  const saved = await stored(adminApi, clientName);
  expect(saved).toMatchObject({ rating: 4, practiceArea: 'custody', content, isPublished: true });
  const created = new Date(saved!.createdAt).toLocaleDateString('en-US', { timeZone: 'America/Los_Angeles', year: 'numeric', month: 'long', day: 'numeric' });
  await expect(row).toContainText(`Added ${created}`);
  await expect.poll(() => homeHtml(page), { message: 'the home page shows the new testimonial' }).toContain(content);

  // Edit: the dialog starts from the row.
  await row.getByRole('button', { name: `Edit testimonial from ${clientName}` }).click();
  const editDialog = page.getByRole('dialog', { name: 'Edit Testimonial' });
  await expect(editDialog.getByRole('textbox', { name: 'Client Name' })).toHaveValue(clientName);
  await expect(editDialog.getByRole('combobox', { name: 'Rating' })).toHaveValue('4');
  await expect(editDialog.getByRole('combobox', { name: 'Practice Area' })).toHaveValue('custody');
  await expect(editDialog.getByRole('textbox', { name: 'Testimonial', exact: true })).toHaveValue(content);
  await editDialog.getByRole('textbox', { name: 'Testimonial', exact: true }).fill(edited);
  await editDialog.getByRole('combobox', { name: 'Rating' }).selectOption('5');
  await editDialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(editDialog).toBeHidden();
  await expectToast(page, 'Success', 'Testimonial updated successfully');
  await expect(row).toContainText(edited);
  await expect(row).toContainText('5 out of 5 stars');
  await expect.poll(() => homeHtml(page)).toContain(edited);
  expect(await homeHtml(page)).not.toContain(content);

  // Quick toggle: only isPublished is sent (SPEC §7).
  const sent: unknown[] = [];
  page.on('request', (req) => {
    if (req.method() === 'PUT' && req.url().includes('/api/admin/testimonials/')) sent.push(req.postDataJSON());
  });
  await row.getByRole('button', { name: `Unpublish testimonial from ${clientName}` }).click();
  await expectToast(page, 'Success', 'Testimonial updated successfully');
  await expect(row.getByText('Draft', { exact: true })).toBeVisible();
  expect(sent).toEqual([{ isPublished: false }]);
  expect((await stored(adminApi, clientName))?.isPublished).toBe(false);
  await expect.poll(() => homeHtml(page), { message: 'a draft is not on the home page' }).not.toContain(edited);

  await row.getByRole('button', { name: `Publish testimonial from ${clientName}` }).click();
  await expectToast(page, 'Success', 'Testimonial updated successfully');
  await expect(row.getByText('Published', { exact: true })).toBeVisible();
  expect(sent).toEqual([{ isPublished: false }, { isPublished: true }]);
  await expect.poll(() => homeHtml(page)).toContain(edited);

  // Delete asks first (SPEC §5); Cancel keeps it.
  await row.getByRole('button', { name: `Delete testimonial from ${clientName}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this testimonial?' });
  await expect(confirm).toContainText(`The testimonial from ${clientName} will be removed`);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toBeVisible();
  expect(await stored(adminApi, clientName)).not.toBeNull();

  await row.getByRole('button', { name: `Delete testimonial from ${clientName}` }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toHaveCount(0);
  await expect(addButton).toBeFocused(); // the deleted row's button is gone: focus lands on the screen's action
  await expectToast(page, 'Success', 'Testimonial deleted successfully');
  expect(await stored(adminApi, clientName)).toBeNull();
  await expect.poll(() => homeHtml(page)).not.toContain(edited);
  consoleErrors.expectNone();
});

test('add a draft testimonial with the keyboard only; Escape closes the dialog', async ({ page, adminApi }, info) => {
  const consoleErrors = watchConsole(page);
  const clientName = unique(info, 'Keyboard K.');
  const content = `Typed without a mouse ${Date.now()}`;
  await openScreen(page);

  // From the top of the page, Tab to the screen's Add Testimonial button.
  await page.locator('body').focus();
  const addButton = page.getByRole('button', { name: 'Add Testimonial' });
  for (let i = 0; i < 40 && !(await addButton.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(addButton).toBeFocused();

  // Escape closes and gives the focus back.
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Add Testimonial' });
  await expect(dialog.getByRole('textbox', { name: 'Client Name' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(addButton).toBeFocused();

  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('textbox', { name: 'Client Name' })).toBeFocused();
  await page.keyboard.type(clientName);
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('combobox', { name: 'Rating' })).toBeFocused();
  await page.keyboard.press('ArrowDown'); // 5 -> 4 stars
  await expect(dialog.getByRole('combobox', { name: 'Rating' })).toHaveValue('4');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('combobox', { name: 'Practice Area' })).toBeFocused();
  await page.keyboard.type('Family');
  await expect(dialog.getByRole('combobox', { name: 'Practice Area' })).toHaveValue('family-law');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('textbox', { name: 'Testimonial', exact: true })).toBeFocused();
  await page.keyboard.type(content);
  await page.keyboard.press('Tab');
  const published = dialog.getByRole('switch', { name: 'Published' });
  await expect(published).toBeFocused();
  await page.keyboard.press('Space');
  await expect(published).toHaveAttribute('aria-checked', 'false');
  await expect(dialog.getByText('Saved as a draft: not shown on the website.')).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Add Testimonial' })).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(dialog).toBeHidden();
  await expect(addButton).toBeFocused();
  const row = card(page, clientName);
  await expect(row.getByText('Draft', { exact: true })).toBeVisible();
  await expect(row).toContainText('4 out of 5 stars');
  await expect(row).toContainText('Family Law');
  await expectToast(page, 'Success', 'Testimonial created successfully');
  const saved = await stored(adminApi, clientName);
  expect(saved).toMatchObject({ clientName, rating: 4, practiceArea: 'family-law', content, isPublished: false });
  // A draft never reaches the home page.
  expect(await homeHtml(page)).not.toContain(content);

  expect((await adminApi.delete(`/api/admin/testimonials/${saved!.id}`)).status()).toBe(204);
  consoleErrors.expectNone();
});

test('failures show the SPEC §8 error toasts, and the form keeps what was typed', async ({ page, adminApi }, info) => {
  const consoleErrors = watchConsole(page);
  const gone = unique(info, 'Gone G.');
  const goneToo = unique(info, 'Gone Too T.');
  await arrange(adminApi, gone, { isPublished: true });
  const other = await arrange(adminApi, goneToo);
  await openScreen(page);

  // Create: the server fails (a 500 forced by the test; nothing else makes a valid payload fail).
  await page.route('**/api/admin/testimonials', (route) =>
    route.request().method() === 'POST' ? route.fulfill({ status: 500, json: { error: 'Internal error' } }) : route.fallback(),
  );
  await page.getByRole('button', { name: 'Add Testimonial' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Testimonial' });
  const name = unique(info, 'Never Saved');
  await dialog.getByRole('textbox', { name: 'Client Name' }).fill(name);
  await dialog.getByRole('combobox', { name: 'Practice Area' }).selectOption('divorce');
  await dialog.getByRole('textbox', { name: 'Testimonial', exact: true }).fill('This one fails to save.');
  await dialog.getByRole('button', { name: 'Add Testimonial' }).click();
  await expectToast(page, 'Error', 'Failed to create testimonial', { overDialog: true });
  // Said inside the dialog too, where a screen reader can hear it.
  await expect(dialog.getByRole('alert')).toHaveText('Failed to create testimonial. Please try again.');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Client Name' })).toHaveValue(name);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.unroute('**/api/admin/testimonials');
  expect(await stored(adminApi, name)).toBeNull();

  // Update and delete of testimonials someone else deleted meanwhile: a real 404 each, then the list catches up.
  const goneRow = await stored(adminApi, gone);
  expect((await adminApi.delete(`/api/admin/testimonials/${goneRow!.id}`)).status()).toBe(204);
  await card(page, gone)
    .getByRole('button', { name: `Unpublish testimonial from ${gone}` })
    .click();
  await expectToast(page, 'Error', 'Failed to update testimonial');
  await expect(card(page, gone)).toHaveCount(0);

  expect((await adminApi.delete(`/api/admin/testimonials/${other.id}`)).status()).toBe(204);
  await card(page, goneToo)
    .getByRole('button', { name: `Delete testimonial from ${goneToo}` })
    .click();
  await page.getByRole('alertdialog', { name: 'Delete this testimonial?' }).getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Error', 'Failed to delete testimonial');
  await expect(page.getByRole('alertdialog')).toBeHidden();
  await expect(card(page, goneToo)).toHaveCount(0);
  // Those calls fail on purpose: the browser logs their statuses, the mutation hook each failure it toasts.
  consoleErrors.expectOnly(/the server responded with a status of (500|404)/, /Failed to (create|update|delete) testimonial/);
});

test('no testimonials: No Testimonials Yet, and Add Your First Testimonial opens the dialog', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  // The database is shared with other tests, so the empty list is served by the test (route interception).
  await page.route('**/api/admin/testimonials', (route) => (route.request().method() === 'GET' ? route.fulfill({ json: [] }) : route.fallback()));
  await openScreen(page);
  await expect(page.getByRole('heading', { name: 'No Testimonials Yet' })).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, info, 'admin-testimonials-empty', { unhover: true });
  await page.getByRole('button', { name: 'Add Your First Testimonial' }).click();
  await expect(page.getByRole('dialog', { name: 'Add Testimonial' })).toBeVisible();
  consoleErrors.expectNone();
});

test('no axe violations on the list, the dialog (with field messages) and the delete confirmation; screenshots', async ({ page, adminApi }, info) => {
  test.setTimeout(90_000); // five axe runs
  const consoleErrors = watchConsole(page);
  const names = [unique(info, 'Screenshot Published P.'), unique(info, 'Screenshot Draft D.')];
  const rows = [
    await arrange(adminApi, names[0]!, {
      isPublished: true,
      rating: 5,
      practiceArea: 'trust-administration',
      content: 'They made administering my mother’s trust simple and calm.',
    }),
    await arrange(adminApi, names[1]!, { isPublished: false, rating: 3, practiceArea: 'other' }),
  ];
  await openScreen(page);
  await expect(card(page, names[1]!)).toBeVisible();
  await expectNoAxeViolations(page);
  await expectNoSideways(page);
  await screenshot(page, info, 'admin-testimonials', { unhover: true });

  await page.getByRole('button', { name: 'Add Testimonial' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Testimonial' });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, info, 'admin-testimonial-dialog', { fullPage: false, unhover: true });
  await dialog.getByRole('button', { name: 'Add Testimonial' }).click();
  await expect(dialog.getByText('Client name is required')).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, info, 'admin-testimonial-dialog-errors', { fullPage: false, unhover: true });
  await page.keyboard.press('Escape');

  await card(page, names[0]!)
    .getByRole('button', { name: `Edit testimonial from ${names[0]}` })
    .click();
  await expect(page.getByRole('dialog', { name: 'Edit Testimonial' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');

  await card(page, names[1]!)
    .getByRole('button', { name: `Delete testimonial from ${names[1]}` })
    .click();
  await expect(page.getByRole('alertdialog', { name: 'Delete this testimonial?' })).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, info, 'admin-testimonial-delete', { fullPage: false, unhover: true });
  await page.keyboard.press('Escape');

  for (const row of rows) expect((await adminApi.delete(`/api/admin/testimonials/${row.id}`)).status()).toBe(204);
  consoleErrors.expectNone();
});
