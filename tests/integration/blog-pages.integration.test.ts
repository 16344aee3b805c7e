/**
 * Republishing whose cost does not grow with the content: the real server with the built site and 30
 * published posts. /blog holds the newest 12 and links the older pages; the RSS feed carries the
 * latest 20; the sitemap lists every article with its last change, from one read of the list; a
 * publish shows on /blog and the feed at once, and a later page that was stored shows the shifted list
 * the next time it is asked for.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { operatorAdminToken } from '../../bench/identity.ts';
import { openDatabase } from '../../db/client.ts';
import { logLines, serverDatabase, startServerProcess, type ServerDatabase, type ServerProcess } from '../support/server-process.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const POSTS = 30;

let database: ServerDatabase;
let server: ServerProcess;
let token: string;

/** Post i (1 the oldest) was published on day i of 2025 and last edited a day later. */
const day = (i: number) => new Date(Date.UTC(2025, 0, i, 17));

beforeAll(async () => {
  execFileSync('flock', ['/tmp/firm-site-build.lock', process.execPath, 'scripts/build-if-needed.ts'], { cwd: root, stdio: 'ignore' });
  database = await serverDatabase('sqlite');
  const db = await openDatabase({ sqlitePath: database.env.SQLITE_PATH! });
  await db.db.insert(db.t.blogPosts).values(
    Array.from({ length: POSTS }, (_, k) => ({
      title: `Article number ${k + 1}`,
      slug: `article-${k + 1}`,
      excerpt: `Excerpt ${k + 1}.`,
      content: `<p>Body ${k + 1}.</p>`,
      category: k % 2 ? 'probate' : 'family-law',
      isPublished: true,
      publishedAt: day(k + 1),
      updatedAt: day(k + 2),
    })),
  );
  await db.db.insert(db.t.blogPosts).values({ title: 'A draft', slug: 'a-draft', excerpt: 'x', content: '<p>x</p>', category: 'probate', isPublished: false });
  await db.close();
  server = await startServerProcess({ ...database.env, LOG_QUIET: 'false' }, { site: true });
  token = await operatorAdminToken(server.url, database.env);
}, 240_000);

afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  await database?.drop();
});

const get = async (path: string) => {
  const res = await fetch(`${server.url}${path}`, { redirect: 'manual' });
  return { status: res.status, text: await res.text(), location: res.headers.get('location') };
};
/** The article slugs a list page links, in order. */
const listed = (html: string) => [...html.matchAll(/<h3[^>]*>\s*<a href="\/blog\/([^"]+)"/g)].map((m) => m[1]);
const xml = new XMLParser();

/** Republishing follows the admin's call (goal: within 1 s): asks until `check` holds, for up to 10 s. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const until = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

it('shows the newest 12 articles on /blog and the older ones on numbered pages, with links between them', async () => {
  const first = await get('/blog');
  expect(first.status).toBe(200);
  expect(listed(first.text)).toEqual(Array.from({ length: 12 }, (_, i) => `article-${POSTS - i}`));
  expect(first.text).toContain('30 articles');
  expect(first.text).toContain('href="/blog/page/2" rel="next"');
  expect(first.text).toContain('href="/blog/page/3"');

  const third = await get('/blog/page/3');
  expect(third.status).toBe(200);
  expect(listed(third.text)).toEqual(['article-6', 'article-5', 'article-4', 'article-3', 'article-2', 'article-1']);
  expect(third.text).toContain('Page 3 of 3');
  expect(third.text).toContain('href="/blog/page/2" rel="prev"');
  expect(third.text).toMatch(/aria-current="page"[^>]*>\s*<span class="sr-only">Page <\/span>\s*3/);
  expect(third.text).not.toContain('rel="next"');

  expect(await get('/blog/page/1')).toMatchObject({ status: 301, location: '/blog' });
  const past = await get('/blog/page/4');
  expect(past.status).toBe(404);
  expect(past.text).toContain('Page Not Found');
  expect((await get('/blog/page/04')).status).toBe(404);
});

it('feeds the latest 20 articles, and maps every article with its last change from one read of the list', async () => {
  const feed = xml.parse((await get('/rss.xml')).text);
  const items = feed.rss.channel.item as { link: string }[];
  expect(items).toHaveLength(20);
  expect(items[0]!.link).toMatch(/\/blog\/article-30$/);
  expect(items.at(-1)!.link).toMatch(/\/blog\/article-11$/);

  const before = logLines(server.stdout).length;
  const sitemap = xml.parse((await get('/sitemap.xml')).text);
  const urls = sitemap.urlset.url as { loc: string; lastmod?: string }[];
  const article = (n: number) => urls.find((u) => u.loc.endsWith(`/blog/article-${n}`));
  expect(urls.filter((u) => u.loc.includes('/blog/article-'))).toHaveLength(POSTS);
  expect(article(7)!.lastmod).toBe(day(8).toISOString());
  expect(urls.some((u) => u.loc.endsWith('/blog/a-draft'))).toBe(false);
  // One request to the API for it (the list), not one per article.
  const apiCalls = logLines(server.stdout)
    .slice(before)
    .filter((l) => typeof l.path === 'string' && (l.path as string).startsWith('/api/blog-posts'));
  expect(apiCalls.map((l) => l.path)).toEqual(['/api/blog-posts']);
  expect((await get('/sitemap-1.xml')).status).toBe(404); // no index below 50,000 URLs
});

it('shows a new post on /blog and in the feed at once, and on a stored later page the next time it is asked for', async () => {
  expect(listed((await get('/blog/page/3')).text)[0]).toBe('article-6'); // stored
  const res = await fetch(`${server.url}/api/admin/blog-posts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Fresh news', slug: 'fresh-news', excerpt: 'New.', content: '<p>New.</p>', category: 'divorce', isPublished: true }),
  });
  expect(res.status).toBe(201);
  const blog = await eventually(
    () => get('/blog'),
    (page) => listed(page.text)[0] === 'fresh-news',
  );
  expect(listed(blog.text)[0]).toBe('fresh-news');
  const feed = await eventually(
    async () => xml.parse((await get('/rss.xml')).text),
    (doc) => /fresh-news$/.test(doc.rss.channel.item[0].link),
  );
  expect(feed.rss.channel.item[0].link).toMatch(/\/blog\/fresh-news$/);
  const third = await get('/blog/page/3');
  expect(listed(third.text)).toEqual(['article-7', 'article-6', 'article-5', 'article-4', 'article-3', 'article-2', 'article-1']);
  expect(third.text).toContain('31 articles');
});

it('keeps the last good pages when a republish cannot read the posts, instead of storing the built-in samples', async () => {
  const before = await get('/blog');
  expect(listed(before.text)[0]).toBe('fresh-news');
  const db = new BetterSqlite3(database.env.SQLITE_PATH!);
  const admin = { authorization: `Bearer ${token}` };
  try {
    // The posts cannot be read while this lasts (an outage of the database, as the pages see it).
    db.exec('alter table blog_posts rename to blog_posts_away');
    const res = await fetch(`${server.url}/api/admin/publishing/republish`, { method: 'POST', headers: admin });
    expect(res.status).toBe(202);
    // The site's renders of them answer 503 (the request log of the internal renders).
    const unreadable = () =>
      new Set(
        logLines(server.stdout)
          .filter((l) => l.msg === 'request' && l.status === 503 && (l.path === '/blog' || l.path === '/'))
          .map((l) => l.path),
      );
    expect(
      (
        await eventually(
          async () => unreadable(),
          (paths) => paths.size === 2,
        )
      ).size,
    ).toBe(2);
    for (const path of ['/blog', '/']) {
      const page = await get(path);
      expect(page.status, path).toBe(200);
      expect(page.text, path).toContain('fresh-news'); // the last good page, not the samples
    }
  } finally {
    db.exec('alter table blog_posts_away rename to blog_posts');
    db.close();
  }
  await fetch(`${server.url}/api/admin/publishing/republish`, { method: 'POST', headers: admin });
});

it("gives the site's own answers (stored pages, prerendered files, 304s, /theme.css, Astro's pages) an X-Request-Id and a log line", async () => {
  const ask = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}${path}`, { headers, redirect: 'manual' });
    await res.arrayBuffer();
    return res;
  };
  const stored = await ask('/blog', { 'x-request-id': 'cdn-trace-7' });
  expect([stored.status, stored.headers.get('x-request-id')]).toEqual([200, 'cdn-trace-7']);
  // The same page again, twice over its ETag: the second answer is 304, with its own id.
  const again = await ask('/blog', { 'if-none-match': stored.headers.get('etag')!, 'accept-encoding': 'br' });
  expect(again.status).toBe(304);
  expect(again.headers.get('x-request-id')).toMatch(/^[\w-]{20,}$/);
  expect(again.headers.get('x-request-id')).not.toBe('cdn-trace-7');
  for (const path of ['/about', '/theme.css', '/login', '/no-such-page']) {
    const res = await ask(path, { 'x-request-id': `trace-${path.length}` });
    expect(res.headers.get('x-request-id'), path).toBe(`trace-${path.length}`);
    expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
  }
  const lines = await eventually(
    async () => logLines(server.stdout).filter((l) => l.msg === 'request'),
    (found) => found.some((l) => l.requestId === 'trace-13'),
  );
  expect(lines).toContainEqual(expect.objectContaining({ requestId: 'cdn-trace-7', method: 'GET', path: '/blog', status: 200 }));
  expect(lines).toContainEqual(expect.objectContaining({ method: 'GET', path: '/blog', status: 304 }));
  expect(lines).toContainEqual(expect.objectContaining({ requestId: 'trace-13', path: '/no-such-page', status: 404 }));
});

it('gives each article its own link-preview card, a 1200 x 630 PNG kept with the page and redrawn when its title changes', async () => {
  const page = await get('/blog/article-5');
  expect(page.text).toContain(
    `<meta property="og:image" content="${new URL('/og/blog/article-5.png', page.text.match(/<link rel="canonical" href="([^"]+)"/)![1]).href}"`,
  );
  expect(page.text).toContain('<meta property="og:image:alt" content="Article number 5: an article by Pacific Crest Law Group"');

  const card = async (slug: string) => {
    const res = await fetch(`${server.url}/og/blog/${slug}.png`);
    const body = Buffer.from(await res.arrayBuffer());
    return { res, body };
  };
  const first = await card('article-5');
  expect(first.res.status).toBe(200);
  expect(first.res.headers.get('content-type')).toBe('image/png');
  // PNG signature, then IHDR's width and height.
  expect(first.body.subarray(1, 4).toString()).toBe('PNG');
  expect([first.body.readUInt32BE(16), first.body.readUInt32BE(20)]).toEqual([1200, 630]);
  // Kept by the CDN under the article's key, as its page is (purged together).
  expect(first.res.headers.get('cache-control')).toContain('public');
  const pageKeys = (await fetch(`${server.url}/blog/article-5`)).headers.get('surrogate-key')!;
  expect(first.res.headers.get('surrogate-key')).toBe(pageKeys);
  // Served from the store: the same bytes, no second drawing.
  expect((await card('article-5')).body.equals(first.body)).toBe(true);

  // Every article its own card; no card for a draft or an unknown slug.
  expect((await card('article-6')).body.equals(first.body)).toBe(false);
  expect((await card('a-draft')).res.status).toBe(404);
  expect((await card('no-such-article')).res.status).toBe(404);

  const post = (await (await fetch(`${server.url}/api/blog-posts/article-5`)).json()) as Record<string, unknown>;
  const { id, title: _title, slug, excerpt, content, category } = post;
  const res = await fetch(`${server.url}/api/admin/blog-posts/${id}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'A much better title for article five', slug, excerpt, content, category, isPublished: true }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const redrawn = await eventually(
    () => card('article-5'),
    (c) => !c.body.equals(first.body),
  );
  expect(redrawn.res.status).toBe(200);
  expect(redrawn.body.equals(first.body)).toBe(false);
});

it("puts a post's SEO title and description and its featured image in the page's title, meta, link preview and JSON-LD, and shows the image", async () => {
  const post = {
    title: 'Choosing a successor trustee',
    slug: 'choosing-a-successor-trustee',
    excerpt: 'Who should manage the trust after you.',
    content: '<p>Pick someone organised.</p>',
    category: 'estate-planning',
    isPublished: true,
    seoTitle: 'Successor Trustee: How to Choose | San Diego',
    seoDescription: 'What a successor trustee does in California and how to choose one.',
    featuredImageUrl: 'https://media.example.com/trustee.jpg',
    featuredImageAlt: 'Two people reviewing trust papers at a table',
  };
  const res = await fetch(`${server.url}/api/admin/blog-posts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(post),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const page = await eventually(
    () => get(`/blog/${post.slug}`),
    (p) => p.status === 200,
  );
  expect(page.text).toContain(`<title>${post.seoTitle}</title>`);
  expect(page.text).toContain(`<meta name="description" content="${post.seoDescription}">`);
  expect(page.text).toContain(`<meta property="og:image" content="${post.featuredImageUrl}">`);
  expect(page.text).toContain(`<meta property="og:image:alt" content="${post.featuredImageAlt}">`);
  // Its size is not known: none is claimed.
  expect(page.text).not.toContain('og:image:width');
  expect(page.text).toMatch(new RegExp(`<img src="${post.featuredImageUrl}" alt="${post.featuredImageAlt}" width="1200" height="630"`));
  const jsonLd = [...page.text.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
  expect(jsonLd.find((d) => d['@type'] === 'BlogPosting')).toMatchObject({
    headline: post.title,
    description: post.seoDescription,
    image: post.featuredImageUrl,
  });
  // The headline on the page stays the post's title.
  expect(page.text).toMatch(/<h1[^>]*>Choosing a successor trustee<\/h1>/);
});
