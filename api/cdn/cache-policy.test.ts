import { describe, expect, it } from 'vitest';
import { contentTopics, type ContentChange } from '../content-events.ts';
import { pathsFor } from '../site/published-pages.ts';
import { cdnHeaders, changeKeys, changePaths, keyToken, pageKeys, SHARED_CACHE, staticFileKeys, THEME_CSS_KEYS } from './cache-policy.ts';

const changes: ContentChange[] = [
  ...contentTopics.map((topic) => ({ topic })),
  { topic: 'blog-posts', keys: ['old-slug', 'new-slug'] },
  { topic: 'component-visibility', keys: ['hero'] },
];

describe('what a change purges covers what it re-renders', () => {
  it.each(changes)('%o: every page it re-renders is purged by one of its keys, and by one of its paths', (change) => {
    const keys = new Set(changeKeys(change));
    const paths = changePaths(change);
    for (const page of pathsFor(change)) {
      expect(
        pageKeys(page).some((k) => keys.has(k)),
        `${page} keys ${pageKeys(page)}`,
      ).toBe(true);
      expect(
        paths.some((p) => p === page || p === '/*' || (p.endsWith('*') && page.startsWith(p.slice(0, -1)))),
        page,
      ).toBe(true);
    }
  });

  it('a theme change purges /theme.css, and no page', () => {
    const topic = 'themes';
    expect(changeKeys({ topic }).some((k) => THEME_CSS_KEYS.includes(k))).toBe(true);
    for (const page of ['/', '/blog', '/blog/a', '/about']) expect(pageKeys(page).some((k) => changeKeys({ topic }).includes(k))).toBe(false);
    expect(changePaths({ topic })).toContain('/theme.css');
  });

  it('a visibility change purges every page, prerendered or published, and not /theme.css or the assets', () => {
    const keys = changeKeys({ topic: 'component-visibility' });
    for (const page of ['/', '/blog', '/blog/a', '/blog/page/2', '/rss.xml', '/sitemap.xml', '/external-articles'])
      expect(
        pageKeys(page).some((k) => keys.includes(k)),
        page,
      ).toBe(true);
    expect(staticFileKeys('text/html; charset=utf-8').some((k) => keys.includes(k))).toBe(true);
    expect(staticFileKeys('image/png').some((k) => keys.includes(k))).toBe(false);
    expect(THEME_CSS_KEYS.some((k) => keys.includes(k))).toBe(false);
    expect(changePaths({ topic: 'component-visibility' })).toEqual(['/*']);
  });

  it('a post change purges its own article and no other', () => {
    const keys = changeKeys({ topic: 'blog-posts', keys: ['a'] });
    expect(pageKeys('/blog/a').some((k) => keys.includes(k))).toBe(true);
    expect(pageKeys('/blog/b').some((k) => keys.includes(k))).toBe(false);
    // Without slugs: every article.
    expect(pageKeys('/blog/b').some((k) => changeKeys({ topic: 'blog-posts' }).includes(k))).toBe(true);
  });

  it("'site' purges everything kept; prerendered pages only by 'site', 'static' or 'components'", () => {
    for (const page of ['/', '/blog', '/external-articles', '/rss.xml', '/sitemap.xml', '/blog/x', '/about']) expect(pageKeys(page)).toContain('site');
    expect(pageKeys('/about')).toEqual(['site', 'static', 'components']);
  });
});

describe('keys as header tokens', () => {
  it('are one token each for every CDN', () => {
    expect(keyToken('post:a-b')).toBe('post:a-b');
    expect(keyToken('post:a b,c')).toBe('post:a%20b%2Cc');
    expect(keyToken('post:é')).toBe('post:%C3%A9');
    expect(cdnHeaders(['site', 'post:a b'])).toMatchObject({ 'surrogate-key': 'site post:a%20b', 'cache-tag': 'site,post:a%20b' });
  });

  it('keep the stale windows away from browsers: Cache-Control has none, the CDN headers have them', () => {
    expect(SHARED_CACHE).not.toMatch(/stale/);
    expect(SHARED_CACHE).toMatch(/max-age=0, must-revalidate/);
    const headers = cdnHeaders(['site']);
    for (const name of ['surrogate-control', 'cdn-cache-control']) expect(headers[name]).toBe('max-age=86400, stale-while-revalidate=30, stale-if-error=86400');
  });
});
