/**
 * /admin/admins (docs/decisions/030 and 041), as an admin works it, at desktop width (1366 px) and on
 * a 390 px phone: they find themself marked You with no Remove, remove a second admin the test made
 * with `npm run admin:create`'s script after the confirmation that names them and says what happens,
 * and that admin, signed in in a browser of their own, is signed out at once. They invite a colleague,
 * who opens the e-mailed link, chooses a username and a password, signs in and reaches /admin. A
 * confirmed sign-up on ADMIN_EMAILS sees "Waiting for approval" until the admin approves it. Axe in
 * every open dialog and on the invitation page; screenshots.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { accessToken, createAdmin, expect, openAdminScreen, signInThroughForm, test } from '../support/admin.ts';
import { expectNoAxeViolations, expectNoSideways, expectToast, screenshot, screenshotDialog, watchConsole } from '../support/e2e.ts';
import { acceptInvitation, expectDashboard, inviteFromAdminsScreen, newColleague, newestMailTo, submitSignIn } from '../support/invitations.ts';

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
  await page.setViewportSize(phone ? { width: 390, height: 844 } : { width: 1366, height: 900 });

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
  await expect(page.getByRole('heading', { name: 'Who may sign up and ask (ADMIN_EMAILS)' })).toBeVisible();
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

/** A fresh browser of their own (no admin's storage), at the test's width. */
async function ownBrowser(browser: import('@playwright/test').Browser, baseURL: string | undefined, phone: boolean) {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.setViewportSize(phone ? { width: 390, height: 844 } : { width: 1366, height: 900 });
  return { context, page };
}

test('an admin invites a colleague; the colleague opens the e-mailed link, sets a password, signs in and reaches /admin', async ({
  page,
  adminAccount,
  adminApi,
  browser,
  baseURL,
}, info) => {
  test.setTimeout(90_000);
  const consoleErrors = watchConsole(page);
  const phone = info.project.name === 'phone';
  await page.setViewportSize(phone ? { width: 390, height: 844 } : { width: 1366, height: 900 });
  const colleague = newColleague(`invited-${info.project.name}`);

  await openAdminScreen(page, '/admin/admins', 'Admins');
  const link = await inviteFromAdminsScreen(page, adminApi, colleague.email, {
    inDialog: async (dialog, state) => {
      await expect(dialog.locator(':focus')).toHaveCount(1);
      await expectNoAxeViolations(page, { label: `Invite dialog (${state})` });
      await screenshotDialog(dialog, info, `admin-admins-invite-${state}`);
    },
  });
  // The e-mail says who invited whom, and that the link works once.
  const mail = await newestMailTo(adminApi, colleague.email, /accept-invitation/);
  expect(mail.subject).toBe("You are invited to be an admin of Pacific Crest Law Group's website");
  expect(mail.text).toContain(`${adminAccount.username} invited you`);
  expect(mail.text).toContain('The link works once');

  // Listed as pending: the address, who invited, until when; with Revoke.
  const pending = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: colleague.email, exact: true }) });
  await expect(pending).toContainText(adminAccount.username);
  await expect(pending).toContainText(/Expires|\d{4}/);
  await expect(pending.getByRole('button', { name: `Revoke the invitation to ${colleague.email}` })).toBeVisible();
  await expectNoSideways(page);
  await expectNoAxeViolations(page, { label: 'Admins with a pending invitation' });
  await screenshot(page, info, 'admin-admins-invitations');

  // The colleague, in a browser of their own: the page, its form's own messages (SPEC §5), then the account.
  const theirs = await ownBrowser(browser, baseURL, phone);
  const theirErrors = watchConsole(theirs.page);
  await acceptInvitation(theirs.page, link, colleague, {
    onPage: async (invitationPage) => {
      await expect(invitationPage.getByText(adminAccount.username, { exact: true })).toBeVisible();
      await expectNoSideways(invitationPage);
      await expectNoAxeViolations(invitationPage, { label: 'Invitation page' });
      await screenshot(invitationPage, info, 'accept-invitation');
      await invitationPage.getByRole('button', { name: 'Create Admin Account' }).click();
      await expect(invitationPage.getByLabel('Username', { exact: true })).toHaveAccessibleDescription('Username must be at least 3 characters');
      await expect(invitationPage.getByLabel('Confirm Password', { exact: true })).toHaveAccessibleDescription('Please confirm your password');
      await invitationPage.getByLabel('Password', { exact: true }).fill('long-enough-1');
      await invitationPage.getByLabel('Confirm Password', { exact: true }).fill('long-enough-2');
      await invitationPage.getByRole('button', { name: 'Create Admin Account' }).click();
      await expect(invitationPage.getByLabel('Confirm Password', { exact: true })).toHaveAccessibleDescription("Passwords don't match");
      await expectNoAxeViolations(invitationPage, { label: 'Invitation page with messages' });
      await screenshot(invitationPage, info, 'accept-invitation-errors');
    },
  });
  await screenshot(theirs.page, info, 'accept-invitation-sign-in');
  await submitSignIn(theirs.page, colleague);
  await expectDashboard(theirs.page, colleague);

  // The link worked once: opened again, it says so.
  const again = await ownBrowser(browser, baseURL, phone);
  const againErrors = watchConsole(again.page);
  await again.page.goto(link);
  await expect(again.page.getByRole('alert')).toHaveText(
    'This invitation link cannot be used: it has expired, it was already used, or it was withdrawn. Ask an admin of the firm to invite you again.',
  );
  await expectNoAxeViolations(again.page, { label: 'Invitation page, link used' });
  await screenshot(again.page, info, 'accept-invitation-used');
  againErrors.expectOnlyFailedRequests(404);
  await again.context.close();

  // The admin's screen: the colleague in the group, the invitation gone.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Admins' })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: colleague.username, exact: true }) })).toContainText(
    colleague.email,
  );
  await expect(pending).toHaveCount(0);
  theirErrors.expectNone();
  await theirs.context.close();
  consoleErrors.expectNone();
});

test('a pending invitation is revoked after a confirmation, and its link no longer works', async ({ page, adminApi, browser, baseURL }, info) => {
  const consoleErrors = watchConsole(page);
  const phone = info.project.name === 'phone';
  await page.setViewportSize(phone ? { width: 390, height: 844 } : { width: 1366, height: 900 });
  const colleague = newColleague(`revoked-${info.project.name}`);
  await openAdminScreen(page, '/admin/admins', 'Admins');
  const link = await inviteFromAdminsScreen(page, adminApi, colleague.email);
  await page.getByRole('button', { name: `Revoke the invitation to ${colleague.email}` }).click();
  const dialog = page.getByRole('alertdialog', { name: `Revoke the invitation to ${colleague.email}?` });
  await expect(dialog).toContainText('will stop working at once');
  await expectNoAxeViolations(page, { label: 'Revoke confirmation' });
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expectToast(page, 'Success', 'Invitation revoked: its link no longer works.');
  await expect(page.getByRole('heading', { level: 3, name: colleague.email, exact: true })).toHaveCount(0);

  const theirs = await ownBrowser(browser, baseURL, phone);
  await theirs.page.goto(link);
  await expect(theirs.page.getByRole('alert')).toContainText('This invitation link cannot be used');
  await expect(theirs.page.getByRole('button', { name: 'Create Admin Account' })).toHaveCount(0);
  await theirs.context.close();
  consoleErrors.expectNone();
});

/** SPEC's sign-up flow through the gateway the browser uses: SignUp, then ConfirmSignUp with the mailed code. */
async function signUpAndConfirm(request: APIRequestContext, adminApi: APIRequestContext, account: { username: string; email: string; password: string }) {
  const { userPoolClientId } = (await (await request.get('/api/identity/config')).json()) as { userPoolClientId: string };
  const call = async (action: string, body: object) => {
    const res = await request.post('/api/identity/cognito', {
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${action}` },
      data: JSON.stringify({ ClientId: userPoolClientId, ...body }),
    });
    expect(res.ok(), `${action}: ${await res.text()}`).toBe(true);
  };
  await call('SignUp', { Username: account.username, Password: account.password, UserAttributes: [{ Name: 'email', Value: account.email }] });
  const code = /\b(\d{6})\b/.exec((await newestMailTo(adminApi, account.email, /\b\d{6}\b/)).text)![1];
  await call('ConfirmSignUp', { Username: account.username, ConfirmationCode: code });
}

test('a sign-up on ADMIN_EMAILS sees "Waiting for approval" until an admin approves it on the Admins screen', async ({
  page,
  adminApi,
  browser,
  baseURL,
  request,
}, info) => {
  test.setTimeout(90_000);
  const consoleErrors = watchConsole(page);
  const phone = info.project.name === 'phone';
  await page.setViewportSize(phone ? { width: 390, height: 844 } : { width: 1366, height: 900 });
  const username = `asks-${info.project.name}-${Date.now()}`;
  const requester = { username, email: `${username}@e2e.example.com`, password: 'Asking-To-Join-2026' };
  await signUpAndConfirm(request, adminApi, requester);

  // They sign in: the portal tells them, in plain words, and shows nothing of the admin.
  const theirs = await ownBrowser(browser, baseURL, phone);
  const theirErrors = watchConsole(theirs.page);
  await theirs.page.goto('/login');
  const panel = theirs.page.getByRole('tabpanel');
  await expect(panel.getByRole('button', { name: 'Sign In', exact: true })).toBeEnabled();
  await panel.getByLabel('Username', { exact: true }).fill(requester.username);
  await panel.getByLabel('Password', { exact: true }).fill(requester.password);
  await panel.getByRole('button', { name: 'Sign In', exact: true }).click();
  await theirs.page.waitForURL('**/admin');
  await expect(theirs.page.getByRole('heading', { level: 1, name: 'Waiting for approval' })).toBeVisible();
  await expect(theirs.page.getByText(`You are signed in as ${requester.username}.`)).toBeVisible();
  await expect(theirs.page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0);
  await expect(theirs.page.getByRole('button', { name: 'Sign Out' })).toBeVisible();
  await expectNoSideways(theirs.page);
  await expectNoAxeViolations(theirs.page, { label: 'Waiting for approval' });
  await screenshot(theirs.page, info, 'admin-waiting-for-approval');
  // An admin screen's address shows the same.
  await theirs.page.goto('/admin/contact-submissions');
  await expect(theirs.page.getByRole('heading', { level: 1, name: 'Waiting for approval' })).toBeVisible();
  await theirs.page.getByRole('button', { name: 'Check Again' }).click();
  await expect(theirs.page.getByRole('heading', { level: 1, name: 'Waiting for approval' })).toBeVisible();

  // The admin approves it on the Admins screen.
  await openAdminScreen(page, '/admin/admins', 'Admins');
  const requests = page.getByRole('region', { name: 'Requests to be an admin' });
  const row = requests.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: requester.username, exact: true }) });
  await expect(row).toContainText(requester.email);
  await expectNoAxeViolations(page, { label: 'Admins with a request' });
  await screenshot(page, info, 'admin-admins-requests');
  await row.getByRole('button', { name: `Approve ${requester.username}` }).click();
  const dialog = page.getByRole('alertdialog', { name: `Make ${requester.username} an admin?` });
  await expect(dialog).toContainText(`${requester.username} (${requester.email}) will be an admin at once`);
  await expectNoAxeViolations(page, { label: 'Approve confirmation' });
  await screenshotDialog(dialog, info, 'admin-admins-approve');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expectToast(page, 'Success', `${requester.username} is now an admin.`);
  // Their request is gone (other specs' sign-ups on the same server may still be waiting).
  await expect(row).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Admin group' }).getByRole('heading', { level: 3, name: requester.username, exact: true })).toBeVisible();

  // Checking again, they are in.
  await theirs.page.getByRole('button', { name: 'Check Again' }).click();
  await expect(theirs.page.getByRole('heading', { level: 1, name: 'Contact Submissions' })).toBeVisible();
  await theirs.page.goto('/admin');
  await expectDashboard(theirs.page, requester);
  theirErrors.expectOnlyFailedRequests(403);
  await theirs.context.close();
  consoleErrors.expectNone();
});
