import { describe, expect, it } from 'vitest';
import type { Logger } from '../logger.ts';
import { uncompressed, type Prepared } from './compressed.ts';
import { articleSlug, createPublishedPages, NOT_FOUND_PATH, pathsFor, publishedPath, type Renderer } from './published-pages.ts';

const page = (text: string, status = 200): Prepared => uncompressed(status, 'text/html', Buffer.from(text), 'no-cache');
/** These tests make renders fail on purpose: keep their error lines out of the test output. */
const quiet: Logger = { info: () => {}, warn: () => {}, error: () => {} };

describe('publishedPath', () => {
  it('maps the published pages, with or without a trailing slash', () => {
    expect(publishedPath('/')).toBe('/');
    expect(publishedPath('/blog/')).toBe('/blog');
    expect(publishedPath('/blog/a-post')).toBe('/blog/a-post');
    expect(publishedPath('/sitemap.xml')).toBe('/sitemap.xml');
    expect(publishedPath('/about')).toBeNull();
    expect(publishedPath('/blog/a/b')).toBeNull();
    expect(publishedPath('/admin')).toBeNull();
  });

  it("maps the blog's later pages and a sitemap index's parts, in one spelling each", () => {
    expect(publishedPath('/blog/page/2')).toBe('/blog/page/2');
    expect(publishedPath('/blog/page/2/')).toBe('/blog/page/2');
    expect(publishedPath('/sitemap-3.xml')).toBe('/sitemap-3.xml');
    expect(publishedPath('/blog/page/02')).toBeNull();
    expect(publishedPath('/blog/page/0')).toBeNull();
    expect(publishedPath('/blog/page/1234567')).toBeNull();
    expect(publishedPath('/sitemap-0.xml')).toBeNull();
    expect(articleSlug('/blog/page/2')).toBeNull();
    expect(articleSlug('/blog/page')).toBe('page'); // an article may be called that
  });

  it('gives one path per slug however it is spelled, so spellings cannot multiply stored pages', () => {
    expect(publishedPath('/blog/a%2Dpost')).toBe('/blog/a-post');
    expect(publishedPath('/blog/caf%C3%A9')).toBe('/blog/caf%C3%A9');
    expect(publishedPath('/blog/%E0%A4%A')).toBeNull(); // malformed: the site answers 400
    // Long slugs name no post, and get the stored 404 like any other unknown slug.
    expect(publishedPath(`/blog/${'x'.repeat(300)}`)).toBe(`/blog/${'x'.repeat(300)}`);
  });

  it("keeps an article's link-preview card with its page, under the article's slug", () => {
    expect(publishedPath('/og/blog/a%2Dpost.png')).toBe('/og/blog/a-post.png');
    expect(articleSlug('/og/blog/a-post.png')).toBe('a-post');
    expect(publishedPath('/og/blog/a-post')).toBeNull();
    expect(publishedPath('/og/blog/a/b.png')).toBeNull();
    expect(publishedPath('/og/blog/%E0%A4%A.png')).toBeNull();
  });
});

describe('pathsFor', () => {
  it('names every page a change touches', () => {
    expect(pathsFor({ topic: 'blog-posts', keys: ['old', 'new'] })).toEqual([
      '/',
      '/blog',
      '/rss.xml',
      '/sitemap.xml',
      '/blog/old',
      '/og/blog/old.png',
      '/blog/new',
      '/og/blog/new.png',
    ]);
    expect(pathsFor({ topic: 'testimonials' })).toEqual(['/']);
    expect(pathsFor({ topic: 'external-reviews' })).toEqual(['/']);
    expect(pathsFor({ topic: 'external-articles' })).toEqual(['/blog', '/external-articles']);
    expect(pathsFor({ topic: 'themes' })).toEqual([]);
  });
});

describe('createPublishedPages', () => {
  it('renders a page once, then serves the stored one', async () => {
    let renders = 0;
    const pages = createPublishedPages(async () => page(`v${++renders}`), quiet);
    const [a, b] = await Promise.all([pages.get('/'), pages.get('/')]);
    expect(a.body.toString()).toBe('v1');
    expect(b.body.toString()).toBe('v1');
    expect((await pages.get('/')).body.toString()).toBe('v1');
    expect(renders).toBe(1);
  });

  it('re-renders stored pages a change touches, and only those', async () => {
    const rendered: string[] = [];
    let version = 0;
    const pages = createPublishedPages(async (path) => {
      rendered.push(path);
      return page(`${path}@${version}`);
    }, quiet);
    await pages.get('/');
    await pages.get('/external-articles');
    version = 1;
    await pages.onChange({ topic: 'testimonials' });
    expect((await pages.get('/')).body.toString()).toBe('/@1');
    expect((await pages.get('/external-articles')).body.toString()).toBe('/external-articles@0');
    expect(rendered).toEqual(['/', '/external-articles', '/']);
  });

  it('never keeps a render that started before a change', async () => {
    let content = 'old';
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    let first = true;
    const pages = createPublishedPages(async () => {
      const seen = content;
      if (first) {
        first = false;
        await gate; // the first render is slow and saw the old content
      }
      return page(seen);
    }, quiet);
    const slow = pages.get('/');
    content = 'new';
    const change = pages.onChange({ topic: 'testimonials' });
    release();
    await Promise.all([slow, change]);
    expect((await pages.get('/')).body.toString()).toBe('new');
  });

  it('never stores a server-error render: the visitor gets it, the last good page stays', async () => {
    let status = 503;
    const pages = createPublishedPages(async () => page(`status ${status}`, status), quiet);
    expect((await pages.get('/')).status).toBe(503);
    expect(pages.stored()).toEqual([]);
    status = 200;
    expect((await pages.get('/')).status).toBe(200);
    status = 500;
    await pages.onChange({ topic: 'testimonials' });
    expect((await pages.get('/')).body.toString()).toBe('status 200');
  });

  it('merges changes that come while a render runs into one more render', async () => {
    let version = 0;
    let renders = 0;
    let release: () => void = () => {};
    const pages = createPublishedPages(async () => {
      renders++;
      const seen = version;
      if (renders === 2) await new Promise<void>((r) => (release = r)); // the first re-render is slow
      return page(`v${seen}`);
    }, quiet);
    await pages.get('/');
    version = 1;
    const changes = [pages.onChange({ topic: 'testimonials' })];
    await new Promise((r) => setTimeout(r, 0));
    for (let i = 2; i <= 10; i++) {
      version = i;
      changes.push(pages.onChange({ topic: 'testimonials' }));
    }
    release();
    await Promise.all(changes);
    expect((await pages.get('/')).body.toString()).toBe('v10');
    expect(renders).toBe(3); // the first, the slow one (stale, not kept), and one for the nine changes after it
  });

  it("drops the blog's later pages and the sitemap parts on a post change, and renders them when next asked for", async () => {
    const rendered: string[] = [];
    let version = 0;
    const pages = createPublishedPages(async (path) => {
      rendered.push(path);
      return page(`${path}@${version}`);
    }, quiet);
    for (const path of ['/blog', '/blog/page/2', '/blog/page/3', '/sitemap-1.xml', '/external-articles']) await pages.get(path);
    rendered.length = 0;
    version = 1;
    await pages.onChange({ topic: 'blog-posts', keys: ['new-post'] });
    expect(rendered).toEqual(['/blog']);
    expect(pages.stored().sort()).toEqual(['/blog', '/external-articles']);
    expect((await pages.get('/blog/page/3')).body.toString()).toBe('/blog/page/3@1');
    // Other changes leave them.
    await pages.onChange({ topic: 'external-articles' });
    expect(pages.stored()).toContain('/blog/page/3');
  });

  it('keeps the last good page when a re-render fails', async () => {
    let fail = false;
    const pages = createPublishedPages(async () => {
      if (fail) throw new Error('render failed');
      return page('good');
    }, quiet);
    await pages.get('/');
    fail = true;
    await pages.onChange({ topic: 'testimonials' });
    expect((await pages.get('/')).body.toString()).toBe('good');
  });
});

describe('unknown article slugs', () => {
  /** A site with one article, one earlier slug redirecting to it, and the 'Article Not Found' page. */
  function site() {
    const rendered: string[] = [];
    const render: Renderer = async (path) => {
      rendered.push(path);
      if (path === '/blog/real-article') return page('<h1>Real article</h1>');
      if (path === '/blog/old-name') return uncompressed(301, 'text/html', Buffer.from(''), 'no-cache', { location: '/blog/real-article' });
      return page('<h1>Article Not Found</h1><a href="/blog">Back to Blog</a>', 404);
    };
    return { rendered, render };
  }
  const known = new Set(['real-article', 'old-name']);

  it('answers 500 unknown slugs with the one 404 page, rendered once, storing none and keeping the real article', async () => {
    const { rendered, render } = site();
    const pages = createPublishedPages(render, quiet, { articleExists: (slug) => known.has(slug) });
    const article = await pages.get('/blog/real-article');
    const storedBefore = pages.size();

    const answers = await Promise.all(Array.from({ length: 500 }, (_, i) => pages.get(publishedPath(`/blog/no-such-article-${i}`)!)));
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body.toString()).toContain('Article Not Found');
    }
    expect(rendered).toEqual(['/blog/real-article', NOT_FOUND_PATH]);
    expect(pages.stored()).toEqual(['/blog/real-article']);
    expect(pages.size()).toEqual(storedBefore);
    // Served from the store, not rendered again.
    expect(await pages.get('/blog/real-article')).toBe(article);
    expect(rendered).toHaveLength(2);
  });

  it('keeps the redirect of an earlier slug', async () => {
    const { rendered, render } = site();
    const pages = createPublishedPages(render, quiet, { articleExists: (slug) => known.has(slug) });
    expect((await pages.get('/blog/old-name')).headers).toEqual({ location: '/blog/real-article' });
    expect((await pages.get('/blog/old-name')).status).toBe(301);
    expect(rendered).toEqual(['/blog/old-name']);
    expect(pages.stored()).toEqual(['/blog/old-name']);
  });

  it('never stores a miss, even for a slug that may exist (nothing loaded yet, or just named by a change)', async () => {
    const { rendered, render } = site();
    const pages = createPublishedPages(render, quiet, { articleExists: () => true });
    await pages.get('/blog/real-article');
    const slugs = Array.from({ length: 500 }, (_, i) => `maybe-${i}`);
    for (const answer of await Promise.all(slugs.map((slug) => pages.get(`/blog/${slug}`)))) expect(answer.status).toBe(404);
    expect(pages.stored()).toEqual(['/blog/real-article']);
    // Nothing of them is left behind: a change naming them re-renders none.
    rendered.length = 0;
    await pages.onChange({ topic: 'blog-posts', keys: slugs });
    expect(rendered.filter((p) => p.startsWith('/blog/maybe-'))).toEqual([]);
  });

  it('withdraws a stored article whose re-render is a 404 (unpublished or deleted)', async () => {
    let published = true;
    const pages = createPublishedPages(async () => (published ? page('article') : page('Article Not Found', 404)), quiet);
    await pages.get('/blog/a-post');
    published = false;
    await pages.onChange({ topic: 'blog-posts', keys: ['a-post'] });
    expect(pages.stored()).not.toContain('/blog/a-post');
    expect((await pages.get('/blog/a-post')).status).toBe(404);
    expect(pages.size()).toEqual({ pages: 0, bytes: 0 });
  });

  it('keeps only a 404 render of the not-found page, and renders it again on republishing', async () => {
    let status = 503;
    let renders = 0;
    const pages = createPublishedPages(async () => (renders++, page('Article Not Found', status)), quiet, { articleExists: () => false });
    expect((await pages.get('/blog/x')).status).toBe(503);
    status = 404;
    expect((await pages.get('/blog/y')).status).toBe(404);
    await pages.get('/blog/z');
    expect(renders).toBe(2);
    await pages.republishAll();
    await pages.get('/blog/z');
    expect(renders).toBe(3);
  });
});

describe('the store bounds', () => {
  const render: Renderer = async (path) => page(`page ${path}`);

  it('evicts the least recently used page past the page limit', async () => {
    const pages = createPublishedPages(render, quiet, { limits: { pages: 3, bytes: Infinity } });
    for (const path of ['/blog/a', '/blog/b', '/blog/c']) await pages.get(path);
    await pages.get('/blog/a'); // asked for again: the most recently used
    await pages.get('/blog/d');
    expect(pages.stored()).toEqual(['/blog/c', '/blog/a', '/blog/d']);
    expect(pages.size().pages).toBe(3);
  });

  it('evicts the least recently used pages past the byte limit, counting every encoding', async () => {
    const sized = (n: number) => uncompressed(200, 'text/html', Buffer.alloc(n, 'x'), 'no-cache');
    const pages = createPublishedPages(
      async (path) => (path === '/blog/big' ? { ...sized(100), gzip: Buffer.alloc(50), brotli: Buffer.alloc(40) } : sized(100)),
      quiet,
      {
        limits: { pages: 100, bytes: 350 },
      },
    );
    for (const path of ['/blog/a', '/blog/b', '/blog/c']) await pages.get(path);
    expect(pages.size()).toEqual({ pages: 3, bytes: 300 });
    await pages.get('/blog/b');
    await pages.get('/blog/big'); // 190 bytes: two of the older pages go
    expect(pages.stored()).toEqual(['/blog/b', '/blog/big']);
    expect(pages.size()).toEqual({ pages: 2, bytes: 290 });
  });

  it('re-renders an evicted page when it is asked for again', async () => {
    let renders = 0;
    const pages = createPublishedPages(async (path) => (renders++, page(path)), quiet, { limits: { pages: 1, bytes: Infinity } });
    await pages.get('/blog/a');
    await pages.get('/blog/b');
    expect(pages.stored()).toEqual(['/blog/b']);
    expect((await pages.get('/blog/a')).body.toString()).toBe('/blog/a');
    expect(renders).toBe(3);
  });
});
