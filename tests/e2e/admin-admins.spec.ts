/**
 * /admin/admins (issue 19, item 8; docs/decisions/030), as an admin works it, at desktop width and on a
 * 390 px phone: they find themself marked You with no Remove, remove a second admin the test made with
 * `npm run admin:create`'s script after the confirmation that names them and says what happens, and
 * that admin, signed in in a browser of their own, is signed out at once. Axe; screenshots.
 */
import type { Page } from '@playwright/test';
import { accessToken, createAdmin, expect, openAdminScreen, signInThroughForm, test } from '../support/admin.ts';
import { expectNoAxeViolations, expectNoSideways, expectToast, screenshot, watchConsole } from '../support/e2e.ts';

const row = (page: Page, username: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: username, exact: true }) });

test('an admin sees themself as You, removes a second admin after confirming, and that admin is signed out', async ({
  page,
  adminAccount,
  browser,
  baseURL,
}, info) => {
  test.setTimeout(90_000); // a second admin made by the real script and signed in through /login
  const consoleErrors = watchConsole(page);
  const phone = info.project.name === 'phone';
  if (phone) await page.setViewportSize({ width: 390, height: 844 });

  // The second admin, signed in in a browser of their own, and their token for the API.
  // An admin through the group alone (their address is not on the server's ADMIN_EMAILS).
  const second = createAdmin(`second-${info.project.name}`, { domain: 'elsewhere.example.org' });
  const theirs = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const theirPage = await theirs.newPage();
  await signInThroughForm(theirPage, second);
  const theirToken = await accessToken(theirs.request, second);
  const theirSession = () => theirs.request.get('/api/admin/session', { headers: { authorization: `Bearer ${theirToken}` } });
  expect((await theirSession()).status()).toBe(200);

  await openAdminScreen(page, '/admin/admins', 'Admins');
  await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Admins' })).toHaveAttribute('aria-current', 'page');

  const mine = row(page, adminAccount.username);
  await expect(mine.getByText('You', { exact: true })).toBeVisible();
  await expect(mine.getByRole('button')).toHaveCount(0);
  await expect(mine).toContainText(adminAccount.email);

  const them = row(page, second.username);
  await expect(them).toContainText(`${second.email} (verified)`);
  // They signed in a moment ago: a date, not 'Not known'.
  await expect(them).not.toContainText('Last sign-in: Not known');
  // The column headings of the table's rows (for screen readers each row still names its fields).
  const columnHeading = page.getByText('Last sign-in', { exact: true });
  if (phone) {
    // A card: each value labelled in the card itself, no column headings.
    await expect(them.getByText('E-mail:', { exact: true })).toBeVisible();
    await expect(them.getByText('Last sign-in:', { exact: true })).toBeVisible();
    await expect(columnHeading).toBeHidden();
  } else {
    // A table's row: column headings above, the Remove button on the name's line.
    await expect(columnHeading).toBeVisible();
    const removeBox = (await them.getByRole('button', { name: `Remove ${second.username}` }).boundingBox())!;
    const nameBox = (await them.getByRole('heading', { level: 3 }).boundingBox())!;
    expect(Math.abs(removeBox.y + removeBox.height / 2 - (nameBox.y + nameBox.height / 2))).toBeLessThan(40);
  }
  await expect(page.getByRole('heading', { name: 'Admins by configuration (ADMIN_EMAILS)' })).toBeVisible();
  await expect(page.getByText('npm run admin:create -- --username <name> --email <address> --password <password>')).toBeVisible();
  await expectNoSideways(page);
  await expectNoAxeViolations(page, { label: 'Admins' });
  await screenshot(page, info, 'admin-admins');

  // Remove: the confirmation names them and says what happens.
  await them.getByRole('button', { name: `Remove ${second.username}` }).click();
  const dialog = page.getByRole('alertdialog', { name: `Remove ${second.username} as an admin?` });
  await expect(dialog).toContainText(`${second.username} (${second.email}) will be signed out at once, on every device`);
  await expect(dialog).toContainText(`npm run admin:add -- --username ${second.username}`);
  await expect(dialog.locator(':focus')).toHaveCount(1);
  await expectNoAxeViolations(page, { label: 'Remove confirmation' });
  await screenshot(page, info, 'admin-admins-confirm', { fullPage: false });
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(dialog).toBeHidden();
  await expect(row(page, second.username)).toHaveCount(0);
  // Their Remove button went with their row: the focus is on the screen's heading, not lost.
  await expect(page.getByRole('heading', { level: 1, name: 'Admins' })).toBeFocused();
  await expect(mine).toBeVisible();
  await expectToast(page, 'Success', `${second.username} is no longer an admin and has been signed out.`);

  // Signed out at once: their next admin call is refused, and their browser goes back to sign in.
  expect((await theirSession()).status()).toBe(401);
  await theirPage.goto('/admin/testimonials');
  await theirPage.waitForURL('**/login');
  await expect(theirPage.getByRole('heading', { level: 1, name: 'Admin Portal Access' })).toBeVisible();
  await theirs.close();
  consoleErrors.expectNone();
});
