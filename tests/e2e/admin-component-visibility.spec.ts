/**
 * /admin/component-visibility (SPEC §2, §4 Component visibility, §7 admin calls, §8 messages), signed
 * in as an admin made by `npm run admin:create`'s script. Both projects share one server database and
 * the visibility settings are global, so the specs run one at a time and every test puts all eight
 * components back to visible afterwards (other specs expect the public site whole).
 */
import type { Page, Request } from '@playwright/test';
import { componentCatalogue } from '../../src/shared/constants.ts';
import { expect, openAdminScreen, test } from '../support/admin.ts';
import { expectNoAxeViolations, screenshot, toasts, watchConsole } from '../support/e2e.ts';

test.describe.configure({ mode: 'serial' });

const SCREEN = '/admin/component-visibility';
const API = '/api/admin/component-visibility';

interface StoredSetting {
  componentKey: string;
  componentName: string;
  description: string;
  isVisible: boolean;
}

const bar = (page: Page) => page.getByRole('region', { name: 'Unsaved changes' });
/** The polite live region that announces the count (kept in the page, empty when nothing is pending). */
const announcement = (page: Page) => page.locator('#component-visibility-unsaved[role="status"]');
const card = (page: Page, key: string) => page.locator(`[data-component-card="${key}"]`);
/** The switch of one component: its accessible name is '<component name>: Visible' or ': Hidden'. */
const switchFor = (page: Page, name: string) => page.getByRole('switch', { name: new RegExp(`^${name}: (Visible|Hidden)$`) });

async function openScreen(page: Page) {
  await openAdminScreen(page, SCREEN, 'Component Visibility');
  await expect(page.getByRole('switch')).toHaveCount(componentCatalogue.length);
}

/**
 * The public page shows the probate calculator, or has none of it: no calculator markup and no link to
 * it in the navigation (the phone's menu included), the footer or the content. Pages follow within ~1 s.
 */
async function expectCalculatorOnPublicPage(page: Page, path: string, visible: boolean) {
  await expect(async () => {
    await page.goto(path);
    const calculator = page.locator('[data-component="probate_calculator"]');
    const links = page.locator('a[href="/probate-calculator"]');
    if (visible) {
      await expect(calculator.first()).toBeVisible({ timeout: 1000 });
      await expect(links.first()).toBeAttached({ timeout: 1000 });
    } else {
      // Not in the page at all (hidden means gone), not merely out of sight.
      await expect(calculator).toHaveCount(0, { timeout: 1000 });
      await expect(links).toHaveCount(0, { timeout: 1000 });
    }
  }).toPass({ timeout: 15_000 });
}

test.afterEach(async ({ adminApi }) => {
  for (const { componentKey } of componentCatalogue) {
    const res = await adminApi.put(`${API}/${componentKey}`, { data: { isVisible: true } });
    expect(res.ok(), `restore ${componentKey}: ${await res.text()}`).toBe(true);
  }
});

test('each component has a card: name, description, key, Active pill and a Visible switch, plus the info card', async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await openScreen(page);
  for (const c of componentCatalogue) {
    const item = card(page, c.componentKey);
    await expect(item.getByRole('heading', { level: 2, name: c.componentName })).toBeVisible();
    await expect(item.getByText(c.description)).toBeVisible();
    const key = item.locator('code');
    await expect(key).toHaveText(c.componentKey);
    expect(await key.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/mono/i);
    await expect(item.getByText('Active', { exact: true })).toBeVisible();
    await expect(item.getByText('Modified')).toHaveCount(0);
    const toggle = switchFor(page, c.componentName);
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect(toggle).toHaveAccessibleName(`${c.componentName}: Visible`);
    await expect(item.getByText('Visible', { exact: true })).toBeVisible();
  }
  const info = page.getByRole('region', { name: 'About component visibility' });
  await expect(info.getByRole('heading', { level: 2, name: 'About component visibility' })).toBeVisible();
  await expect(info).toContainText('disappear from the public website but stay available here in the admin portal');
  await expect(info).toContainText('Changes take effect only after you select Save Changes');
  await expect(info).toContainText('The navigation and the footer are always shown and cannot be disabled');
  await expect(info).toContainText('Re-enabling a component loses no data');
  await expect(bar(page)).toHaveCount(0);
  consoleErrors.expectNone();
});

test('hiding the probate calculator removes it and every link to it from the site, and its page offers the contact form; showing it brings it back', async ({
  page,
  adminApi,
}, info) => {
  const consoleErrors = watchConsole(page);
  const puts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().includes(API)) puts.push(`${new URL(r.url()).pathname} ${r.postData()}`);
  });

  await openScreen(page);
  const calculator = card(page, 'probate_calculator');
  await switchFor(page, 'Probate Calculator').click();
  await expect(switchFor(page, 'Probate Calculator')).toHaveAttribute('aria-checked', 'false');
  await expect(switchFor(page, 'Probate Calculator')).toHaveAccessibleName('Probate Calculator: Hidden');
  await expect(calculator.getByText('Hidden', { exact: true })).toBeVisible();
  await expect(calculator.getByText('Modified')).toBeVisible();
  await expect(calculator.getByText('Disabled', { exact: true })).toBeVisible();
  await expect(bar(page)).toContainText('1 unsaved change');
  // Nothing is sent before Save Changes (SPEC §4: pending until saved).
  expect(puts).toEqual([]);
  expect(((await (await adminApi.get(API)).json()) as StoredSetting[]).find((s) => s.componentKey === 'probate_calculator')?.isVisible).toBe(true);

  await bar(page).getByRole('button', { name: 'Save Changes' }).click();
  await expect(toasts(page)).toContainText('Component visibility updated successfully');
  await expect(toasts(page).getByText('Success', { exact: true })).toBeVisible();
  await expect(bar(page)).toHaveCount(0);
  await expect(calculator.getByText('Modified')).toHaveCount(0);
  await expect(calculator.getByText('Disabled', { exact: true })).toBeVisible();
  expect(puts).toEqual([`${API}/probate_calculator {"isVisible":false}`]);
  expect(((await (await adminApi.get(API)).json()) as StoredSetting[]).find((s) => s.componentKey === 'probate_calculator')?.isVisible).toBe(false);

  await expectCalculatorOnPublicPage(page, '/', false);
  // The rest of the home page is untouched.
  await expect(page.locator('[data-component="testimonials"]').first()).toBeVisible();
  await screenshot(page, info, 'home-calculator-hidden');
  // The phone's menu offers no Calculator.
  if ((page.viewportSize()?.width ?? 1280) < 768) {
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await expect(menu.getByRole('link', { name: 'About' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Calculator' })).toHaveCount(0);
    await page.keyboard.press('Escape');
  } else await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calculator' })).toHaveCount(0);
  await expectCalculatorOnPublicPage(page, '/practice-areas/estate-planning', false);
  // Its page says it is unavailable (status 404) and offers the contact form instead.
  const response = await page.goto('/probate-calculator');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'The Probate Calculator Is Unavailable' })).toBeVisible();
  await expect(page.locator('[data-component="probate_calculator"]')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /send message/i })).toBeVisible();
  await screenshot(page, info, 'calculator-unavailable');

  await openScreen(page);
  await expect(switchFor(page, 'Probate Calculator')).toHaveAttribute('aria-checked', 'false');
  await expect(switchFor(page, 'Probate Calculator')).toHaveAccessibleName('Probate Calculator: Hidden');
  await switchFor(page, 'Probate Calculator').click();
  await expect(calculator.getByText('Active', { exact: true })).toBeVisible();
  await bar(page).getByRole('button', { name: 'Save Changes' }).click();
  await expect(toasts(page)).toContainText('Component visibility updated successfully');
  await expect(bar(page)).toHaveCount(0);

  await expectCalculatorOnPublicPage(page, '/', true);
  await expectCalculatorOnPublicPage(page, '/probate-calculator', true);
  // The one failed request: the calculator's page answering 404 while it is hidden.
  consoleErrors.expectOnlyFailedRequests(404);
});

test('the bar counts unsaved changes; Cancel discards them and sends nothing', async ({ page, adminApi }) => {
  const consoleErrors = watchConsole(page);
  const writes: string[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET' && r.url().includes(API)) writes.push(r.url());
  });
  await openScreen(page);
  await expect(announcement(page)).toHaveText('');

  // By keyboard: Space flips a focused switch.
  await switchFor(page, 'Client Testimonials').focus();
  await page.keyboard.press('Space');
  await expect(bar(page)).toContainText('1 unsaved change');
  await expect(announcement(page)).toHaveText('1 unsaved change');
  await switchFor(page, 'Newsletter Signup').click();
  await expect(bar(page)).toContainText('2 unsaved changes');
  await expect(announcement(page)).toHaveText('2 unsaved changes');
  await expect(card(page, 'testimonials').getByText('Modified')).toBeVisible();
  await expect(card(page, 'newsletter_signup').getByText('Modified')).toBeVisible();

  // Moving a switch back to its saved position is no longer a change.
  await switchFor(page, 'Newsletter Signup').click();
  await expect(bar(page)).toContainText('1 unsaved change');
  await expect(card(page, 'newsletter_signup').getByText('Modified')).toHaveCount(0);
  await switchFor(page, 'Newsletter Signup').click();
  await expect(bar(page)).toContainText('2 unsaved changes');

  await bar(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(bar(page)).toHaveCount(0);
  await expect(announcement(page)).toHaveText('');
  await expect(page.getByText('Modified')).toHaveCount(0);
  await expect(switchFor(page, 'Client Testimonials')).toHaveAttribute('aria-checked', 'true');
  await expect(switchFor(page, 'Newsletter Signup')).toHaveAttribute('aria-checked', 'true');
  // Focus goes back to the switch last moved, not to the top of the page.
  await expect(switchFor(page, 'Newsletter Signup')).toBeFocused();
  expect(writes).toEqual([]);
  const stored = (await (await adminApi.get(API)).json()) as StoredSetting[];
  expect(stored.filter((s) => !s.isVisible)).toEqual([]);
  consoleErrors.expectNone();
});

test('leaving with unsaved changes asks first; after Cancel it does not', async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await openScreen(page);
  await switchFor(page, 'Contact Form').click();
  await expect(bar(page)).toContainText('1 unsaved change');

  const asked = new Promise<string>((resolve) => page.once('dialog', (d) => void d.dismiss().then(() => resolve(d.type()))));
  await page.getByRole('link', { name: 'Back to Admin Dashboard' }).click();
  expect(await asked).toBe('beforeunload');
  // Staying keeps the changes.
  await expect(page).toHaveURL(new RegExp(`${SCREEN}$`));
  await expect(bar(page)).toContainText('1 unsaved change');

  await bar(page).getByRole('button', { name: 'Cancel' }).click();
  let dialogs = 0;
  page.on('dialog', (d) => {
    dialogs += 1;
    void d.accept();
  });
  await page.getByRole('link', { name: 'Back to Admin Dashboard' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  expect(dialogs).toBe(0);
  consoleErrors.expectNone();
});

test("Save Changes shows 'Saving...' and sends one PUT per changed key, one at a time", async ({ page, adminApi }) => {
  const consoleErrors = watchConsole(page);
  // Each PUT is held until the test lets it go, to see the pending label and that the next waits.
  const held: { request: Request; release: () => void }[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  await page.route(`**${API}/*`, async (route) => {
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    await new Promise<void>((release) => held.push({ request: route.request(), release }));
    await route.continue();
    inFlight -= 1;
  });

  await openScreen(page);
  await switchFor(page, 'Practice Areas').click();
  await switchFor(page, 'Contact Form').click();
  await expect(bar(page)).toContainText('2 unsaved changes');
  const save = bar(page).getByRole('button', { name: 'Save Changes' });
  await save.focus();
  await page.keyboard.press('Enter');

  const saving = bar(page).getByRole('button', { name: 'Saving...' });
  await expect(saving).toBeVisible();
  await expect(saving).toHaveAttribute('aria-disabled', 'true');
  await expect(saving).toBeFocused();
  await expect(bar(page).getByRole('button', { name: 'Cancel' })).toBeDisabled();
  await expect(switchFor(page, 'Practice Areas')).toBeDisabled();
  // Another press while saving sends nothing more.
  await page.keyboard.press('Enter');

  await expect.poll(() => held.length).toBe(1);
  expect(held[0]!.request.url()).toContain(`${API}/contact_form`);
  expect(held[0]!.request.postDataJSON()).toEqual({ isVisible: false });
  held[0]!.release();
  await expect.poll(() => held.length).toBe(2);
  expect(held[1]!.request.url()).toContain(`${API}/practice_areas`);
  await expect(saving).toBeVisible();
  held[1]!.release();

  await expect(toasts(page)).toContainText('Component visibility updated successfully');
  await expect(bar(page)).toHaveCount(0);
  expect(held).toHaveLength(2);
  expect(mostInFlight).toBe(1);
  // The bar (and the focused button) is gone: focus goes back to the switch last moved.
  await expect(switchFor(page, 'Contact Form')).toBeFocused();
  const stored = (await (await adminApi.get(API)).json()) as StoredSetting[];
  expect(
    stored
      .filter((s) => !s.isVisible)
      .map((s) => s.componentKey)
      .sort(),
  ).toEqual(['contact_form', 'practice_areas']);
  consoleErrors.expectNone();
});

test('a failed save shows the error toast and keeps only the changes that did not go through', async ({ page, adminApi }) => {
  const consoleErrors = watchConsole(page);
  // The first PUT reaches the server; the second is answered with a 500 (a server failure on demand).
  await page.route(`**${API}/contact_form`, (route) => route.fulfill({ status: 500, json: { error: 'Something went wrong' } }));

  await openScreen(page);
  await switchFor(page, 'Probate Calculator').click();
  await switchFor(page, 'Contact Form').click();
  await bar(page).getByRole('button', { name: 'Save Changes' }).click();

  await expect(toasts(page)).toContainText('Failed to update component visibility');
  await expect(toasts(page).getByText('Error', { exact: true })).toBeVisible();
  await expect(bar(page)).toContainText('1 unsaved change');
  await expect(bar(page).getByRole('button', { name: 'Save Changes' })).toBeVisible();
  await expect(card(page, 'contact_form').getByText('Modified')).toBeVisible();
  await expect(switchFor(page, 'Contact Form')).toHaveAttribute('aria-checked', 'false');
  await expect(card(page, 'probate_calculator').getByText('Modified')).toHaveCount(0);
  await expect(switchFor(page, 'Probate Calculator')).toHaveAttribute('aria-checked', 'false');
  const stored = (await (await adminApi.get(API)).json()) as StoredSetting[];
  expect(stored.filter((s) => !s.isVisible).map((s) => s.componentKey)).toEqual(['probate_calculator']);

  // SPEC §8 request helper: the update failure carries the status text.
  consoleErrors.expectLogged(/Failed to update component visibility: 500 Something went wrong/);
  consoleErrors.expectOnly(/Failed to update component visibility/, /the server responded with a status of 500/);

  // Trying again once the server is back saves the rest.
  await page.unroute(`**${API}/contact_form`);
  await bar(page).getByRole('button', { name: 'Save Changes' }).click();
  await expect(toasts(page)).toContainText('Component visibility updated successfully');
  await expect(bar(page)).toHaveCount(0);
  const after = (await (await adminApi.get(API)).json()) as StoredSetting[];
  expect(
    after
      .filter((s) => !s.isVisible)
      .map((s) => s.componentKey)
      .sort(),
  ).toEqual(['contact_form', 'probate_calculator']);
});

test('a spinner shows while loading; with no settings on the server the eight defaults are created', async ({ page }) => {
  const consoleErrors = watchConsole(page);
  // The server always has the eight seeded rows, so an empty answer is made with a route: the first
  // GET answers [] and the POSTs are intercepted and answered here (nothing is written). The refetch
  // after creating goes to the real server.
  let releaseList!: () => void;
  const listHeld = new Promise<void>((resolve) => (releaseList = resolve));
  let gets = 0;
  const posts: unknown[] = [];
  await page.route(`**${API}`, async (route) => {
    const request = route.request();
    if (request.method() === 'POST') {
      const body = request.postDataJSON() as StoredSetting;
      posts.push(body);
      return route.fulfill({
        status: 201,
        json: { id: `made-${posts.length}`, ...body, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() },
      });
    }
    gets += 1;
    if (gets > 1) return route.continue();
    await listHeld;
    return route.fulfill({ json: [] });
  });

  await page.goto(SCREEN);
  await expect(page.getByRole('status').filter({ hasText: 'Loading...' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Loading...' }).locator('svg.animate-spin')).toBeAttached();
  releaseList();

  await expect.poll(() => posts.length).toBe(8);
  expect(posts).toEqual(
    componentCatalogue.map((c) => ({ componentKey: c.componentKey, componentName: c.componentName, description: c.description, isVisible: true })),
  );
  await expect(page.getByRole('switch')).toHaveCount(8);
  expect(gets).toBe(2);
  // No success toast is named for this in SPEC §8, and none is shown.
  await expect(toasts(page)).toHaveCount(0);
  consoleErrors.expectNone();
});

test("a failed create shows 'Failed to create component setting' and still shows the catalogue", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  // Every GET answers [] and the first POST fails: the page tries once and does not loop.
  const posts: unknown[] = [];
  await page.route(`**${API}`, (route) => {
    if (route.request().method() === 'POST') {
      posts.push(route.request().postDataJSON());
      return route.fulfill({ status: 500, json: { error: 'Something went wrong' } });
    }
    return route.fulfill({ json: [] });
  });
  await page.goto(SCREEN);
  await expect(toasts(page)).toContainText('Failed to create component setting');
  await expect(toasts(page).getByText('Error', { exact: true })).toBeVisible();
  await expect(page.getByRole('switch')).toHaveCount(8);
  for (const c of componentCatalogue) await expect(switchFor(page, c.componentName)).toHaveAttribute('aria-checked', 'true');
  expect(posts).toHaveLength(1);
  consoleErrors.expectLogged(/Failed to create component setting/);
  consoleErrors.expectOnly(/Failed to create component setting/, /the server responded with a status of 500/);
});

test('a list that cannot load says so and offers Try Again', async ({ page }) => {
  const consoleErrors = watchConsole(page);
  let fail = true;
  await page.route(`**${API}`, (route) => (fail ? route.fulfill({ status: 500, json: { error: 'Something went wrong' } }) : route.continue()));
  await page.goto(SCREEN);
  await expect(page.getByRole('alert')).toContainText('The component settings could not be loaded.');
  await expect(page.getByRole('switch')).toHaveCount(0);
  fail = false;
  await page.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByRole('switch')).toHaveCount(8);
  consoleErrors.expectOnlyFailedRequests(500);
});

test('screenshots and no axe violations, with and without unsaved changes', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  await openScreen(page);
  await screenshot(page, info, 'admin-component-visibility', { blur: true, unhover: true });
  await expectNoAxeViolations(page);

  await switchFor(page, 'Probate Calculator').click();
  await switchFor(page, 'Newsletter Signup').click();
  await expect(bar(page)).toContainText('2 unsaved changes');
  await expectNoAxeViolations(page);
  await screenshot(page, info, 'admin-component-visibility-pending', { blur: true, unhover: true });
  // The bar stays in view at the bottom while the list scrolls (sticky).
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(bar(page)).toBeInViewport();
  await screenshot(page, info, 'admin-component-visibility-pending-viewport', { fullPage: false });

  // By keyboard from the first switch to the bar: no focused control is hidden behind the sticky bar.
  await switchFor(page, 'Client Testimonials').focus();
  await page.evaluate(() => window.scrollTo(0, 0));
  for (let i = 0; i < componentCatalogue.length + 1; i += 1) {
    if (i > 0) await page.keyboard.press('Tab');
    const { focused, covered } = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const barBox = document.querySelector('section[aria-label="Unsaved changes"]')!.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      const inBar = !!el.closest('section[aria-label="Unsaved changes"]');
      return { focused: el.getAttribute('aria-label') ?? el.textContent, covered: !inBar && box.bottom > barBox.top && box.top < barBox.bottom };
    });
    expect(covered, `${focused} is under the bar`).toBe(false);
  }
  await expect(bar(page).getByRole('button', { name: 'Cancel' })).toBeFocused();
  const scroll = await page.evaluate(() => ({ width: document.scrollingElement!.scrollWidth, inner: window.innerWidth }));
  expect(scroll.width).toBeLessThanOrEqual(scroll.inner);
  await bar(page).getByRole('button', { name: 'Cancel' }).click();
  consoleErrors.expectNone();
});
