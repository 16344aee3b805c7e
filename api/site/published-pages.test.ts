import { describe, expect, it } from 'vitest';
import type { Logger } from '../logger.ts';
import { prepare, type Prepared } from './compressed.ts';
import { createPublishedPages, pathsFor, publishedPath } from './published-pages.ts';

const page = (text: string, status = 200): Prepared => prepare(status, 'text/html', Buffer.from(text), 'no-cache');
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
    expect(publishedPath(`/blog/${'x'.repeat(201)}`)).toBeNull();
  });
});

describe('pathsFor', () => {
  it('names every page a change touches', () => {
    expect(pathsFor({ topic: 'blog-posts', keys: ['old', 'new'] })).toEqual(['/', '/blog', '/rss.xml', '/sitemap.xml', '/blog/old', '/blog/new']);
    expect(pathsFor({ topic: 'testimonials' })).toEqual(['/']);
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
