/** Lighthouse (mobile, the default form factor) of one URL in Debian's Chromium. */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

export interface LighthouseScores {
  path: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  failing: string[];
  /** Why Lighthouse could not measure the page, when it never could (its scores are then not the page's). */
  error?: string;
}

export async function withChrome<T>(fn: (port: number) => Promise<T>): Promise<T> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
  try {
    return await fn(chrome.port);
  } finally {
    await chrome.kill();
  }
}

/**
 * One audit; run again (up to twice more) when Lighthouse could not measure the page (a run error, or
 * no performance score: a 0 that says nothing of the page). `error` says why when it never could.
 */
export async function audit(port: number, origin: string, path: string): Promise<LighthouseScores> {
  let lhr;
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(origin + path, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${path}`);
    lhr = result.lhr;
    const measured = !lhr.runtimeError && typeof lhr.categories.performance?.score === 'number';
    if (measured || attempt === 3) break;
    console.log(`lighthouse ${path}: not measured (${lhr.runtimeError?.code ?? 'no performance score'}), again`);
  }
  const { categories, audits } = lhr;
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  const failing = Object.values(audits)
    .filter(
      (a) =>
        a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable' && a.scoreDisplayMode !== 'manual',
    )
    .map((a) => a.id);
  return {
    path,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
    tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
    cls: Number((audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
    failing,
    ...(lhr.runtimeError ? { error: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` } : {}),
  };
}
