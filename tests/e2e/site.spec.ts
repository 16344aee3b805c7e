import { expect, test } from '@playwright/test';
import { firm } from '../../src/config/firm.ts';
import { screenshot } from '../support/e2e.ts';

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

test('the sign-in page asks search engines not to list it; public pages carry a canonical URL', async ({ page }) => {
  await page.goto('/login');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
  await page.goto('/');
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/$/);
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
});
