/**
 * The public API lists kept ready to send (api/http/public-cache.ts), on SQLite and
 * PostgreSQL: they carry shared-cache headers, an ETag and the keys of what they show; an unchanged
 * list is answered from what is kept (a direct database edit that nobody announced does not show:
 * no query ran), a 304 answers a matching If-None-Match, and a change drops exactly the lists it
 * touched. The admin API and anything with a query string are never kept or shared.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SHARED_CACHE } from '../../api/cdn/cache-policy.ts';
import { logLines, serverDatabase, startServerProcess } from '../support/server-process.ts';
import { forEachDialect } from '../support/test-app.ts';

const keysOf = (headers: Headers) => headers.get('surrogate-key')?.split(' ');

forEachDialect('public API lists kept and named for the CDN', (ctx) => {
  it('each public list carries shared-cache headers, an ETag and its keys; the admin API does not', async () => {
    const lists: [string, string[]][] = [
      ['/api/blog-posts', ['site', 'posts']],
      ['/api/testimonials', ['site', 'testimonials']],
      ['/api/external-reviews', ['site', 'external-reviews']],
      ['/api/external-blog-articles', ['site', 'external-articles']],
      ['/api/themes/active', ['site', 'theme']],
      ['/api/component-visibility', ['site', 'components']],
    ];
    for (const [path, keys] of lists) {
      const res = await ctx().call('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe(SHARED_CACHE);
      expect(res.headers.get('etag'), path).toMatch(/^"[\w-]{27}"$/);
      expect(keysOf(res.headers), path).toEqual(keys);
      expect(res.headers.get('cache-tag'), path).toBe(keys.join(','));
    }
    for (const path of ['/api/admin/blog-posts', '/api/admin/testimonials', '/api/admin/themes']) {
      const res = await ctx().admin('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
      expect(res.headers.get('surrogate-key'), path).toBeNull();
    }
    // Errors and other public calls are not for a shared cache either.
    expect((await ctx().call('GET', '/api/blog-posts/no-such-post')).headers.get('cache-control')).toBe('no-store');
    expect((await ctx().call('GET', '/api/health')).headers.get('cache-control')).toBe('no-store');
  });

  it('a matching If-None-Match gets a 304 with no body; another gets the list', async () => {
    const first = await ctx().call('GET', '/api/testimonials');
    const etag = first.headers.get('etag')!;
    const again = await ctx().call('GET', '/api/testimonials', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBeFalsy();
    expect(again.headers.get('etag')).toBe(etag);
    expect((await ctx().call('GET', '/api/testimonials', { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  it('an unchanged list is answered without the database; an announced change drops exactly what it touched', async () => {
    const { db, t } = ctx().database;
    const created = await ctx().admin('POST', '/api/admin/testimonials', {
      clientName: 'Kept K.',
      content: 'Before.',
      practiceArea: 'divorce',
      isPublished: true,
    });
    expect(created.status).toBe(201);
    const before = await ctx().call('GET', '/api/testimonials');
    const posts = await ctx().call('GET', '/api/blog-posts');
    // Edited behind the API's back (nobody announces it): the kept list still answers, so no query ran.
    await db.update(t.testimonials).set({ content: 'Edited directly.' }).where(eq(t.testimonials.id, created.body.id));
    const kept = await ctx().call('GET', '/api/testimonials');
    expect(kept.body.find((x: { id: string }) => x.id === created.body.id).content).toBe('Before.');
    expect(kept.headers.get('etag')).toBe(before.headers.get('etag'));
    // A change through the admin API is announced: the testimonials list is fresh, the posts list kept.
    expect((await ctx().admin('PUT', `/api/admin/testimonials/${created.body.id}`, { content: 'Through the API.' })).status).toBe(200);
    const fresh = await ctx().call('GET', '/api/testimonials');
    expect(fresh.body.find((x: { id: string }) => x.id === created.body.id).content).toBe('Through the API.');
    expect(fresh.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect((await ctx().call('GET', '/api/blog-posts')).headers.get('etag')).toBe(posts.headers.get('etag'));
    // 'site' (a restore, a republish) drops everything.
    await db.update(t.testimonials).set({ content: 'Restored.' }).where(eq(t.testimonials.id, created.body.id));
    ctx().deps.events.changed({ topic: 'site' });
    expect((await ctx().call('GET', '/api/testimonials')).body.find((x: { id: string }) => x.id === created.body.id).content).toBe('Restored.');
    await ctx().admin('DELETE', `/api/admin/testimonials/${created.body.id}`);
  });

  it('an article is named by its slug; publishing under that slug drops it', async () => {
    const post = { title: 'Kept article', slug: 'kept-article', excerpt: 'An excerpt.', content: 'Body one.', category: 'estate-planning', isPublished: true };
    const created = await ctx().admin('POST', '/api/admin/blog-posts', post);
    expect(created.status).toBe(201);
    const first = await ctx().call('GET', '/api/blog-posts/kept-article');
    expect(keysOf(first.headers)).toEqual(['site', 'articles', 'post:kept-article']);
    expect((await ctx().admin('PUT', `/api/admin/blog-posts/${created.body.id}`, { ...post, content: 'Body two.' })).status).toBe(200);
    expect((await ctx().call('GET', '/api/blog-posts/kept-article')).body.content).toBe('Body two.');
    await ctx().admin('DELETE', `/api/admin/blog-posts/${created.body.id}`);
    expect((await ctx().call('GET', '/api/blog-posts/kept-article')).status).toBe(404);
  });

  it('a HEAD first keeps the whole list for the GET after it', async () => {
    ctx().deps.events.changed({ topic: 'testimonials' }); // nothing kept
    const head = await ctx().call('HEAD', '/api/testimonials');
    expect(head.status).toBe(200);
    expect(head.headers.get('cache-control')).toBe(SHARED_CACHE);
    const get = await ctx().call('GET', '/api/testimonials');
    expect(Array.isArray(get.body)).toBe(true);
    expect(get.headers.get('etag')).toBe(head.headers.get('etag'));
  });

  it('a list asked for with a query string is answered fresh and not shared', async () => {
    const res = await ctx().call('GET', '/api/testimonials?x=1');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('surrogate-key')).toBeNull();
  });
});

describe('kept lists answered by the server before the app (api/server.ts)', () => {
  it('send what the app sent, headers and body alike, a 304 to their ETag, a HEAD without a body, and each is logged', async () => {
    const database = await serverDatabase('sqlite');
    const server = await startServerProcess({ ...database.env, LOG_QUIET: 'false' });
    // What differs between any two answers, whoever sends them.
    const comparable = (headers: Headers) =>
      Object.fromEntries([...headers].filter(([name]) => !['date', 'x-request-id', 'connection', 'keep-alive'].includes(name)));
    try {
      for (const path of [
        '/api/blog-posts',
        '/api/testimonials',
        '/api/external-reviews',
        '/api/external-blog-articles',
        '/api/themes/active',
        '/api/component-visibility',
      ]) {
        const fromApp = await fetch(server.url + path);
        const kept = await fetch(server.url + path);
        expect(kept.status, path).toBe(200);
        expect(await kept.text(), path).toBe(await fromApp.text());
        expect(comparable(kept.headers), path).toEqual(comparable(fromApp.headers));
        expect(kept.headers.get('x-request-id'), path).toMatch(/^[\w-]{36}$/);
        expect(kept.headers.get('x-request-id'), path).not.toBe(fromApp.headers.get('x-request-id'));

        const revalidated = await fetch(server.url + path, { headers: { 'if-none-match': kept.headers.get('etag')! } });
        expect(revalidated.status, path).toBe(304);
        expect(revalidated.headers.get('etag'), path).toBe(kept.headers.get('etag'));
        expect(revalidated.headers.get('content-security-policy'), path).toBe(kept.headers.get('content-security-policy'));

        const head = await fetch(server.url + path, { method: 'HEAD', headers: { 'x-forwarded-proto': 'https' } });
        expect(head.status, path).toBe(200);
        expect(await head.text(), path).toBe('');
        expect(head.headers.get('content-length'), path).toBe(kept.headers.get('content-length'));
        // X-Forwarded-Proto is believed only when SITE_URL is https: here it is not, so no HSTS, as from the app.
        expect(head.headers.get('strict-transport-security'), path).toBeNull();
      }
      // A query string is the app's (and never kept): same list, no shared-cache headers.
      const queried = await fetch(`${server.url}/api/blog-posts?page=1`);
      expect(queried.headers.get('cache-control')).toBe('no-store');
      // Every answer gets its request line, the kept ones included.
      await server.waitForLine((line) => line.includes('"method":"HEAD"') && line.includes('"path":"/api/testimonials"'));
      const lines = logLines(server.stdout).filter((line) => line.msg === 'request' && line.path === '/api/testimonials');
      expect(lines.map((line) => [line.method, line.status])).toEqual([
        ['GET', 200],
        ['GET', 200],
        ['GET', 304],
        ['HEAD', 200],
      ]);
    } finally {
      server.child.kill();
      await server.exited;
      await database.drop();
    }
  });
});
