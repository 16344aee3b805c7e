/**
 * An admin's invitation end to end (docs/decisions/041), as steps other specs can call and extend: an
 * admin invites from the Admins screen, the colleague opens the link mailed to them (read from the
 * development outbox, as an admin reads it: GET /api/admin/email-outbox), chooses a username and a
 * password, lands on /login with the username filled, and signs in. A step added to signing in (a
 * second factor, say) goes between `acceptInvitation` and `expectDashboard`, after `submitSignIn`.
 *
 *   const link = await inviteFromAdminsScreen(page, adminApi, colleague.email);
 *   await acceptInvitation(theirPage, link, colleague);
 *   await submitSignIn(theirPage, colleague);
 *   await expectDashboard(theirPage, colleague);
 */
import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';

export interface Colleague {
  username: string;
  email: string;
  password: string;
}

/** A colleague no other test, project or run invites (the address is outside ADMIN_EMAILS: only the invitation lets them in). */
export function newColleague(label: string): Colleague {
  const username = `${label}-${Date.now()}`.toLowerCase();
  return { username, email: `${username}@colleagues.example.org`, password: 'Invited-Colleague-2026' };
}

/** The newest development-outbox message to `to` whose text matches, as an admin reads it. */
export async function newestMailTo(adminApi: APIRequestContext, to: string, matching: RegExp): Promise<{ subject: string; text: string }> {
  let found: { subject: string; text: string } | undefined;
  await expect
    .poll(
      async () => {
        const res = await adminApi.get('/api/admin/email-outbox');
        const messages = (await res.json()) as { to: string; subject: string; text: string }[];
        found = messages.find((m) => m.to === to && matching.test(m.text));
        return Boolean(found);
      },
      { message: `a message to ${to} matching ${matching} in the development outbox` },
    )
    .toBe(true);
  return found!;
}

/** The invitation link mailed to `email` (the newest), as the path and fragment to open on the server under test. */
export async function invitationLinkFor(adminApi: APIRequestContext, email: string): Promise<string> {
  const mail = await newestMailTo(adminApi, email, /\/accept-invitation#/);
  // SITE_URL's origin in the mail; the same page on the server under test.
  const link = new URL(/https?:\/\/\S+\/accept-invitation#[A-Za-z0-9_-]+/.exec(mail.text)![0]);
  return `${link.pathname}${link.hash}`;
}

/**
 * As the admin on /admin/admins: Invite an Admin, the address, Send Invitation. With no e-mail
 * configured (the test server) the dialog then shows the link to pass on; `inDialog` runs at each of
 * the dialog's two states (axe, screenshots). Returns the link as mailed, read from the outbox.
 */
export async function inviteFromAdminsScreen(
  page: Page,
  adminApi: APIRequestContext,
  email: string,
  { inDialog }: { inDialog?: (dialog: Locator, state: 'form' | 'link') => Promise<void> } = {},
): Promise<string> {
  await page.getByRole('button', { name: 'Invite an Admin' }).click();
  const form = page.getByRole('dialog', { name: 'Invite an admin' });
  await expect(form.getByLabel('E-mail address')).toBeVisible();
  await inDialog?.(form, 'form');
  await form.getByLabel('E-mail address').fill(email);
  await form.getByRole('button', { name: 'Send Invitation' }).click();
  const held = page.getByRole('dialog', { name: 'Send this invitation yourself' });
  await expect(held).toContainText(`send it to ${email} yourself: it is shown only now`);
  const shown = await held.getByRole('textbox', { name: 'Invitation link' }).inputValue();
  await inDialog?.(held, 'link');
  await held.getByRole('button', { name: 'Done' }).click();
  await expect(held).toBeHidden();
  const link = await invitationLinkFor(adminApi, email);
  // The link shown once is the one mailed.
  expect(new URL(shown).hash).toBe(new URL(link, 'http://x').hash);
  return link;
}

/**
 * The colleague opens the link, sees whom it invites, chooses a username and a password, and lands on
 * /login with the username filled and the password field next. `onPage` runs on the invitation page
 * before the form is sent (axe, screenshots).
 */
export async function acceptInvitation(page: Page, link: string, colleague: Colleague, { onPage }: { onPage?: (page: Page) => Promise<void> } = {}) {
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Invitation' })).toBeVisible();
  await expect(page.getByText(colleague.email, { exact: true })).toBeVisible();
  const submit = page.getByRole('button', { name: 'Create Admin Account' });
  await expect(submit).toBeEnabled();
  await onPage?.(page);
  await page.getByLabel('Username', { exact: true }).fill(colleague.username);
  await page.getByLabel('Password', { exact: true }).fill(colleague.password);
  await page.getByLabel('Confirm Password', { exact: true }).fill(colleague.password);
  await submit.click();
  await page.waitForURL('**/login');
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByRole('status')).toHaveText('Your admin account is ready. Sign in with your new password.');
  await expect(panel.getByLabel('Username', { exact: true })).toHaveValue(colleague.username);
  await expect(panel.getByLabel('Password', { exact: true })).toBeFocused();
}

/** On /login with the username filled: the password, Sign In. */
export async function submitSignIn(page: Page, colleague: Colleague) {
  const panel = page.getByRole('tabpanel');
  await panel.getByLabel('Password', { exact: true }).fill(colleague.password);
  await panel.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** The admin portal's dashboard, greeting them. */
export async function expectDashboard(page: Page, colleague: Pick<Colleague, 'username'>) {
  await page.waitForURL('**/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByText(`Welcome back, ${colleague.username}`)).toBeVisible();
}
