/**
 * The home page (SPEC §2 /): hero buttons, practice-area teasers, the probate calculator, attorney
 * teasers, 3 testimonials with their disclaimer and the external-review filter, the latest three
 * posts and JSON-LD (axe in each mode: accessibility.spec.ts). The server is seeded with 8 published
 * posts and 7 testimonials.
 */
import { expect, test, type Page } from '@playwright/test';
import { firm } from '../../src/config/firm.ts';
import type { PublicBlogPostSummary, PublicTestimonial } from '../../src/shared/public-api.ts';
import { screenPath, watchConsole } from '../support/e2e.ts';

const section = (page: Page, key: string) => page.locator(`section[data-component="${key}"]`);

/** An island has hydrated once Astro removes its `ssr` attribute. */
async function hydrated(page: Page, component: string) {
  const island = page.locator(`astro-island[component-url*="${component}"]`).first();
  await island.scrollIntoViewIfNeeded();
  await expect(island).not.toHaveAttribute('ssr');
}

test('the hero has its three buttons with their targets and the marketing claims', async ({ page }) => {
  const consoleErrors = watchConsole(page);
  const res = await page.goto('/');
  expect(res?.status()).toBe(200);
  await expect(page).toHaveTitle(`${firm.name} | San Diego Family & Estate Planning Law`);
  const hero = page.locator('section[aria-labelledby="hero-title"]');
  await expect(hero.getByRole('heading', { level: 1 })).toContainText(firm.name);

  const schedule = hero.getByRole('link', { name: 'Schedule Consultation' });
  await expect(schedule).toHaveAttribute('href', '/contact');
  await expect(schedule).toHaveAttribute('data-booking-trigger', '');
  await expect(schedule).toHaveAttribute('data-component', 'consultation_booking');
  await expect(hero.getByRole('link', { name: 'Start Your Estate Plan' })).toHaveAttribute('href', '/contact?service=estate-planning');
  await expect(hero.getByRole('link', { name: /^Call Now/ })).toHaveAttribute('href', firm.phoneHref);

  await expect(hero).toContainText('4.9/5');
  await expect(hero).toContainText('25+ years');
  const calculator = page.locator('section[aria-labelledby="calculator-title"]');
  await expect(calculator).toHaveAttribute('data-component', 'probate_calculator');
  await expect(calculator).toContainText('4-7%');
  await expect(calculator).toContainText('12-18 months');
  await expect(calculator).toContainText('general information');
  consoleErrors.expectNone();
});

test('practice-area teasers, the calculator and the attorney teasers are there', async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await page.goto('/');
  const practice = section(page, 'practice_areas');
  await expect(practice.getByRole('link', { name: 'Family Law' })).toHaveAttribute('href', '/practice-areas/family-law');
  await expect(practice.getByRole('link', { name: 'Estate Planning' })).toHaveAttribute('href', '/practice-areas/estate-planning');
  await expect(practice.getByRole('link', { name: 'Trust Administration' })).toHaveAttribute('href', /^\/practice-areas/);

  // The calculator island (its own data-component root, heading level 3) sits in the calculator section.
  const calculator = page.locator('section[aria-labelledby="calculator-title"]');
  await expect(calculator.getByRole('heading', { level: 2 })).toHaveText('What Could Probate Cost Your Family?');
  await expect(calculator.getByRole('heading', { level: 3, name: /Calculator/ })).toBeVisible();
  await expect(calculator.locator('astro-island[component-url*="ProbateCalculator"]')).toHaveCount(1);
  await expect(calculator.locator('astro-island[component-url*="ProbateCalculator"]')).toHaveAttribute('client', 'visible');

  const attorneys = page.locator('section[aria-labelledby="attorneys-title"]');
  for (const attorney of firm.attorneys) {
    await expect(attorneys.getByRole('heading', { level: 3, name: attorney.name })).toBeVisible();
    await expect(attorneys).toContainText(attorney.title);
  }
  await expect(attorneys.getByRole('link', { name: 'Meet the Attorneys' })).toHaveAttribute('href', '/attorneys');
  // The calculator brings the toaster for its toasts: no island of its own loads React before the calculator is in view.
  await expect(page.locator('astro-island[component-url*="Toaster"]')).toHaveCount(0);
  consoleErrors.expectNone();
});

test('the first three testimonials from the API, with star ratings in words and the disclaimer', async ({ page, request }) => {
  const consoleErrors = watchConsole(page);
  const all = (await (await request.get('/api/testimonials')).json()) as PublicTestimonial[];
  expect(all.length).toBeGreaterThanOrEqual(7);
  await page.goto('/');
  const testimonials = section(page, 'testimonials');
  const cards = testimonials.locator('ul').first().locator('> li');
  await expect(cards).toHaveCount(3);
  for (const [i, t] of all.slice(0, 3).entries()) {
    await expect(cards.nth(i)).toContainText(t.clientName);
    await expect(cards.nth(i)).toContainText(t.content.slice(0, 40));
    // The rating is in words and on screen, not only in the stars' fill.
    await expect(cards.nth(i).getByText(`Rated ${t.rating} out of 5 stars`)).toBeAttached();
    await expect(cards.nth(i)).toContainText(`${t.rating}/5`);
  }
  await expect(testimonials.getByTestId('testimonial-disclaimer')).toContainText(
    'do not constitute a guarantee, warranty, or prediction regarding the outcome of your legal matter',
  );
  consoleErrors.expectNone();
});

test('the external reviews filter by source: all, Google Reviews, Avvo, Yelp', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  await page.goto('/');
  await hydrated(page, 'ExternalReviews');
  const group = page.getByRole('group', { name: 'Filter reviews by source' });
  const reviews = group.locator('xpath=following-sibling::ul').locator('> li');
  await expect(reviews).toHaveCount(4);
  for (const review of await reviews.all()) await expect(review).toContainText('5/5');

  const counts = { 'Google Reviews': 2, Avvo: 1, Yelp: 1, All: 4 } as const;
  for (const [label, count] of Object.entries(counts)) {
    const button = group.getByRole('button', { name: label, exact: true });
    await button.click();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    await expect(group.getByRole('button', { pressed: true })).toHaveCount(1);
    await expect(reviews).toHaveCount(count);
    // The filter says SPEC's 'Google Reviews'; each review names its platform, Google.
    const platform = label === 'Google Reviews' ? 'Google' : label;
    if (label !== 'All') for (const review of await reviews.all()) await expect(review).toContainText(`on ${platform}`);
  }
  // Keyboard: focus a filter and press Space.
  await group.getByRole('button', { name: 'Yelp' }).focus();
  await page.keyboard.press('Space');
  await expect(reviews).toHaveCount(1);
  await page.getByRole('group', { name: 'Filter reviews by source' }).scrollIntoViewIfNeeded();
  await section(page, 'testimonials').screenshot({ path: screenPath(info, 'home-testimonials') });
  consoleErrors.expectNone();
});

test('the latest three posts, newest first, linking to their articles', async ({ page, request }) => {
  const consoleErrors = watchConsole(page);
  const posts = (await (await request.get('/api/blog-posts')).json()) as PublicBlogPostSummary[];
  expect(posts.length).toBe(8);
  await page.goto('/');
  const latest = section(page, 'blog_articles');
  const cards = latest.getByRole('article');
  await expect(cards).toHaveCount(3);
  for (const [i, post] of posts.slice(0, 3).entries()) {
    const link = cards.nth(i).getByRole('link', { name: post.title });
    await expect(link).toHaveAttribute('href', `/blog/${post.slug}`);
  }
  const dates = await latest.locator('time').evaluateAll((els) => els.map((el) => Date.parse(el.getAttribute('datetime') ?? '')));
  expect(dates).toEqual([...dates].sort((a, b) => b - a));
  await expect(latest.getByRole('link', { name: 'View All Articles' })).toHaveAttribute('href', '/blog');
  // Static HTML: the latest posts ship no island.
  await expect(latest.locator('astro-island')).toHaveCount(0);
  consoleErrors.expectNone();
});

test('the home page describes the firm as a LegalService in JSON-LD', async ({ page }) => {
  await page.goto('/');
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  const data = blocks.map((b) => JSON.parse(b) as Record<string, unknown>).find((d) => d['@type'] === 'LegalService');
  expect(data).toMatchObject({
    name: firm.name,
    legalName: firm.legalName,
    telephone: firm.phoneHref.replace(/^tel:/, ''),
    address: { streetAddress: firm.address.street, addressLocality: firm.address.city, postalCode: firm.address.postalCode },
  });
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /San Diego/);
});
