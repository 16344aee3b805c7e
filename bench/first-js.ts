/**
 * The JavaScript a page really loads before any interaction (issue goal: at most 40 KB brotli on a
 * content page): the page opened in Chromium at phone and desktop size, left alone until the network
 * is quiet (so `client:idle` and `client:visible` islands in view have hydrated), and the scripts it
 * fetched summed as they travelled (brotli, from the server's `Content-Length`). What loads only on a
 * tap (the booking modal) is not counted; bytes.ts counts everything a page can load.
 */
import { chromium, devices } from '@playwright/test';

export interface FirstJs {
  path: string;
  phoneKb: number;
  phoneFiles: number;
  desktopKb: number;
  desktopFiles: number;
}

export async function firstJs(origin: string, paths: string[]): Promise<FirstJs[]> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    const measure = async (device: (typeof devices)[string], path: string) => {
      const context = await browser.newContext({ ...device });
      const page = await context.newPage();
      const sizes: number[] = [];
      page.on('response', async (res) => {
        if (res.request().resourceType() !== 'script') return;
        const length = Number((await res.allHeaders())['content-length'] ?? (await res.body()).length);
        sizes.push(length);
      });
      await page.goto(origin + path, { waitUntil: 'networkidle' });
      await page.waitForTimeout(1500); // requestIdleCallback, then the island's own imports
      await page.waitForLoadState('networkidle');
      await context.close();
      return { kb: Math.round(sizes.reduce((a, b) => a + b, 0) / 102.4) / 10, files: sizes.length };
    };
    const results: FirstJs[] = [];
    for (const path of paths) {
      const phone = await measure(devices['Pixel 7']!, path);
      const desktop = await measure(devices['Desktop Chrome']!, path);
      results.push({ path, phoneKb: phone.kb, phoneFiles: phone.files, desktopKb: desktop.kb, desktopFiles: desktop.files });
    }
    return results;
  } finally {
    await browser.close();
  }
}

export function firstJsMarkdown(rows: FirstJs[]): string[] {
  return [
    '## JavaScript before any interaction',
    '',
    'Each page opened in Chromium and left alone until its network is quiet: the scripts it fetched, brotli as sent (goal: at most 40 KB on a content page). `bench/bytes.ts` above counts everything a page can load, the booking modal included.',
    '',
    '| page | phone KB (files) | desktop KB (files) |',
    '|---|---:|---:|',
    ...rows.map((r) => `| ${r.path} | ${r.phoneKb} (${r.phoneFiles}) | ${r.desktopKb} (${r.desktopFiles}) |`),
  ];
}
