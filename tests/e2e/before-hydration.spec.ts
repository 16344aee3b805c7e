/**
 * Nothing a visitor types is lost before the page's islands are ready (the visitor issue: on a slow
 * phone, text typed into First Name or Estate Value was erased when the island hydrated). Each test
 * holds back the island's code until the visitor has typed into the server's HTML, then lets it load,
 * so the typing certainly comes first.
 */
import { expect, test, type Page } from '@playwright/test';
import { screenshot, watchConsole } from '../support/e2e.ts';

/** Holds every request for a script whose name starts with `name` until the returned function is called. */
async function holdScript(page: Page, name: string): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(new RegExp(`/_astro/${name}[.\\w-]*\\.js$`), async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

const island = (page: Page, component: string) => page.locator(`astro-island[component-url*="${component}"]`);

test('the contact form keeps what was typed before it was ready, and ?service= still preselects the practice area', async ({ page }) => {
  const console = watchConsole(page);
  const release = await holdScript(page, 'ContactForm');
  await page.goto('/contact?service=estate-planning');
  const form = page.locator('[data-component="contact_form"]');
  await expect(island(page, 'ContactForm')).toHaveAttribute('ssr', '');
  await form.getByRole('textbox', { name: 'First Name', exact: true }).fill('Maria');
  await form.getByRole('textbox', { name: 'Message', exact: true }).fill('About my mother’s trust.');
  release();
  await expect(form.getByRole('button', { name: 'Send Message' })).toBeEnabled();
  await expect(island(page, 'ContactForm')).not.toHaveAttribute('ssr');
  await expect(form.getByRole('textbox', { name: 'First Name', exact: true })).toHaveValue('Maria');
  await expect(form.getByRole('textbox', { name: 'Message', exact: true })).toHaveValue('About my mother’s trust.');
  await expect(form.getByRole('combobox', { name: 'Practice Area' })).toHaveValue('estate-planning');
  // The form goes on from there: the rest is typed after it hydrated.
  await form.getByRole('textbox', { name: 'Last Name', exact: true }).fill('Lopez');
  await expect(form.getByRole('textbox', { name: 'First Name', exact: true })).toHaveValue('Maria');
  console.expectNone();
});

test('the calculator keeps an estate value typed before it was ready, and calculates with it', async ({ page }) => {
  const console = watchConsole(page);
  const release = await holdScript(page, 'ProbateCalculator');
  await page.goto('/probate-calculator');
  const calculator = page.locator('[data-component="probate_calculator"]');
  await expect(island(page, 'ProbateCalculator')).toHaveAttribute('ssr', '');
  await calculator.getByRole('textbox', { name: 'Estate Value', exact: true }).fill('1000000');
  release();
  await expect(calculator.getByRole('button', { name: 'Calculate Costs' })).toBeEnabled();
  await expect(calculator.getByRole('textbox', { name: 'Estate Value', exact: true })).toHaveValue('1,000,000');
  await calculator.getByRole('button', { name: 'Calculate Costs' }).click();
  await expect(page.getByTestId('calculator-results')).toBeVisible();
  console.expectNone();
});

test('Schedule Consultation shows at once that it is opening, while the modal’s code is on its way; a second tap opens one modal', async ({ page }, info) => {
  const console = watchConsole(page);
  const release = await holdScript(page, 'open-booking');
  await page.goto('/');
  const trigger = page.locator('section[aria-labelledby="hero-title"]').getByRole('link', { name: 'Schedule Consultation' });
  await expect(trigger).not.toHaveAttribute('aria-busy');
  await trigger.click();
  await expect(trigger).toHaveAttribute('aria-busy', 'true');
  await screenshot(page, info, 'booking-opening', { fullPage: false });
  await expect(page).toHaveURL(/\/$/); // the link to /contact is not followed
  await trigger.click(); // impatient
  release();
  const dialog = page.getByRole('dialog', { name: 'Schedule a Consultation' });
  await expect(dialog).toBeVisible();
  // (The open modal hides the page from the accessibility tree: the button by its markup.)
  await expect(page.locator('section[aria-labelledby="hero-title"] a[data-booking-trigger]')).not.toHaveAttribute('aria-busy');
  await expect(page.getByRole('dialog')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  console.expectNone();
});
