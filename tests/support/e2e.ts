/** Helpers shared by the end-to-end specs. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';

/**
 * STYLE §7: a test fails on an unexpected console error. A test that forces a failed request (a
 * refused sign-up, a 500) names the statuses the browser may log for it.
 */
export function watchConsole(page: Page) {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  return {
    expectNone: () => expect(errors).toEqual([]),
    expectOnlyFailedRequests: (...statuses: number[]) =>
      expect(errors.filter((e) => !statuses.some((s) => e.includes(`the server responded with a status of ${s}`)))).toEqual([]),
    /** Errors the test caused on purpose, each matching one of the patterns (a failure the app logs, SPEC §8). */
    expectOnly: (...patterns: RegExp[]) => expect(errors.filter((e) => !patterns.some((p) => p.test(e)))).toEqual([]),
    /** A failure the app must log (SPEC §8: failures are logged to the console). */
    expectLogged: (pattern: RegExp) =>
      expect(
        errors.some((e) => pattern.test(e)),
        `a console error matching ${pattern}, in ${JSON.stringify(errors)}`,
      ).toBe(true),
  };
}

/**
 * WCAG 2.2 AA (STYLE): axe's rules for levels A and AA up to 2.2, on the page as it is now. A failure
 * lists each rule with the elements it found; `label` says which page or state in the message.
 * `fromTop` scrolls to the top first: target-size counts a field under the sticky header as obscured.
 * `rules` runs only those rules (colour-contrast alone, when only the colours changed).
 */
export async function expectNoAxeViolations(
  page: Page,
  { label, fromTop = false, rules, htmlcs = false }: { label?: string; fromTop?: boolean; rules?: string[]; htmlcs?: boolean } = {},
) {
  if (fromTop) await page.evaluate(() => window.scrollTo(0, 0));
  // Colours as a person reads them, not halfway through a fade (a toast sliding in measured 4.08:1
  // against its final 9:1). Endless animations (spinners) are left running.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const axe = new AxeBuilder({ page });
  const { violations } = await (rules ? axe.withRules(rules) : axe.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])).analyze();
  expect(
    violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`) })),
    label,
  ).toEqual([]);
  // `htmlcs`: a second judge on the same state, HTML_CodeSniffer, pa11y's own engine (its colour checks
  // alone when only the colours changed). Asked for by the public site's crawl and its open states.
  if (htmlcs) expect(await htmlcsErrors(page, { coloursOnly: Boolean(rules) }), `${label ?? 'page'} (HTML_CodeSniffer)`).toEqual([]);
}

let htmlcsSource: string | undefined;

/**
 * HTML_CodeSniffer's WCAG2AA errors (pa11y's default runner: its errors, not its warnings or notices)
 * on the page as it is now. Injected through the DevTools protocol, which the site's CSP does not
 * govern. `coloursOnly`: its contrast checks alone (1.4.3).
 */
export async function htmlcsErrors(page: Page, { coloursOnly = false } = {}): Promise<string[]> {
  htmlcsSource ??= `${readFileSync(createRequire(import.meta.url).resolve('html_codesniffer/build/HTMLCS.js'), 'utf8')}\n;window.HTMLCS = HTMLCS; true`;
  if (!(await page.evaluate(() => 'HTMLCS' in window))) await page.evaluate(htmlcsSource);
  const found = await page.evaluate(
    () =>
      new Promise<{ code: string; msg: string; element: string }[]>((resolve) => {
        type Message = { type: number; code: string; msg: string; element: Element | null };
        const htmlcs = (window as unknown as { HTMLCS: { process(standard: string, root: Document, done: () => void): void; getMessages(): Message[] } })
          .HTMLCS;
        htmlcs.process('WCAG2AA', document, () =>
          resolve(
            htmlcs
              .getMessages()
              .filter((m) => m.type === 1)
              .map((m) => ({ code: m.code, msg: m.msg, element: m.element?.outerHTML.slice(0, 160) ?? '' })),
          ),
        );
      }),
  );
  return found.filter((m) => !coloursOnly || m.code.includes('1_4_3')).map((m) => `${m.code}: ${m.msg} ${m.element}`);
}

/** The axe rules a visitor mode can change: a mode changes colours only (a class on <html>, STYLE). */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * axe in full on the page as it is, in light mode; then each other visitor mode is put on <html> as
 * the theme script does, and the page judged by the rules a mode can change; `each` runs in every
 * mode after its check (a screenshot). The page is left in light mode.
 */
export async function expectNoAxeViolationsInEveryMode(
  page: Page,
  {
    label,
    fromTop = false,
    each,
    htmlcs = false,
  }: { label?: string; fromTop?: boolean; each?: (mode: 'light' | 'dark' | 'warm') => Promise<void>; htmlcs?: boolean } = {},
) {
  const named = (mode: string) => [label, `in ${mode} mode`].filter(Boolean).join(', ');
  expect(await page.evaluate(() => document.documentElement.className), 'the page starts in light mode').toBe('');
  await expectNoAxeViolations(page, { label: named('light'), fromTop, htmlcs });
  await each?.('light');
  for (const mode of ['dark', 'warm'] as const) {
    await page.evaluate((m) => {
      document.documentElement.className = m;
    }, mode);
    await expectNoAxeViolations(page, { label: named(mode), fromTop, rules: COLOUR_RULES, htmlcs });
    await each?.(mode);
  }
  await page.evaluate(() => {
    document.documentElement.className = '';
  });
}

/**
 * Lets the page run all its code before it is judged: scrolled through (client:visible islands hydrate
 * on sight), islands that wait for an interaction reached into, then every island hydrated but those
 * waiting for a screen this one is not (client:media); left scrolled to the top.
 */
export async function settled(page: Page) {
  await page.waitForLoadState('load');
  // Half a screen at a time (at least 200 px, at most 100 steps), each step its own short call: a
  // loop awaiting frames inside the page once hung for minutes on a loaded machine (a renderer that
  // stopped painting), and the islands' own check below is what waits.
  const { height, step } = await page.evaluate(() => ({ height: document.documentElement.scrollHeight, step: Math.max(200, window.innerHeight / 2) }));
  for (let y = 0, i = 0; y < height && i < 100; y += step, i++) await page.evaluate((to) => window.scrollTo(0, to), y);
  // Scrolling in steps without a painted frame between them may skip an island's moment on screen:
  // each look brings the first island still waiting to be seen into view.
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const waiting = [...document.querySelectorAll('astro-island[ssr]')].filter((island) => {
            if (island.getAttribute('client') !== 'media') return true;
            const query = (JSON.parse(island.getAttribute('opts') ?? '{}') as { value?: string }).value;
            return !!query && window.matchMedia(query).matches;
          });
          // An island that waits for the visitor to reach into it (client:interaction) is reached into.
          for (const island of waiting.filter((i) => i.getAttribute('client') === 'interaction'))
            (island.firstElementChild ?? island).dispatchEvent(new Event('pointerdown', { bubbles: true }));
          const unseen = waiting.find((island) => island.getAttribute('client') === 'visible');
          if (unseen) (unseen.firstElementChild ?? unseen).scrollIntoView({ block: 'center' });
          else window.scrollTo(0, 0);
          // Named, so a failure says which island of which page never hydrated.
          return waiting.map((island) => `${location.pathname}: client:${island.getAttribute('client')} ${island.getAttribute('component-url')}`);
        }),
      // A loaded machine (two shards on two cores) has taken more than the default 10 s once.
      { timeout: 20_000 },
    )
    .toEqual([]);
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** test-results/screens/<name>-<project>.png; SCREENS_DIR lets a run keep its screenshots apart from runs that clear test-results/. */
export const screenPath = (info: TestInfo, name: string) => `${process.env.SCREENS_DIR ?? 'test-results/screens'}/${name}-${info.project.name}.png`;

export interface ScreenshotOptions {
  /** The whole page (the default), or what the viewport shows (a fixed dialog over a long page). */
  fullPage?: boolean;
  /** Scroll to the top first, so the sticky header sits where it belongs. */
  fromTop?: boolean;
  /** Take the focus away first: no focus ring left over from the test. */
  blur?: boolean;
  /** Move the pointer away first: no hover left over from the test. */
  unhover?: boolean;
}

/** A screenshot to look at (preamble: test as a person would), at screenPath(info, name). */
export async function screenshot(
  page: Page,
  info: TestInfo,
  name: string,
  { fullPage = true, fromTop = false, blur = false, unhover = false }: ScreenshotOptions = {},
) {
  if (blur || fromTop) {
    await page.evaluate(
      ({ blur, fromTop }) => {
        if (blur) (document.activeElement as HTMLElement | null)?.blur();
        if (fromTop) window.scrollTo(0, 0);
      },
      { blur, fromTop },
    );
  }
  if (unhover) await page.mouse.move(0, 0);
  // Pictures for a person to look at: taken when asked (E2E_SCREENSHOTS=1), not on every CI run,
  // where nobody looks and each full-page capture costs seconds (Playwright keeps one on failure).
  if (process.env.E2E_SCREENSHOTS === '1') await page.screenshot({ path: screenPath(info, name), fullPage });
}

/**
 * An open dialog (it is fixed, and scrolls itself): what the viewport shows from its top, then from its
 * end as `<name>-end` (the footer's buttons, below the fold on a phone); left scrolled to the top.
 */
export async function screenshotDialog(dialog: Locator, info: TestInfo, name: string, { unhover = false }: Pick<ScreenshotOptions, 'unhover'> = {}) {
  const page = dialog.page();
  await dialog.evaluate((el) => el.scrollTo(0, 0));
  await screenshot(page, info, name, { fullPage: false, unhover });
  await dialog.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await screenshot(page, info, `${name}-end`, { fullPage: false, unhover });
  await dialog.evaluate((el) => el.scrollTo(0, 0));
}

/**
 * The toasts shown (src/components/ui/Toaster.tsx). includeHidden: while a modal dialog is open, Radix
 * marks the rest of the page (the toast viewport too) aria-hidden; the toast is still announced
 * through Radix Toast's own live region.
 */
export const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/, includeHidden: true }).getByRole('listitem', { includeHidden: true });

/** Toasts close by themselves after 5 s (SPEC §9); until then Escape dismisses the newest toast first. */
export const expectToastsGone = (page: Page) => expect(toasts(page)).toHaveCount(0, { timeout: 10_000 });

/**
 * SPEC §8 toast: checks title and description, then closes it so the next one cannot be confused with
 * it. Over an open dialog it is closed with Escape (the newest layer closes first; a click outside the
 * dialog would close the dialog).
 */
export async function expectToast(page: Page, title: string, description: string, { overDialog = false } = {}) {
  const item = toasts(page);
  await expect(item).toContainText(description);
  await expect(item.getByText(title, { exact: true })).toBeVisible();
  if (overDialog) await page.keyboard.press('Escape');
  else await item.getByRole('button', { name: 'Close notification', includeHidden: true }).click();
  await expect(item).toHaveCount(0);
}

/**
 * A name no other test, project or run uses (both projects share one server database):
 * '<label> <project> <milliseconds>'; with '-' as the separator it also makes an e-mail's local part.
 */
export const unique = (info: TestInfo, label: string, separator = ' ') => [label, info.project.name, Date.now()].join(separator);

/** Usable at phone width: nothing wider than the screen (lists stack, long text wraps). */
export async function expectNoSideways(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}
