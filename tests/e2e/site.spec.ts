import { expect, test } from '@playwright/test';
import { firm } from '../../src/config/firm.ts';
import { expectNoAxeViolations, screenshot } from '../support/e2e.ts';

test('the home page shows the firm, its phone and the advertising disclaimer', async ({ page }, info) => {
  const errors: string[] = [];
  page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: firm.name })).toBeVisible();
  await expect(page.getByRole('link', { name: firm.phone }).first()).toHaveAttribute('href', firm.phoneHref);
  await expect(page.getByRole('contentinfo')).toContainText('Attorney Advertising');
  await expect(page.getByRole('contentinfo')).toContainText(firm.address.street);
  await screenshot(page, info, 'home');
  expect(errors).toEqual([]);
});

test('an unknown path shows the not-found screen with a 404 status', async ({ page }, info) => {
  const res = await page.goto('/no-such-page');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
  await screenshot(page, info, '404');
});

test('the API answers beside the site, from the seeded database', async ({ request }) => {
  const health = await request.get('/api/health');
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: 'ok' });
  const posts = await request.get('/api/blog-posts');
  expect((await posts.json()).length).toBeGreaterThanOrEqual(8);
  expect((await request.get('/api/admin/blog-posts')).status()).toBe(401);
});

test('the sign-in page asks search engines not to list it; public pages carry a canonical URL', async ({ page }) => {
  await page.goto('/login');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
  await page.goto('/');
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/$/);
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
});

for (const theme of ['light', 'dark', 'warm'] as const) {
  test(`the sign-in page and the 404 page have no accessibility violations (${theme})`, async ({ page }) => {
    await page.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
    for (const path of ['/login', '/no-such-page']) {
      await page.goto(path);
      await expectNoAxeViolations(page, { label: path, fromTop: true });
    }
  });
}
