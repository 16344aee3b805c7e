/**
 * The admin frame around every screen (SPEC §2 Admin routes; usable by keyboard and at
 * phone width): the navigation marks the current page, keyboard focus reaches the navigation and the
 * screen and is always visible, an unknown admin path shows SPEC's not-found screen, a signed-out
 * visitor is sent to /login, no admin screen scrolls sideways at phone width, and axe finds nothing.
 */
import type { Page } from '@playwright/test';
import { adminScreens } from '../../src/components/admin/admin-screens.ts';
import { expect, openAdminScreen, test } from '../support/admin.ts';
import { book, freeSlot } from '../support/appointment-requests.ts';
import { expectNoAxeViolations, screenshot, watchConsole } from '../support/e2e.ts';

const adminNav = (page: Page) => page.getByRole('navigation', { name: 'Admin' });
const screens = Object.entries(adminScreens);

/** What has keyboard focus, and whether a sighted keyboard user can see it. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    return {
      name: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim(),
      role: el.getAttribute('role') ?? el.tagName.toLowerCase(),
      inNav: !!el.closest('nav[aria-label="Admin"]'),
      inMain: !!el.closest('main'),
      ring: el.matches(':focus-visible') && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
      onScreen: box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < window.innerHeight && box.right > 0 && box.left < window.innerWidth,
    };
  });
}

test('the navigation lists every admin screen and marks the current one', async ({ page }) => {
  test.setTimeout(90_000); // every admin screen opened in turn, each loading its own code on a shared machine
  const consoleErrors = watchConsole(page);
  for (const [path, screen] of screens) {
    await openAdminScreen(page, path);
    const links = adminNav(page).getByRole('link');
    await expect(links).toHaveText(screens.map(([, s]) => s.nav));
    const current = adminNav(page).locator('[aria-current="page"]');
    await expect(current).toHaveCount(1);
    await expect(current).toHaveText(screen.nav);
    await expect(current).toHaveAttribute('href', path);
    await expect(page).toHaveTitle(new RegExp(`^${screen.title} \\|`));
    // The current screen's tab is in view inside the strip (on a phone the strip scrolls), and Sign
    // Out is on every screen: the dashboard's beside the greeting, the others' at the strip's end.
    const shown = await current.evaluate((link) => {
      const strip = link.closest('nav')!.getBoundingClientRect();
      const box = link.getBoundingClientRect();
      return box.left >= strip.left - 1 && box.right <= strip.right + 1;
    });
    expect(shown, `${screen.nav} is in view in the navigation`).toBe(true);
    await expect(page.getByRole('button', { name: 'Sign Out' })).toBeInViewport();
  }
  consoleErrors.expectNone();
});

test('keyboard: Tab goes from the skip link through the navigation into the screen, with focus always visible', async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await openAdminScreen(page, '/admin/component-visibility');
  await expect(page.getByRole('switch')).toHaveCount(8);

  await page.keyboard.press('Tab');
  const skip = await focused(page);
  expect(skip).toMatchObject({ name: 'Skip to content', ring: true, onScreen: true });

  const seen: NonNullable<Awaited<ReturnType<typeof focused>>>[] = [];
  for (let i = 0; i < 20; i += 1) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    expect(now, `Tab ${i + 1} lost focus`).not.toBeNull();
    expect(now!.ring, `focus ring on ${now!.name}`).toBe(true);
    expect(now!.onScreen, `${now!.name} scrolled into view`).toBe(true);
    seen.push(now!);
    if (now!.role === 'switch') break;
  }
  const navNames = seen.filter((f) => f.inNav).map((f) => f.name);
  expect(navNames).toEqual(screens.map(([, s]) => s.nav));
  const afterNav = seen.slice(seen.findLastIndex((f) => f.inNav) + 1);
  // Sign Out ends the navigation's row, then the screen.
  expect(afterNav.map((f) => f.name)).toEqual(['Sign Out', 'Back to Admin Dashboard', 'Client Testimonials: Visible']);
  expect(afterNav.slice(1).every((f) => f.inMain)).toBe(true);

  // The skip link skips the site header: the next Tab lands in the admin navigation.
  await page.keyboard.press('Shift+Tab');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('link', { name: 'Skip to content' }).focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  expect(await focused(page)).toMatchObject({ name: 'Dashboard', inNav: true, ring: true });
  consoleErrors.expectNone();
});

test("an unknown admin path shows '404 Page Not Found' inside the frame", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  const response = await openAdminScreen(page, '/admin/nope');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
  await expect(page).toHaveTitle(/^404 Page Not Found \|/);
  await expect(adminNav(page).locator('[aria-current]')).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.getByRole('link', { name: 'Back to Admin Dashboard' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  // The server answers the unknown path with a 404; Chromium logs that document load as a failed request.
  consoleErrors.expectOnlyFailedRequests(404);
});

test('the dashboard frame has no axe violations', async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await openAdminScreen(page, '/admin', 'Admin Dashboard');
  await expectNoAxeViolations(page);
  consoleErrors.expectNone();
});

test.describe('signed out', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('a visitor to /admin/themes is sent to /login', async ({ page }) => {
    const consoleErrors = watchConsole(page);
    await page.goto('/admin/themes');
    await page.waitForURL('**/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Portal Access' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
    consoleErrors.expectNone();
  });
});

// Last, as the brief asks: other screens may still be in progress. Each failing screen is reported by
// name (soft assertions), and the test fails if any does.
test('no admin screen scrolls sideways, at phone width or at this project’s own width', async ({ page, adminApi }) => {
  // Every screen at two widths: the time grows with the table of screens.
  test.setTimeout(30_000 + screens.length * 2 * 6_000);
  // What the public sends is not always made of short words: a message and a booking whose names are
  // one long word (the lists and their details must wrap them, not widen the page).
  const longWord = `Wolfeschlegelsteinhausenbergerdorff${Date.now()}`;
  const visitor = { firstName: longWord, lastName: longWord, email: `${longWord.toLowerCase()}@example.com`, phone: '', practiceArea: 'other' };
  const contact = await page.request.post('/api/contact', { data: { ...visitor, message: `${longWord} ${longWord}` } });
  expect(contact.status(), await contact.text()).toBe(201);
  const booking = await book(page.request, { ...visitor, consultationType: 'initial', notes: longWord, scheduledDate: await freeSlot(page.request) });
  const own = page.viewportSize()!;
  const widths = [...new Set([390, own.width])];
  const failures: string[] = [];
  for (const width of widths) {
    await page.setViewportSize({ width, height: own.height });
    for (const path of [...screens.map(([p]) => p), '/admin/nope']) {
      await openAdminScreen(page, path);
      // A lazily loaded screen may still be drawing its list: let the network settle first.
      await page.waitForLoadState('networkidle');
      const { scrollWidth, innerWidth, widest } = await page.evaluate(() => {
        const limit = document.documentElement.clientWidth;
        // The element that sticks out furthest, to name in the report: fixed boxes and boxes inside a
        // box that clips or scrolls sideways do not widen the page, so they are left out.
        const contained = (el: HTMLElement) => {
          for (let a: HTMLElement | null = el; a && a !== document.body; a = a.parentElement) {
            const style = getComputedStyle(a);
            if (style.position === 'fixed' || (a !== el && style.overflowX !== 'visible')) return true;
          }
          return false;
        };
        let worst = '';
        let right = limit;
        for (const el of document.querySelectorAll<HTMLElement>('body *')) {
          const r = el.getBoundingClientRect().right;
          if (r > right + 0.5 && !contained(el)) {
            right = r;
            const text = (el.textContent ?? '').trim().slice(0, 40);
            worst = `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 4).join('.')} "${text}" (${Math.round(r)}px)`;
          }
        }
        return { scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth, widest: worst };
      });
      // On a phone (isMobile) Chromium zooms out to fit a page wider than the screen, and innerWidth
      // grows with it: compare with the width of the screen itself too.
      const wide = Math.max(scrollWidth, innerWidth);
      if (wide > width) {
        failures.push(`${path} at ${width}px: page is ${wide}px wide (widest: ${widest})`);
        await screenshot(page, test.info(), `admin-frame-overflow${path.replaceAll('/', '-')}-${width}`, { fullPage: false });
      }
      expect.soft(wide, `${path} at ${width}px scrolls sideways (widest: ${widest})`).toBeLessThanOrEqual(width);
    }
  }
  if (failures.length) console.log(`[${test.info().project.name}] screens that scroll sideways:\n  ${failures.join('\n  ')}`);
  test.info().annotations.push({ type: 'horizontal-scroll', description: failures.length ? failures.join('; ') : 'none' });
  await page.setViewportSize(own);
  // Contact messages cannot be deleted: read and resolved, they leave the other specs' counts alone.
  const { id: contactId } = (await contact.json()) as { id: string };
  for (const mark of ['read', 'resolved']) expect((await adminApi.put(`/api/admin/contact-submissions/${contactId}/${mark}`)).status()).toBe(200);
  expect((await adminApi.delete(`/api/admin/appointments/${booking.id}`)).status()).toBe(204);
});
