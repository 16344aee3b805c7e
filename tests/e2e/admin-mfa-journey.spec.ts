/**
 * Two-step verification as production has it (ADMIN_MFA=required, the production default), end to
 * end, on a server of this spec's own (the suite's server runs with MFA optional, so that the other
 * specs' admins sign in with a password): the first admin signs in and must set up an authenticator
 * app before reaching /admin; they invite a colleague from the Admins screen; the colleague opens the
 * link, sets a password, signs in, sets up TOTP from the key shown beside the QR code, reaches /admin,
 * signs out, signs in again with the password and a code, and reaches /admin. At 1366 and 390 px.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { TOTP } from 'otpauth';
import { acceptInvitation, expectDashboard, newColleague, submitSignIn } from '../support/invitations.ts';

let server: ChildProcess | undefined;
let origin = '';
let dataDir = '';
const firstAdmin = { username: `first-admin-${Date.now()}`, email: `first-admin-${Date.now()}@e2e.example.com`, password: 'First-Admin-Pass-2026' };

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads which fixtures a hook needs from this pattern; it needs none
test.beforeAll(async ({}, testInfo) => {
  // Beside the suite's server (port), its fakes (+1) and dynalite (+2): +3 on desktop, +4 on the phone.
  const port = Number(process.env.E2E_PORT ?? 4399) + (testInfo.project.name === 'phone' ? 4 : 3);
  dataDir = mkdtempSync(join(tmpdir(), 'firm-e2e-mfa-'));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    SQLITE_PATH: join(dataDir, 'site.db'),
    SECRETS_KEY_FILE: join(dataDir, 'secrets.key'),
    OUTBOX_DIR: join(dataDir, 'outbox'),
    DATABASE_URL: '',
    ADMIN_EMAILS: '@e2e.example.com',
    ADMIN_MFA: 'required',
    LOG_QUIET: 'true',
  };
  server = spawn(process.execPath, ['api/server.ts'], { env, stdio: 'ignore' });
  origin = `http://127.0.0.1:${port}`;
  await expect
    .poll(async () => (await fetch(`${origin}/api/health/ready`).catch(() => null))?.status, { timeout: 60_000, message: 'the MFA server starts' })
    .toBe(200);
  execFileSync(
    process.execPath,
    ['scripts/admins.ts', 'create', '--username', firstAdmin.username, '--email', firstAdmin.email, '--password', firstAdmin.password],
    {
      env: { ...env, LOG_QUIET: 'true' },
      stdio: 'pipe',
    },
  );
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  if (server && server.exitCode === null) await new Promise((resolve) => server!.once('exit', resolve));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The code an authenticator app shows for `secret`, for the time step after the one just used (each code is taken once). */
const codeFor = (secret: string, step = 0) =>
  new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: Date.now() + step * 30_000 });

/** After the password: the set-up step, its QR code and key; the key typed into the "app", its first code sent. Returns the key. */
async function setUpAuthenticator(page: Page): Promise<string> {
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByText('Your account needs two-step verification.', { exact: false })).toBeVisible();
  await expect(panel.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await panel.locator('code').innerText()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  // A wrong code is refused in place, and the step stays.
  await panel.getByLabel('Authentication Code').fill('000000' === codeFor(secret) ? '111111' : '000000');
  await panel.getByRole('button', { name: 'Verify and Sign In' }).click();
  await expect(panel.getByRole('alert')).toBeVisible();
  await panel.getByLabel('Authentication Code').fill(codeFor(secret));
  await panel.getByRole('button', { name: 'Verify and Sign In' }).click();
  return secret;
}

test('an invited colleague sets up TOTP, signs out, and signs in with a password and a code', async ({ page, browser }) => {
  // The first admin: the password, then the set-up the service asks for, then the portal.
  await page.goto(`${origin}/login`);
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByRole('button', { name: 'Sign In', exact: true })).toBeEnabled();
  await panel.getByLabel('Username', { exact: true }).fill(firstAdmin.username);
  await panel.getByLabel('Password', { exact: true }).fill(firstAdmin.password);
  await panel.getByRole('button', { name: 'Sign In', exact: true }).click();
  await setUpAuthenticator(page);
  await expectDashboard(page, firstAdmin);

  // The invitation, from the Admins screen: no e-mail is configured here, so the link is shown once.
  const colleague = newColleague('mfa-colleague');
  await page.goto(`${origin}/admin/admins`);
  await page.getByRole('button', { name: 'Invite an Admin' }).click();
  const form = page.getByRole('dialog', { name: 'Invite an admin' });
  await form.getByLabel('E-mail address').fill(colleague.email);
  await form.getByRole('button', { name: 'Send Invitation' }).click();
  const held = page.getByRole('dialog', { name: 'Send this invitation yourself' });
  const link = new URL(await held.getByRole('textbox', { name: 'Invitation link' }).inputValue());
  await held.getByRole('button', { name: 'Done' }).click();

  // The colleague, in a browser of their own.
  const theirs = await browser.newContext({ viewport: page.viewportSize() ?? undefined, baseURL: origin });
  const them = await theirs.newPage();
  await acceptInvitation(them, `${origin}${link.pathname}${link.hash}`, colleague);
  await submitSignIn(them, colleague);
  const secret = await setUpAuthenticator(them);
  await expectDashboard(them, colleague);

  // Signed out, then in again: the password alone is not enough.
  await them.getByRole('button', { name: 'Sign Out' }).first().click();
  await them.waitForURL('**/login');
  const again = them.getByRole('tabpanel');
  await again.getByLabel('Username', { exact: true }).fill(colleague.username);
  await again.getByLabel('Password', { exact: true }).fill(colleague.password);
  await again.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(again.getByText('Two-step verification: enter the 6-digit code', { exact: false })).toBeVisible();
  await expect(again.getByRole('img', { name: 'QR code for your authenticator app' })).toHaveCount(0);
  // The next step's code: the set-up used this one, and each is taken once.
  await again.getByLabel('Authentication Code').fill(codeFor(secret, 1));
  await again.getByRole('button', { name: 'Verify', exact: true }).click();
  await expectDashboard(them, colleague);

  // The first admin sees who has two-step verification.
  await page.goto(`${origin}/admin/admins`);
  const row = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: colleague.username }) });
  await expect(row).toContainText('Two-step verification: On');
  await theirs.close();
});
