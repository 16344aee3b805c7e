import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { part, partCount, sitemapIndex, urlset } from './sitemap.ts';

const entries = Array.from({ length: 7 }, (_, i) => ({
  loc: `https://firm.example/blog/p${i}?a=1&b=2`,
  lastmod: i === 0 ? null : `2026-0${i}-01T00:00:00.000Z`,
}));

describe('sitemaps', () => {
  it('is one urlset while the URLs fit, escaped', () => {
    expect(partCount(7, 10)).toBe(1);
    const doc = new XMLParser().parse(urlset(entries));
    expect(doc.urlset.url).toHaveLength(7);
    expect(doc.urlset.url[1]).toEqual({ loc: 'https://firm.example/blog/p1?a=1&b=2', lastmod: '2026-01-01T00:00:00.000Z' });
    expect(doc.urlset.url[0].lastmod).toBeUndefined();
  });

  it('past the limit, an index of parts that hold every URL once, each part with its newest lastmod', () => {
    expect(partCount(7, 3)).toBe(3);
    const parts = [1, 2, 3].map((n) => part(entries, n, 3)!);
    expect(parts.flat()).toEqual(entries);
    expect(part(entries, 4, 3)).toBeNull();
    expect(part(entries, 0, 3)).toBeNull();
    const index = new XMLParser().parse(sitemapIndex(entries, (n) => `https://firm.example/sitemap-${n}.xml`, 3));
    expect(index.sitemapindex.sitemap).toEqual([
      { loc: 'https://firm.example/sitemap-1.xml', lastmod: '2026-02-01T00:00:00.000Z' },
      { loc: 'https://firm.example/sitemap-2.xml', lastmod: '2026-05-01T00:00:00.000Z' },
      { loc: 'https://firm.example/sitemap-3.xml', lastmod: '2026-06-01T00:00:00.000Z' },
    ]);
  });
});
