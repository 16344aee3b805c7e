/**
 * Admin sessions for the end-to-end specs ("signed in as an admin created with
 * `npm run admin:create`"). Each Playwright worker creates one admin with the real script against the
 * running server's embedded identity service, signs in once through /login, and keeps the browser's
 * storage (Amplify keeps its tokens in localStorage), so each test starts signed in.
 *
 *   import { test, expect } from '../support/admin.ts';
 *   test('...', async ({ page, adminApi }) => { await page.goto('/admin/testimonials'); ... });
 *
 * `adminApi` is an APIRequestContext that sends the admin's access token, for arranging data and
 * reading what a screen stored.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect, request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';

export interface AdminAccount {
  username: string;
  email: string;
  password: string;
}

const dataDir = process.env.E2E_DATA_DIR!;

/**
 * Runs `npm run admin:create`'s script against the server under test (its database). The address is
 * on the server's ADMIN_EMAILS unless another `domain` is given (an admin only through the group).
 */
export function createAdmin(label: string, { domain = 'e2e.example.com' } = {}): AdminAccount {
  const username = `admin-${label}-${Date.now()}`.toLowerCase();
  const account = { username, email: `${username}@${domain}`, password: 'Admin-Pass-2026' };
  execFileSync(process.execPath, ['scripts/admins.ts', 'create', '--username', account.username, '--email', account.email, '--password', account.password], {
    env: scriptEnv(),
    stdio: 'pipe',
  });
  return account;
}

/** The server under test's own database and secrets key, for the operator's scripts: the embedded identity service lives there. */
export const scriptEnv = () => ({
  ...process.env,
  SQLITE_PATH: join(dataDir, 'site.db'),
  SECRETS_KEY_FILE: join(dataDir, 'secrets.key'),
  OUTBOX_DIR: join(dataDir, 'outbox'),
  DATABASE_URL: '',
  LOG_QUIET: 'true',
});

/**
 * Approves a sign-up's request to be an admin (docs/decisions/041) with `npm run admin:add`'s script,
 * as the server's operator would: a sign-up on ADMIN_EMAILS is no admin until then.
 */
export function approveRequest(username: string) {
  execFileSync(process.execPath, ['scripts/admins.ts', 'add', '--username', username], { env: scriptEnv(), stdio: 'pipe' });
}

/** Signs in through the /login form, as a person would, and waits for the dashboard. */
export async function signInThroughForm(page: Page, account: AdminAccount) {
  await page.goto('/login');
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByRole('button', { name: 'Sign In', exact: true })).toBeEnabled();
  await panel.getByLabel('Username', { exact: true }).fill(account.username);
  await panel.getByLabel('Password', { exact: true }).fill(account.password);
  await panel.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL('**/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
}

/** An access token for the account, from the same gateway the browser uses. */
export async function accessToken(request: APIRequestContext, account: AdminAccount): Promise<string> {
  const { userPoolClientId } = (await (await request.get('/api/identity/config')).json()) as { userPoolClientId: string };
  const res = await request.post('/api/identity/cognito', {
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
    data: JSON.stringify({
      ClientId: userPoolClientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: account.username, PASSWORD: account.password },
    }),
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { AuthenticationResult: { AccessToken: string } }).AuthenticationResult.AccessToken;
}

/**
 * Opens an admin screen as an admin would and waits until it is usable: the guard has let us in (the
 * admin navigation shows), the screen's <h1> when named, and no 'Checking authentication...' or
 * 'Loading...' left (the screen's code and its first list have loaded). Returns the page's response.
 */
export async function openAdminScreen(page: Page, path: string, heading?: string) {
  const response = await page.goto(path);
  // Lazily loaded screens on a shared, sometimes busy machine.
  await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible({ timeout: 20_000 });
  if (heading) await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('status').filter({ hasText: /^(Checking authentication|Loading)\.\.\.$/ })).toHaveCount(0);
  return response;
}

export const test = base.extend<{ adminApi: APIRequestContext }, { adminAccount: AdminAccount; adminStorageState: string }>({
  adminAccount: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a function asks for from its first parameter
    async ({}, use, workerInfo) => use(createAdmin(`${workerInfo.project.name}-w${workerInfo.workerIndex}`)),
    // A timeout of its own: made once per worker, it would otherwise eat the first test's 30 s (a
    // clean-clone CI run timed out the first admin test of a shard while both shards started at once).
    { scope: 'worker', timeout: 90_000 },
  ],
  adminStorageState: [
    async ({ browser, adminAccount }, use, workerInfo) => {
      // Inside this run's --output dir: runs of other specs at the same time (other ports) must not
      // overwrite this worker's signed-in state with theirs.
      const dir = join(workerInfo.project.outputDir, '.auth');
      const file = join(dir, `${workerInfo.project.name}-${workerInfo.workerIndex}.json`);
      mkdirSync(dir, { recursive: true });
      const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL });
      const page = await context.newPage();
      await signInThroughForm(page, adminAccount);
      await context.storageState({ path: file });
      await context.close();
      await use(file);
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  storageState: ({ adminStorageState }, use) => use(adminStorageState),
  adminApi: async ({ adminAccount, baseURL }, use) => {
    const anonymous = await playwrightRequest.newContext({ baseURL });
    const token = await accessToken(anonymous, adminAccount);
    await anonymous.dispose();
    const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
    await use(api);
    await api.dispose();
  },
});

export { expect };
