/**
 * The blog (SPEC §2 /blog, /blog/{slug}, /external-articles; §8 empty states) and the feeds
 * (DOMAIN.md Publishing: sitemap, RSS, robots). The server is seeded with 8 published posts, 1 draft
 * and no external articles. External articles are written by the feed fetcher, not the API, so the
 * tests that need them insert rows straight into the database and ask the server to republish.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { firm } from '../../src/config/firm.ts';
import { authorBios, sampleArticles } from '../../src/content/samples.ts';
import { practiceAreaLabels } from '../../src/shared/constants.ts';
import type { PublicBlogPost, PublicBlogPostSummary } from '../../src/shared/public-api.ts';
import { expectNoAxeViolations, expectNoAxeViolationsInEveryMode, screenPath, screenshot, watchConsole } from '../support/e2e.ts';
import { newestCodeTo } from '../support/held-mail.ts';

test.describe.configure({ mode: 'serial' });

const dataDir = process.env.E2E_DATA_DIR!;
const dbPath = join(dataDir, 'site.db');

const section = (page: Page, key: string) => page.locator(`section[data-component="${key}"]`);

async function hydrated(page: Page, component: string) {
  const island = page.locator(`astro-island[component-url*="${component}"]`).first();
  await island.scrollIntoViewIfNeeded();
  await expect(island).not.toHaveAttribute('ssr');
}

async function publishedPosts(request: APIRequestContext) {
  return (await (await request.get('/api/blog-posts')).json()) as PublicBlogPostSummary[];
}

function draftSlug(): string {
  const db = new Database(dbPath, { readonly: true });
  try {
    const row = db.prepare('select slug from blog_posts where is_published = 0 order by created_at limit 1').get() as { slug: string } | undefined;
    expect(row, 'the seeded draft').toBeTruthy();
    return row!.slug;
  } finally {
    db.close();
  }
}

/** An admin access token from the embedded identity service (ADMIN_EMAILS is '@e2e.example.com'). */
async function adminToken(request: APIRequestContext, label: string): Promise<string> {
  const PASSWORD = 'Blog-Spec-Pass-1';
  const username = `blog-${label}-${Date.now()}`;
  const email = `${username}@e2e.example.com`;
  const { userPoolClientId } = (await (await request.get('/api/identity/config')).json()) as { userPoolClientId: string };
  const call = async (action: string, body: object) => {
    const res = await request.post('/api/identity/cognito', {
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${action}` },
      data: JSON.stringify({ ClientId: userPoolClientId, ...body }),
    });
    expect(res.ok(), `${action}: ${await res.text()}`).toBe(true);
    return res.json();
  };
  await call('SignUp', { Username: username, Password: PASSWORD, UserAttributes: [{ Name: 'email', Value: email }] });
  let code: string | undefined;
  await expect
    .poll(async () => {
      code = await newestCodeTo(email);
      return code;
    })
    .toMatch(/^\d{6}$/);
  await call('ConfirmSignUp', { Username: username, ConfirmationCode: code });
  const auth = await call('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: username, PASSWORD } });
  return auth.AuthenticationResult.AccessToken as string;
}

/** Content changed outside the API: the server re-renders its stored pages. */
async function republish(request: APIRequestContext, token: string) {
  const res = await request.post('/api/admin/publishing/republish', { headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(202);
}

// ---------------------------------------------------------------------------------------------
// /blog

test('/blog lists every published article with its category, author and date, newest first', async ({ page, request }, info) => {
  const consoleErrors = watchConsole(page);
  const posts = await publishedPosts(request);
  expect(posts).toHaveLength(8);
  const res = await page.goto('/blog');
  expect(res?.status()).toBe(200);
  await expect(page).toHaveTitle(`Legal News & Articles | ${firm.name}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Legal News & Insights');
  const list = section(page, 'blog_articles');
  const cards = list.getByRole('article');
  await expect(cards).toHaveCount(8);
  for (const [i, post] of posts.entries()) {
    await expect(cards.nth(i).getByRole('link', { name: post.title })).toHaveAttribute('href', `/blog/${post.slug}`);
    await expect(cards.nth(i)).toContainText(practiceAreaLabels[post.category]!);
    await expect(cards.nth(i)).toContainText(post.author);
  }
  await screenshot(page, info, 'blog', { fromTop: true, blur: true, unhover: true });
  consoleErrors.expectNone();
});

test('/blog search and category filter narrow the list; no match shows No Articles Found and Clear Filters', async ({ page, request }, info) => {
  const consoleErrors = watchConsole(page);
  const posts = await publishedPosts(request);
  await page.goto('/blog');
  const list = section(page, 'blog_articles');
  const cards = list.getByRole('article');
  const search = list.getByRole('searchbox', { name: 'Search articles' });
  const category = list.getByRole('combobox', { name: 'Category' });
  // The page loads no script for the search until the visitor reaches into it (client:interaction).
  await expect(page.locator('astro-island[component-url*="BlogExplorer"]')).toHaveAttribute('ssr', '');

  // Text search over title, excerpt and author, typed at once: what was typed before the island
  // hydrated is what it searches for.
  await search.fill('custody');
  await expect(page.locator('astro-island[component-url*="BlogExplorer"]')).not.toHaveAttribute('ssr');
  await expect(search).toHaveValue('custody');
  const custody = posts.filter((p) => `${p.title} ${p.excerpt}`.toLowerCase().includes('custody'));
  expect(custody.length).toBeGreaterThan(0);
  await expect(cards).toHaveCount(custody.length);
  await expect(list.getByRole('status')).toHaveText(`${custody.length} of ${posts.length} articles shown`);

  // Category filter (SPEC §2: all, estate-planning, family-law, divorce, probate).
  await search.fill('');
  await expect(category.locator('option')).toHaveText(['All Categories', 'Estate Planning', 'Family Law', 'Divorce', 'Probate']);
  for (const value of ['estate-planning', 'family-law', 'divorce', 'probate']) {
    await category.selectOption(value);
    const expected = posts.filter((p) => p.category === value);
    await expect(cards).toHaveCount(expected.length);
    for (const post of expected) await expect(list.getByRole('link', { name: post.title })).toBeVisible();
  }

  // Both at once, then nothing at all.
  await category.selectOption('probate');
  await search.fill('zzz-no-such-article');
  await expect(cards).toHaveCount(0);
  await expect(list.getByRole('heading', { name: 'No Articles Found' })).toBeVisible();
  await list.scrollIntoViewIfNeeded();
  await screenshot(page, info, 'blog-no-results', { fullPage: false });
  await expectNoAxeViolations(page);
  await list.getByRole('button', { name: 'Clear Filters' }).click();
  await expect(cards).toHaveCount(posts.length);
  await expect(search).toHaveValue('');
  await expect(search).toBeFocused();
  await expect(category).toHaveValue('all');
  consoleErrors.expectNone();
});

test.describe('with more articles than fit on a page', () => {
  const EXTRA = 10; // with the 8 seeded: 18, so /blog holds 12 and /blog/page/2 the 6 oldest
  let token = '';
  const ids: string[] = [];

  /** Older than every seeded post, so they fill page 2 and the seeded list above them is unchanged. */
  test.beforeAll(async ({ request }, info) => {
    token = await adminToken(request, `pages-${info.project.name}`);
    const db = new Database(dbPath);
    try {
      const add = db.prepare(
        `insert into blog_posts (id, title, slug, excerpt, content, category, author, is_published, published_at, created_at, updated_at)
         values (?, ?, ?, ?, '<p>From the archive.</p>', 'probate', ?, 1, ?, ?, ?)`,
      );
      for (let i = 1; i <= EXTRA; i++) {
        const id = crypto.randomUUID();
        const at = Date.UTC(2001, 0, 20 - i);
        add.run(id, `Archive note ${i}`, `archive-note-${i}-${info.project.name}`, `An older note, number ${i}.`, firm.name, at, at, at);
        ids.push(id);
      }
    } finally {
      db.close();
    }
    await republish(request, token);
  });

  test.afterAll(async ({ request }) => {
    const db = new Database(dbPath);
    try {
      for (const id of ids) db.prepare('delete from blog_posts where id = ?').run(id);
    } finally {
      db.close();
    }
    await republish(request, token);
  });

  test('/blog shows the newest 12, the older ones are a page away, and search covers every page', async ({ page, request }, info) => {
    const consoleErrors = watchConsole(page);
    await expect.poll(async () => (await publishedPosts(request)).length).toBe(8 + EXTRA);
    await expect.poll(async () => (await (await request.get('/blog')).text()).includes('href="/blog/page/2"')).toBe(true);
    await page.goto('/blog');
    const list = section(page, 'blog_articles');
    await expect(list.getByRole('article')).toHaveCount(12);
    await expect(list.getByRole('status')).toHaveText(`${8 + EXTRA} articles`);
    const pages = page.getByRole('navigation', { name: 'Article pages' });
    await expect(pages.getByRole('link', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');

    await pages.getByRole('link', { name: 'Older articles' }).click();
    await expect(page).toHaveURL(/\/blog\/page\/2$/);
    await expect(page).toHaveTitle(`Legal News & Articles, Page 2 of 2 | ${firm.name}`);
    await expect(page.getByText('Page 2 of 2: older articles')).toBeVisible();
    await expect(list.getByRole('article')).toHaveCount(6);
    await expect(list.getByRole('link', { name: 'Archive note 10' })).toBeVisible();
    await screenshot(page, info, 'blog-page-2', { fromTop: true, blur: true, unhover: true });
    await expectNoAxeViolations(page);

    // Back on /blog, a search finds an article that is only on page 2 (the island fetches the whole list).
    await pages.getByRole('link', { name: 'Newer articles' }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await list.getByRole('searchbox', { name: 'Search articles' }).fill('archive note 10');
    await expect(list.getByRole('article')).toHaveCount(1);
    await expect(list.getByRole('link', { name: 'Archive note 10' })).toHaveAttribute('href', `/blog/archive-note-10-${info.project.name}`);
    await expect(list.getByRole('status')).toHaveText(`1 of ${8 + EXTRA} articles shown`);
    await list.getByRole('combobox', { name: 'Category' }).selectOption('probate');
    await list.getByRole('searchbox', { name: 'Search articles' }).fill('archive');
    await expect(list.getByRole('article')).toHaveCount(EXTRA);
    consoleErrors.expectNone();
  });

  test('/blog/page/1 is /blog, and a page past the last is Page Not Found', { tag: '@any-width' }, async ({ request }) => {
    const first = await request.get('/blog/page/1', { maxRedirects: 0 });
    expect(first.status()).toBe(301);
    expect(first.headers().location).toBe('/blog');
    const past = await request.get('/blog/page/3');
    expect(past.status()).toBe(404);
    expect(await past.text()).toContain('Page Not Found');
  });
});

test('/blog without external articles shows their empty state', async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await page.goto('/blog');
  const external = section(page, 'external_blog_articles');
  await expect(external.getByRole('heading', { name: 'No External Articles Available' })).toBeVisible();
  await expect(external).toContainText('External blog sources have not been configured or no articles have been fetched yet.');
  await expect(external.getByRole('link', { name: /View All/ })).toHaveCount(0);
  consoleErrors.expectNone();
});

test('/blog newsletter box says sign-up is not available yet and sends nothing', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  await page.goto('/blog');
  await hydrated(page, 'NewsletterSignup');
  const box = section(page, 'newsletter_signup');
  const sent: string[] = [];
  page.on('request', (req) => req.method() !== 'GET' && sent.push(`${req.method()} ${req.url()}`));
  await box.getByLabel('Email address').fill('reader@example.com');
  await box.getByRole('button', { name: 'Subscribe' }).click();
  const status = box.getByRole('status');
  await expect(status).toContainText('Newsletter sign-up is not available yet');
  await expect(status).toContainText('has not been saved');
  await expect(status.getByRole('link', { name: firm.phone })).toHaveAttribute('href', firm.phoneHref);
  await expect(status.getByRole('link', { name: 'contact page' })).toHaveAttribute('href', '/contact');
  await expect(page).toHaveURL(/\/blog$/);
  expect(sent).toEqual([]);
  await box.screenshot({ path: screenPath(info, 'blog-newsletter') });
  await expectNoAxeViolations(page);
  consoleErrors.expectNone();
});

// ---------------------------------------------------------------------------------------------
// /blog/{slug}

test('an article page shows every part SPEC §2 lists, with its meta and JSON-LD', async ({ page, request }, info) => {
  const consoleErrors = watchConsole(page);
  const [summary] = await publishedPosts(request);
  const post = (await (await request.get(`/api/blog-posts/${summary!.slug}`)).json()) as PublicBlogPost;
  const res = await page.goto(`/blog/${post.slug}`);
  expect(res?.status()).toBe(200);
  // The firm's name follows while the whole title fits in a search result (70 characters).
  const full = `${post.title} | ${firm.name}`;
  await expect(page).toHaveTitle(full.length <= 70 ? full : post.title);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(post.title);

  const article = page.getByRole('main').getByRole('article');
  await expect(article).toContainText(`Category: ${practiceAreaLabels[post.category]}`);
  const meta = article.getByTestId('article-meta');
  const expectedDate = new Date(post.publishedAt!).toLocaleDateString('en-US', { timeZone: firm.timeZone, year: 'numeric', month: 'long', day: 'numeric' });
  await expect(meta.locator('time')).toHaveText(expectedDate);
  await expect(meta.locator('time')).toHaveAttribute('datetime', post.publishedAt!);
  await expect(meta).toContainText(`By ${post.author}`);
  await expect(meta).toContainText('5 min read');

  // Share links: three networks, plain links in a new tab, carrying the article's absolute URL.
  const share = article.getByRole('list', { name: 'Share this article:' }).getByRole('link');
  await expect(share).toHaveCount(3);
  const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
  expect(canonical).toMatch(new RegExp(`/blog/${post.slug}$`));
  // Open Graph's article: its dates and section.
  await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'article');
  await expect(page.locator('meta[property="article:published_time"]')).toHaveAttribute('content', post.publishedAt!);
  await expect(page.locator('meta[property="article:modified_time"]')).toHaveAttribute('content', post.updatedAt);
  await expect(page.locator('meta[property="article:section"]')).toHaveCount(1);
  for (const [i, host] of ['facebook.com', 'x.com', 'linkedin.com'].entries()) {
    await expect(share.nth(i)).toHaveAttribute('href', new RegExp(`^https://(www\\.)?${host.replace('.', '\\.')}/`));
    expect(await share.nth(i).getAttribute('href')).toContain(encodeURIComponent(canonical!));
    await expect(share.nth(i)).toHaveAttribute('target', '_blank');
    await expect(share.nth(i)).toHaveAttribute('rel', 'noopener noreferrer');
  }
  await expect(share.nth(0)).toHaveAccessibleName('Share on Facebook (opens in a new tab)');

  // The article HTML, from the API.
  const firstHeading = /<h2>([^<]+)<\/h2>/.exec(post.content)?.[1];
  expect(firstHeading).toBeTruthy();
  await expect(article.getByRole('heading', { level: 2, name: firstHeading! })).toBeVisible();
  await expect(article).toContainText('general information, not legal advice');

  // Author bio, call to action, Back to Blog.
  await expect(article.getByRole('heading', { name: `About the author: ${post.author}` })).toBeVisible();
  await expect(article).toContainText(authorBios[post.author]!.slice(0, 60));
  const cta = article.locator('section[aria-labelledby="cta-title"]');
  await expect(cta.getByRole('link', { name: 'Schedule Consultation' })).toHaveAttribute('data-booking-trigger', '');
  await expect(cta.getByRole('link', { name: `Call ${firm.phone}` })).toHaveAttribute('href', firm.phoneHref);
  await expect(article.getByRole('link', { name: 'Back to Blog' })).toHaveAttribute('href', '/blog');

  // Meta: description from the excerpt, Open Graph type article, JSON-LD BlogPosting.
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', post.excerpt.length <= 160 ? post.excerpt : /…$/);
  await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'article');
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
  const ld = (await page.locator('script[type="application/ld+json"]').allTextContents())
    .map((t) => JSON.parse(t) as Record<string, unknown>)
    .find((d) => d['@type'] === 'BlogPosting');
  expect(ld).toMatchObject({
    headline: post.title,
    datePublished: post.publishedAt,
    author: { name: post.author },
    publisher: { '@type': 'Organization', name: firm.name },
  });
  // No script ships for the article itself (share links are plain links).
  await expect(article.locator('astro-island')).toHaveCount(0);
  await screenshot(page, info, 'blog-article', { fromTop: true, blur: true, unhover: true });
  consoleErrors.expectNone();
});

test("the draft's slug and an unknown slug answer 404 with 'Article Not Found' and Back to Blog", async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  for (const slug of [draftSlug(), 'no-such-article-anywhere']) {
    const res = await page.goto(`/blog/${slug}`);
    expect(res?.status(), slug).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Article Not Found');
    await expect(page.getByRole('main').getByRole('link', { name: 'Back to Blog' })).toHaveAttribute('href', '/blog');
    await expect(page).toHaveTitle(`Article Not Found | ${firm.name}`);
    // One page for every missing slug (the server renders it once): no URL of its own.
    await expect(page.locator('link[rel="canonical"], meta[property="og:url"]')).toHaveCount(0);
  }
  await screenshot(page, info, 'blog-article-not-found', { fromTop: true, blur: true, unhover: true });
  // The browser logs the 404 document itself.
  consoleErrors.expectOnlyFailedRequests(404);
});

test('a built-in sample article (listed when the API has none) keeps working at its slug, unlisted', async ({ page, request }) => {
  const consoleErrors = watchConsole(page);
  const [sample] = sampleArticles;
  const res = await page.goto(`/blog/${sample!.slug}`);
  expect(res?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(sample!.title);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
  await expect(page.getByRole('main').getByRole('link', { name: 'Back to Blog' })).toBeVisible();
  expect(await (await request.get('/sitemap.xml')).text()).not.toContain(sample!.slug);
  consoleErrors.expectNone();
});

test('a renamed article answers its old slug with a 301 to the new one', { tag: '@any-width' }, async ({ request }, info) => {
  const token = await adminToken(request, `rename-${info.project.name}`);
  const headers = { authorization: `Bearer ${token}` };
  const stamp = `${info.project.name}-${Date.now()}`;
  const created = await request.post('/api/admin/blog-posts', {
    headers,
    data: {
      title: `Renamed ${stamp}`,
      slug: `before-${stamp}`,
      excerpt: 'A post that moves.',
      content: '<p>Body.</p>',
      category: 'probate',
      isPublished: true,
    },
  });
  expect(created.status()).toBe(201);
  const post = await created.json();
  try {
    expect((await request.get(`/blog/before-${stamp}`)).status()).toBe(200);
    const renamed = await request.put(`/api/admin/blog-posts/${post.id}`, { headers, data: { ...post, slug: `after-${stamp}` } });
    expect(renamed.status()).toBe(200);
    expect((await renamed.json()).slug).toBe(`after-${stamp}`);
    await expect(async () => {
      const res = await request.get(`/blog/before-${stamp}`, { maxRedirects: 0 });
      expect(res.status()).toBe(301);
      expect(res.headers().location).toBe(`/blog/after-${stamp}`);
    }).toPass({ timeout: 15_000, intervals: [25] });
    expect((await request.get(`/blog/after-${stamp}`)).status()).toBe(200);
  } finally {
    await request.delete(`/api/admin/blog-posts/${post.id}`, { headers });
    // The server republishes the feeds right after the call returns: later tests read them.
    await expect(async () => {
      expect(await (await request.get('/sitemap.xml')).text()).not.toContain(stamp);
      expect(await (await request.get('/rss.xml')).text()).not.toContain(stamp);
    }).toPass({ timeout: 5000 });
  }
});

// ---------------------------------------------------------------------------------------------
// Feeds

test('the sitemap lists every public route and every published article, not the draft', { tag: '@any-width' }, async ({ request }) => {
  const posts = await publishedPosts(request);
  const res = await request.get('/sitemap.xml');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('xml');
  const body = await res.text();
  const locs = [...body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
  for (const loc of locs) expect(loc).toMatch(/^https?:\/\/[^/]+\//);
  const paths = locs.map((loc) => new URL(loc).pathname);
  for (const path of ['/', '/about', '/attorneys', '/practice-areas', '/probate-calculator', '/blog', '/external-articles', '/contact']) {
    expect(paths).toContain(path);
  }
  for (const post of posts) expect(paths).toContain(`/blog/${post.slug}`);
  expect(paths).not.toContain(`/blog/${draftSlug()}`);
  expect(paths.filter((p) => p.startsWith('/blog/'))).toHaveLength(posts.length);
  expect(paths).not.toContain('/login');
  expect([...body.matchAll(/<lastmod>([^<]+)<\/lastmod>/g)].length).toBeGreaterThanOrEqual(posts.length);
});

test('the RSS feed parses and lists the published articles, newest first', { tag: '@any-width' }, async ({ page, request }) => {
  const posts = await publishedPosts(request);
  const res = await request.get('/rss.xml');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('application/rss+xml');
  const text = await res.text();
  await page.goto('/robots.txt');
  const feed = await page.evaluate((xml) => {
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    if (doc.querySelector('parsererror')) return null;
    return {
      version: doc.documentElement.getAttribute('version'),
      items: [...doc.querySelectorAll('channel > item')].map((item) => ({
        title: item.querySelector('title')?.textContent,
        link: item.querySelector('link')?.textContent,
        guid: item.querySelector('guid')?.textContent,
        pubDate: item.querySelector('pubDate')?.textContent,
        description: item.querySelector('description')?.textContent,
      })),
    };
  }, text);
  expect(feed, 'the feed is well-formed XML').not.toBeNull();
  expect(feed!.version).toBe('2.0');
  expect(feed!.items.map((i) => i.title)).toEqual(posts.map((p) => p.title));
  for (const [i, post] of posts.entries()) {
    const item = feed!.items[i]!;
    expect(new URL(item.link!).pathname).toBe(`/blog/${post.slug}`);
    expect(item.guid).toBe(item.link);
    expect(Date.parse(item.pubDate!)).toBe(Date.parse(post.publishedAt!));
    expect(item.description).toBe(post.excerpt);
  }
  expect(text).not.toContain(draftSlug());
});

test('robots.txt allows all but /admin and /api and names the sitemap', { tag: '@any-width' }, async ({ request }) => {
  const res = await request.get('/robots.txt');
  expect(res.status()).toBe(200);
  const text = await res.text();
  expect(text).toMatch(/^User-agent: \*$/m);
  expect(text).toMatch(/^Allow: \/$/m);
  expect(text).toMatch(/^Disallow: \/admin$/m);
  expect(text).toMatch(/^Disallow: \/api$/m);
  expect(text).toMatch(/^Sitemap: https?:\/\/[^/]+\/sitemap\.xml$/m);
});

// ---------------------------------------------------------------------------------------------
// External articles: empty first, then with rows inserted into the database.

test('/external-articles without articles shows the empty state and Back to News twice', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  const res = await page.goto('/external-articles');
  expect(res?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Legal News From Around the Web');
  await expect(page.getByRole('heading', { name: 'No External Articles Available' })).toBeVisible();
  await expect(page.getByText('External blog sources have not been configured or no articles have been fetched yet.')).toBeVisible();
  const back = page.getByRole('main').getByRole('link', { name: 'Back to News' });
  await expect(back).toHaveCount(2);
  for (const link of await back.all()) await expect(link).toHaveAttribute('href', '/blog');
  await screenshot(page, info, 'external-articles-empty', { fromTop: true, blur: true, unhover: true });
  consoleErrors.expectNone();
});

test.describe('with external articles', () => {
  const IMAGES = 'https://images.e2e.example.com';
  const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
  let token = '';
  const sourceIds: string[] = [];
  const long = 'Courts across California are adjusting procedures for family law filings. '.repeat(6).trim();

  /** Two sources: 10 articles from one (its displayLimit 10), 2 from the other: 12 in all. */
  test.beforeAll(async ({ request }, info) => {
    token = await adminToken(request, `external-${info.project.name}`);
    const db = new Database(dbPath);
    try {
      const now = Date.now();
      const addSource = db.prepare(
        'insert into blog_sources (id, name, url, type, is_active, display_limit, created_at, updated_at) values (?, ?, ?, ?, 1, ?, ?, ?)',
      );
      const addArticle = db.prepare(
        `insert into external_blog_articles (id, source_id, title, url, excerpt, author, published_at, image_url, is_visible, fetched_at, created_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
      );
      const stamp = `${info.project.name}-${now}`;
      const bar = `src-bar-${stamp}`;
      const journal = `src-journal-${stamp}`;
      addSource.run(bar, 'State Bar News', 'https://bar.e2e.example.com/feed.xml', 'rss', 10, now, now);
      addSource.run(journal, 'Family Law Journal', 'https://journal.e2e.example.com/feed.xml', 'rss', 5, now, now);
      sourceIds.push(bar, journal);
      for (let i = 1; i <= 10; i++) {
        const image = i === 1 ? `${IMAGES}/broken.png` : i === 2 ? `${IMAGES}/good.png` : null;
        addArticle.run(
          `ext-bar-${i}-${stamp}`,
          bar,
          `Bar update number ${i}`,
          `https://bar.e2e.example.com/news/${i}`,
          i === 1 ? long : `Short summary ${i}.`,
          'Bar Staff',
          now - i * 3_600_000,
          image,
          now,
          now,
        );
      }
      addArticle.run(
        `ext-journal-1-${stamp}`,
        journal,
        'Probate reform bill advances',
        'https://journal.e2e.example.com/probate-reform',
        'A new bill on probate.',
        'J. Writer',
        now - 30 * 60_000,
        null,
        now,
        now,
      );
      addArticle.run(
        `ext-journal-2-${stamp}`,
        journal,
        'Custody mediation study',
        'https://journal.e2e.example.com/custody-study',
        'A study on <b>custody</b> mediation.',
        null,
        now - 20 * 3_600_000,
        null,
        now,
        now,
      );
    } finally {
      db.close();
    }
    await republish(request, token);
    await expect(async () => {
      expect(await (await request.get('/external-articles')).text()).toContain('Custody mediation study');
      expect(await (await request.get('/blog')).text()).toContain('Probate reform bill advances');
    }).toPass({ timeout: 10_000 });
  });

  test.afterAll(async ({ request }) => {
    const db = new Database(dbPath);
    try {
      for (const id of sourceIds) db.prepare('delete from blog_sources where id = ?').run(id);
    } finally {
      db.close();
    }
    await republish(request, token);
    await expect(async () => {
      expect(await (await request.get('/external-articles')).text()).toContain('No External Articles Available');
    }).toPass({ timeout: 10_000 });
  });

  async function routeImages(page: Page) {
    await page.route(`${IMAGES}/**`, (route) =>
      route.request().url().endsWith('/good.png')
        ? route.fulfill({ status: 200, contentType: 'image/png', body: PNG })
        : route.fulfill({ status: 200, contentType: 'image/png', body: Buffer.from('not an image') }),
    );
  }

  test('/blog shows 8 of them with View All, excerpts cut at 200, broken images hidden', async ({ page }, info) => {
    const consoleErrors = watchConsole(page);
    await routeImages(page);
    await page.goto('/blog');
    const external = section(page, 'external_blog_articles');
    await hydrated(page, 'ExternalArticles');
    const cards = external.getByRole('article');
    await expect(cards).toHaveCount(8);
    await expect(external.getByRole('link', { name: /View All/ })).toHaveAttribute('href', '/external-articles');
    // Newest first: the journal's 30-minute-old article leads.
    await expect(cards.first()).toContainText('Probate reform bill advances');
    const link = cards.first().getByRole('link', { name: /Probate reform bill advances/ });
    await expect(link).toHaveAttribute('href', 'https://journal.e2e.example.com/probate-reform');
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');

    const longCard = cards.filter({ hasText: 'Bar update number 1' }).filter({ hasNotText: 'Bar update number 10' });
    const excerpt = (await longCard.getByText(/^Courts across California/).textContent())!;
    expect(excerpt.length).toBeLessThanOrEqual(200);
    expect(excerpt.endsWith('…')).toBe(true);
    await expect(longCard.locator('img')).toHaveCount(0);
    await expect(cards.filter({ hasText: 'Bar update number 2' }).locator('img')).toHaveCount(1);
    await external.scrollIntoViewIfNeeded();
    await screenshot(page, info, 'blog-external', { fromTop: true, blur: true, unhover: true });
    consoleErrors.expectNone();
  });

  test('/external-articles searches and filters by source, with Clear Filters on no match', async ({ page }, info) => {
    const consoleErrors = watchConsole(page);
    await routeImages(page);
    await page.goto('/external-articles');
    await hydrated(page, 'ExternalArticles');
    const main = page.getByRole('main');
    const cards = main.getByRole('article');
    await expect(cards).toHaveCount(12);
    // Feed markup is shown as text, not HTML.
    await expect(cards.filter({ hasText: 'Custody mediation study' })).toContainText('A study on custody mediation.');
    await expect(main.locator('article b')).toHaveCount(0);

    const source = main.getByRole('combobox', { name: 'Source' });
    await expect(source.locator('option')).toHaveText(['All Sources', 'Family Law Journal', 'State Bar News']);
    await source.selectOption('Family Law Journal');
    await expect(cards).toHaveCount(2);
    await source.selectOption('State Bar News');
    await expect(cards).toHaveCount(10);
    await source.selectOption('all');

    const search = main.getByRole('searchbox', { name: 'Search news' });
    await search.fill('custody');
    await expect(cards).toHaveCount(1);
    await search.fill('nothing-matches-this');
    await expect(main.getByRole('heading', { name: 'No Articles Found' })).toBeVisible();
    await main.getByRole('button', { name: 'Clear Filters' }).click();
    await expect(cards).toHaveCount(12);
    await expect(cards.filter({ hasText: 'Bar update number 1' }).filter({ hasNotText: 'number 10' }).locator('img')).toHaveCount(0);
    await expect(main.getByRole('link', { name: 'Back to News' })).toHaveCount(2);
    await screenshot(page, info, 'external-articles', { fromTop: true, blur: true, unhover: true });
    consoleErrors.expectNone();
  });

  test('/external-articles with articles has no axe violations in any visitor mode', async ({ page }) => {
    await routeImages(page);
    await page.goto('/external-articles');
    await hydrated(page, 'ExternalArticles');
    // In full in light mode, by the colour rules in dark and warm.
    await expectNoAxeViolationsInEveryMode(page, { fromTop: true });
  });
});
