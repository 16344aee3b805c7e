/**
 * Hidden means gone (SPEC §3 catalogue, decision 028), as a visitor meets it at desktop and phone
 * width: with the calculator hidden by the admin, the menus, the footer and the estate-planning page
 * offer no calculator, and its page says it is unavailable and takes a message instead. The
 * visibility settings are global: every test puts the calculator back.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../support/admin.ts';
import { expectNoAxeViolations, screenshot, toasts, unique, watchConsole } from '../support/e2e.ts';

test.describe.configure({ mode: 'serial' });

const API = '/api/admin/component-visibility';
const narrow = (page: Page) => (page.viewportSize()?.width ?? 1280) < 768;

test.afterEach(async ({ adminApi }) => {
  expect((await adminApi.put(`${API}/probate_calculator`, { data: { isVisible: true } })).ok()).toBe(true);
});

test('with the calculator hidden, no menu, footer or page offers it, and its page takes a message instead', async ({ page, adminApi }, info) => {
  const consoleErrors = watchConsole(page);
  expect((await adminApi.put(`${API}/probate_calculator`, { data: { isVisible: false } })).ok()).toBe(true);

  await expect(async () => {
    await page.goto('/practice-areas/estate-planning');
    await expect(page.locator('a[href="/probate-calculator"]')).toHaveCount(0, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByRole('link', { name: /probate calculator|estimate probate costs/i })).toHaveCount(0);
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'About' })).toBeVisible();
  if (narrow(page)) {
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await expect(menu.getByRole('link', { name: 'Attorneys' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Calculator' })).toHaveCount(0);
    await screenshot(page, info, 'menu-calculator-hidden', { fullPage: false });
    await page.keyboard.press('Escape');
  } else await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calculator' })).toHaveCount(0);

  const response = await page.goto('/probate-calculator');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'The Probate Calculator Is Unavailable' })).toBeVisible();
  await expect(page.locator('[data-component="probate_calculator"]')).toHaveCount(0);
  const form = page.locator('[data-component="contact_form"]');
  const send = form.getByRole('button', { name: 'Send Message' });
  await expect(send).toBeEnabled();
  await screenshot(page, info, 'calculator-unavailable');
  await expectNoAxeViolations(page);

  // The message it takes is a real one.
  await form.getByRole('textbox', { name: 'First Name', exact: true }).fill('Lena');
  await form.getByRole('textbox', { name: 'Last Name', exact: true }).fill('Ortiz');
  await form.getByRole('textbox', { name: 'Email', exact: true }).fill(`${unique(info, 'hidden-calculator', '-')}@example.com`);
  await form.getByRole('textbox', { name: 'Phone', exact: true }).fill('(619) 555-0142');
  await form.getByRole('combobox').selectOption('estate-planning');
  await form.getByRole('textbox', { name: 'Message', exact: true }).fill('What would probate cost for a house in Chula Vista?');
  await form.getByRole('checkbox', { name: /privacy policy/ }).check();
  await send.click();
  await expect(toasts(page)).toContainText('Message Sent Successfully');
  // The one failed request: the page itself, which answers 404 while the calculator is hidden.
  consoleErrors.expectOnlyFailedRequests(404);
});

test('shown again, the calculator is back in the menus and at its page', async ({ page, adminApi }) => {
  expect((await adminApi.put(`${API}/probate_calculator`, { data: { isVisible: true } })).ok()).toBe(true);
  const response = await page.goto('/probate-calculator');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Probate Cost Calculator' })).toBeVisible();
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Probate Calculator' })).toBeVisible();
});
