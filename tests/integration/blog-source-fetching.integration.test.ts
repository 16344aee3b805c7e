import { lookup as dnsLookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { backgroundFetchesSettled, FIRST_FETCH_GRACE_MS, fetchDueSources, fetchSource } from '../../api/blog-sources/blog-source-fetcher.ts';
import { isPrivateAddress } from '../../api/http/outbound-fetch.ts';
import { customApiConfig, customScraperConfig, FEED_API_KEY, feedPaths, startFeedServer, type FeedServer } from '../support/feed-server.ts';
import { forEachDialect, testDeps, type TestContext } from '../support/test-app.ts';

let feeds: FeedServer;
beforeAll(async () => {
  feeds = await startFeedServer();
});
afterAll(async () => {
  await feeds?.stop();
});

const NOW = new Date('2025-06-01T12:00:00.000Z');
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);
/** Small limits, so the slow and huge feeds fail fast. */
const small = { timeoutMs: 800, maxBytes: 512 * 1024, parseTimeoutMs: 3000 };

type Source = { id: string; [key: string]: any };

/** Creates a source through the API and waits for its first (background) fetch. */
async function createSource(ctx: TestContext, body: Record<string, unknown>): Promise<Source> {
  const res = await ctx.admin('POST', '/api/admin/blog-sources', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await backgroundFetchesSettled(ctx.deps);
  return res.body;
}

/**
 * A source written straight into the database an hour ago (by default): no first fetch, the
 * scheduler's to do.
 */
async function insertSource(
  ctx: TestContext,
  values: { name: string; url: string; type?: 'rss' | 'api' | 'scraper'; config?: string; isActive?: boolean; lastFetched?: Date | null; createdAt?: Date },
) {
  const { db, t } = ctx.database;
  const [row] = await db
    .insert(t.blogSources)
    .values({ createdAt: new Date(ctx.clock.now().getTime() - 60 * 60_000), ...values })
    .returning();
  return row!;
}

async function sourceRow(ctx: TestContext, id: string) {
  const { db, t } = ctx.database;
  const [row] = await db.select().from(t.blogSources).where(eq(t.blogSources.id, id));
  return row;
}

/** A source's stored articles, in the public order (newest first, undated last). */
async function articlesOf(ctx: TestContext, sourceId: string) {
  const { db, t } = ctx.database;
  const rows = await db
    .select()
    .from(t.externalBlogArticles)
    .where(eq(t.externalBlogArticles.sourceId, sourceId))
    .orderBy(asc(t.externalBlogArticles.createdAt));
  return rows.sort(
    (a, b) => (b.publishedAt?.getTime() ?? -Infinity) - (a.publishedAt?.getTime() ?? -Infinity) || b.fetchedAt.getTime() - a.fetchedAt.getTime(),
  );
}

/** What no stored article may carry, whatever the feed sent. */
function expectSafe(article: { content: string | null; excerpt: string | null; title: string; url: string; imageUrl: string | null }) {
  const stored = JSON.stringify(article).toLowerCase();
  for (const bad of ['<script', 'alert(', 'onerror', 'onclick', 'javascript:', '<iframe', '<style', 'style=', 'window.evil'])
    expect(stored, `${bad} in ${stored}`).not.toContain(bad);
  expect(article.url).toMatch(/^https?:\/\//);
  if (article.imageUrl) expect(article.imageUrl).toMatch(/^https?:\/\//);
}

const titles = (rows: { title: string }[]) => rows.map((r) => r.title);
const sampleTitles = ['Estate planning checklist for 2025', 'Probate basics & timelines', 'Trust vs. will'];
const sampleUrls = () => ['/posts/estate-planning-2025', '/posts/probate-basics', '/posts/trust-vs-will'].map((p) => feeds.url(p));

forEachDialect('blog source fetching', (ctx) => {
  beforeEach(() => {
    feeds.reset();
    ctx().clock.set(NOW);
  });
  afterEach(() => backgroundFetchesSettled(ctx().deps));

  it('fetches an RSS 2.0 feed as soon as the source is created, storing each field, sanitized', async () => {
    const changesBefore = ctx().changes.length;
    const res = await ctx().admin('POST', '/api/admin/blog-sources', { name: 'RSS news', url: feeds.url(feedPaths.rss) });
    // The 201 does not wait for the feed.
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ lastFetched: null, lastError: null, articleCount: 0 });
    await backgroundFetchesSettled(ctx().deps);
    expect(feeds.hits(feedPaths.rss)).toBe(1);

    const rows = await articlesOf(ctx(), res.body.id);
    expect(titles(rows)).toEqual(sampleTitles);
    expect(rows[0]).toMatchObject({
      title: 'Estate planning checklist for 2025',
      url: feeds.url('/posts/estate-planning-2025'),
      excerpt: 'What to review this year.',
      author: 'Jane Counsel',
      publishedAt: new Date('2025-03-01T16:00:00Z'),
      imageUrl: feeds.url('/images/estate.jpg'),
      externalId: 'estate-2025',
      isVisible: true,
    });
    // Formatting stays, relative links become absolute, everything executable is gone.
    expect(rows[0]!.content).toContain('<strong>bold</strong>');
    expect(rows[0]!.content).toContain(`href="${feeds.url('/relative/page')}"`);
    expect(rows[0]!.content).toContain('<p>Styled</p>');
    for (const row of rows) expectSafe(row);
    // No image of its own: the first image of its content, made absolute.
    expect(rows[1]).toMatchObject({
      title: 'Probate basics & timelines',
      author: 'Sam Probate',
      imageUrl: feeds.url('/images/probate.png'),
      externalId: 'probate-basics',
    });
    expect(rows[2]).toMatchObject({ title: 'Trust vs. will', author: null, imageUrl: null, excerpt: 'Which one fits your family.' });

    const source = await sourceRow(ctx(), res.body.id);
    expect(source).toMatchObject({ lastFetched: NOW, lastError: null });
    // New articles republish /blog and /external-articles, once per fetch.
    expect(ctx().changes.slice(changesBefore)).toEqual([{ topic: 'external-articles' }]);
  });

  it('reads Atom and RSS 1.0 (RDF) feeds the same way', async () => {
    const atom = await createSource(ctx(), { name: 'Atom news', url: feeds.url(feedPaths.atom) });
    const atomRows = await articlesOf(ctx(), atom.id);
    expect(titles(atomRows)).toEqual(sampleTitles);
    expect(atomRows.map((r) => r.url)).toEqual(sampleUrls());
    expect(atomRows[0]).toMatchObject({
      excerpt: 'What to review this year.',
      author: 'Jane Counsel',
      publishedAt: new Date('2025-03-01T16:00:00Z'),
      imageUrl: feeds.url('/images/estate.jpg'),
      externalId: 'tag:feed-server,2025:estate-2025',
    });
    expect(atomRows[0]!.content).toContain('<strong>bold</strong>');

    const rdf = await createSource(ctx(), { name: 'RDF news', url: feeds.url(feedPaths.rdf) });
    const rdfRows = await articlesOf(ctx(), rdf.id);
    expect(titles(rdfRows)).toEqual(sampleTitles);
    expect(rdfRows[1]).toMatchObject({
      url: feeds.url('/posts/probate-basics'),
      author: 'Sam Probate',
      publishedAt: new Date('2025-02-01T10:00:00Z'),
      externalId: feeds.url('/posts/probate-basics'),
    });
    for (const row of [...atomRows, ...rdfRows]) expectSafe(row);
    expect((await sourceRow(ctx(), atom.id))!.lastError).toBeNull();
    expect((await sourceRow(ctx(), rdf.id))!.lastError).toBeNull();
  });

  it('reads JSON: a top-level array with relative links, an object holding "articles", and JSON Feed 1.1', async () => {
    const list = await createSource(ctx(), { name: 'JSON list', url: feeds.url(feedPaths.jsonList), type: 'api' });
    const listRows = await articlesOf(ctx(), list.id);
    expect(titles(listRows)).toEqual(sampleTitles);
    expect(listRows.map((r) => r.url)).toEqual(sampleUrls());
    expect(listRows[0]).toMatchObject({
      externalId: 'estate-2025',
      author: 'Jane Counsel',
      excerpt: 'What to review this year.',
      imageUrl: feeds.url('/images/estate.jpg'),
      publishedAt: new Date('2025-03-01T16:00:00Z'),
    });

    const wrapped = await createSource(ctx(), { name: 'News API', url: feeds.url(feedPaths.jsonWrapped), type: 'api' });
    const wrappedRows = await articlesOf(ctx(), wrapped.id);
    expect(titles(wrappedRows)).toEqual(sampleTitles);
    expect(wrappedRows[0]).toMatchObject({ externalId: null, url: feeds.url('/posts/estate-planning-2025'), imageUrl: feeds.url('/images/estate.jpg') });

    const jsonFeed = await createSource(ctx(), { name: 'JSON Feed', url: feeds.url(feedPaths.jsonFeed), type: 'api' });
    const feedRows = await articlesOf(ctx(), jsonFeed.id);
    expect(titles(feedRows)).toEqual(sampleTitles);
    expect(feedRows[0]).toMatchObject({
      externalId: 'estate-2025',
      author: 'Jane Counsel',
      excerpt: 'What to review this year.',
      publishedAt: new Date('2025-03-01T16:00:00Z'),
    });
    expect(feedRows[0]!.content).toContain('<strong>bold</strong>');
    for (const row of [...listRows, ...wrappedRows, ...feedRows]) expectSafe(row);
  });

  it('reads a JSON shape its config describes (itemsPath, fields) and sends the configured API key', async () => {
    const custom = await createSource(ctx(), {
      name: 'Custom API',
      url: feeds.url(feedPaths.jsonCustom),
      type: 'api',
      config: JSON.stringify(customApiConfig),
    });
    const rows = await articlesOf(ctx(), custom.id);
    expect(titles(rows)).toEqual(sampleTitles);
    expect(rows[0]).toMatchObject({
      externalId: 'story-estate-2025',
      url: feeds.url('/posts/estate-planning-2025'),
      excerpt: 'What to review this year.',
      author: 'Jane Counsel',
      publishedAt: new Date('2025-03-01T16:00:00Z'),
      imageUrl: feeds.url('/images/estate.jpg'),
    });

    // Without the config the same answer holds no list the fetcher can find.
    const unconfigured = await createSource(ctx(), { name: 'Unconfigured API', url: feeds.url(feedPaths.jsonCustom), type: 'api' });
    expect(await articlesOf(ctx(), unconfigured.id)).toEqual([]);
    expect((await sourceRow(ctx(), unconfigured.id))!.lastError).toMatch(/itemsPath/);

    const keyless = await createSource(ctx(), { name: 'Protected, no key', url: feeds.url(feedPaths.jsonProtected), type: 'api' });
    expect((await sourceRow(ctx(), keyless.id))!.lastError).toBe(`${new URL(feeds.origin).host} answered HTTP 401`);
    const keyed = await createSource(ctx(), {
      name: 'Protected',
      url: feeds.url(feedPaths.jsonProtected),
      type: 'api',
      config: JSON.stringify({ apiKey: FEED_API_KEY }),
    });
    expect((await sourceRow(ctx(), keyed.id))!.lastError).toBeNull();
    expect(titles(await articlesOf(ctx(), keyed.id))).toEqual(sampleTitles);
    // The key is used, never shown.
    expect(JSON.stringify((await ctx().admin('GET', '/api/admin/blog-sources')).body)).not.toContain(FEED_API_KEY);
  });

  it('scrapes an HTML page: <article> elements by default, the selectors of its config, or heading links', async () => {
    const page = await createSource(ctx(), { name: 'Firm blog', url: feeds.url(feedPaths.html), type: 'scraper' });
    const rows = await articlesOf(ctx(), page.id);
    expect(titles(rows)).toEqual(sampleTitles);
    expect(rows.map((r) => r.url)).toEqual(sampleUrls());
    expect(rows[0]).toMatchObject({
      excerpt: 'What to review this year.',
      author: 'Jane Counsel',
      publishedAt: new Date('2025-03-01T16:00:00Z'),
      imageUrl: feeds.url('/images/estate.jpg'),
      externalId: null,
    });

    const custom = await createSource(ctx(), {
      name: 'Custom markup',
      url: feeds.url(feedPaths.htmlCustom),
      type: 'scraper',
      config: JSON.stringify(customScraperConfig),
    });
    const customRows = await articlesOf(ctx(), custom.id);
    expect(titles(customRows)).toEqual(sampleTitles);
    expect(customRows[0]).toMatchObject({
      url: feeds.url('/posts/estate-planning-2025'),
      excerpt: 'What to review this year.',
      author: 'Jane Counsel',
      publishedAt: new Date('2025-03-01T16:00:00Z'),
      imageUrl: feeds.url('/images/estate.jpg'),
    });

    const headings = await createSource(ctx(), { name: 'Headings', url: feeds.url(feedPaths.htmlHeadings), type: 'scraper' });
    const headingRows = await articlesOf(ctx(), headings.id);
    expect(titles(headingRows)).toEqual(sampleTitles);
    expect(headingRows[1]).toMatchObject({
      url: feeds.url('/posts/probate-basics'),
      excerpt: 'How long probate takes in California.',
      publishedAt: new Date('2025-02-01T10:00:00Z'),
    });
    // The page's navigation and footer links are not articles.
    for (const row of [...rows, ...customRows, ...headingRows]) {
      expect(row.url).toMatch(/\/posts\//);
      expectSafe(row);
    }

    const badSelector = await createSource(ctx(), {
      name: 'Bad selector',
      url: feeds.url(feedPaths.htmlCustom),
      type: 'scraper',
      config: JSON.stringify({ selectors: { item: 'div[[' } }),
    });
    expect((await sourceRow(ctx(), badSelector.id))!.lastError).toMatch(/"item" selector is not valid CSS/);
  });

  it('drops articles whose link is not http(s), in every format', async () => {
    feeds.addItem({ id: 'js-link', title: 'Click me', link: 'javascript:alert(document.cookie)' });
    feeds.addItem({ id: 'data-link', title: 'Data me', link: 'data:text/html,<script>alert(1)</script>' });
    feeds.addItem({ id: 'mail-link', title: 'Mail me', link: 'mailto:someone@example.com' });
    feeds.addItem({ id: 'ftp-link', title: 'Download me', link: 'ftp://files.example.com/article.txt' });
    feeds.addItem({ id: 'file-link', title: 'Read my disk', link: 'file:///etc/passwd' });
    for (const [path, type] of [
      [feedPaths.rss, 'rss'],
      [feedPaths.atom, 'rss'],
      [feedPaths.jsonList, 'api'],
      [feedPaths.jsonFeed, 'api'],
      [feedPaths.html, 'scraper'],
    ] as const) {
      const source = await createSource(ctx(), { name: `Links ${path}`, url: feeds.url(path), type });
      const rows = await articlesOf(ctx(), source.id);
      expect(titles(rows), path).toEqual(sampleTitles);
      for (const row of rows) expectSafe(row);
    }
  });

  it('never copies a key or credentials from the source URL into an article link', async () => {
    const secret = 'list-url-secret-4455667788';
    feeds.addItem({ id: 'anchor', title: 'Same page anchor', link: '#latest' });
    feeds.addItem({ id: 'query', title: 'Next page', link: '?page=2' });
    const source = await createSource(ctx(), {
      name: 'Keyed list',
      url: `http://reader:${secret}@${new URL(feeds.origin).host}${feedPaths.jsonList}?apiKey=${secret}`,
      type: 'api',
    });
    const rows = await articlesOf(ctx(), source.id);
    expect(rows.map((r) => r.url)).toEqual([feeds.url(`${feedPaths.jsonList}?page=2`), feeds.url(`${feedPaths.jsonList}#latest`), ...sampleUrls()]);
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it('a second fetch adds only the new article and updates changed ones in place (by externalId)', async () => {
    const source = await createSource(ctx(), { name: 'Growing feed', url: feeds.url(feedPaths.rss) });
    const first = await articlesOf(ctx(), source.id);
    await ctx()
      .database.db.update(ctx().database.t.externalBlogArticles)
      .set({ isVisible: false })
      .where(eq(ctx().database.t.externalBlogArticles.id, first[2]!.id));

    // Unchanged: nothing written, nothing republished.
    let changesBefore = ctx().changes.length;
    expect(await fetchSource(ctx().deps, source.id)).toMatchObject({ added: 0, updated: 0, error: null });
    expect(ctx().changes.length).toBe(changesBefore);

    feeds.addItem({ id: 'new-one', title: 'New ruling on trusts', publishedAt: new Date('2025-05-01T09:00:00Z') });
    // Same guid, new title and new address: the same article, changed.
    feeds.updateItem('probate-basics', { title: 'Probate basics, updated', summary: 'Now with a longer answer.', link: '/posts/probate-basics-v2' });
    ctx().clock.set(minutes(5));
    changesBefore = ctx().changes.length;
    const outcome = await fetchSource(ctx().deps, source.id);
    expect(outcome).toMatchObject({ added: 1, updated: 1, error: null });
    expect(ctx().changes.slice(changesBefore)).toEqual([{ topic: 'external-articles' }]);

    const rows = await articlesOf(ctx(), source.id);
    expect(titles(rows)).toEqual(['New ruling on trusts', 'Estate planning checklist for 2025', 'Probate basics, updated', 'Trust vs. will']);
    const updated = rows.find((r) => r.externalId === 'probate-basics')!;
    expect(updated).toMatchObject({ id: first[1]!.id, excerpt: 'Now with a longer answer.', url: feeds.url('/posts/probate-basics-v2') });
    // The admin's choice to hide an article survives a re-fetch; the first fetch's time too.
    expect(rows.find((r) => r.id === first[2]!.id)).toMatchObject({ isVisible: false, fetchedAt: first[2]!.fetchedAt });
    expect((await sourceRow(ctx(), source.id))!.lastFetched).toEqual(minutes(5));
  });

  it('without ids, articles are the same article by url: re-fetching never duplicates', async () => {
    const source = await createSource(ctx(), { name: 'No ids', url: feeds.url(feedPaths.jsonWrapped), type: 'api' });
    expect(await articlesOf(ctx(), source.id)).toHaveLength(3);
    feeds.updateItem('estate-2025', { title: 'Estate planning checklist (revised)' });
    feeds.addItem({ title: 'Fresh scraped news', link: '/posts/fresh' });
    expect(await fetchSource(ctx().deps, source.id)).toMatchObject({ added: 1, updated: 1 });
    expect(await fetchSource(ctx().deps, source.id)).toMatchObject({ added: 0, updated: 0 });
    const rows = await articlesOf(ctx(), source.id);
    expect(titles(rows)).toEqual(['Fresh scraped news', 'Estate planning checklist (revised)', 'Probate basics & timelines', 'Trust vs. will']);
    expect(new Set(rows.map((r) => r.url)).size).toBe(4);

    const page = await createSource(ctx(), { name: 'Scraped twice', url: feeds.url(feedPaths.html), type: 'scraper' });
    expect(await fetchSource(ctx().deps, page.id)).toMatchObject({ added: 0, updated: 0 });
    expect(await articlesOf(ctx(), page.id)).toHaveLength(4);
  });

  it('stores each article once when two fetches of one source run at once', async () => {
    const rss = await insertSource(ctx(), { name: 'Raced RSS', url: feeds.url(feedPaths.rss) });
    const page = await insertSource(ctx(), { name: 'Raced page', url: feeds.url(feedPaths.html), type: 'scraper' });
    for (const source of [rss, page]) {
      const outcomes = await Promise.all([fetchSource(ctx().deps, source.id), fetchSource(ctx().deps, source.id), fetchSource(ctx().deps, source.id)]);
      expect(outcomes.reduce((n, o) => n + o!.added, 0)).toBe(3);
      const rows = await articlesOf(ctx(), source.id);
      expect(titles(rows)).toEqual(sampleTitles);
    }
  });

  it('keeps at most 50 articles per fetch, the newest', async () => {
    for (let i = 1; i <= 60; i++) feeds.addItem({ id: `bulk-${i}`, title: `Bulk article ${i}`, publishedAt: new Date(Date.UTC(2025, 3, 1, 0, i)) });
    const source = await createSource(ctx(), { name: 'Bulk', url: feeds.url(feedPaths.rss) });
    const rows = await articlesOf(ctx(), source.id);
    expect(rows).toHaveLength(50);
    expect(rows[0]!.title).toBe('Bulk article 60');
    expect(rows.at(-1)!.title).toBe('Bulk article 11');
  });

  it('GET /api/external-blog-articles shows at most each source its displayLimit of the fetched articles', async () => {
    const two = await createSource(ctx(), { name: 'Shows two', url: feeds.url(feedPaths.atom), displayLimit: 2 });
    const one = await createSource(ctx(), { name: 'Shows one', url: feeds.url(feedPaths.jsonFeed), type: 'api', displayLimit: 1 });
    expect(await articlesOf(ctx(), two.id)).toHaveLength(3);
    const res = await ctx().call('GET', '/api/external-blog-articles');
    expect(res.status).toBe(200);
    const of = (id: string) => res.body.filter((a: { sourceId: string }) => a.sourceId === id);
    expect(titles(of(two.id))).toEqual(sampleTitles.slice(0, 2));
    expect(titles(of(one.id))).toEqual(sampleTitles.slice(0, 1));
    expect(of(one.id)[0]).toEqual({
      id: expect.any(String),
      sourceId: one.id,
      sourceName: 'Shows one',
      title: 'Estate planning checklist for 2025',
      url: feeds.url('/posts/estate-planning-2025'),
      excerpt: 'What to review this year.',
      author: 'Jane Counsel',
      publishedAt: '2025-03-01T16:00:00.000Z',
      imageUrl: feeds.url('/images/estate.jpg'),
      isVisible: true,
      fetchedAt: expect.any(String),
    });
  });

  it('records lastFetched and a short, masked lastError for a broken feed, and keeps what it had', async () => {
    const secret = 'source-url-secret-0123456789';
    const cases = [
      { name: 'Invalid XML', url: feeds.url(feedPaths.brokenXml), error: /^The feed is not valid XML/ },
      { name: 'HTML error page', url: feeds.url(feedPaths.errorPage), error: /^The feed is not valid XML/ },
      { name: 'Server error', url: `${feeds.url(feedPaths.status500)}?apiKey=${secret}`, error: /answered HTTP 500$/ },
      { name: 'Not JSON', url: feeds.url(feedPaths.notJson), type: 'api', error: /^The API did not answer with JSON$/ },
      { name: 'Nothing there', url: feeds.url('/no/such/feed.xml'), error: /answered HTTP 404$/ },
    ];
    for (const { error, ...body } of cases) {
      const source = await createSource(ctx(), body);
      const row = (await sourceRow(ctx(), source.id))!;
      expect(row.lastError, body.name).toMatch(error);
      expect(row.lastError!.length).toBeLessThanOrEqual(300);
      expect(row.lastError).not.toContain(secret);
      expect(row.lastFetched).toEqual(NOW);
      expect(await articlesOf(ctx(), source.id)).toEqual([]);
    }
    const listed = await ctx().admin('GET', '/api/admin/blog-sources');
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    // A source that worked and then breaks keeps its articles; the next good fetch clears the error.
    const flaky = await createSource(ctx(), { name: 'Flaky', url: feeds.url(feedPaths.rss) });
    const { db, t } = ctx().database;
    await db
      .update(t.blogSources)
      .set({ url: feeds.url(feedPaths.status500) })
      .where(eq(t.blogSources.id, flaky.id));
    ctx().clock.set(minutes(1));
    expect(await fetchSource(ctx().deps, flaky.id)).toMatchObject({ error: expect.stringMatching(/HTTP 500/), added: 0 });
    expect(await sourceRow(ctx(), flaky.id)).toMatchObject({ lastFetched: minutes(1), lastError: expect.stringMatching(/HTTP 500/) });
    expect(await articlesOf(ctx(), flaky.id)).toHaveLength(3);
    await db
      .update(t.blogSources)
      .set({ url: feeds.url(feedPaths.redirectRss) })
      .where(eq(t.blogSources.id, flaky.id));
    ctx().clock.set(minutes(2));
    expect(await fetchSource(ctx().deps, flaky.id)).toMatchObject({ error: null, added: 0 });
    expect(await sourceRow(ctx(), flaky.id)).toMatchObject({ lastFetched: minutes(2), lastError: null });
  });

  it('a slow, dripping, huge, compressed-bomb or pathologically nested feed fails within its limits, and the other sources are still fetched', async () => {
    const { db, t } = ctx().database;
    await db.delete(t.blogSources);
    const bad = {
      never: await insertSource(ctx(), { name: 'Never answers', url: feeds.url(feedPaths.never) }),
      drip: await insertSource(ctx(), { name: 'Drips', url: feeds.url(feedPaths.drip) }),
      huge: await insertSource(ctx(), { name: 'Huge', url: feeds.url(feedPaths.huge) }),
      bomb: await insertSource(ctx(), { name: 'Gzip bomb', url: feeds.url(feedPaths.gzipBomb) }),
      deep: await insertSource(ctx(), { name: 'Deep page', url: feeds.url(feedPaths.deepHtml), type: 'scraper' }),
    };
    const good = [
      await insertSource(ctx(), { name: 'Good RSS', url: feeds.url(feedPaths.rss) }),
      await insertSource(ctx(), { name: 'Good JSON', url: feeds.url(feedPaths.jsonList), type: 'api' }),
      await insertSource(ctx(), { name: 'Good page', url: feeds.url(feedPaths.html), type: 'scraper' }),
    ];
    expect(await fetchDueSources(ctx().deps, small)).toBe(8);
    expect((await sourceRow(ctx(), bad.never.id))!.lastError).toBe(`No complete answer from ${new URL(feeds.origin).host} within 800 ms`);
    expect((await sourceRow(ctx(), bad.drip.id))!.lastError).toBe(`No complete answer from ${new URL(feeds.origin).host} within 800 ms`);
    expect((await sourceRow(ctx(), bad.huge.id))!.lastError).toBe(`The answer from ${new URL(feeds.origin).host} is larger than 512 KB`);
    expect((await sourceRow(ctx(), bad.bomb.id))!.lastError).toBe(`The answer from ${new URL(feeds.origin).host} is larger than 512 KB`);
    // Read in a worker thread: past its deadline the worker is replaced, and the server never stalls.
    expect((await sourceRow(ctx(), bad.deep.id))!.lastError).toBe('Reading the answer took longer than 3 s');
    for (const source of Object.values(bad)) {
      expect(await sourceRow(ctx(), source.id)).toMatchObject({ lastFetched: NOW });
      expect(await articlesOf(ctx(), source.id)).toEqual([]);
    }
    for (const source of good) {
      expect(await sourceRow(ctx(), source.id)).toMatchObject({ lastFetched: NOW, lastError: null });
      expect(titles(await articlesOf(ctx(), source.id))).toEqual(sampleTitles);
    }
  });

  it('"Fetch now" fetches at once and answers with the source (masked) and its article count', async () => {
    const secret = 'fetch-now-secret-key-99887766';
    const source = await insertSource(ctx(), {
      name: 'On demand',
      url: `${feeds.url(feedPaths.jsonProtected)}?token=${secret}`,
      type: 'api',
      config: JSON.stringify({ apiKey: FEED_API_KEY }),
    });
    ctx().clock.set(minutes(3));
    const changesBefore = ctx().changes.length;
    const res = await ctx().admin('POST', `/api/admin/blog-sources/${source.id}/fetch`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: source.id, name: 'On demand', lastFetched: minutes(3).toISOString(), lastError: null, articleCount: 3 });
    expect(res.body.url).toBe(`${feeds.url(feedPaths.jsonProtected)}?token=••••7766`);
    expect(JSON.stringify(res.body)).not.toContain(FEED_API_KEY);
    expect(JSON.stringify(res.body)).not.toContain(secret);
    expect(ctx().changes.slice(changesBefore)).toEqual([{ topic: 'external-articles' }]);

    // A failing fetch is still a 200: the answer's lastError says what happened.
    await ctx().database.db.update(ctx().database.t.blogSources).set({ config: null }).where(eq(ctx().database.t.blogSources.id, source.id));
    const failed = await ctx().admin('POST', `/api/admin/blog-sources/${source.id}/fetch`);
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ lastError: `${new URL(feeds.origin).host} answered HTTP 401`, articleCount: 3 });

    expect((await ctx().admin('POST', '/api/admin/blog-sources/no-such-source/fetch')).status).toBe(404);
    expect((await ctx().call('POST', `/api/admin/blog-sources/${source.id}/fetch`)).status).toBe(401);
  });

  it('lists each source with its articleCount for the admin', async () => {
    const counted = await createSource(ctx(), { name: 'Counted', url: feeds.url(feedPaths.rss) });
    const empty = await createSource(ctx(), { name: 'Empty', url: feeds.url(feedPaths.status500) });
    const list = (await ctx().admin('GET', '/api/admin/blog-sources')).body as Source[];
    expect(list.find((s) => s.id === counted.id)).toMatchObject({ name: 'Counted', articleCount: 3 });
    expect(list.find((s) => s.id === empty.id)).toMatchObject({ name: 'Empty', articleCount: 0 });
    for (const s of list) expect(s.articleCount).toEqual(expect.any(Number));
  });

  it('deleting a source removes the articles it fetched, and no other', async () => {
    const doomed = await createSource(ctx(), { name: 'Doomed', url: feeds.url(feedPaths.rss) });
    const kept = await createSource(ctx(), { name: 'Kept', url: feeds.url(feedPaths.atom) });
    expect(await articlesOf(ctx(), doomed.id)).toHaveLength(3);
    expect((await ctx().admin('DELETE', `/api/admin/blog-sources/${doomed.id}`)).status).toBe(204);
    expect(await articlesOf(ctx(), doomed.id)).toEqual([]);
    expect(await articlesOf(ctx(), kept.id)).toHaveLength(3);
    const ids = (await ctx().call('GET', '/api/external-blog-articles')).body.map((a: { sourceId: string }) => a.sourceId);
    expect(ids).not.toContain(doomed.id);
    expect(ids).toContain(kept.id);
    // A fetch of a source deleted meanwhile records nothing and throws nothing.
    expect(await fetchSource(ctx().deps, doomed.id)).toBeNull();
  });
});

forEachDialect('blog sources due for fetching', (ctx) => {
  beforeEach(() => {
    feeds.reset();
    ctx().clock.set(NOW);
  });

  it('fetchDueSources fetches only active sources whose last attempt is blogSourceRefreshMinutes old, or that were never fetched', async () => {
    expect(ctx().deps.integrations.blogSourceRefreshMinutes).toBe(60);
    const rss = await createSource(ctx(), { name: 'Due RSS', url: feeds.url(feedPaths.rss) });
    const json = await createSource(ctx(), { name: 'Due JSON', url: feeds.url(feedPaths.jsonFeed), type: 'api' });
    const dormant = await createSource(ctx(), { name: 'Dormant', url: feeds.url(feedPaths.atom) });
    await ctx().database.db.update(ctx().database.t.blogSources).set({ isActive: false }).where(eq(ctx().database.t.blogSources.id, dormant.id));
    const hits = () => [feeds.hits(feedPaths.rss), feeds.hits(feedPaths.jsonFeed), feeds.hits(feedPaths.atom)];
    expect(hits()).toEqual([1, 1, 1]);

    expect(await ctx().background.fetchDueSources()).toBe(0);
    ctx().clock.set(minutes(59));
    expect(await ctx().background.fetchDueSources()).toBe(0);
    expect(hits()).toEqual([1, 1, 1]);

    ctx().clock.set(minutes(60));
    expect(await ctx().background.fetchDueSources()).toBe(2);
    expect(hits()).toEqual([2, 2, 1]);
    expect(await sourceRow(ctx(), rss.id)).toMatchObject({ lastFetched: minutes(60), lastError: null });
    expect(await sourceRow(ctx(), json.id)).toMatchObject({ lastFetched: minutes(60) });
    expect(await sourceRow(ctx(), dormant.id)).toMatchObject({ lastFetched: NOW });
    expect(await ctx().background.fetchDueSources()).toBe(0);

    // Never fetched (written by another process, say): due at once. A failed attempt counts as an attempt.
    const fresh = await insertSource(ctx(), { name: 'Never fetched', url: feeds.url(feedPaths.status500) });
    expect(await ctx().background.fetchDueSources()).toBe(1);
    expect(await sourceRow(ctx(), fresh.id)).toMatchObject({ lastFetched: minutes(60), lastError: expect.stringMatching(/HTTP 500/) });
    expect(await ctx().background.fetchDueSources()).toBe(0);
    expect((await articlesOf(ctx(), rss.id)).length).toBe(3);
  });

  it("leaves a new source's first fetch to its create for two minutes, then takes it if it never happened", async () => {
    const { db, t } = ctx().database;
    await db.delete(t.blogSources);
    // As the create writes it while its own fetch is under way: created now, never fetched.
    const fresh = await insertSource(ctx(), { name: 'Just added', url: feeds.url(feedPaths.rss), createdAt: NOW });
    expect(await ctx().background.fetchDueSources()).toBe(0);
    ctx().clock.set(new Date(NOW.getTime() + FIRST_FETCH_GRACE_MS - 1_000));
    expect(await ctx().background.fetchDueSources()).toBe(0);
    expect(await sourceRow(ctx(), fresh.id)).toMatchObject({ lastFetched: null });
    expect(feeds.hits(feedPaths.rss)).toBe(0);
    // Its server stopped before fetching it: the schedule does.
    ctx().clock.set(new Date(NOW.getTime() + FIRST_FETCH_GRACE_MS));
    expect(await ctx().background.fetchDueSources()).toBe(1);
    expect(feeds.hits(feedPaths.rss)).toBe(1);
    expect(titles(await articlesOf(ctx(), fresh.id))).toEqual(sampleTitles);
  });

  it('two servers running fetchDueSources at once fetch each due source once and store each article once', async () => {
    const { db, t } = ctx().database;
    await db.delete(t.blogSources);
    const sources = [
      await insertSource(ctx(), { name: 'Shared RSS', url: feeds.url(feedPaths.rss) }),
      await insertSource(ctx(), { name: 'Shared page', url: feeds.url(feedPaths.html), type: 'scraper' }),
      await insertSource(ctx(), { name: 'Shared JSON', url: feeds.url(feedPaths.jsonWrapped), type: 'api' }),
    ];
    // A second API container: its own deps over the same database.
    const otherServer = testDeps(ctx().database, { clock: ctx().clock, integrations: ctx().deps.integrations });
    const counts = await Promise.all([fetchDueSources(ctx().deps), fetchDueSources(otherServer), fetchDueSources(ctx().deps)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
    expect([feeds.hits(feedPaths.rss), feeds.hits(feedPaths.html), feeds.hits(feedPaths.jsonWrapped)]).toEqual([1, 1, 1]);
    for (const source of sources) expect(titles(await articlesOf(ctx(), source.id))).toEqual(sampleTitles);
  });
});

forEachDialect(
  'blog sources when private networks are refused (production)',
  (ctx) => {
    beforeEach(() => {
      feeds.reset();
      ctx().clock.set(NOW);
    });
    afterEach(() => backgroundFetchesSettled(ctx().deps));

    it('stores a source at a loopback, private or link-local address with the reason as lastError, and never contacts it', async () => {
      const urls = [
        feeds.url(feedPaths.rss),
        feeds.url(feedPaths.redirectPrivate),
        `http://localhost:${feeds.port}${feedPaths.rss}`,
        `http://[::1]:${feeds.port}${feedPaths.rss}`,
        `http://[::ffff:127.0.0.1]:${feeds.port}${feedPaths.rss}`,
        'http://10.0.0.8/feed.xml',
        'http://192.168.1.20/rss',
        'http://169.254.169.254/latest/meta-data/',
      ];
      for (const url of urls) {
        const res = await ctx().admin('POST', '/api/admin/blog-sources', { name: 'Internal', url });
        expect(res.status, url).toBe(201);
        expect(res.body.lastError, url).toMatch(/is a private or loopback address; outbound requests may only go to public internet addresses$/);
        expect(res.body.lastFetched).toBe(NOW.toISOString());
        await backgroundFetchesSettled(ctx().deps);
        // "Fetch now" and the schedule refuse it the same way.
        const now = await ctx().admin('POST', `/api/admin/blog-sources/${res.body.id}/fetch`);
        expect(now.body.lastError).toMatch(/private or loopback/);
        expect(await articlesOf(ctx(), res.body.id)).toEqual([]);
      }
      ctx().clock.set(minutes(120));
      expect(await ctx().background.fetchDueSources()).toBe(urls.length);
      expect(feeds.hits(feedPaths.rss) + feeds.hits(feedPaths.redirectPrivate)).toBe(0);
    });

    it('refuses a name that resolves to a loopback address, on connect', async () => {
      // The machine's own name resolves (system resolver, /etc/hosts) to an address of this machine.
      const name = hostname();
      const addresses = await dnsLookup(name, { all: true });
      expect(addresses.length).toBeGreaterThan(0);
      expect(
        addresses.every((a) => isPrivateAddress(a.address)),
        JSON.stringify(addresses),
      ).toBe(true);
      const res = await ctx().admin('POST', '/api/admin/blog-sources', { name: 'By name', url: `http://${name}:${feeds.port}${feedPaths.rss}` });
      expect(res.status).toBe(201);
      // Not a literal: only the fetch can tell.
      expect(res.body.lastError).toBeNull();
      await backgroundFetchesSettled(ctx().deps);
      expect(await sourceRow(ctx(), res.body.id)).toMatchObject({
        lastFetched: NOW,
        lastError: `${name} is a private or loopback address; outbound requests may only go to public internet addresses`,
      });
      expect(feeds.hits(feedPaths.rss)).toBe(0);
      expect(await articlesOf(ctx(), res.body.id)).toEqual([]);
    });
  },
  { integrations: { allowPrivateNetworks: false } },
);
