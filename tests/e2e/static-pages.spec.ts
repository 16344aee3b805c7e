/**
 * The prerendered static pages (SPEC §2 public routes): /about, /attorneys, /practice-areas and the
 * Family Law and Estate Planning pages. Their content, Get Directions, the head (title, description,
 * canonical, Open Graph, JSON-LD) and the advertising wording of DOMAIN.md (Cal. RPC 7.1, 7.4).
 * WCAG 2.2 AA in each theme mode: accessibility.spec.ts crawls these pages with the rest of the site.
 */
import { expect, test, type Page } from '@playwright/test';
import { firm, firmAddressLine } from '../../src/config/firm.ts';
import { screenshot, watchConsole } from '../support/e2e.ts';

const pages = [
  { path: '/about', name: 'about', h1: 'A San Diego firm for families at every stage' },
  { path: '/attorneys', name: 'attorneys', h1: 'The attorneys you will work with' },
  { path: '/practice-areas', name: 'practice-areas', h1: 'How we help San Diego families' },
  { path: '/practice-areas/family-law', name: 'family-law', h1: 'Family law guidance for San Diego County families' },
  { path: '/practice-areas/estate-planning', name: 'estate-planning', h1: 'Estate planning that keeps decisions in your family’s hands' },
  { path: '/privacy', name: 'privacy', h1: 'Privacy Policy' },
  { path: '/terms', name: 'terms', h1: 'Terms of Service' },
] as const;

type JsonLd = Record<string, unknown> & { '@type': string };

async function jsonLd(page: Page): Promise<JsonLd[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.map((b) => JSON.parse(b) as JsonLd);
}

const main = (page: Page) => page.getByRole('main');

/** A Schedule Consultation button follows the booking rule of the common brief. */
async function expectBookingLinks(page: Page) {
  const buttons = main(page).getByRole('link', { name: 'Schedule Consultation' });
  expect(await buttons.count()).toBeGreaterThan(0);
  for (const b of await buttons.all()) {
    await expect(b).toHaveAttribute('href', '/contact');
    await expect(b).toHaveAttribute('data-booking-trigger', '');
    await expect(b).toHaveAttribute('data-component', 'consultation_booking');
  }
}

test('every static page has its own title and description, a canonical URL and Open Graph tags', async ({ page }) => {
  const console = watchConsole(page);
  const titles = new Set<string>();
  const descriptions = new Set<string>();
  for (const p of pages) {
    const res = await page.goto(p.path);
    expect(res?.status(), p.path).toBe(200);
    // Nothing sticks out sideways, on a phone included.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), p.path).toBe(0);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(p.h1);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);

    const title = await page.title();
    expect(title, p.path).toContain(firm.name);
    titles.add(title);
    const description = (await page.locator('meta[name="description"]').getAttribute('content')) ?? '';
    expect(description.length, `${p.path} description length`).toBeGreaterThan(50);
    // Search engines cut a description at about 160 characters.
    expect(description.length, `${p.path} description length`).toBeLessThanOrEqual(160);
    descriptions.add(description);

    const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
    // The form the links and the sitemap use: no trailing slash.
    expect(new URL(canonical!).pathname).toBe(p.path);
    const meta = (property: string) => page.locator(`meta[property="${property}"]`);
    await expect(meta('og:title')).toHaveAttribute('content', title);
    await expect(meta('og:description')).toHaveAttribute('content', description);
    await expect(meta('og:url')).toHaveAttribute('content', canonical!);
    await expect(meta('og:type')).toHaveAttribute('content', 'website');
    await expect(meta('og:site_name')).toHaveAttribute('content', firm.name);
    // A link preview has a picture: the site's card, 1200 x 630, which the server sends as a PNG.
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image');
    const image = (await meta('og:image').getAttribute('content'))!;
    expect(new URL(image).pathname).toBe('/og-card.png');
    await expect(meta('og:image:width')).toHaveAttribute('content', '1200');
    await expect(meta('og:image:height')).toHaveAttribute('content', '630');
    await expect(meta('og:image:alt')).toHaveAttribute('content', /Pacific Crest Law Group/);
    const card = await page.request.get(new URL(image).pathname);
    expect(card.headers()['content-type']).toBe('image/png');
    // The news feed is found from every page.
    await expect(page.locator('link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute('href', '/rss.xml');
    await expect(page.locator('meta[name="robots"]')).toHaveCount(0);

    // /theme.css comes after the main stylesheet in the document; the light defaults are `:where(:root)`
    // so the site theme wins whatever the order (accessibility.spec.ts judges its colours).
    await expect(page.locator('link[rel="stylesheet"][href="/theme.css"]')).toHaveCount(1);
    // Where the page sits, for search engines: a BreadcrumbList from Home to this page.
    const trail = (await jsonLd(page)).find((d) => d['@type'] === 'BreadcrumbList') as { itemListElement: { name: string; item: string }[] } | undefined;
    expect(trail?.itemListElement[0]?.name, p.path).toBe('Home');
    expect(new URL(trail!.itemListElement.at(-1)!.item).pathname, p.path).toBe(p.path);
    // No two landmarks of a kind share a name (a screen reader's list of regions tells them apart).
    const landmarks = await page.evaluate(() =>
      [...document.querySelectorAll('section[aria-labelledby], section[aria-label], nav, aside')].map((el) => {
        const ids = el.getAttribute('aria-labelledby')?.split(/\s+/) ?? [];
        const name = el.getAttribute('aria-label') ?? ids.map((id) => document.getElementById(id)?.textContent?.trim() ?? '').join(' ');
        return `${el.tagName.toLowerCase()}: ${name}`;
      }),
    );
    expect(
      landmarks.filter((name, i) => landmarks.indexOf(name) !== i),
      p.path,
    ).toEqual([]);
    // Static pages ship no framework: the header's menus are plain HTML and one small module.
    await expect(page.locator('astro-island')).toHaveCount(0);
  }
  expect(titles.size).toBe(pages.length);
  expect(descriptions.size).toBe(pages.length);
  console.expectNone();
});

test('/about: story, mission, values, office, hours, directions and the LegalService data', async ({ page }, info) => {
  const console = watchConsole(page);
  await page.goto('/about');
  for (const heading of ['Our story', 'Our mission', 'Our values', 'Visit our office']) {
    await expect(main(page).getByRole('heading', { level: 2, name: heading })).toBeVisible();
  }
  await expect(main(page).getByRole('heading', { level: 3 })).toHaveText(['Respect', 'Plain language', 'Responsiveness', 'Preparation']);
  await expect(main(page)).toContainText('25+');
  await expect(main(page)).toContainText('4.9/5');
  await expect(main(page).locator('address')).toContainText(firmAddressLine);
  // SPEC §2 /about: the hours, word for word.
  await expect(main(page)).toContainText('Mon-Fri 8:00 AM-6:00 PM, Saturday by appointment');

  // Get Directions opens a maps service in a new tab, without giving it a handle on this page.
  const directions = main(page).getByRole('link', { name: /Get Directions/ });
  await expect(directions).toHaveAccessibleName('Get Directions (opens in a new tab)');
  await expect(directions).toHaveAttribute('target', '_blank');
  await expect(directions).toHaveAttribute('rel', /\bnoopener\b/);
  const href = new URL((await directions.getAttribute('href'))!);
  expect(href.origin).toBe('https://www.google.com');
  expect(href.pathname).toBe('/maps/dir/');
  expect(href.searchParams.get('destination')).toContain(firmAddressLine);
  await expect(
    main(page)
      .getByRole('link', { name: `Call ${firm.phone}` })
      .first(),
  ).toHaveAttribute('href', firm.phoneHref);
  await expectBookingLinks(page);

  const [business, ...rest] = (await jsonLd(page)).filter((d) => d['@type'] !== 'BreadcrumbList');
  expect(rest).toEqual([]);
  expect(business).toMatchObject({
    '@context': 'https://schema.org',
    '@type': 'LegalService',
    name: firm.name,
    telephone: '+16195550123',
    openingHours: 'Mo-Fr 08:00-18:00',
    areaServed: { '@type': 'AdministrativeArea', name: 'San Diego County' },
    address: {
      '@type': 'PostalAddress',
      streetAddress: firm.address.street,
      addressLocality: firm.address.city,
      addressRegion: firm.address.region,
      postalCode: firm.address.postalCode,
      addressCountry: 'US',
    },
  });
  await screenshot(page, info, 'about');
  console.expectNone();
});

test('/attorneys: two profiles with title, bio, education, specialties, rating and recognition', async ({ page }, info) => {
  const console = watchConsole(page);
  await page.goto('/attorneys');
  const profiles = main(page).getByRole('article');
  await expect(profiles).toHaveCount(2);
  for (const [i, attorney] of firm.attorneys.entries()) {
    const profile = profiles.nth(i);
    await expect(profile).toHaveAttribute('id', attorney.slug);
    await expect(profile.getByRole('heading', { level: 2 })).toHaveText(attorney.name);
    await expect(profile).toContainText(attorney.title);
    expect((await profile.locator('p').allTextContents()).join(' ').length).toBeGreaterThan(400);
    await expect(profile.getByRole('heading', { level: 3 })).toHaveText(['Practice focus', 'Education and admissions', 'Recognition and community']);
    await expect(profile).toContainText('J.D.');
    await expect(profile).toContainText('State Bar of California');
    expect(
      await profile
        .getByRole('region', { name: /^Practice focus/ })
        .getByRole('listitem')
        .count(),
    ).toBeGreaterThanOrEqual(4);
    await expect(profile).toContainText('4.9/5');
    expect(
      await profile
        .getByRole('region', { name: /^Recognition and community/ })
        .getByRole('listitem')
        .count(),
    ).toBeGreaterThanOrEqual(2);
  }
  await expect(main(page)).toContainText('do not guarantee, warrant or predict the outcome');
  await expect(main(page)).toContainText('25+ years');

  const people = (await jsonLd(page)).filter((d) => d['@type'] === 'Person');
  expect(people).toHaveLength(2);
  for (const [i, attorney] of firm.attorneys.entries()) {
    expect(people[i]).toMatchObject({
      '@type': 'Person',
      name: attorney.name,
      jobTitle: attorney.title,
      hasOccupation: { '@type': 'Occupation', name: 'Attorney' },
      worksFor: { '@type': 'LegalService', name: firm.name },
    });
  }
  await expectBookingLinks(page);
  await screenshot(page, info, 'attorneys');
  console.expectNone();
});

test('/practice-areas: three cards inside the practice_areas component', async ({ page }, info) => {
  const console = watchConsole(page);
  await page.goto('/practice-areas');
  const component = page.locator('[data-component="practice_areas"]');
  await expect(component).toBeVisible();
  await expect(component.getByRole('heading', { level: 3 })).toHaveText(['Family Law', 'Estate Planning', 'Trust Administration']);
  await expect(component.getByRole('link', { name: 'Explore Family Law' })).toHaveAttribute('href', '/practice-areas/family-law');
  await expect(component.getByRole('link', { name: 'Explore Estate Planning' })).toHaveAttribute('href', '/practice-areas/estate-planning');
  await expect(component.getByRole('link', { name: 'Ask about Trust Administration' })).toHaveAttribute('href', '/contact?service=trust-administration');
  await expect(component.locator('#trust-administration')).toContainText('successor trustees');
  await expect(main(page).getByRole('link', { name: 'Try the Probate Calculator' })).toHaveAttribute('href', '/probate-calculator');
  await expectBookingLinks(page);
  await screenshot(page, info, 'practice-areas');

  // The cards' links reach their pages.
  await component.getByRole('link', { name: 'Explore Family Law' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(pages[3].h1);
  await page.goBack();
  await component.getByRole('link', { name: 'Explore Estate Planning' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(pages[4].h1);
  console.expectNone();
});

/** The five numbered steps of a practice-area page, as an ordered list. */
async function expectFiveSteps(page: Page) {
  const process = main(page).getByRole('region', { name: 'Our five-step process' });
  const steps = process.getByRole('list').getByRole('listitem');
  await expect(steps).toHaveCount(5);
  expect(await process.locator('ol').count()).toBe(1);
  for (let i = 0; i < 5; i++) await expect(steps.nth(i).getByRole('heading', { level: 3 })).toContainText(`Step ${i + 1}:`);
}

test('/practice-areas/family-law: services, the five-step process and a call to action', async ({ page }, info) => {
  const console = watchConsole(page);
  await page.goto('/practice-areas/family-law');
  const services = main(page).getByRole('region', { name: 'Family law services' }).getByRole('listitem');
  await expect(services).toHaveCount(8);
  for (const name of ['Divorce and legal separation', 'Child custody and visitation', 'Child support', 'Spousal support', 'Property and debt division']) {
    await expect(services.getByRole('heading', { name, exact: true })).toBeVisible();
  }
  await expectFiveSteps(page);
  await expect(main(page)).toContainText('general information, not legal advice');
  const cta = main(page).getByRole('region', { name: 'Talk with a family law attorney' });
  await expect(cta).toContainText(firm.attorneys[1].name);
  await expect(cta).toContainText('does not create an attorney-client relationship');
  await expect(cta.getByRole('link', { name: `Call ${firm.phone}` })).toHaveAttribute('href', firm.phoneHref);
  await expectBookingLinks(page);
  await screenshot(page, info, 'family-law');
  console.expectNone();
});

test('/practice-areas/estate-planning: services, probate versus living trust, the process and the calculator', async ({ page }, info) => {
  const console = watchConsole(page);
  await page.goto('/practice-areas/estate-planning');
  const services = main(page).getByRole('region', { name: 'Estate planning services' }).getByRole('listitem');
  await expect(services).toHaveCount(8);
  await expect(services.getByRole('heading', { name: 'Revocable living trusts' })).toBeVisible();

  const aspects = ['Court involvement', 'Typical timeline', 'Typical cost', 'Privacy', 'If you become incapacitated', 'Property in other states'];
  if (info.project.name === 'phone') {
    // Phones: one card per aspect, probate and living trust one under the other (no sideways scrolling).
    await expect(main(page).getByRole('table')).toBeHidden();
    const cards = main(page).getByRole('list', { name: 'Probate compared with a living trust in California' }).getByRole('listitem');
    await expect(cards.getByRole('heading', { level: 3 })).toHaveText(aspects);
    await expect(cards.filter({ hasText: 'Typical timeline' })).toContainText('12-18 months');
    await expect(cards.filter({ hasText: 'Typical cost' })).toContainText('4-7% of the estate');
    for (const card of await cards.all()) await expect(card.locator('dt')).toHaveText(['Probate', 'Living trust']);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
  } else {
    const table = main(page).getByRole('table', { name: 'Probate compared with a living trust in California' });
    await expect(table.getByRole('columnheader')).toHaveText(['Aspect', 'Probate', 'Living trust']);
    await expect(table.getByRole('rowheader')).toHaveText(aspects);
    // SPEC §1's claims: probate costing 4-7% and taking 12-18 months.
    await expect(table.getByRole('row', { name: /Typical timeline/ })).toContainText('12-18 months');
    await expect(table.getByRole('row', { name: /Typical cost/ })).toContainText('4-7% of the estate');
  }

  await expectFiveSteps(page);
  const calculatorLinks = main(page).locator('a[href="/probate-calculator"]');
  expect(await calculatorLinks.count()).toBeGreaterThanOrEqual(2);
  await expect(main(page).getByRole('link', { name: 'Open the Probate Calculator' })).toBeVisible();
  await expect(main(page)).toContainText('estimate, not legal advice');
  await expectBookingLinks(page);
  await screenshot(page, info, 'estate-planning');
  console.expectNone();
});

test('the pages make no prohibited claims (Cal. RPC 7.1, 7.4)', async ({ page }) => {
  for (const p of pages) {
    await page.goto(p.path);
    const text = (await main(page).innerText()).toLowerCase().replace(/\s+/g, ' ');
    // "best interests" (of the child) is the legal standard, not a claim.
    for (const claim of [/\bbest\b(?! interests?)/, /specialist/, /\bexpert/, /\bwe will win\b/, /\bno\. ?1\b/, /\btop[- ]rated\b/, /\bleading\b/]) {
      expect(text.match(claim)?.[0], `${p.path}: ${claim}`).toBeUndefined();
    }
    // "guarantee" only ever appears in a sentence that denies one.
    for (const m of text.matchAll(/guarantee/g)) {
      expect(text.slice(Math.max(0, m.index - 30), m.index), `${p.path}: "guarantee" at ${m.index}`).toMatch(/(do not|cannot|can) $|no attorney can $/);
    }
  }
});

test('/privacy says what each form collects, why, how long it is kept, who receives it, how to ask for deletion, and Do Not Track', async ({ page }, info) => {
  const console = watchConsole(page);
  await page.goto('/privacy');
  const content = main(page);
  await expect(content.getByText(/^Effective /)).toBeVisible();
  for (const heading of [
    'What we collect, and why',
    'Who receives it',
    'How long we keep it',
    'Your choices and rights',
    'Cookies, storage and Do Not Track',
    'Confidentiality and legal advice',
    'How to reach us',
  ]) {
    await expect(content.getByRole('heading', { level: 2, name: heading })).toBeVisible();
    // The contents list links to each section.
    await expect(content.getByRole('navigation', { name: 'On this page' }).getByRole('link', { name: heading })).toHaveAttribute('href', /^#/);
  }
  const table = content.getByRole('table', { name: 'What each part of the website collects, and why' });
  for (const row of ['Contact form', 'Booking a consultation', 'Probate calculator', 'Every visit'])
    await expect(table.getByRole('rowheader', { name: new RegExp(row) })).toBeVisible();
  await expect(content.getByRole('link', { name: firm.email }).first()).toHaveAttribute('href', /^mailto:/);
  await expect(content).toContainText('Do Not Track');
  await expect(content).toContainText('We do not sell');
  await screenshot(page, info, 'privacy');

  // The contact form's consent line links here, in a new tab.
  await page.goto('/contact');
  const consent = page.locator('[data-component="contact_form"]').getByRole('link', { name: /privacy policy/ });
  await expect(consent).toHaveAttribute('href', '/privacy');
  await expect(consent).toHaveAttribute('target', '_blank');
  console.expectNone();
});

test('/terms: not legal advice, no attorney-client relationship before an engagement letter, advertising, the calculator, California law', async ({
  page,
}, info) => {
  const console = watchConsole(page);
  await page.goto('/terms');
  const content = main(page);
  for (const heading of [
    'General information, not legal advice',
    'No attorney-client relationship',
    'Attorney advertising',
    'The probate calculator',
    'California law',
  ]) {
    await expect(content.getByRole('heading', { level: 2, name: heading })).toBeVisible();
  }
  await expect(content).toContainText('engagement letter');
  await expect(content.getByRole('link', { name: 'Privacy Policy' }).first()).toHaveAttribute('href', '/privacy');
  await screenshot(page, info, 'terms');
  console.expectNone();
});

test('a phone number never breaks across lines: every tel: link is nowrap', async ({ page }) => {
  for (const path of ['/', '/about', '/contact']) {
    await page.goto(path);
    const links = page.locator('a[href^="tel:"]');
    expect(await links.count(), path).toBeGreaterThan(0);
    const wrapping = await links.evaluateAll((all) => all.filter((a) => getComputedStyle(a).whiteSpace !== 'nowrap').map((a) => a.outerHTML.slice(0, 120)));
    expect(wrapping, path).toEqual([]);
  }
});
