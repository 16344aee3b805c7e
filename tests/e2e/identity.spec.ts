/**
 * Identity end to end (SPEC §2 /login and Admin routes, §4 Authentication, §5 and §8 Authentication
 * screens), against the embedded identity service. ADMIN_EMAILS is '@e2e.example.com', so those
 * addresses may sign up and ask to be admins (an admin approves them: docs/decisions/041; here the
 * operator's `npm run admin:add`); verification codes are held (sealed in the server's
 * database), read here with the server's key (tests/support/held-mail.ts).
 */
import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { approveRequest } from '../support/admin.ts';
import { expectNoAxeViolations, screenshot, toasts, watchConsole } from '../support/e2e.ts';
import { codeIn, heldMailTo, newestCodeTo } from '../support/held-mail.ts';

const PASSWORD = 'Correct-Horse-42';

/** Every test owns its user: the project name and a timestamp keep names apart across runs and widths. */
let serial = 0;
function newAccount(info: TestInfo, label: string) {
  const username = `pcl-${info.project.name}-${label}-${Date.now()}-${++serial}`;
  return { username, email: `${username}@e2e.example.com` };
}

/** The 6-digit code of the newest message held for this address. */
async function verificationCode(email: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        code = await newestCodeTo(email);
        return code;
      },
      { message: `a verification code for ${email} in the held mail` },
    )
    .toMatch(/^\d{6}$/);
  return code!;
}

/** Factory: an account created through the same gateway the browser uses, verified (and its request approved) unless asked not to. */
async function createAccount(request: APIRequestContext, info: TestInfo, label: string, { verify = true } = {}) {
  const account = newAccount(info, label);
  const { userPoolClientId } = (await (await request.get('/api/identity/config')).json()) as { userPoolClientId: string };
  const call = async (action: string, body: object) => {
    const res = await request.post('/api/identity/cognito', {
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${action}` },
      data: JSON.stringify({ ClientId: userPoolClientId, ...body }),
    });
    expect(res.ok(), `${action}: ${await res.text()}`).toBe(true);
  };
  await call('SignUp', { Username: account.username, Password: PASSWORD, UserAttributes: [{ Name: 'email', Value: account.email }] });
  if (verify) {
    await call('ConfirmSignUp', { Username: account.username, ConfirmationCode: await verificationCode(account.email) });
    approveRequest(account.username);
  }
  return account;
}

/** The island is ready when its submit button is enabled (it stays disabled until hydration). */
async function openLogin(page: Page) {
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Portal Access' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeEnabled();
}

const panel = (page: Page) => page.getByRole('tabpanel');
const field = (page: Page, label: string) => panel(page).getByLabel(label, { exact: true });

async function signInWithForm(page: Page, username: string, password: string) {
  await field(page, 'Username').fill(username);
  await field(page, 'Password').fill(password);
  await panel(page).getByRole('button', { name: 'Sign In' }).click();
}

test('the whole journey: signed out to /login, sign up, verify, sign in, reload, sign out', async ({ page }, info) => {
  test.setTimeout(60_000);
  const consoleErrors = watchConsole(page);
  const { username, email } = newAccount(info, 'journey');

  // Signed out: the guard checks, then sends the visitor to /login.
  await page.goto('/admin');
  await expect(page.getByText('Checking authentication...').or(page.getByRole('heading', { name: 'Admin Portal Access' }))).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('link', { name: 'Back to website' })).toHaveAttribute('href', '/');
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeEnabled();

  // Sign up.
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await field(page, 'Username').fill(username);
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await field(page, 'Confirm Password').fill(PASSWORD);
  await panel(page).getByRole('button', { name: 'Create Account' }).click();
  const toast = toasts(page);
  await expect(toast).toContainText('Account created!');
  await expect(toast).toContainText('Please check your email for a verification code');

  // Verify, with the code from the outbox.
  await expect(page.getByRole('tab', { name: 'Verify Email' })).toHaveAttribute('aria-selected', 'true');
  await expect(field(page, 'Username')).toHaveValue(username);
  await expect(field(page, 'Verification Code')).toBeFocused();
  await field(page, 'Verification Code').fill(await verificationCode(email));
  await panel(page).getByRole('button', { name: 'Verify Email' }).click();
  await expect(toast).toContainText('Email verified!');
  await expect(toast).toContainText('Your account has been activated. You can now sign in.');

  // Back on Sign In, the username prefilled and the password next.
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
  await expect(field(page, 'Username')).toHaveValue(username);
  await expect(field(page, 'Password')).toBeFocused();
  await field(page, 'Password').fill(PASSWORD);
  await panel(page).getByRole('button', { name: 'Sign In' }).click();

  // Signing up asks to be an admin: until one approves it, the portal says so (docs/decisions/041).
  await expect(page).toHaveURL(/\/admin$/);
  await expect(toast).toContainText('Welcome back!');
  await expect(toast).toContainText('You have been successfully signed in');
  await expect(page.getByRole('heading', { level: 1, name: 'Waiting for approval' })).toBeVisible();
  approveRequest(username);
  await page.getByRole('button', { name: 'Check Again' }).click();

  // The dashboard greets the admin, and still does after a reload.
  await expect(page.getByText(`Welcome back, ${username}`)).toBeVisible();
  await expect(page).toHaveTitle(/Admin Dashboard/);
  await screenshot(page, info, 'admin');
  await page.reload();
  await expect(page.getByText(`Welcome back, ${username}`)).toBeVisible();

  // The access token the browser holds (Amplify keeps it in localStorage) works for the admin API...
  const accessToken = await page.evaluate(() => Object.entries(localStorage).find(([key]) => key.endsWith('.accessToken'))?.[1]);
  expect(accessToken).toBeTruthy();
  const adminCall = () => page.request.get('/api/admin/testimonials', { headers: { authorization: `Bearer ${accessToken}` } });
  expect((await adminCall()).status()).toBe(200);

  // Sign out: back to /login, and /admin is closed again.
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(toast).toContainText('Signed out');
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Admin Portal Access' })).toBeVisible();
  // ...and after sign-out the same token is refused: signing out ended the session on the server.
  expect((await adminCall()).status()).toBe(401);
  // The admin API's 403 while the request waited.
  consoleErrors.expectOnlyFailedRequests(403);
});

test('the forms show the SPEC §5 messages next to their fields', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  await openLogin(page);

  await panel(page).getByRole('button', { name: 'Sign In' }).click();
  await expect(field(page, 'Username')).toHaveAttribute('aria-invalid', 'true');
  await expect(field(page, 'Username')).toHaveAccessibleDescription('Username is required');
  await expect(field(page, 'Password')).toHaveAccessibleDescription('Password is required');

  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await panel(page).getByRole('button', { name: 'Create Account' }).click();
  await expect(field(page, 'Username')).toHaveAccessibleDescription('Username must be at least 3 characters');
  await expect(field(page, 'Email')).toHaveAccessibleDescription('Please enter a valid email address');
  // The hint stays with the message (both describe the field).
  await expect(field(page, 'Password')).toHaveAccessibleDescription('At least 8 characters. Password must be at least 8 characters');
  await expect(field(page, 'Confirm Password')).toHaveAccessibleDescription('Please confirm your password');
  await field(page, 'Username').fill('ab');
  await field(page, 'Email').fill('not-an-email');
  await field(page, 'Password').fill('short');
  await field(page, 'Confirm Password').fill('short');
  await expect(field(page, 'Username')).toHaveAccessibleDescription('Username must be at least 3 characters');
  await expect(field(page, 'Email')).toHaveAccessibleDescription('Please enter a valid email address');
  await field(page, 'Password').fill('long-enough-1');
  await field(page, 'Confirm Password').fill('long-enough-2');
  await panel(page).getByRole('button', { name: 'Create Account' }).click();
  await expect(field(page, 'Confirm Password')).toHaveAccessibleDescription("Passwords don't match");
  await expect(field(page, 'Password')).not.toHaveAttribute('aria-invalid');
  await screenshot(page, info, 'login-sign-up-errors');

  await page.getByRole('tab', { name: 'Verify Email' }).click();
  await field(page, 'Verification Code').fill('123');
  await panel(page).getByRole('button', { name: 'Verify Email' }).click();
  await expect(field(page, 'Username')).toHaveAccessibleDescription('Username is required');
  await expect(field(page, 'Verification Code')).toHaveAccessibleDescription('Verification code must be 6 digits');
  await panel(page).getByRole('button', { name: 'Resend code' }).click();
  await expect(field(page, 'Username')).toHaveAccessibleDescription('Username is required');
  await expect(panel(page).getByRole('alert')).toHaveCount(0);
  consoleErrors.expectNone();
});

test('a sign-up with an address that may not be an admin is refused with the service message', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  const { username } = newAccount(info, 'stranger');
  await openLogin(page);
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await field(page, 'Username').fill(username);
  await field(page, 'Email').fill(`${username}@elsewhere.example.com`);
  await field(page, 'Password').fill(PASSWORD);
  await field(page, 'Confirm Password').fill(PASSWORD);
  // Hold the sign-up call a moment, to see the pending state.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/identity/cognito', async (route) => {
    if (route.request().headers()['x-amz-target']?.endsWith('.SignUp')) await held;
    await route.continue();
  });
  const submit = panel(page).getByRole('button', { name: /Create Account|Creating account/ });
  await submit.click();
  await expect(submit).toHaveText('Creating account...');
  await expect(submit).toBeDisabled();
  release();
  await expect(panel(page).getByRole('alert')).toHaveText('User validation failed. Please check your input.');
  await expect(submit).toHaveText('Create Account');
  await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  consoleErrors.expectOnlyFailedRequests(400);
});

test('Forgot password: a code to the account’s address, a new password, and the old one no longer works; signed in, /login goes on to /admin', async ({
  page,
  request,
}, info) => {
  const consoleErrors = watchConsole(page);
  const { username, email } = await createAccount(request, info, 'forgot');
  await openLogin(page);
  await field(page, 'Username').fill(username);
  await panel(page).getByRole('button', { name: 'Forgot password?' }).click();
  // The username comes along; the page never says whether the account exists.
  await expect(field(page, 'Username')).toHaveValue(username);
  await expect(field(page, 'Username')).toBeFocused();
  await expectNoAxeViolations(page, { label: 'Forgot password' });
  await panel(page).getByRole('button', { name: 'Send Reset Code' }).click();
  await expect(panel(page).getByRole('status')).toHaveText('If an account with a verified address has that username, a code is on its way there.');
  await expect(field(page, 'Verification Code')).toBeFocused();
  const code = await verificationCode(email);

  // The form's own rules first, then a wrong code (the service's answer), then the right one.
  await field(page, 'New Password').fill('short');
  await panel(page).getByRole('button', { name: 'Reset Password' }).click();
  await expect(panel(page)).toContainText('Verification code must be 6 digits');
  await expect(panel(page)).toContainText('Password must be at least 8 characters');
  const newPassword = `${PASSWORD}-new`;
  await field(page, 'Verification Code').fill(code === '000000' ? '111111' : '000000');
  await field(page, 'New Password').fill(newPassword);
  await field(page, 'Confirm New Password').fill(newPassword);
  await panel(page).getByRole('button', { name: 'Reset Password' }).click();
  await expect(panel(page).getByRole('alert')).toContainText(/code/i);
  await field(page, 'Verification Code').fill(code);
  await panel(page).getByRole('button', { name: 'Reset Password' }).click();
  await expect(toasts(page)).toContainText('Password reset');
  await expect(panel(page).getByRole('status')).toHaveText('Your password has been reset. Sign in with the new one.');
  await expect(field(page, 'Username')).toHaveValue(username);
  await expect(field(page, 'Password')).toBeFocused();
  await screenshot(page, info, 'login-password-reset');

  // The old password is refused; the new one signs in.
  await signInWithForm(page, username, PASSWORD);
  await expect(panel(page).getByRole('alert')).toHaveText('Incorrect username or password.');
  await signInWithForm(page, username, newPassword);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByText(`Welcome back, ${username}`)).toBeVisible();

  // Signed in, /login is no dead end: it goes on to the portal.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByText(`Welcome back, ${username}`)).toBeVisible();
  consoleErrors.expectOnlyFailedRequests(400);
});

test('a wrong password shows an alert and keeps the visitor on /login', async ({ page, request }, info) => {
  const consoleErrors = watchConsole(page);
  const { username } = await createAccount(request, info, 'wrongpw');
  await openLogin(page);
  await signInWithForm(page, username, 'not-the-password');
  await expect(panel(page).getByRole('alert')).toHaveText('Incorrect username or password.');
  await expect(panel(page).getByRole('button', { name: 'Sign In' })).toBeEnabled();
  await expect(page).toHaveURL(/\/login$/);
  await screenshot(page, info, 'login-sign-in-failed');
  consoleErrors.expectOnlyFailedRequests(400);
});

test('signing in before verifying moves to Verify Email; a wrong code shows an alert, the right one activates', async ({ page, request }, info) => {
  const consoleErrors = watchConsole(page);
  const { username, email } = await createAccount(request, info, 'unverified', { verify: false });
  await openLogin(page);
  await signInWithForm(page, username, PASSWORD);
  await expect(page.getByRole('tab', { name: 'Verify Email' })).toHaveAttribute('aria-selected', 'true');
  await expect(field(page, 'Username')).toHaveValue(username);
  await expect(field(page, 'Verification Code')).toBeFocused();

  const code = await verificationCode(email);
  await field(page, 'Verification Code').fill(code === '000000' ? '111111' : '000000');
  await panel(page).getByRole('button', { name: 'Verify Email' }).click();
  await expect(panel(page).getByRole('alert')).not.toBeEmpty();
  await field(page, 'Verification Code').fill(code);
  await panel(page).getByRole('button', { name: 'Verify Email' }).click();
  await expect(toasts(page)).toContainText('Email verified!');
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
  await expect(field(page, 'Username')).toHaveValue(username);
  await expect(panel(page).getByRole('alert')).toHaveCount(0);
  consoleErrors.expectOnlyFailedRequests(400);
});

test('Resend code sends a new code through the embedded identity service, and the new code verifies', async ({ page, request }, info) => {
  const consoleErrors = watchConsole(page);
  const { username, email } = await createAccount(request, info, 'resend-real', { verify: false });
  const first = await verificationCode(email);
  await openLogin(page);
  await page.getByRole('tab', { name: 'Verify Email' }).click();
  await field(page, 'Username').fill(username);
  await panel(page).getByRole('button', { name: 'Resend code' }).click();
  const toast = toasts(page);
  await expect(toast).toContainText('Code sent!');
  await expect(toast).toContainText('A new verification code has been sent to your email');
  await expect.poll(async () => (await heldMailTo(email)).length).toBe(2);
  const second = codeIn((await heldMailTo(email))[1]!.text)!;
  expect(first).toMatch(/^\d{6}$/);
  await field(page, 'Verification Code').fill(second);
  await panel(page).getByRole('button', { name: 'Verify Email' }).click();
  await expect(toast).toContainText('Email verified!');
  consoleErrors.expectNone();
});

// Cognito's PreventUserExistenceErrors: a resend for a confirmed (or unknown) user answers as a real
// one would, so the form cannot be used to find out which accounts exist; no code is sent.
test('Resend code for an account that is already confirmed answers as for any other, and sends nothing', async ({ page, request }, info) => {
  const consoleErrors = watchConsole(page);
  const { username, email } = await createAccount(request, info, 'resend-done');
  const sentTo = async () => (await heldMailTo(email)).length;
  const before = await sentTo();
  await openLogin(page);
  await page.getByRole('tab', { name: 'Verify Email' }).click();
  await field(page, 'Username').fill(username);
  await panel(page).getByRole('button', { name: 'Resend code' }).click();
  await expect(toasts(page)).toContainText('Code sent!');
  await expect(panel(page).getByRole('alert')).toHaveCount(0);
  expect(await sentTo()).toBe(before);
  consoleErrors.expectNone();
});

test('sign in with the keyboard only', async ({ page, request }, info) => {
  const consoleErrors = watchConsole(page);
  const { username } = await createAccount(request, info, 'keyboard');
  await openLogin(page);

  const usernameField = field(page, 'Username');
  for (let i = 0; i < 15 && !(await usernameField.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(usernameField).toBeFocused();
  // WCAG 2.4.7: the focused field shows a visible focus indicator.
  expect(await usernameField.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
  await page.keyboard.type(username);
  await page.keyboard.press('Tab');
  await expect(field(page, 'Password')).toBeFocused();
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByText(`Welcome back, ${username}`)).toBeVisible();
  // Sign Out is reachable by keyboard too.
  const signOut = page.getByRole('button', { name: 'Sign Out' });
  for (let i = 0; i < 15 && !(await signOut.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(signOut).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/login$/);
  consoleErrors.expectNone();
});

test('the tabs switch with the arrow keys, and each tab looks right', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  await openLogin(page);
  await screenshot(page, info, 'login-sign-in');

  await page.getByRole('tab', { name: 'Sign In' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  await expect(panel(page).getByRole('button', { name: 'Create Account' })).toBeVisible();
  await screenshot(page, info, 'login-sign-up');

  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Verify Email' })).toHaveAttribute('aria-selected', 'true');
  await expect(panel(page).getByRole('button', { name: 'Resend code' })).toBeVisible();
  await screenshot(page, info, 'login-verify-email');
  consoleErrors.expectNone();
});

test('a signed-in account the server refuses sees Access Restricted', async ({ page, request }, info) => {
  const consoleErrors = watchConsole(page);
  const { username } = await createAccount(request, info, 'refused');
  await openLogin(page);
  await signInWithForm(page, username, PASSWORD);
  await expect(page.getByText(`Welcome back, ${username}`)).toBeVisible();

  // Stands in for an account outside ADMIN_EMAILS: the server's guard answers 403 for it.
  await page.route('**/api/admin/session', (route) =>
    route.fulfill({ status: 403, contentType: 'application/json', body: '{"error":"Admin access required"}' }),
  );
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Access Restricted' })).toBeVisible();
  await expect(page.getByText('Please sign in to access this area.')).toBeVisible();
  await expect(page).toHaveURL(/\/admin$/);
  await screenshot(page, info, 'admin-access-restricted');
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  consoleErrors.expectOnlyFailedRequests(403);
});

test('an admin path no screen claims answers 404 and shows the not-found screen', async ({ page }) => {
  const res = await page.goto('/admin/no-such-screen');
  expect(res?.status()).toBe(404);
  expect(res?.headers()['x-robots-tag']).toContain('noindex');
  // Signed out, so the guard sends the visitor to /login first.
  await expect(page).toHaveURL(/\/login$/);
});
