/**
 * /admin/integrations (SPEC §2 four tabs opening on Calendar, §3 config templates, §4 Calendar
 * integration / Email setting / Blog source, §5 Integrations, §7 calls, §8 integration toasts, §9),
 * worked through as an admin would: every empty state; each provider's template; the validation
 * toasts (nothing sent); the masked API key, never returned in full; create and activate calendar
 * integrations (badge and banner follow); configure email ('Configured'); the local review sources
 * (defaults, enable/disable, add/edit/remove URL, Save, Refresh Reviews calls nothing); blog sources
 * created and deleted; failures; and the effect: a booking reaches the custom webhook (signed) and
 * the SMTP server, and the page's delivery logs say so. Axe in light and dark; screenshots.
 *
 * Both projects share one server database, so each test makes its own uniquely named rows and checks
 * only those; empty states are served by the test (route interception).
 */
import type { APIRequestContext, Locator, Page, Request, TestInfo } from '@playwright/test';
import { templateText, type BlogSource, type CalendarIntegration } from '../../src/components/admin/integrations/integrations.ts';
import { addDays, firmInstant, firmToday } from '../../src/shared/firm-time.ts';
import { isBookableDay } from '../support/bookable-days.ts';
import { customCalendarMessages } from '../../src/shared/schemas/integrations.ts';
import { expect, openAdminScreen, test } from '../support/admin.ts';
import { book } from '../support/appointment-requests.ts';
import { startCalendarFakes, verifyTimestampedSignature, type CalendarFakes } from '../support/calendar-fakes.ts';
import { COLOUR_RULES, expectNoAxeViolations, expectNoSideways, expectToast, screenshot, screenshotDialog, unique, watchConsole } from '../support/e2e.ts';
import { feedPaths, startFeedServer, type FeedServer } from '../support/feed-server.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/mail-peers.ts';

const SCREEN = '/admin/integrations';
const fakesPort = Number(process.env.E2E_FAKES_PORT);

const openScreen = (page: Page) => openAdminScreen(page, SCREEN, 'Integrations');
const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
const panel = (page: Page) => page.getByRole('tabpanel');

async function openTab(page: Page, name: 'Calendar' | 'Email' | 'Review Platforms' | 'Blog Sources') {
  await tab(page, name).click();
  await expect(tab(page, name)).toHaveAttribute('aria-selected', 'true');
}

/** Requests the page sends to the API while `run` runs (Refresh Reviews and Save must send none). */
async function apiRequestsDuring(page: Page, run: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const listener = (req: Request) => {
    if (new URL(req.url()).pathname.startsWith('/api/')) seen.push(`${req.method()} ${req.url()}`);
  };
  page.on('request', listener);
  try {
    await run();
  } finally {
    page.off('request', listener);
  }
  return seen;
}

/** POSTs to one path, for proving that a refused form sent nothing. */
function watchPosts(page: Page, path: string) {
  const bodies: unknown[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === path) bodies.push(req.postDataJSON());
  });
  return bodies;
}

const select = (scope: Locator, name: string) => scope.getByRole('combobox', { name, exact: true });
const textbox = (scope: Locator, name: string | RegExp) => scope.getByRole('textbox', { name, exact: typeof name === 'string' });

const integrationCard = (page: Page, id: string) => page.locator(`[data-testid="calendar-integration"][data-integration-id="${id}"]`);
const sourceCard = (page: Page, name: string) => page.getByTestId('blog-source').filter({ has: page.getByRole('heading', { level: 3, name, exact: true }) });

async function calendarRows(adminApi: APIRequestContext) {
  const res = await adminApi.get('/api/admin/calendar-settings');
  expect(res.status()).toBe(200);
  return { text: await res.text(), rows: (await res.json()) as CalendarIntegration[] };
}

/** Fills and sends the Add Integration dialog; returns the stored row's id (from the POST's answer). */
async function addIntegration(page: Page, values: { provider: string; name?: string; config?: string; webhookUrl?: string; apiKey?: string }) {
  await page.getByRole('button', { name: 'Add Integration' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Calendar Integration' });
  await select(dialog, 'Provider').selectOption(values.provider);
  if (values.name !== undefined) await textbox(dialog, /^Name/).fill(values.name);
  if (values.config !== undefined) await textbox(dialog, 'Configuration (JSON)').fill(values.config);
  if (values.webhookUrl !== undefined) await textbox(dialog, 'Webhook URL').fill(values.webhookUrl);
  if (values.apiKey !== undefined) await dialog.getByLabel('API Key').fill(values.apiKey);
  const answer = page.waitForResponse((res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/api/admin/calendar-settings');
  await dialog.getByRole('button', { name: 'Add Integration' }).click();
  const res = await answer;
  expect(res.status(), await res.text()).toBe(201);
  await expect(dialog).toBeHidden();
  await expectToast(page, 'Success', 'Calendar integration created successfully');
  return ((await res.json()) as CalendarIntegration).id;
}

/** The lists of the four tabs, served empty (the database is shared with other tests). */
async function serveEmptyLists(page: Page) {
  const empty = (body: unknown) => (route: import('@playwright/test').Route) =>
    route.request().method() === 'GET' ? route.fulfill({ json: body }) : route.fallback();
  await page.route('**/api/admin/calendar-settings', empty([]));
  await page.route('**/api/email-settings/active', empty(null));
  await page.route('**/api/admin/email-outbox', empty([]));
  await page.route('**/api/admin/email-outbox/summary', empty({ messages: 0, oldestAt: null, keptDays: 30, maxMessages: 5000 }));
  await page.route((url) => url.pathname === '/api/admin/deliveries', empty([]));
  await page.route('**/api/admin/blog-sources', empty([]));
}

const setDark = (page: Page, dark: boolean) => page.evaluate((on) => document.documentElement.classList.toggle('dark', on), dark);

// ---------------------------------------------------------------------------------------------
// The page and its empty states

test('opens on Calendar; tabs by keyboard; every empty state; the way back to the dashboard', async ({ page }, info) => {
  test.setTimeout(90_000); // axe on four tabs, twice
  const consoleErrors = watchConsole(page);
  await serveEmptyLists(page);
  await openScreen(page);
  await expect(page).toHaveTitle(/^Integrations \|/);
  await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Integrations' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('link', { name: 'Back to Admin Dashboard' })).toHaveAttribute('href', '/admin');

  // SPEC §2: four tabs, opening on Calendar.
  await expect(page.getByRole('tablist', { name: 'Integrations' }).getByRole('tab')).toHaveText(['Calendar', 'Email', 'Review Platforms', 'Blog Sources']);
  await expect(tab(page, 'Calendar')).toHaveAttribute('aria-selected', 'true');
  await expect(panel(page).getByRole('heading', { name: 'Calendar Integrations', exact: true })).toBeVisible();
  await expect(panel(page).getByRole('heading', { name: 'No Calendar Integrations' })).toBeVisible();
  await expect(page.getByTestId('active-calendar-banner')).toHaveCount(0);
  await expectNoSideways(page);
  await screenshot(page, info, 'admin-integrations-calendar-empty', { unhover: true, blur: true });

  // Arrow keys move between the tabs (Radix: automatic activation).
  await tab(page, 'Calendar').focus();
  await page.keyboard.press('ArrowRight');
  await expect(tab(page, 'Email')).toBeFocused();
  await expect(tab(page, 'Email')).toHaveAttribute('aria-selected', 'true');
  await expect(panel(page).getByRole('heading', { name: 'Email Not Configured' })).toBeVisible();
  await expect(panel(page).getByText('held in the development outbox')).toBeVisible();
  await expect(page.getByTestId('dev-outbox')).toContainText('The outbox is empty.');
  await expect(page.getByTestId('deliveries-email')).toContainText('No e-mail has been sent yet.');
  await expectNoSideways(page);
  await screenshot(page, info, 'admin-integrations-email-empty', { unhover: true, blur: true });

  await tab(page, 'Email').focus(); // the screenshot took the focus away
  await page.keyboard.press('ArrowRight');
  await expect(tab(page, 'Review Platforms')).toBeFocused();
  await expect(panel(page).getByRole('heading', { name: 'Review Platforms', exact: true })).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(tab(page, 'Blog Sources')).toHaveAttribute('aria-selected', 'true');
  await expect(panel(page).getByRole('heading', { name: 'No Blog Sources' })).toBeVisible();
  await expectNoSideways(page);
  await screenshot(page, info, 'admin-integrations-blog-sources-empty', { unhover: true, blur: true });
  // Home goes to the first tab; Tab from the tab list goes into the panel.
  await tab(page, 'Blog Sources').focus(); // the screenshot took the focus away
  await page.keyboard.press('Home');
  await expect(tab(page, 'Calendar')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(panel(page)).toBeFocused();

  for (const dark of [false, true]) {
    await setDark(page, dark);
    for (const name of ['Calendar', 'Email', 'Review Platforms', 'Blog Sources'] as const) {
      await openTab(page, name);
      // Dark changes colours only: judged by the rules it can change.
      await expectNoAxeViolations(page, { label: `${name} (empty, ${dark ? 'dark' : 'light'})`, ...(dark ? { rules: COLOUR_RULES } : {}) });
    }
  }
  consoleErrors.expectNone();
});

// ---------------------------------------------------------------------------------------------
// Calendar

test('calendar: each provider prefills its template and help; missing fields give the Validation Error toast and send nothing', async ({ page, baseURL }) => {
  const consoleErrors = watchConsole(page);
  const posts = watchPosts(page, '/api/admin/calendar-settings');
  await openScreen(page);
  const addButton = page.getByRole('button', { name: 'Add Integration' });
  await addButton.click();
  const dialog = page.getByRole('dialog', { name: 'Add Calendar Integration' });
  const provider = select(dialog, 'Provider');
  const config = textbox(dialog, 'Configuration (JSON)');
  const webhookUrl = textbox(dialog, 'Webhook URL');
  const apiKey = dialog.getByLabel('API Key');

  await expect(provider).toHaveValue('');
  await expect(provider.getByRole('option')).toHaveText(['Select a provider', 'Calendly', 'Google Calendar', 'Outlook', 'Custom webhook']);
  await expect(config).toHaveValue('');
  // SPEC §5: the API key input is masked.
  await expect(apiKey).toHaveAttribute('type', 'password');

  // Nothing chosen: SPEC §5's toast, the fields say what is missing, nothing is sent.
  await dialog.getByRole('button', { name: 'Add Integration' }).click();
  await expectToast(page, 'Validation Error', 'Please fill in all required fields.', { overDialog: true });
  await expect(dialog).toBeVisible();
  await expect(provider).toHaveAttribute('aria-invalid', 'true');
  await expect(provider).toBeFocused();
  await expect(dialog.getByText('Configuration is required')).toBeVisible();

  // SPEC §3: each provider's template, replacing an untouched one.
  await provider.selectOption('calendly');
  await expect(config).toHaveValue(templateText('calendly'));
  expect(JSON.parse(await config.inputValue())).toEqual({ username: '', personal_access_token: '', webhook_signing_key: '' });
  await expect(dialog.getByTestId('calendly-webhook-url')).toHaveText(`${baseURL}/api/integrations/calendly/webhook`);
  await expect(dialog).toContainText('invitee.created');

  await provider.selectOption('google');
  expect(JSON.parse(await config.inputValue())).toEqual({ client_id: '', client_secret: '', redirect_uri: '', calendar_id: 'primary' });
  await expect(dialog).toContainText('refresh_token');
  await expect(webhookUrl).not.toHaveAttribute('aria-required', 'true');

  await provider.selectOption('outlook');
  expect(JSON.parse(await config.inputValue())).toEqual({ client_id: '', client_secret: '', tenant_id: '' });
  await expect(dialog).toContainText('user_email');

  await provider.selectOption('custom');
  await expect(config).toHaveValue('{}');
  await expect(dialog).toContainText('X-Firm-Signature');
  await expect(dialog).toContainText('HMAC-SHA256');
  // A custom webhook is signed with the API key: both are required.
  await expect(webhookUrl).toHaveAttribute('aria-required', 'true');
  await expect(apiKey).toHaveAttribute('aria-required', 'true');
  await dialog.getByRole('button', { name: 'Add Integration' }).click();
  await expectToast(page, 'Validation Error', 'Please fill in all required fields.', { overDialog: true });
  await expect(dialog.getByText(customCalendarMessages.webhookUrl)).toBeVisible();
  await expect(dialog.getByText(customCalendarMessages.apiKey)).toBeVisible();
  await expect(webhookUrl).toBeFocused();

  // Provider chosen but the configuration emptied: the same toast.
  await provider.selectOption('google');
  await config.fill('   ');
  await dialog.getByRole('button', { name: 'Add Integration' }).click();
  await expectToast(page, 'Validation Error', 'Please fill in all required fields.', { overDialog: true });
  await expect(config).toBeFocused();

  // The admin's own text is kept when the provider changes; the template is one click away.
  await config.fill('{"client_id": "mine"}');
  await provider.selectOption('outlook');
  await expect(config).toHaveValue('{"client_id": "mine"}');
  await dialog.getByRole('button', { name: 'Use the Outlook template' }).click();
  await expect(config).toHaveValue(templateText('outlook'));

  // SPEC §5: the configuration is not checked as JSON; a webhook URL that is not http(s) is refused beside the field.
  await config.fill('not json, and that is allowed');
  await webhookUrl.fill('ftp://calendar.example.com/hook');
  await dialog.getByRole('button', { name: 'Add Integration' }).click();
  await expect(dialog.getByText('Webhook URL must be a valid http(s) URL')).toBeVisible();
  await expect(webhookUrl).toHaveAttribute('aria-invalid', 'true');
  expect(posts).toEqual([]);

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(addButton).toBeFocused();
  consoleErrors.expectNone();
});

test('calendar: create shows a card; the API key is never returned in full; Activate moves the Active badge and the banner', async ({
  page,
  adminApi,
}, info) => {
  const consoleErrors = watchConsole(page);
  const googleSecret = `google-client-secret-${Date.now()}-abcdef`;
  const refreshToken = `1//refresh-${Date.now()}-zyxwvu`;
  const googleKey = `gk-${Date.now()}-0123456789-TAIL`;
  const webhookKey = `whsec-${Date.now()}-9876543210-LAST`;
  await openScreen(page);

  const googleId = await addIntegration(page, {
    provider: 'google',
    config: JSON.stringify({
      client_id: 'e2e-client.apps.googleusercontent.com',
      client_secret: googleSecret,
      redirect_uri: 'https://example.com/cb',
      calendar_id: 'primary',
      refresh_token: refreshToken,
    }),
    apiKey: googleKey,
  });
  const google = integrationCard(page, googleId);
  await expect(google.getByRole('heading', { level: 3, name: 'Google Calendar' })).toBeVisible();
  await expect(google).toContainText('Added ');
  await expect(google.getByRole('button', { name: /^Activate/ })).toBeVisible();
  await expect(google.getByText('Active', { exact: true })).toHaveCount(0);
  // The key shows masked: its last four characters only.
  await expect(google.getByTestId('api-key')).toHaveText('••••TAIL');
  await google.getByText('Configuration (secrets hidden)').click();
  await expect(google).toContainText('"client_id": "e2e-client.apps.googleusercontent.com"');
  await expect(google).not.toContainText(googleSecret);
  await expect(google).not.toContainText(refreshToken);

  // The dialog starts afresh after a creation (SPEC §8: forms reset).
  await page.getByRole('button', { name: 'Add Integration' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Calendar Integration' });
  await expect(select(dialog, 'Provider')).toHaveValue('');
  await expect(textbox(dialog, 'Configuration (JSON)')).toHaveValue('');
  await expect(dialog.getByLabel('API Key')).toHaveValue('');
  await page.keyboard.press('Escape');

  const hookUrl = `http://127.0.0.1:${fakesPort}/webhook/${unique(info, 'activate', '-')}`;
  const customId = await addIntegration(page, { provider: 'custom', webhookUrl: hookUrl, apiKey: webhookKey });
  const custom = integrationCard(page, customId);
  await expect(custom.getByRole('heading', { level: 3, name: 'Custom webhook' })).toBeVisible();
  await expect(custom).toContainText(hookUrl);

  // No GET ever returns a secret in full.
  const { text, rows } = await calendarRows(adminApi);
  for (const secret of [googleSecret, refreshToken, googleKey, webhookKey]) expect(text).not.toContain(secret);
  expect(rows.find((r) => r.id === googleId)).toMatchObject({ provider: 'google', isActive: false, apiKey: '••••TAIL' });
  expect(rows.find((r) => r.id === customId)).toMatchObject({ provider: 'custom', isActive: false, webhookUrl: hookUrl });

  // Activate Google: its badge, the banner; the custom one offers Activate.
  await google.getByRole('button', { name: /^Activate/ }).click();
  await expect(google.getByText('Active', { exact: true })).toBeVisible();
  await expect(google.getByRole('button', { name: /^Activate/ })).toHaveCount(0);
  await expect(google.getByRole('heading', { level: 3 })).toBeFocused(); // the pressed button is gone: the focus stays on its card
  await expectToast(page, 'Success', 'Calendar integration activated');
  const banner = page.getByTestId('active-calendar-banner');
  await expect(banner).toContainText('Active: Google Calendar');
  await expect(banner).toContainText('currently syncing appointments');
  await expect(custom.getByRole('button', { name: /^Activate/ })).toBeVisible();

  // Then the custom webhook: only one is ever active.
  await custom.getByRole('button', { name: /^Activate/ }).click();
  await expectToast(page, 'Success', 'Calendar integration activated');
  await expect(banner).toContainText('Active: Custom webhook');
  await expect(custom.getByText('Active', { exact: true })).toBeVisible();
  await expect(google.getByRole('button', { name: /^Activate/ })).toBeVisible();
  const after = (await calendarRows(adminApi)).rows;
  expect(after.filter((r) => r.isActive).map((r) => r.id)).toEqual([customId]);
  expect(await (await page.request.get('/api/calendar-settings/active')).json()).toEqual({ provider: 'custom', isActive: true });
  consoleErrors.expectNone();
});

test('calendar: two of one provider told apart by name; Rename, Deactivate, and Delete after confirming', async ({ page, adminApi }, info) => {
  const consoleErrors = watchConsole(page);
  const stamp = `${info.project.name}-${Date.now()}`;
  const config = JSON.stringify({ webhook_signing_key: `calendly-key-${stamp}` });
  await openScreen(page);
  const intakeId = await addIntegration(page, { provider: 'calendly', name: `Intake ${stamp}`, config });
  const otherId = await addIntegration(page, { provider: 'calendly', config });
  const intake = integrationCard(page, intakeId);
  const other = integrationCard(page, otherId);
  await expect(intake.getByRole('heading', { level: 3, name: `Intake ${stamp}` })).toBeVisible();
  await expect(intake).toContainText('Calendly · Added ');
  await expect(other.getByRole('heading', { level: 3, name: 'Calendly' })).toBeVisible();

  // Rename the unnamed one.
  await other.getByRole('button', { name: 'Rename Calendly' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename calendar integration' });
  await expectNoAxeViolations(page, { label: 'Rename calendar integration' });
  await textbox(rename, /^Name/).fill(`Partners ${stamp}`);
  await rename.getByRole('button', { name: 'Save Name' }).click();
  await expectToast(page, 'Success', 'Calendar integration renamed');
  await expect(other.getByRole('heading', { level: 3, name: `Partners ${stamp}` })).toBeVisible();

  // Activate, then Deactivate: nothing is active, and the page says so.
  await intake.getByRole('button', { name: /^Activate/ }).click();
  await expect(page.getByTestId('active-calendar-banner')).toContainText(`Active: Intake ${stamp}`);
  await intake.getByRole('button', { name: `Deactivate Intake ${stamp}` }).click();
  await expectToast(page, 'Success', `Intake ${stamp} deactivated: appointments are not synced until an integration is active`);
  await expect(page.getByTestId('active-calendar-banner')).toHaveCount(0);
  await expect(page.getByText('No integration is active, so appointments are not synced. Activate one below.')).toBeVisible();
  expect((await calendarRows(adminApi)).rows.filter((r) => r.isActive)).toEqual([]);

  // Delete asks first; Cancel keeps it and gives the focus back.
  const deleteButton = intake.getByRole('button', { name: `Delete Intake ${stamp}` });
  await deleteButton.click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this calendar integration?' });
  await expect(confirm).toContainText(`Intake ${stamp} is removed with its saved credentials. Events it already put in the calendar stay there.`);
  await expectNoAxeViolations(page, { label: 'Delete this calendar integration?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(deleteButton).toBeFocused();
  await deleteButton.click();
  await confirm.getByRole('button', { name: 'Delete Integration' }).click();
  await expectToast(page, 'Success', 'Calendar integration deleted');
  await expect(intake).toHaveCount(0);
  const { rows } = await calendarRows(adminApi);
  expect(rows.some((r) => r.id === intakeId)).toBe(false);
  expect((await adminApi.delete(`/api/admin/calendar-settings/${otherId}`)).status()).toBe(204);
  consoleErrors.expectNone();
});

test('calendar: Edit Settings replaces the configuration; while active, one its provider cannot use is refused, saying what it lacks', async ({
  page,
  adminApi,
}, info) => {
  const consoleErrors = watchConsole(page);
  const stamp = `${info.project.name}-${Date.now()}`;
  await openScreen(page);
  const id = await addIntegration(page, { provider: 'calendly', name: `Edit ${stamp}`, config: JSON.stringify({ webhook_signing_key: `old-key-${stamp}` }) });
  const card = integrationCard(page, id);
  await card.getByRole('button', { name: /^Activate/ }).click();
  await expectToast(page, 'Success', 'Calendar integration activated');

  await card.getByRole('button', { name: `Edit Settings Edit ${stamp}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit calendar integration settings' });
  await expect(dialog).toContainText('the configuration you enter replaces the saved one');
  await expectNoAxeViolations(page, { label: 'Edit calendar integration settings' });
  // Without its signing key, an active Calendly integration could verify no webhook: refused, under the field.
  await textbox(dialog, /^Configuration/).fill(JSON.stringify({ username: 'firm' }));
  await dialog.getByRole('button', { name: 'Save Settings' }).click();
  await expect(dialog.getByText(/"webhook_signing_key"/)).toBeVisible();
  await expectToast(page, 'Error', 'Failed to update calendar integration');
  await textbox(dialog, /^Configuration/).fill(JSON.stringify({ username: 'firm', webhook_signing_key: `new-key-${stamp}` }));
  await dialog.getByRole('button', { name: 'Save Settings' }).click();
  await expectToast(page, 'Success', 'Calendar integration updated');
  await expect(dialog).toHaveCount(0);
  const { rows } = await calendarRows(adminApi);
  expect(rows.find((r) => r.id === id)?.isActive).toBe(true);
  expect((await adminApi.delete(`/api/admin/calendar-settings/${id}`)).status()).toBe(204);
  // The refused save's 400, on purpose, and the failure the app logs for it (SPEC §8).
  consoleErrors.expectOnly(/status of 400/, /^Failed to update calendar integration/);
});

test('calendar: a refused or failed creation shows the SPEC §8 error toast, the server’s field message, and keeps the form', async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await openScreen(page);
  await page.getByRole('button', { name: 'Add Integration' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Calendar Integration' });
  await select(dialog, 'Provider').selectOption('google');

  // A 400 with a field message (the server refuses an address): shown beside that field.
  await page.route('**/api/admin/calendar-settings', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({ status: 400, json: { error: 'Invalid request', fields: { webhookUrl: 'Webhook URL points at a private network' } } })
      : route.fallback(),
  );
  await textbox(dialog, 'Webhook URL').fill('https://calendar.example.com/hook');
  await dialog.getByRole('button', { name: 'Add Integration' }).click();
  await expectToast(page, 'Error', 'Failed to create calendar integration', { overDialog: true });
  await expect(dialog.getByText('Webhook URL points at a private network')).toBeVisible();
  await expect(dialog.getByRole('alert')).toContainText('Failed to create calendar integration. Invalid request');
  await expect(textbox(dialog, 'Webhook URL')).toBeFocused();

  await page.unroute('**/api/admin/calendar-settings');
  await page.route('**/api/admin/calendar-settings', (route) =>
    route.request().method() === 'POST' ? route.fulfill({ status: 500, json: { error: 'Internal error' } }) : route.fallback(),
  );
  await dialog.getByRole('button', { name: 'Add Integration' }).click();
  await expectToast(page, 'Error', 'Failed to create calendar integration', { overDialog: true });
  await expect(dialog).toBeVisible();
  await expect(select(dialog, 'Provider')).toHaveValue('google');
  await expect(textbox(dialog, 'Webhook URL')).toHaveValue('https://calendar.example.com/hook');
  consoleErrors.expectOnly(/Failed to create calendar integration/, /status of (400|500)/);
});

// ---------------------------------------------------------------------------------------------
// Email

test('email: Configure Email prefills each provider, validates, saves and shows Configured; secrets never come back', async ({ page, adminApi }) => {
  const consoleErrors = watchConsole(page);
  const posts = watchPosts(page, '/api/admin/email-settings');
  const password = `smtp-pass-${Date.now()}-secret`;
  await openScreen(page);
  await openTab(page, 'Email');
  const configure = page.getByRole('button', { name: 'Configure Email' });
  await configure.click();
  const dialog = page.getByRole('dialog', { name: 'Configure Email' });
  await expect(dialog).toContainText('replaces');
  const provider = select(dialog, 'Provider');
  const config = textbox(dialog, 'Configuration (JSON)');
  await expect(provider).toHaveValue('sendgrid');
  await expect(provider.getByRole('option')).toHaveText(['SendGrid', 'SMTP']);
  expect(JSON.parse(await config.inputValue())).toEqual({ api_key: '', from_email: '', from_name: '' });
  await provider.selectOption('smtp');
  expect(JSON.parse(await config.inputValue())).toEqual({ host: '', port: 587, secure: false, auth: { user: '', pass: '' } });
  await provider.selectOption('sendgrid');
  await expect(config).toHaveValue(templateText('sendgrid'));

  // SPEC §5: an empty configuration.
  await config.fill('');
  await dialog.getByRole('button', { name: 'Save Configuration' }).click();
  await expectToast(page, 'Validation Error', 'Please provide configuration settings.', { overDialog: true });
  await expect(config).toHaveAttribute('aria-invalid', 'true');
  // Not a JSON object: the shared schema's message beside the field.
  await config.fill('{oops');
  await dialog.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(dialog.getByText('Configuration must be a JSON object')).toBeVisible();
  expect(posts).toEqual([]);

  await provider.selectOption('smtp');
  await dialog.getByRole('button', { name: 'Use the SMTP template' }).click();
  // Nothing listens there: mail sent meanwhile is retried, never lost.
  await config.fill(JSON.stringify({ host: '127.0.0.1', port: fakesPort, secure: false, auth: { user: 'office@firm.example', pass: password } }));
  await dialog.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(dialog).toBeHidden();
  await expect(configure).toBeFocused();
  await expectToast(page, 'Success', 'Email integration created successfully');
  expect(posts).toHaveLength(1);
  expect(posts[0]).toMatchObject({ provider: 'smtp', isActive: true });

  const status = page.getByTestId('email-status');
  await expect(status.getByRole('heading', { name: 'Configured' })).toBeVisible();
  await expect(status).toContainText('E-mail is sent through SMTP.');
  await expect(page.getByTestId('dev-outbox')).toHaveCount(0);
  await status.getByText('Configuration (secrets hidden)').click();
  await expect(status).toContainText('"host": "127.0.0.1"');
  await expect(status).not.toContainText(password);
  const stored = await (await adminApi.get('/api/admin/email-settings')).text();
  expect(stored).toContain('smtp');
  expect(stored).not.toContain(password);
  expect(await (await page.request.get('/api/email-settings/active')).json()).toEqual({ provider: 'smtp', isActive: true });

  // The dialog names the configuration it replaces.
  await configure.click();
  await expect(dialog).toContainText('Saving replaces the existing email configuration (SMTP)');
  await page.keyboard.press('Escape');
  consoleErrors.expectNone();
});

test('email: a failed save shows the SPEC §8 error toast and keeps the dialog', async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await page.route('**/api/admin/email-settings', (route) =>
    route.request().method() === 'POST' ? route.fulfill({ status: 500, json: { error: 'Internal error' } }) : route.fallback(),
  );
  await openScreen(page);
  await openTab(page, 'Email');
  await page.getByRole('button', { name: 'Configure Email' }).click();
  const dialog = page.getByRole('dialog', { name: 'Configure Email' });
  await textbox(dialog, 'Configuration (JSON)').fill('{"api_key":"SG.never-sent","from_email":"office@firm.example","from_name":"Firm"}');
  await dialog.getByRole('button', { name: 'Save Configuration' }).click();
  await expectToast(page, 'Error', 'Failed to create email integration', { overDialog: true });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('alert')).toContainText('Failed to create email integration. Please try again.');
  consoleErrors.expectOnly(/Failed to create email integration/, /status of 500/);
});

test('email: while nothing is configured, the development outbox shows the kept mail, newest first', async ({ page }) => {
  const consoleErrors = watchConsole(page);
  // The server may have a configuration by now (other tests): the page is shown the unconfigured state.
  await page.route('**/api/email-settings/active', (route) => route.fulfill({ json: null }));
  await page.route('**/api/admin/email-outbox', (route) =>
    route.fulfill({
      json: [
        {
          id: 'older',
          to: 'intake@e2e.example.com',
          subject: 'New consultation booked',
          text: 'Ana Lopez booked an initial consultation.',
          createdAt: '2026-03-02T17:00:00.000Z',
          attachments: [],
        },
        {
          id: 'newer',
          to: 'ana@example.com',
          subject: 'Your consultation is confirmed',
          text: 'Dear Ana,\nyour consultation is confirmed.',
          createdAt: '2026-03-03T17:00:00.000Z',
          attachments: [{ filename: 'consultation.ics', contentType: 'text/calendar' }],
        },
      ],
    }),
  );
  // In all (more than the list shows, at times), and the oldest's age: from the database (decision 042).
  const oldestAt = new Date(Date.now() - 3 * 24 * 3_600_000 - 3_600_000).toISOString();
  await page.route('**/api/admin/email-outbox/summary', (route) => route.fulfill({ json: { messages: 2, oldestAt, keptDays: 30, maxMessages: 5000 } }));
  await openScreen(page);
  await openTab(page, 'Email');
  await expect(panel(page).getByRole('heading', { name: 'Email Not Configured' })).toBeVisible();
  const outbox = page.getByTestId('dev-outbox');
  await expect(outbox.getByTestId('held-mail-summary')).toHaveText('Mail kept while email is not configured: 2 messages, the oldest held 3 days ago.');
  await expect(outbox).toContainText('each message is deleted 30 days after it was held, and only the latest 5,000 are kept');
  const messages = outbox.getByTestId('outbox-message');
  await expect(messages.first()).toContainText('Your consultation is confirmed');
  await expect(messages.first()).toContainText('To ana@example.com');
  await expect(messages.first()).toContainText('consultation.ics (text/calendar)');
  await expect(messages.nth(1)).toContainText('New consultation booked');
  await expect(messages.first().getByText('your consultation is confirmed.')).toBeHidden();
  await messages.first().getByText('Read message').click();
  await expect(messages.first().getByText('your consultation is confirmed.')).toBeVisible();
  await expectNoAxeViolations(page);
  consoleErrors.expectNone();
});

// ---------------------------------------------------------------------------------------------
// Review platforms (local only)

test('review platforms: static display, Refresh Reviews calls nothing, Manage Sources edits local settings', async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await openScreen(page);
  await openTab(page, 'Review Platforms');
  const connected = page.getByTestId('connected-platform');
  await expect(connected).toHaveText([/^Google\s*Active$/, /^Avvo\s*Active$/, /^Yelp\s*Active$/]);
  await expect(panel(page).getByText('Enabled', { exact: true })).toBeVisible();
  await expect(panel(page).getByText('every 24 hours', { exact: true })).toBeVisible();

  // SPEC §2: only the toast; nothing is called.
  const refreshCalls = await apiRequestsDuring(page, async () => {
    await page.getByRole('button', { name: 'Refresh Reviews' }).click();
    await expectToast(page, 'Reviews Refreshed', 'Successfully refreshed reviews from all connected platforms');
  });
  expect(refreshCalls).toEqual([]);

  const manage = page.getByRole('button', { name: 'Manage Sources' });
  await manage.click();
  const dialog = page.getByRole('dialog', { name: 'Manage Review Sources' });
  const group = (name: string) => dialog.getByRole('group', { name, exact: true });
  const enabled = (name: string) => group(name).getByRole('switch', { name: 'Enabled' });
  const urls = (name: string) => group(name).getByTestId('review-url');

  // Defaults: five platforms, three enabled, one sample URL each, no Remove with a single URL.
  await expect(dialog.getByRole('group')).toHaveCount(5);
  for (const [name, on] of [
    ['Google', true],
    ['Avvo', true],
    ['Yelp', true],
    ['Facebook', false],
    ['Martindale-Hubbell', false],
  ] as const) {
    await expect(enabled(name)).toHaveAttribute('aria-checked', String(on));
    await expect(urls(name)).toHaveCount(1);
    await expect(textbox(urls(name), 'Label')).not.toHaveValue('');
    await expect(textbox(urls(name), 'URL')).toHaveValue(/^https:\/\//);
    await expect(group(name).getByRole('button', { name: /^Remove/ })).toHaveCount(0);
  }

  const editCalls = await apiRequestsDuring(page, async () => {
    await enabled('Facebook').click();
    await expect(enabled('Facebook')).toHaveAttribute('aria-checked', 'true');
    await expect(group('Facebook')).toContainText('Reviews from Facebook are collected.');
    await enabled('Yelp').click();
    await expect(enabled('Yelp')).toHaveAttribute('aria-checked', 'false');
    await expect(group('Yelp')).toContainText('Reviews from Yelp are not collected.');

    // Add: the new entry takes the focus; Remove appears once there are two.
    await group('Google').getByRole('button', { name: 'Add URL for Google' }).click();
    await expect(urls('Google')).toHaveCount(2);
    await expect(textbox(urls('Google').nth(1), 'Label')).toBeFocused();
    await page.keyboard.type('Mission Valley office');
    await textbox(urls('Google').nth(1), 'URL').fill('https://www.google.com/maps/place/mission-valley');
    await expect(group('Google').getByRole('button', { name: /^Remove/ })).toHaveCount(2);
    // Edit the first entry's label and URL.
    await textbox(urls('Google').first(), 'Label').fill('Downtown office');
    await textbox(urls('Google').first(), 'URL').fill('https://www.google.com/maps/place/downtown');
    // Remove the first: one is left, and Remove is no longer offered.
    await group('Google').getByRole('button', { name: 'Remove Downtown office from Google' }).click();
    await expect(urls('Google')).toHaveCount(1);
    await expect(textbox(urls('Google').first(), 'Label')).toHaveValue('Mission Valley office');
    await expect(group('Google').getByRole('button', { name: /^Remove/ })).toHaveCount(0);
    await expect(group('Google').getByRole('button', { name: 'Add URL for Google' })).toBeFocused();

    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(manage).toBeFocused();
    await expectToast(page, 'Settings Saved', 'Review source settings have been updated successfully');
  });
  expect(editCalls).toEqual([]);

  // Kept on the page: reopening shows the saved settings; Cancel drops changes.
  await manage.click();
  await expect(enabled('Facebook')).toHaveAttribute('aria-checked', 'true');
  await expect(enabled('Yelp')).toHaveAttribute('aria-checked', 'false');
  await expect(textbox(urls('Google').first(), 'URL')).toHaveValue('https://www.google.com/maps/place/mission-valley');
  await enabled('Avvo').click();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  // Also across a change of tab.
  await openTab(page, 'Calendar');
  await openTab(page, 'Review Platforms');
  await page.getByRole('button', { name: 'Manage Sources' }).click();
  await expect(enabled('Avvo')).toHaveAttribute('aria-checked', 'true');
  await expect(enabled('Facebook')).toHaveAttribute('aria-checked', 'true');
  await expect(urls('Google')).toHaveCount(1);
  await page.keyboard.press('Escape');
  consoleErrors.expectNone();
});

// ---------------------------------------------------------------------------------------------
// Blog sources

test('blog sources: validation, create (a non-numeric count becomes 5), delete after confirmation', async ({ page, adminApi }, info) => {
  const consoleErrors = watchConsole(page);
  const posts = watchPosts(page, '/api/admin/blog-sources');
  const name = unique(info, 'Courts News');
  const other = unique(info, 'Probate Journal');
  await openScreen(page);
  await openTab(page, 'Blog Sources');
  const addButton = page.getByRole('button', { name: 'Add Blog Source' });
  await addButton.click();
  const dialog = page.getByRole('dialog', { name: 'Add Blog Source' });
  await expect(select(dialog, 'Type')).toHaveValue('rss');
  await expect(select(dialog, 'Type').getByRole('option')).toHaveText(['RSS', 'API', 'Scraper']);
  await expect(textbox(dialog, 'Number of articles')).toHaveValue('5');
  await expect(dialog).toContainText('An RSS 2.0, RSS 1.0 or Atom feed');

  await dialog.getByRole('button', { name: 'Add Blog Source' }).click();
  await expectToast(page, 'Validation Error', 'Please fill in all required fields.', { overDialog: true });
  await expect(textbox(dialog, 'Name')).toBeFocused();
  await expect(dialog.getByText('URL is required')).toBeVisible();
  await textbox(dialog, 'Name').fill(name);
  await dialog.getByRole('button', { name: 'Add Blog Source' }).click();
  await expectToast(page, 'Validation Error', 'Please fill in all required fields.', { overDialog: true });
  expect(posts).toEqual([]);

  // Nothing listens at this address: the source is stored, and its fetch fails (shown on the card).
  const url = `http://127.0.0.1:${fakesPort}/feeds/${unique(info, 'none', '-')}.json`;
  await textbox(dialog, 'URL').fill(url);
  await select(dialog, 'Type').selectOption('api');
  await expect(dialog).toContainText('JSON list');
  await textbox(dialog, 'Number of articles').fill('lots');
  await textbox(dialog, 'Number of articles').blur();
  await expect(textbox(dialog, 'Number of articles')).toHaveValue('5');
  await dialog.getByRole('button', { name: 'Add Blog Source' }).click();
  await expect(dialog).toBeHidden();
  await expect(addButton).toBeFocused();
  await expectToast(page, 'Success', 'Blog source created successfully');
  expect(posts).toEqual([{ name, url, type: 'api', displayLimit: 5, config: null, isActive: true }]);

  const card = sourceCard(page, name);
  await expect(card).toContainText('API');
  await expect(card).toContainText('Shows 5 articles');
  await expect(card).toContainText(url);
  await expect(card.getByText('Active', { exact: true })).toBeVisible();
  await expect(card.getByTestId('last-fetched')).toHaveText(/^(Never fetched|Last fetched .+)/);

  // A second one: RSS, 8 articles, and a configuration.
  await addButton.click();
  await textbox(dialog, 'Name').fill(other);
  await textbox(dialog, 'URL').fill(`http://127.0.0.1:${fakesPort}/feeds/${unique(info, 'probate', '-')}.xml`);
  await textbox(dialog, 'Number of articles').fill('8');
  await textbox(dialog, 'Configuration (JSON, optional)').fill('[]');
  await dialog.getByRole('button', { name: 'Add Blog Source' }).click();
  await expect(dialog.getByText('Configuration must be a JSON object')).toBeVisible();
  await textbox(dialog, 'Configuration (JSON, optional)').fill('{}');
  await dialog.getByRole('button', { name: 'Add Blog Source' }).click();
  await expectToast(page, 'Success', 'Blog source created successfully');
  await expect(sourceCard(page, other)).toContainText('RSS');
  await expect(sourceCard(page, other)).toContainText('Shows 8 articles');

  // Delete asks first; Cancel keeps it.
  await card.getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this blog source?' });
  await expect(confirm).toContainText(`${name} and the articles fetched from it will be removed`);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(card.getByRole('button', { name: `Delete ${name}` })).toBeFocused();
  await card.getByRole('button', { name: `Delete ${name}` }).click();
  await confirm.getByRole('button', { name: 'Delete Blog Source' }).click();
  await expect(confirm).toBeHidden();
  await expect(card).toHaveCount(0);
  await expect(addButton).toBeFocused(); // the deleted source's button is gone
  await expectToast(page, 'Success', 'Blog source deleted successfully');
  const rows = (await (await adminApi.get('/api/admin/blog-sources')).json()) as BlogSource[];
  expect(rows.map((r) => r.name)).not.toContain(name);
  const kept = rows.find((r) => r.name === other)!;
  expect(kept).toMatchObject({ type: 'rss', displayLimit: 8, isActive: true });
  expect((await adminApi.delete(`/api/admin/blog-sources/${kept.id}`)).status()).toBe(204);
  consoleErrors.expectNone();
});

test('blog sources: failed create and delete show the SPEC §8 error toasts', async ({ page, adminApi }, info) => {
  const consoleErrors = watchConsole(page);
  const name = unique(info, 'Stays Put');
  const res = await adminApi.post('/api/admin/blog-sources', {
    data: { name, url: `http://127.0.0.1:${fakesPort}/feeds/stays.xml`, type: 'rss', displayLimit: 3 },
  });
  expect(res.status()).toBe(201);
  const source = (await res.json()) as BlogSource;
  await page.route('**/api/admin/blog-sources', (route) =>
    route.request().method() === 'POST' ? route.fulfill({ status: 500, json: { error: 'Internal error' } }) : route.fallback(),
  );
  await page.route(`**/api/admin/blog-sources/${source.id}`, (route) =>
    route.request().method() === 'DELETE' ? route.fulfill({ status: 500, json: { error: 'Internal error' } }) : route.fallback(),
  );
  await openScreen(page);
  await openTab(page, 'Blog Sources');

  await page.getByRole('button', { name: 'Add Blog Source' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Blog Source' });
  await textbox(dialog, 'Name').fill(unique(info, 'Never Stored'));
  await textbox(dialog, 'URL').fill('https://news.example.com/feed.xml');
  await dialog.getByRole('button', { name: 'Add Blog Source' }).click();
  await expectToast(page, 'Error', 'Failed to create blog source', { overDialog: true });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');

  const card = sourceCard(page, name);
  await expect(card).toContainText('Shows 3 articles');
  await card.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('alertdialog', { name: 'Delete this blog source?' }).getByRole('button', { name: 'Delete Blog Source' }).click();
  await expectToast(page, 'Error', 'Failed to delete blog source');
  await expect(card).toBeVisible();

  expect((await adminApi.delete(`/api/admin/blog-sources/${source.id}`)).status()).toBe(204);
  consoleErrors.expectOnly(/Failed to (create|delete) blog source/, /status of 500/);
});

// ---------------------------------------------------------------------------------------------
// The effect: configured through the page, seen working

/** A weekday slot far enough ahead, different per project (both projects share the database). */
function slotFor(info: TestInfo, offset: number) {
  let date = addDays(firmToday(new Date()), 40 + (info.project.name === 'phone' ? 20 : 0) + offset);
  while (!isBookableDay(date)) date = addDays(date, 1);
  return firmInstant(date, '10:30').toISOString();
}

test.describe('configured through the page, the integrations work', () => {
  let fakes: CalendarFakes;
  let smtp: SmtpPeer;
  let feeds: FeedServer;
  test.beforeAll(async () => {
    fakes = await startCalendarFakes({ port: fakesPort });
    smtp = await startSmtpPeer();
    feeds = await startFeedServer();
  });
  test.afterAll(async () => {
    await fakes?.close();
    await smtp?.close();
    await feeds?.stop();
  });

  test('a blog source added on the page is fetched: its first fetch shows without a reload; Fetch now says how it went', async ({ page, adminApi }, info) => {
    test.setTimeout(60_000);
    const consoleErrors = watchConsole(page);
    const good = unique(info, 'Feed Server News');
    const broken = unique(info, 'Broken Feed');
    await openScreen(page);
    await openTab(page, 'Blog Sources');
    const addButton = page.getByRole('button', { name: 'Add Blog Source' });
    const dialog = page.getByRole('dialog', { name: 'Add Blog Source' });

    await addButton.click();
    await textbox(dialog, 'Name').fill(good);
    await textbox(dialog, 'URL').fill(feeds.url(feedPaths.rss));
    await dialog.getByRole('button', { name: 'Add Blog Source' }).click();
    await expectToast(page, 'Success', 'Blog source created successfully');
    const card = sourceCard(page, good);
    // The list reloads by itself until the server's first fetch shows.
    await expect(card.getByTestId('last-fetched')).toContainText(/^Last fetched .+ · 3 articles stored$/, { timeout: 20_000 });
    await expect(card.getByTestId('last-error')).toHaveCount(0);
    const titles = ((await (await page.request.get('/api/external-blog-articles')).json()) as { title: string; sourceId: string }[]).map((a) => a.title);
    expect(titles).toContain('Probate basics & timelines');

    feeds.addItem({ title: 'A fourth article' });
    await card.getByRole('button', { name: `Fetch now ${good}` }).click();
    await expectToast(page, 'Success', `${good} fetched: 4 articles stored`);
    await expect(card.getByTestId('last-fetched')).toContainText('4 articles stored');

    await addButton.click();
    await textbox(dialog, 'Name').fill(broken);
    await textbox(dialog, 'URL').fill(feeds.url(feedPaths.brokenXml));
    await dialog.getByRole('button', { name: 'Add Blog Source' }).click();
    await expectToast(page, 'Success', 'Blog source created successfully');
    const brokenCard = sourceCard(page, broken);
    await expect(brokenCard.getByTestId('last-error')).toContainText('Last fetch failed:', { timeout: 20_000 });
    await brokenCard.getByRole('button', { name: `Fetch now ${broken}` }).click();
    await expectToast(page, 'Fetch Failed', `${broken}: `);

    for (const name of [good, broken]) {
      const rows = (await (await adminApi.get('/api/admin/blog-sources')).json()) as BlogSource[];
      expect((await adminApi.delete(`/api/admin/blog-sources/${rows.find((r) => r.name === name)!.id}`)).status()).toBe(204);
    }
    consoleErrors.expectNone();
  });

  test('a booking reaches the signed custom webhook and the SMTP server; the delivery logs show it sent', async ({ page }, info) => {
    test.setTimeout(60_000);
    const consoleErrors = watchConsole(page);
    const hookPath = `/webhook/${unique(info, 'effect', '-')}`;
    const signingKey = `whsec-${Date.now()}-effect-signing-key`;
    const visitor = `${unique(info, 'integrations', '-')}@example.com`;
    await openScreen(page);

    const id = await addIntegration(page, { provider: 'custom', webhookUrl: `${fakes.url}${hookPath}`, apiKey: signingKey });
    const card = integrationCard(page, id);
    await card.getByRole('button', { name: /^Activate/ }).click();
    await expectToast(page, 'Success', 'Calendar integration activated');
    await expect(card).toContainText('Nothing synced yet');

    await openTab(page, 'Email');
    await page.getByRole('button', { name: 'Configure Email' }).click();
    const dialog = page.getByRole('dialog', { name: 'Configure Email' });
    await select(dialog, 'Provider').selectOption('smtp');
    await textbox(dialog, 'Configuration (JSON)').fill(
      JSON.stringify({
        host: '127.0.0.1',
        port: smtp.port,
        secure: false,
        auth: { user: smtp.user, pass: smtp.pass },
        from_email: 'office@firm.example',
        from_name: 'Pacific Crest Law Group',
      }),
    );
    await dialog.getByRole('button', { name: 'Save Configuration' }).click();
    await expectToast(page, 'Success', 'Email integration created successfully');
    await expect(page.getByTestId('email-status').getByRole('heading', { name: 'Configured' })).toBeVisible();

    // A visitor books (SPEC §7 POST /api/appointments).
    const { id: appointmentId } = await book(page.request, {
      firstName: 'Ines',
      lastName: 'Webhook',
      email: visitor,
      consultationType: 'initial',
      practiceArea: 'estate-planning',
      scheduledDate: slotFor(info, 0),
    });

    // The webhook got the event, signed with the key typed in the page.
    await expect.poll(() => fakes.webhook.at(hookPath).length, { timeout: 20_000 }).toBeGreaterThan(0);
    const [hook] = fakes.webhook.at(hookPath);
    expect(hook!.json()).toMatchObject({ type: 'appointment.created', appointment: { id: appointmentId } });
    expect(verifyTimestampedSignature(hook!.headers['x-firm-signature'], hook!.body, signingKey)).toBe(true);
    // The confirmation reached the SMTP server.
    await expect.poll(() => smtp.to(visitor).length, { timeout: 20_000 }).toBeGreaterThan(0);

    // The page's logs say so.
    const emailLog = page.getByTestId('deliveries-email');
    await expect
      .poll(
        async () => {
          await emailLog.getByRole('button', { name: /^Refresh/ }).click();
          return emailLog.getByTestId('delivery').filter({ hasText: visitor }).filter({ hasText: 'Sent' }).count();
        },
        { timeout: 20_000 },
      )
      .toBeGreaterThan(0);
    await openTab(page, 'Calendar');
    const calendarLog = card.getByTestId('deliveries-calendar');
    await expect
      .poll(
        async () => {
          await calendarLog.getByRole('button', { name: /^Refresh/ }).click();
          return calendarLog.getByTestId('delivery').filter({ hasText: 'Sent' }).count();
        },
        { timeout: 20_000 },
      )
      .toBeGreaterThan(0);
    consoleErrors.expectNone();
  });
});

// ---------------------------------------------------------------------------------------------
// Accessibility and looks, with data

test('no axe violations on each tab and each dialog, light and dark; no sideways scroll at 390 and 320 px; screenshots', async ({ page, adminApi }, info) => {
  test.setTimeout(180_000); // many axe runs
  const consoleErrors = watchConsole(page);
  const created = await adminApi.post('/api/admin/calendar-settings', {
    data: {
      provider: 'outlook',
      config: JSON.stringify({ client_id: 'c', client_secret: 'outlook-secret-value-1234', tenant_id: 't', user_email: 'calendar@firm.example' }),
      apiKey: 'outlook-api-key-0987654321',
    },
  });
  expect(created.status()).toBe(201);
  const integration = (await created.json()) as CalendarIntegration;
  const sourceName = unique(info, 'Screenshot Feed');
  const source = await adminApi.post('/api/admin/blog-sources', {
    data: { name: sourceName, url: `http://127.0.0.1:${fakesPort}/feeds/screenshot.xml`, type: 'rss', displayLimit: 4 },
  });
  expect(source.status()).toBe(201);
  const sourceId = ((await source.json()) as BlogSource).id;
  await openScreen(page);
  await expect(integrationCard(page, integration.id)).toBeVisible();

  const tabs = [
    ['Calendar', 'calendar'],
    ['Email', 'email'],
    ['Review Platforms', 'reviews'],
    ['Blog Sources', 'blog-sources'],
  ] as const;
  const dialogs: { tab: (typeof tabs)[number][0]; open: () => Promise<Locator>; name: string }[] = [
    {
      tab: 'Calendar',
      name: 'calendar-dialog',
      open: async () => {
        await page.getByRole('button', { name: 'Add Integration' }).click();
        const d = page.getByRole('dialog', { name: 'Add Calendar Integration' });
        // A custom webhook without its URL and key: the field messages show too (nothing is created).
        await select(d, 'Provider').selectOption('custom');
        await d.getByRole('button', { name: 'Add Integration' }).click();
        await expect(d.getByText(customCalendarMessages.apiKey)).toBeVisible();
        return d;
      },
    },
    {
      tab: 'Email',
      name: 'email-dialog',
      open: async () => {
        await page.getByRole('button', { name: 'Configure Email' }).click();
        return page.getByRole('dialog', { name: 'Configure Email' });
      },
    },
    {
      tab: 'Review Platforms',
      name: 'review-dialog',
      open: async () => {
        await page.getByRole('button', { name: 'Manage Sources' }).click();
        const d = page.getByRole('dialog', { name: 'Manage Review Sources' });
        await d.getByRole('button', { name: 'Add URL for Avvo' }).click();
        return d;
      },
    },
    {
      tab: 'Blog Sources',
      name: 'blog-source-dialog',
      open: async () => {
        await page.getByRole('button', { name: 'Add Blog Source' }).click();
        return page.getByRole('dialog', { name: 'Add Blog Source' });
      },
    },
    {
      tab: 'Blog Sources',
      name: 'blog-source-delete',
      open: async () => {
        await sourceCard(page, sourceName)
          .getByRole('button', { name: `Delete ${sourceName}` })
          .click();
        return page.getByRole('alertdialog', { name: 'Delete this blog source?' });
      },
    },
  ];

  // In full in light mode; dark changes colours only, and is judged by the rules it can change.
  for (const dark of [false, true]) {
    await setDark(page, dark);
    const mode = dark ? 'dark' : 'light';
    for (const [name, slug] of tabs) {
      await openTab(page, name);
      await expect(page.getByRole('status').filter({ hasText: /^Loading\.\.\.$/ })).toHaveCount(0);
      await expectNoAxeViolations(page, { label: `${name} tab, ${mode}`, ...(dark ? { rules: COLOUR_RULES } : {}) });
      await expectNoSideways(page);
      await screenshot(page, info, `admin-integrations-${slug}-${mode}`, { unhover: true, blur: true });
    }
    for (const d of dialogs) {
      await openTab(page, d.tab);
      const dialog = await d.open();
      await expect(dialog).toBeVisible();
      await expectNoAxeViolations(page, { label: `${d.name}, ${mode}`, ...(dark ? { rules: COLOUR_RULES } : {}) });
      if (!dark) await screenshotDialog(dialog, info, `admin-integrations-${d.name}`, { unhover: true });
      await page.keyboard.press('Escape');
      // The calendar dialog's validation toast closes first (Radix layering), then the dialog.
      if (await dialog.isVisible()) await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    }
  }
  await setDark(page, false);

  // SPEC-free but the brief's: a phone at 390 and 320 px never scrolls sideways, dialogs included.
  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 800 });
    for (const [name, slug] of tabs) {
      await openTab(page, name);
      await expectNoSideways(page);
      if (width === 320) await screenshot(page, info, `admin-integrations-${slug}-320`, { unhover: true, blur: true });
    }
    for (const d of dialogs) {
      await openTab(page, d.tab);
      const dialog = await d.open();
      await expect(dialog).toBeVisible();
      expect(await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
      await expectNoSideways(page);
      if (width === 320) await screenshotDialog(dialog, info, `admin-integrations-${d.name}-320`, { unhover: true });
      await page.keyboard.press('Escape');
      if (await dialog.isVisible()) await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    }
  }
  expect((await adminApi.delete(`/api/admin/blog-sources/${sourceId}`)).status()).toBe(204);
  consoleErrors.expectNone();
});
