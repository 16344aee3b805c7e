/**
 * The shared chrome (SPEC §2 shared chrome, §4 Theme, §9 Theme): the sticky top bar and its links,
 * the phone link, the Schedule Consultation button, the theme menu (keyboard, direct choice, class on
 * <html>, localStorage, no flash after a reload), the mobile side menu (phone project) and the footer
 * with the attorney-advertising disclaimer (Cal. RPC 7.2(c), State Bar Formal Op. 2001-155).
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { firm, firmAddressLine } from '../../src/config/firm.ts';
import { expectNoAxeViolations, screenPath, screenshot, watchConsole } from '../support/e2e.ts';

const isPhone = (info: TestInfo) => info.project.name === 'phone';

/** SPEC §2: the top bar's links, in order. */
const nav = [
  { label: 'Home', href: '/' },
  { label: 'About', href: '/about' },
  { label: 'Attorneys', href: '/attorneys' },
  { label: 'Practice Areas', href: '/practice-areas' },
  { label: 'Calculator', href: '/probate-calculator' },
  { label: 'News', href: '/blog' },
  { label: 'Contact', href: '/contact' },
];
/** The pages of this chrome owner, each with its <h1>: followed by clicking; the others by href. */
const ownPages: Record<string, RegExp> = {
  '/about': /San Diego firm for families/,
  '/attorneys': /attorneys you will work with/,
  '/practice-areas': /How we help San Diego families/,
};

const header = (page: Page) => page.getByRole('banner');
/** The bar's link row: shown from md up (the phone uses the side menu), so found by CSS, hidden or not. */
const mainNav = (page: Page) => page.locator('header nav[aria-label="Main"]');
const navLink = (page: Page, label: string) => mainNav(page).locator('a', { hasText: new RegExp(`^${label}$`) });
const themeButton = (page: Page) => page.getByRole('button', { name: 'Toggle theme' });
const menuButton = (page: Page) => page.getByRole('button', { name: 'Open menu' });
const item = (page: Page, name: string) => page.getByRole('menuitemradio', { name });

/**
 * The header's menus are plain HTML made to work by a small module (header-menus.ts), which marks each
 * one `data-ready` once it runs: right after the page is parsed, with no framework to wait for.
 */
async function ready(page: Page, control: ReturnType<Page['getByRole']>) {
  await expect(page.locator('[data-theme-menu][data-ready], dialog#side-menu[data-ready]').first()).toBeAttached();
  await expect(control).toBeVisible();
}

test.describe('top bar', () => {
  test('shows every SPEC link in order with its target, and marks the current page', async ({ page }, info) => {
    const console = watchConsole(page);
    await page.goto('/attorneys');
    const links = mainNav(page).locator('a');
    // The bar's links are the desktop row; the phone reaches the same list through the side menu.
    if (!isPhone(info)) await expect(mainNav(page)).toBeVisible();
    else await expect(mainNav(page)).toBeHidden();
    await expect(links).toHaveCount(nav.length);
    for (const [i, item] of nav.entries()) {
      await expect(links.nth(i)).toHaveText(item.label);
      await expect(links.nth(i)).toHaveAttribute('href', item.href);
    }
    await expect(links.filter({ hasText: 'Attorneys' })).toHaveAttribute('aria-current', 'page');
    await expect(mainNav(page).locator('[aria-current]')).toHaveCount(1);

    // A page inside a section marks the section (not as "page").
    await page.goto('/practice-areas/family-law');
    await expect(navLink(page, 'Practice Areas')).toHaveAttribute('aria-current', 'true');
    await expect(mainNav(page).locator('[aria-current]')).toHaveCount(1);
    await page.goto('/');
    await expect(navLink(page, 'Home')).toHaveAttribute('aria-current', 'page');
    console.expectNone();
  });

  test('its links reach their pages', async ({ page }, info) => {
    test.skip(isPhone(info), 'the phone follows the same links through the side menu (below)');
    const console = watchConsole(page);
    await page.goto('/');
    for (const [href, h1] of Object.entries(ownPages)) {
      await navLink(page, nav.find((n) => n.href === href)!.label).click();
      await expect(page).toHaveURL(new RegExp(`${href}/?$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(h1);
    }
    await navLink(page, 'Home').click();
    await expect(page).toHaveURL(/\/$/);
    console.expectNone();
  });

  test('is sticky, calls the office and offers Schedule Consultation', async ({ page }, info) => {
    const console = watchConsole(page);
    await page.goto('/practice-areas/estate-planning');
    const phone = header(page).getByRole('link', { name: firm.phone });
    await expect(phone).toBeVisible();
    await expect(phone).toHaveAttribute('href', firm.phoneHref);

    // Booking rule: a link to /contact marked as the booking trigger and the consultation_booking component.
    const schedule = isPhone(info) ? null : header(page).getByRole('link', { name: 'Schedule Consultation' });
    if (schedule) {
      await expect(schedule).toBeVisible();
      await expect(schedule).toHaveAttribute('href', '/contact');
      await expect(schedule).toHaveAttribute('data-booking-trigger', '');
      await expect(schedule).toHaveAttribute('data-component', 'consultation_booking');
    }

    await page.mouse.wheel(0, 2500);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    const box = await header(page).boundingBox();
    expect(box?.y).toBe(0);
    await expect(phone).toBeInViewport();
    await screenshot(page, info, 'chrome-sticky-header', { fullPage: false });
    console.expectNone();
  });
});

test.describe('theme menu', () => {
  const htmlClass = (page: Page) => page.evaluate(() => document.documentElement.className);
  const stored = (page: Page) => page.evaluate(() => localStorage.getItem('vite-ui-theme'));

  /** Opens the menu from the keyboard and checks which mode it shows as current. */
  async function openByKeyboard(page: Page, current: 'Light' | 'Dark' | 'Warm') {
    await themeButton(page).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menu')).toBeVisible();
    for (const name of ['Light', 'Dark', 'Warm']) {
      await expect(item(page, name)).toHaveAttribute('aria-checked', String(name === current));
      await expect(item(page, name)).toHaveAttribute('data-state', name === current ? 'checked' : 'unchecked');
    }
  }

  test('starts light, then Dark, Warm and Light are each chosen directly by keyboard', async ({ page }, info) => {
    const console = watchConsole(page);
    await page.goto('/about');
    expect(await htmlClass(page)).toBe('');
    expect(await stored(page)).toBeNull();
    await ready(page, themeButton(page));

    // Light -> Dark: arrow down from the first item.
    await openByKeyboard(page, 'Light');
    await expect(item(page, 'Light')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(item(page, 'Dark')).toBeFocused();
    await page.keyboard.press('Space');
    await expect(page.getByRole('menu')).toBeHidden();
    await expect(themeButton(page)).toBeFocused();
    expect(await htmlClass(page)).toBe('dark');
    expect(await stored(page)).toBe('dark');

    // Dark -> Warm: typeahead straight to it.
    await openByKeyboard(page, 'Dark');
    await screenshot(page, info, 'chrome-theme-menu-dark', { fullPage: false });
    await page.keyboard.press('w');
    await expect(item(page, 'Warm')).toBeFocused();
    await page.keyboard.press('Enter');
    expect(await htmlClass(page)).toBe('warm');
    expect(await stored(page)).toBe('warm');

    // Warm -> Light, with the pointer this time.
    await openByKeyboard(page, 'Warm');
    await item(page, 'Light').click();
    await expect(page.getByRole('menu')).toBeHidden();
    expect(await htmlClass(page)).toBe('');
    expect(await stored(page)).toBe('light');

    // Escape closes without changing anything.
    await openByKeyboard(page, 'Light');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toBeHidden();
    await expect(themeButton(page)).toBeFocused();
    expect(await stored(page)).toBe('light');
    console.expectNone();
  });

  test('the stored choice applies on every page before the first paint, with no flash', async ({ page }) => {
    const console = watchConsole(page);
    // Records every change of the class of <html> and whether <body> existed yet. The inline script
    // runs in <head>, and the microtask checkpoint after it delivers the record while the parser is
    // still there: so `body: false` means the class was set before anything could be painted.
    await page.addInitScript(() => {
      const trace: { className: string; body: boolean }[] = [];
      (window as unknown as { __themeTrace: typeof trace }).__themeTrace = trace;
      new MutationObserver((records) => {
        for (const r of records) {
          if (r.target === document.documentElement) trace.push({ className: document.documentElement.className, body: Boolean(document.body) });
        }
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['class'] });
    });
    await page.goto('/about');
    await ready(page, themeButton(page));
    await themeButton(page).click();
    await item(page, 'Warm').click();
    expect(await htmlClass(page)).toBe('warm');

    for (const path of ['/about', '/attorneys', '/practice-areas/family-law']) {
      await page.goto(path);
      await ready(page, themeButton(page));
      const trace = await page.evaluate(() => (window as unknown as { __themeTrace: unknown[] }).__themeTrace);
      expect(trace, `changes of the class of <html> on ${path}`).toEqual([{ className: 'warm', body: false }]);
      // The warm palette is what is painted.
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe(
        await page.evaluate(() => {
          const probe = document.createElement('div');
          probe.style.color = 'hsl(38 45% 95%)';
          document.body.append(probe);
          const c = getComputedStyle(probe).color;
          probe.remove();
          return c;
        }),
      );
      await themeButton(page).click();
      await expect(item(page, 'Warm')).toHaveAttribute('aria-checked', 'true');
      await page.keyboard.press('Escape');
    }
    console.expectNone();
  });

  test('an unknown stored value falls back to light', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('vite-ui-theme', 'purple'));
    await page.goto('/about');
    await ready(page, themeButton(page));
    expect(await htmlClass(page)).toBe('');
    await themeButton(page).click();
    await expect(item(page, 'Light')).toHaveAttribute('aria-checked', 'true');
  });
});

test.describe('menus on a slow phone', () => {
  /** A phone with its CPU slowed 4x and a slow mobile network (Lighthouse's slow 4G: 150 ms, 1.6 Mbit/s). */
  async function slowPhone(page: Page) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 200_000, uploadThroughput: 94_000 });
  }

  test('a tap on the theme button as soon as it shows opens the menu: none is lost', async ({ page }) => {
    const console = watchConsole(page);
    await slowPhone(page);
    await page.goto('/attorneys', { waitUntil: 'commit' });
    // As soon as the button is there, whatever else is still loading.
    await themeButton(page).click({ timeout: 30_000 });
    await expect(page.getByRole('menu')).toBeVisible({ timeout: 30_000 });
    await item(page, 'Dark').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.className)).toBe('dark');
    console.expectNone();
  });

  test('a tap on Open menu as soon as it shows opens the side menu', async ({ page }, info) => {
    test.skip(!isPhone(info), 'the side menu is shown below the md breakpoint');
    await slowPhone(page);
    await page.goto('/attorneys', { waitUntil: 'commit' });
    await menuButton(page).click({ timeout: 30_000 });
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible({ timeout: 30_000 });
  });
});

test.describe('open menus are accessible', () => {
  test('the open theme menu: no axe violations in any mode, and the page behind is not hidden from assistive technology', async ({ page }, info) => {
    await page.goto('/about');
    await ready(page, themeButton(page));
    for (const mode of ['Light', 'Dark', 'Warm'] as const) {
      await themeButton(page).click();
      await expect(page.getByRole('menu')).toBeVisible();
      await item(page, mode).click();
      await themeButton(page).click();
      await expect(page.getByRole('menu')).toBeVisible();
      await expect(page.locator('[aria-hidden="true"]:has(a, button)')).toHaveCount(0);
      await expectNoAxeViolations(page, { label: `theme menu open, ${mode}`, htmlcs: true });
      if (mode === 'Dark') await screenshot(page, info, 'chrome-theme-menu-open-dark', { fullPage: false });
      await page.keyboard.press('Escape');
    }
  });

  test('the open side menu: no axe violations', async ({ page }, info) => {
    test.skip(!isPhone(info), 'the side menu is shown below the md breakpoint');
    await page.goto('/about');
    await ready(page, menuButton(page));
    await menuButton(page).click();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
    await expectNoAxeViolations(page, { label: 'side menu open', htmlcs: true });
    await screenshot(page, info, 'chrome-side-menu-open', { fullPage: false });
    // A tap beside the sheet closes it.
    await page.mouse.click(10, 400);
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeHidden();
    await expect(menuButton(page)).toBeFocused();
  });
});

test.describe('mobile side menu', () => {
  test('is hidden on wide screens', async ({ page }, info) => {
    test.skip(isPhone(info), 'wide screens only');
    await page.goto('/about');
    await expect(menuButton(page)).toBeHidden();
  });

  test('opens with the same links, traps focus, closes on Escape and returns focus', async ({ page }, info) => {
    test.skip(!isPhone(info), 'the side menu is shown below the md breakpoint');
    const console = watchConsole(page);
    await page.goto('/attorneys');
    await expect(menuButton(page)).toBeVisible();
    await ready(page, menuButton(page));

    await menuButton(page).click();
    const dialog = page.getByRole('dialog', { name: 'Menu' });
    await expect(dialog).toBeVisible();
    const links = dialog.getByRole('navigation').getByRole('link');
    await expect(links).toHaveCount(nav.length);
    for (const [i, item] of nav.entries()) {
      await expect(links.nth(i)).toHaveText(item.label);
      await expect(links.nth(i)).toHaveAttribute('href', item.href);
    }
    await expect(links.filter({ hasText: 'Attorneys' })).toHaveAttribute('aria-current', 'page');
    await expect(dialog.getByRole('link', { name: firm.phone })).toHaveAttribute('href', firm.phoneHref);
    const schedule = dialog.getByRole('link', { name: 'Schedule Consultation' });
    await expect(schedule).toHaveAttribute('href', '/contact');
    await expect(schedule).toHaveAttribute('data-booking-trigger', '');
    await expect(schedule).toHaveAttribute('data-component', 'consultation_booking');
    await screenshot(page, info, 'chrome-mobile-menu', { fullPage: false });

    // Focus is trapped: tabbing round (forwards and backwards) never leaves the dialog.
    const stops = nav.length + 3;
    for (let i = 0; i < stops + 2; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(menuButton(page)).toBeFocused();

    // The close button closes it too, and a link leads to its page.
    await menuButton(page).click();
    await dialog.getByRole('button', { name: 'Close menu' }).click();
    await expect(dialog).toBeHidden();
    await expect(menuButton(page)).toBeFocused();
    await menuButton(page).click();
    await dialog.getByRole('link', { name: 'About' }).click();
    await expect(page).toHaveURL(/\/about\/?$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(ownPages['/about']!);
    console.expectNone();
  });
});

test.describe('footer', () => {
  test('has quick links, practice areas, legal items, the firm and the advertising disclaimer', async ({ page, request }, info) => {
    const console = watchConsole(page);
    await page.goto('/practice-areas');
    const footer = page.getByRole('contentinfo');

    const quick = footer.getByRole('navigation', { name: 'Quick Links' }).getByRole('link');
    await expect(quick).toHaveCount(nav.length);
    for (const [i, item] of nav.entries()) await expect(quick.nth(i)).toHaveAttribute('href', item.href);

    const areas = footer.getByRole('navigation', { name: 'Practice Areas' });
    await expect(areas.getByRole('link', { name: 'Family Law' })).toHaveAttribute('href', '/practice-areas/family-law');
    await expect(areas.getByRole('link', { name: 'Estate Planning' })).toHaveAttribute('href', '/practice-areas/estate-planning');
    await expect(areas.getByRole('link', { name: 'Trust Administration' })).toHaveAttribute('href', '/practice-areas#trust-administration');

    // Legal: no dead links. Pages that do not exist yet are plain text; the others lead somewhere real.
    const legal = footer.getByRole('navigation', { name: 'Legal' });
    for (const [name, href] of [
      ['Privacy Policy', '/privacy'],
      ['Terms of Service', '/terms'],
    ]) {
      await expect(legal.getByRole('link', { name, exact: true })).toHaveAttribute('href', href!);
      expect((await request.get(href!)).status(), href).toBe(200);
    }
    await expect(legal.getByRole('link', { name: 'Sitemap' })).toHaveAttribute('href', '/sitemap.xml');
    expect((await request.get('/sitemap.xml')).status()).toBe(200);
    await legal.getByRole('link', { name: 'Attorney Advertising' }).click();
    await expect(page).toHaveURL(/#attorney-advertising$/);
    const disclaimer = footer.locator('#attorney-advertising');
    await expect(disclaimer).toBeInViewport();

    // Cal. RPC 7.2(c): the responsible firm and its office address, with the disclaimer.
    await expect(disclaimer).toContainText('Attorney Advertising.');
    await expect(disclaimer).toContainText(`${firm.legalName}, ${firmAddressLine}`);
    await expect(disclaimer).toContainText('not legal advice');
    await expect(disclaimer).toContainText('does not create an attorney-client relationship');
    await expect(disclaimer).toContainText('do not guarantee a similar outcome');

    await expect(footer).toContainText(firm.name);
    await expect(footer.locator('address')).toContainText(firmAddressLine);
    await expect(footer.locator('address')).toContainText(firm.hours.weekdays);
    await expect(footer.locator('address')).toContainText(firm.hours.saturday);
    await expect(footer.getByRole('link', { name: firm.phone })).toHaveAttribute('href', firm.phoneHref);
    await expect(footer.getByRole('link', { name: firm.email })).toHaveAttribute('href', `mailto:${firm.email}`);
    await expect(footer).toContainText(`© ${new Date().getFullYear()} ${firm.legalName}`);
    // The sticky header would cover the top of the footer in an element screenshot.
    await footer.screenshot({ path: screenPath(info, 'chrome-footer'), style: 'header { position: static !important; }' });
    console.expectNone();
  });

  test('the skip link is the first stop and moves focus to the page', async ({ page }, info) => {
    test.skip(isPhone(info), 'keyboard navigation is checked at desktop width');
    await page.goto('/about');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.locator('main#main')).toBeFocused();
  });
});
