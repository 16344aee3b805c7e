/**
 * Draws the site's link-preview card (public/og-card.png, 1200 x 630: the size Open Graph and X
 * show large) in Chromium from a small HTML page with the firm's name, what it does and where, in
 * the default theme's colours. Run it again when the firm's facts change; the PNG is committed, so a
 * build needs no browser.
 *   node scripts/og-card.ts        (uses /usr/bin/chromium, or CHROMIUM_PATH)
 */
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { firm } from '../src/config/firm.ts';

const out = fileURLToPath(new URL('../public/og-card.png', import.meta.url));
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const html = `<!doctype html><html><head><meta charset="utf-8"><style>
  body { margin: 0; width: 1200px; height: 630px; font-family: "DejaVu Sans", system-ui, sans-serif; background: hsl(217 71% 24%); color: #fff; }
  .card { box-sizing: border-box; height: 100%; padding: 72px 80px; display: flex; flex-direction: column; justify-content: space-between;
    background: linear-gradient(135deg, hsl(217 71% 30%), hsl(217 71% 18%)); }
  .brand { display: flex; align-items: center; gap: 24px; font-size: 30px; font-weight: 700; letter-spacing: 0.02em; }
  .mark { width: 72px; height: 72px; border-radius: 14px; background: #fff; display: flex; align-items: center; justify-content: center; }
  h1 { margin: 0; font-size: 76px; line-height: 1.08; font-weight: 800; }
  p { margin: 24px 0 0; font-size: 34px; line-height: 1.35; color: hsl(214 60% 88%); }
  .foot { display: flex; justify-content: space-between; font-size: 26px; color: hsl(214 60% 88%); border-top: 2px solid hsl(214 50% 45%); padding-top: 28px; }
</style></head><body><div class="card">
  <div class="brand"><div class="mark"><svg width="44" height="44" viewBox="0 0 32 32"><path d="M9 25V7h9a6 6 0 0 1 0 12h-5v6z" fill="hsl(217 71% 30%)"/></svg></div>${esc(firm.name)}</div>
  <div><h1>Family Law &amp; Estate Planning</h1><p>Divorce, custody, living trusts, wills and trust administration for San Diego County families.</p></div>
  <div class="foot"><span>${esc(`${firm.address.city}, ${firm.address.region}`)}</span><span>${esc(firm.phone)}</span></div>
</div></body></html>`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 }, deviceScaleFactor: 1 });
  await page.setContent(html);
  await page.screenshot({ path: out, type: 'png' });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
}
