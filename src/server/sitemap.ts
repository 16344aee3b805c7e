/**
 * Sitemaps (sitemaps.org 0.9): one /sitemap.xml of every public URL while they fit in one file (50,000
 * URLs); past that, /sitemap.xml is a sitemap index of /sitemap-1.xml, /sitemap-2.xml, … of 50,000 each.
 */
export interface SitemapEntry {
  loc: string;
  lastmod: string | null;
}

/** sitemaps.org: at most 50,000 URLs (and 50 MB) a file. */
export const MAX_URLS = 50_000;

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
const url = (e: SitemapEntry) => `  <url><loc>${xml(e.loc)}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ''}</url>\n`;

export const urlset = (entries: readonly SitemapEntry[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.map(url).join('')}</urlset>\n`;

/** How many part files `count` URLs need (1 means no index: /sitemap.xml holds them all). */
export const partCount = (count: number, max = MAX_URLS) => Math.max(1, Math.ceil(count / max));

/** Part `n` (from 1) of the entries, or null past the last. */
export function part(entries: readonly SitemapEntry[], n: number, max = MAX_URLS): SitemapEntry[] | null {
  if (!Number.isInteger(n) || n < 1 || n > partCount(entries.length, max)) return null;
  return entries.slice((n - 1) * max, n * max);
}

/** The index of the parts, each with the newest lastmod in it. */
export function sitemapIndex(entries: readonly SitemapEntry[], partUrl: (n: number) => string, max = MAX_URLS): string {
  const parts = Array.from({ length: partCount(entries.length, max) }, (_, i) => {
    const newest = (part(entries, i + 1, max) ?? []).reduce<string | null>((a, e) => (e.lastmod && (!a || e.lastmod > a) ? e.lastmod : a), null);
    return `  <sitemap><loc>${xml(partUrl(i + 1))}</loc>${newest ? `<lastmod>${newest}</lastmod>` : ''}</sitemap>\n`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${parts.join('')}</sitemapindex>\n`;
}
