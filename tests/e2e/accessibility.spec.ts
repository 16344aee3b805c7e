/**
 * One accessibility crawl over the built site (WCAG 2.2 AA with axe, STYLE): every public page (the
 * site's own route list, as the sitemap and the bench use it), an article, the sign-in page and both
 * not-found pages, at desktop and at phone width, in full in light mode and, by the rules a mode can
 * change (its colours), in dark and warm (SPEC §4 Theme) at desktop width; then, for colour contrast, every built-in firm theme (SPEC §3) on the pages that show every
 * kind of component. Each page is judged once it has settled (islands hydrated, animations finished),
 * with no console error. The feature specs check with axe only what a crawl cannot reach: open dialogs
 * and menus, field messages, results, filters, and the admin screens.
 */
import { devices, expect, test, type Page, type TestInfo } from '@playwright/test';
import { publicRoutes } from '../../src/components/blog/public-routes.ts';
import type { Theme } from '../../src/components/chrome/theme-store.ts';
import type { PublicBlogPostSummary } from '../../src/shared/public-api.ts';
import { defaultThemeName, themeTemplates } from '../../src/shared/theme-templates.ts';
import { expectNoAxeViolations, expectNoAxeViolationsInEveryMode, screenshot, settled } from '../support/e2e.ts';

interface Visit {
  path: string;
  /** Screenshot name (E2E_SCREENSHOTS=1). */
  name: string;
  status: number;
}

/** The pages a visitor can land on: the public routes, an article, /login and the two not-found pages. */
async function sitePages(page: Page): Promise<Visit[]> {
  const [post] = (await (await page.request.get('/api/blog-posts')).json()) as PublicBlogPostSummary[];
  expect(post, 'the sample content has a published article').toBeTruthy();
  const named = (path: string) => path.replace(/^\//, '').replaceAll('/', '-') || 'home';
  return [
    ...publicRoutes.map((path) => ({ path, name: named(path), status: 200 })),
    { path: `/blog/${post!.slug}`, name: 'blog-article', status: 200 },
    { path: '/login', name: 'login', status: 200 },
    { path: '/no-such-page', name: '404', status: 404 },
    { path: '/blog/no-such-article-anywhere', name: 'blog-article-missing', status: 404 },
  ];
}

/**
 * Visits each page and runs axe on it once it has settled: in full in light mode and, with
 * `everyMode`, by the rules a visitor mode can change in dark and warm, on the same page
 * (expectNoAxeViolationsInEveryMode). A console error fails the page too (a not-found page may log
 * its own 404 only). `variant` names the width, if not the desktop's.
 */
async function crawl(page: Page, info: TestInfo, { everyMode, variant = '' }: { everyMode: boolean; variant?: string }) {
  // The phone project runs the layout specs; this spec takes the phone's screen itself (below).
  test.skip(info.project.name !== 'desktop', 'the desktop project crawls at both widths');
  test.setTimeout(480_000); // fourteen pages, each analysed in full (some 20 s each on a busy machine)
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  for (const visit of await sitePages(page)) {
    errors.length = 0;
    const res = await page.goto(visit.path);
    expect(res?.status(), visit.path).toBe(visit.status);
    await settled(page);
    const label = [visit.path, variant].filter(Boolean).join(', ');
    const shot = (mode: Theme) =>
      screenshot(page, info, [visit.name, mode !== 'light' && mode, variant].filter(Boolean).join('-'), { fromTop: true, blur: true, unhover: true });
    if (everyMode) await expectNoAxeViolationsInEveryMode(page, { label, fromTop: true, each: shot, htmlcs: true });
    else {
      await expectNoAxeViolations(page, { label, fromTop: true, htmlcs: true });
      await shot('light');
    }
    const unexpected = errors.filter((e) => !(visit.status === 404 && e.includes('the server responded with a status of 404')));
    expect(unexpected, `console errors on ${visit.path}`).toEqual([]);
  }
}

/** A phone's screen, touch and user agent (a describe may set context options, not the browser type). */
const { defaultBrowserType: _browser, ...phone } = devices['Pixel 7'];

for (const [width, use] of [
  ['desktop', {}],
  ['phone', phone],
] as const) {
  test.describe(`at ${width} width`, () => {
    test.use(use);
    // At desktop width in every visitor mode (in full in light, by the colour rules in dark and
    // warm); at phone width in light mode only: colours do not depend on the width, and the phone
    // layout is the same in each mode.
    test(`every page has no WCAG 2.2 AA violations${width === 'desktop' ? ' in any visitor mode' : ''}`, async ({ page }, info) => {
      await crawl(page, info, { everyMode: width === 'desktop', variant: width === 'phone' ? 'phone' : '' });
    });
  });
}

// The firm's theme sets the palettes visitors choose among (/theme.css: its light colours on :root,
// its dark and warm ones on :root.dark / :root.warm, decision 031), and only its colours bear on
// WCAG: each built-in theme's every palette is put on the pages that show every kind of component (as
// /theme.css would: the root's variables, set in place with the variant's class, so no other spec sees
// it) and judged for colour contrast, at desktop width.
test.describe('each built-in firm theme', () => {
  const palettes = themeTemplates.flatMap((template) => {
    const { dark, warm, ...light } = template.cssVariables;
    const all: [Theme, Record<string, string>][] = [['light', light]];
    if (dark) all.push(['dark', { ...light, ...dark }]);
    if (warm) all.push(['warm', { ...light, ...warm }]);
    // Professional Blue's palettes are the site's own, judged by the crawl above in every mode.
    return template.name === defaultThemeName ? [] : all.map(([mode, variables]) => ({ template, mode, variables }));
  });
  // Between them these show every kind of component a theme colours (the blog's cards are on the home page too).
  for (const path of ['/', '/contact', '/login']) {
    test(`${path} has no colour-contrast violation in any built-in theme, in any of its variants`, async ({ page }, info) => {
      test.skip(info.project.name !== 'desktop', 'colours do not depend on the width');
      test.setTimeout(600_000); // one contrast run per palette
      await page.goto(path);
      await settled(page);
      for (const { template, mode, variables } of palettes) {
        const label = `${template.displayName}${mode === 'light' ? '' : ` (${mode})`}`;
        const [worn, meant] = await page.evaluate(
          ({ variables, mode }) => {
            document.documentElement.className = mode === 'light' ? '' : mode;
            for (const [key, value] of Object.entries(variables)) document.documentElement.style.setProperty(`--${key}`, value);
            const probe = document.createElement('div');
            probe.style.backgroundColor = `hsl(${variables.background})`;
            document.body.append(probe);
            const colours = [getComputedStyle(document.body).backgroundColor, getComputedStyle(probe).backgroundColor];
            probe.remove();
            return colours;
          },
          { variables, mode },
        );
        expect(worn, `the page wears ${label}`).toBe(meant);
        await expectNoAxeViolations(page, { label: `${path} in ${label}`, fromTop: true, rules: ['color-contrast'], htmlcs: true });
        await screenshot(page, info, `${path.slice(1) || 'home'}-${template.name}${mode === 'light' ? '' : `-${mode}`}`, {
          fromTop: true,
          blur: true,
          unhover: true,
        });
      }
    });
  }
});
