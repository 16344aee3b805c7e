/**
 * Response hardening, against the built site: the security headers on every kind of
 * response (pages, a stored article, the admin shell, a 404, /theme.css, static files, the API), and
 * the Content-Security-Policy in Chromium: every public route, /login and the admin (signed in) run
 * without a single violation, opening the booking modal, the theme menu, the calculator and an admin
 * dialog included; a script the build did not emit does not run. Desktop only: the headers and the
 * policy do not depend on the screen, and the phone project shares the server.
 * See docs/decisions/012-security-headers.md.
 */
import { createHash } from 'node:crypto';
import type { APIResponse, Page } from '@playwright/test';
import { publicRoutes } from '../../src/components/blog/public-routes.ts';
import { themeScript } from '../../src/components/chrome/theme-script.ts';
import { settled, watchConsole } from '../support/e2e.ts';
import { expect, openAdminScreen, test } from '../support/admin.ts';

// Desktop only (playwright.config.ts): headers and policy are the same on every screen.
const themeHash = `'sha256-${createHash('sha256').update(themeScript).digest('base64')}'`;

/** The directives of a Content-Security-Policy, by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/**
 * What every response must carry, whatever it is (decision 012). The site's own responses may be
 * framed by this origin (the admin's theme preview, decision 031); the API's by nothing.
 */
function expectHardened(res: APIResponse, label: string, { framedBy = "'none'" }: { framedBy?: "'none'" | "'self'" } = {}) {
  const h = res.headers();
  expect(h['x-content-type-options'], label).toBe('nosniff');
  expect(h['referrer-policy'], label).toBe('same-origin');
  expect(h['x-frame-options'], label).toBe(framedBy === "'self'" ? 'SAMEORIGIN' : 'DENY');
  expect(h['cross-origin-opener-policy'], label).toBe('same-origin');
  for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'browsing-topics'])
    expect(h['permissions-policy'], label).toContain(`${feature}=()`);
  expect(h['x-powered-by'], label).toBeUndefined();
  expect(h['set-cookie'], label).toBeUndefined();
  // Plain http here: HSTS only ever goes out over HTTPS.
  expect(h['strict-transport-security'], label).toBeUndefined();
  const csp = directives(h['content-security-policy'] ?? '');
  expect(csp.get('frame-ancestors'), label).toEqual([framedBy]);
  expect(csp.get('object-src') ?? csp.get('default-src'), label).toEqual(["'none'"]);
  return csp;
}

/**
 * A page's policy: scripts from this origin and by hash only, the theme script's hash among them. The
 * admin and the sign-in page may be framed by nothing; the public pages by this origin (the theme preview).
 */
function expectPagePolicy(res: APIResponse, label: string) {
  const path = new URL(res.url()).pathname;
  const csp = expectHardened(res, label, { framedBy: /^\/(admin|login)(\/|$)/.test(path) ? "'none'" : "'self'" });
  expect(csp.get('default-src'), label).toEqual(["'self'"]);
  const scripts = csp.get('script-src') ?? [];
  expect(scripts[0], label).toBe("'self'");
  expect(
    scripts.slice(1).every((s) => /^'sha256-[A-Za-z0-9+/]+=*'$/.test(s)),
    `${label}: ${scripts.join(' ')}`,
  ).toBe(true);
  expect(scripts, label).toContain(themeHash);
  for (const name of ['script-src-elem', 'script-src-attr']) expect(csp.has(name), label).toBe(false);
  expect(csp.get('base-uri'), label).toEqual(["'self'"]);
  expect(csp.get('form-action'), label).toEqual(["'self'"]);
  expect(csp.get('connect-src'), label).toEqual(["'self'"]);
  expect(csp.get('img-src'), label).toEqual(expect.arrayContaining(["'self'", 'data:', 'https:']));
}

test.describe('security headers', () => {
  test('every kind of response carries them: pages, a stored article, the admin shell, a 404, theme.css, static files, the API', async ({ request }, info) => {
    const posts = (await (await request.get('/api/blog-posts')).json()) as { slug: string }[];
    expect(posts.length, 'the sample content has published articles').toBeGreaterThan(0);
    const pages: [string, number][] = [
      ['/', 200],
      [`/blog/${posts[0]!.slug}`, 200],
      ['/contact', 200],
      ['/login', 200],
      ['/admin', 200],
      ['/admin/no-such-screen', 404],
      ['/no-such-page', 404],
      ['/blog/no-such-article', 404],
    ];
    let asset = '';
    for (const [path, status] of pages) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(status);
      expect(res.headers()['content-type'], path).toContain('text/html');
      expectPagePolicy(res, path);
      asset ||= /<script type="module" src="(\/_astro\/[^"]+\.js)"/.exec(await res.text())?.[1] ?? '';
    }
    // A conditional request (304) and a HEAD keep them too.
    const home = await request.get('/');
    const etag = home.headers()['etag']!;
    const revalidated = await request.get('/', { headers: { 'if-none-match': etag } });
    expect(revalidated.status()).toBe(304);
    expectPagePolicy(revalidated, '/ (304)');
    expectPagePolicy(await request.head('/about'), 'HEAD /about');

    expect(asset, 'a page loads a bundled module').not.toBe('');
    for (const path of ['/theme.css', '/favicon.svg', '/robots.txt', '/rss.xml', '/sitemap.xml', asset]) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(200);
      expectPagePolicy(res, path);
    }

    // The API: JSON only, so nothing may load or run in it at all.
    for (const [path, status] of [
      ['/api/blog-posts', 200],
      ['/api/health', 200],
      ['/api/no-such-endpoint', 404],
      ['/api/admin/testimonials', 401],
    ] as const) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(status);
      const csp = expectHardened(res, path);
      expect(csp.get('default-src'), path).toEqual(["'none'"]);
      expect(res.headers()['cross-origin-resource-policy'], path).toBe('same-origin');
    }
    const refused = await request.post('/api/contact', { data: '{"not json', headers: { 'content-type': 'application/json' } });
    expect(refused.status()).toBe(400);
    expectHardened(refused, 'POST /api/contact (malformed)');

    // A forged X-Forwarded-Proto cannot make this http site announce HSTS (SITE_URL is http here).
    const forged = await request.get('/', { headers: { 'x-forwarded-proto': 'https' } });
    expect(forged.headers()['strict-transport-security']).toBeUndefined();
  });
});

/** Records every CSP violation of the page's documents (reported by the browser itself, whatever caused it). */
async function watchViolations(page: Page) {
  const violations: string[] = [];
  await page.exposeFunction('__cspViolation', (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation(v: string): void }).__cspViolation(
        `${location.pathname}: ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} ${e.sample ? `(${e.sample})` : ''} at ${e.sourceFile}:${e.lineNumber}`,
      );
    });
  });
  page.on('console', (msg) => {
    // The browser's own words for a refusal, and for a Permissions-Policy feature it does not know.
    if (/Content Security Policy|Permissions-Policy/.test(msg.text())) violations.push(`console ${msg.type()}: ${msg.text()}`);
  });
  return violations;
}

test.describe('Content-Security-Policy in the browser', () => {
  test('every public route and /login run with no violation; the theme script runs; the booking modal, theme menu and calculator work', async ({
    browser,
  }, info) => {
    test.setTimeout(120_000);
    // A visitor, not the signed-in admin of this file's fixture.
    const context = await browser.newContext({ baseURL: info.project.use.baseURL, storageState: undefined });
    const page = await context.newPage();
    const violations = await watchViolations(page);
    const console = watchConsole(page);
    // A stored dark choice: the inline theme script must run (by its hash) before first paint.
    await page.addInitScript(() => localStorage.setItem('vite-ui-theme', 'dark'));

    const posts = (await (await page.request.get('/api/blog-posts')).json()) as { slug: string }[];
    for (const path of [...publicRoutes, `/blog/${posts[0]!.slug}`, '/login', '/no-such-page']) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(path === '/no-such-page' ? 404 : 200);
      await settled(page);
      await expect(page.locator('html'), `${path}: the theme script ran`).toHaveClass(/\bdark\b/);
    }

    // The theme menu (plain HTML run by header-menus.ts, and the inline script that keeps early taps).
    await page.goto('/about');
    await settled(page);
    await page.getByRole('button', { name: 'Toggle theme' }).click();
    await page.getByRole('menuitemradio', { name: 'Warm' }).click();
    await expect(page.locator('html')).toHaveClass(/\bwarm\b/);

    // The booking modal (a Radix dialog: it locks the page's scroll with a <style> element), step 1 and 2.
    await page.goto('/');
    await settled(page);
    await page.getByRole('main').getByRole('link', { name: 'Schedule Consultation' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Schedule a Consultation' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Next month' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // The calculator: validation (zod) and a result.
    await page.goto('/probate-calculator');
    const calculator = page.locator('[data-component="probate_calculator"]');
    await expect(calculator.getByRole('button', { name: 'Calculate Costs' })).toBeEnabled();
    await calculator.getByRole('textbox', { name: 'Estate Value', exact: true }).pressSequentially('1000000');
    await calculator.getByRole('button', { name: 'Calculate Costs' }).click();
    await expect(page.getByTestId('calculator-results')).toBeVisible();

    expect(violations).toEqual([]);
    console.expectOnlyFailedRequests(404); // the unknown page
    await context.close();
  });

  test('the admin runs with no violation: every screen and a dialog', async ({ page }, info) => {
    test.setTimeout(120_000);
    const violations = await watchViolations(page);
    const console = watchConsole(page);
    for (const [path, heading] of [
      ['/admin', 'Admin Dashboard'],
      ['/admin/blog-posts', 'Blog Posts'],
      ['/admin/testimonials', 'Testimonials'],
      ['/admin/contact-submissions', undefined],
      ['/admin/appointments', 'Appointments'],
      ['/admin/integrations', 'Integrations'],
      ['/admin/component-visibility', undefined],
      ['/admin/migration', 'Data Migration'],
      ['/admin/themes', 'Themes'],
    ] as const) {
      await openAdminScreen(page, path, heading);
    }
    // A dialog (Radix: scroll lock), with the theme preview's inline colours.
    await page.getByRole('button', { name: 'Create Custom Theme' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Custom Theme' });
    await expect(dialog.getByLabel('Display name')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    expect(violations).toEqual([]);
    console.expectNone();
  });

  test('a script the build did not emit does not run, inline or as an event handler', async ({ browser }, info) => {
    const context = await browser.newContext({ baseURL: info.project.use.baseURL });
    const page = await context.newPage();
    const violations = await watchViolations(page);
    await page.goto('/contact');
    await settled(page);
    // What a stored-XSS payload would do once in the page: an inline <script>, an onerror handler.
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = "script"';
      document.body.append(script);
      document.body.insertAdjacentHTML('beforeend', '<img alt="" src="data:," onerror="window.__injected = \'handler\'">');
    });
    await expect.poll(() => violations.length).toBeGreaterThanOrEqual(2);
    expect(await page.evaluate(() => (window as unknown as { __injected?: string }).__injected)).toBeUndefined();
    expect(violations.some((v) => v.includes('script-src-elem'))).toBe(true);
    expect(violations.some((v) => v.includes('script-src-attr'))).toBe(true);
    await context.close();
  });
});
