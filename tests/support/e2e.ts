/** Helpers shared by the end-to-end specs. */
import { expect, type Page } from '@playwright/test';

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
  };
}
