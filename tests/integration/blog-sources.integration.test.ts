import { eq } from 'drizzle-orm';
import { afterEach, expect, it } from 'vitest';
import { backgroundFetchesSettled } from '../../api/blog-sources/blog-source-fetcher.ts';
import { openConfig } from '../../api/crypto/sealed-config.ts';
import { forEachDialect, NON_ADMIN_TOKEN, type TestContext } from '../support/test-app.ts';

const apiToken = 'news-api-token-5f4e3d2c1b0a9988';
const urlKey = 'url-query-api-key-77665544';
const valid = { name: 'State Bar News', url: 'https://news.example.com/feed.xml' };

async function sources(ctx: TestContext) {
  const { db, t } = ctx.database;
  return db.select().from(t.blogSources);
}

async function sourceById(ctx: TestContext, id: string) {
  const { db, t } = ctx.database;
  const [row] = await db.select().from(t.blogSources).where(eq(t.blogSources.id, id));
  return row;
}

/** A stored config as the fetcher uses it: its sealed secrets opened (docs/decisions/015). */
const openedConfig = (ctx: TestContext, row: { id: string; config: string | null }) =>
  openConfig(ctx.deps.secrets, row.config, { table: 'blog-sources', id: row.id });

async function articlesOf(ctx: TestContext, sourceId: string) {
  const { db, t } = ctx.database;
  return db.select().from(t.externalBlogArticles).where(eq(t.externalBlogArticles.sourceId, sourceId));
}

type ArticleRow = {
  title: string;
  url: string;
  excerpt?: string | null;
  content?: string | null;
  author?: string | null;
  publishedAt?: Date | null;
  imageUrl?: string | null;
  isVisible?: boolean;
  externalId?: string | null;
  fetchedAt?: Date;
};

/**
 * Articles are written by the feed fetcher, not the API: insert them straight into the table, and
 * announce the change as the fetcher does (the public list is kept until a change says otherwise).
 */
async function insertArticles(ctx: TestContext, sourceId: string, rows: ArticleRow[]) {
  const { db, t } = ctx.database;
  const inserted = await db
    .insert(t.externalBlogArticles)
    .values(rows.map((r) => ({ sourceId, ...r })))
    .returning();
  ctx.deps.events.changed({ topic: 'external-articles' });
  return inserted;
}

forEachDialect('blog sources and external articles', (ctx) => {
  // Creating a source starts its first fetch in the background (these addresses do not exist, so it
  // fails): each test waits for it, so no fetch outlives its test or overwrites what a test wrote.
  afterEach(() => backgroundFetchesSettled(ctx().deps));

  it('starts with no sources and no external articles', async () => {
    expect((await ctx().admin('GET', '/api/admin/blog-sources')).body).toEqual([]);
    const pub = await ctx().call('GET', '/api/external-blog-articles');
    expect(pub.status).toBe(200);
    expect(pub.body).toEqual([]);
  });

  it('creates a source active, with type rss, displayLimit 5 and config null by default', async () => {
    const res = await ctx().admin('POST', '/api/admin/blog-sources', { ...valid, name: '  State Bar News  ' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(String),
      name: 'State Bar News',
      url: valid.url,
      type: 'rss',
      displayLimit: 5,
      isActive: true,
      config: null,
      lastFetched: null,
    });
    expect(await sourceById(ctx(), res.body.id)).toMatchObject({
      name: 'State Bar News',
      url: valid.url,
      type: 'rss',
      displayLimit: 5,
      isActive: true,
      config: null,
    });
    // Its first fetch was attempted (tests/integration/blog-source-fetching.integration.test.ts covers fetching).
    await backgroundFetchesSettled(ctx().deps);
    expect((await sourceById(ctx(), res.body.id))!.lastFetched).toBeInstanceOf(Date);
  });

  it('stores the given type, display limit (1 to 10) and JSON config; a blank config becomes null', async () => {
    const cases = [
      {
        body: { ...valid, type: 'api', displayLimit: 1, config: JSON.stringify({ api_key: apiToken, category: 'law' }) },
        expected: { type: 'api', displayLimit: 1, config: JSON.stringify({ api_key: apiToken, category: 'law' }) },
      },
      { body: { ...valid, type: 'scraper', displayLimit: 10, config: '   ' }, expected: { type: 'scraper', displayLimit: 10, config: null } },
      { body: { ...valid, displayLimit: 7, config: '' }, expected: { type: 'rss', displayLimit: 7, config: null } },
      { body: { ...valid, config: null, isActive: true }, expected: { type: 'rss', displayLimit: 5, config: null, isActive: true } },
      { body: { ...valid, url: 'http://plain.example.com/rss' }, expected: { url: 'http://plain.example.com/rss' } },
    ];
    for (const { body, expected } of cases) {
      const res = await ctx().admin('POST', '/api/admin/blog-sources', body);
      expect(res.status, JSON.stringify(body)).toBe(201);
      const { config, ...rest } = expected;
      const row = (await sourceById(ctx(), res.body.id))!;
      expect(row).toMatchObject(rest);
      // The key is stored sealed, and opens to what was given.
      if (config !== undefined) expect(openedConfig(ctx(), row)).toBe(config);
      expect(row.config ?? '').not.toContain(apiToken);
    }
  });

  it('rejects invalid input with a message per field and writes nothing', async () => {
    const before = await sources(ctx());
    const expectField = async (body: unknown, field: string) => {
      const res = await ctx().admin('POST', '/api/admin/blog-sources', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBeTypeOf('string');
      expect(Object.keys(res.body.fields), JSON.stringify(body)).toEqual([field]);
    };
    for (const displayLimit of [0, 11, 2.5, -1, '5', 'five', null, true, Number.NaN]) await expectField({ ...valid, displayLimit }, 'displayLimit');
    await expectField({ ...valid, name: undefined }, 'name');
    await expectField({ ...valid, name: '   ' }, 'name');
    await expectField({ ...valid, name: 'x'.repeat(121) }, 'name');
    await expectField({ ...valid, url: undefined }, 'url');
    await expectField({ ...valid, url: '' }, 'url');
    await expectField({ ...valid, url: 'news.example.com/feed' }, 'url');
    await expectField({ ...valid, url: 'ftp://news.example.com/feed' }, 'url');
    await expectField({ ...valid, url: 'javascript:alert(1)' }, 'url');
    await expectField({ ...valid, type: 'atom' }, 'type');
    await expectField({ ...valid, config: 'not json' }, 'config');
    await expectField({ ...valid, config: '[1,2,3]' }, 'config');
    await expectField({ ...valid, config: { api_key: 'object, not text' } }, 'config');
    await expectField({ ...valid, isActive: false }, 'isActive');
    const missing = await ctx().admin('POST', '/api/admin/blog-sources', {});
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.fields).sort()).toEqual(['name', 'url']);
    expect(missing.body.fields.name).toBe('Name is required');
    expect(await sources(ctx())).toEqual(before);
  });

  it('lists sources for the admin newest first, with secrets in config and url masked while the database keeps them (sealed)', async () => {
    const created = await ctx().admin('POST', '/api/admin/blog-sources', {
      name: 'News API',
      url: `https://api.news.example.com/v2/everything?q=probate&apiKey=${urlKey}`,
      type: 'api',
      config: JSON.stringify({ api_key: apiToken, headers: { Authorization: `Bearer ${apiToken}` }, category: 'law' }),
    });
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain(apiToken);
    await backgroundFetchesSettled(ctx().deps);

    // A failed fetch may quote the URL in the error the fetcher records.
    const { db, t } = ctx().database;
    await db
      .update(t.blogSources)
      .set({ lastError: `GET https://api.news.example.com/v2/everything?apiKey=${urlKey} answered 401` })
      .where(eq(t.blogSources.id, created.body.id));
    const row = await sourceById(ctx(), created.body.id);
    expect(row!.config).not.toContain(apiToken);
    expect(openedConfig(ctx(), row!)).toContain(apiToken);
    expect(row!.lastError).toContain(urlKey);
    expect(row!.url).toContain(urlKey);

    const list = await ctx().admin('GET', '/api/admin/blog-sources');
    expect(list.status).toBe(200);
    const text = JSON.stringify(list.body);
    expect(text).not.toContain(apiToken);
    expect(text).not.toContain(urlKey);
    const listed = list.body.find((s: { id: string }) => s.id === created.body.id);
    expect(listed).toMatchObject({ name: 'News API', type: 'api', displayLimit: 5, isActive: true });
    // Deny by default: `category` is no field a blog source's template names public.
    expect(JSON.parse(listed.config)).toEqual({ api_key: '••••9988', headers: { Authorization: '••••9988' }, category: '••••' });
    expect(listed.url).toBe('https://api.news.example.com/v2/everything?q=probate&apiKey=••••5544');
    expect(listed.lastError).toBe('GET https://api.news.example.com/v2/everything?apiKey=••••5544 answered 401');
    expect(list.body.length).toBe((await sources(ctx())).length);
    expect(list.body[0].id).toBe(created.body.id);
    const times = list.body.map((s: { createdAt: string }) => Date.parse(s.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('lists publicly only the visible articles of active sources, newest first, with the fields of SPEC §7', async () => {
    const { db, t } = ctx().database;
    const active = await ctx().admin('POST', '/api/admin/blog-sources', { name: 'Probate Weekly', url: 'https://probate.example.com/rss' });
    const other = await ctx().admin('POST', '/api/admin/blog-sources', { name: 'Family Law Daily', url: 'https://family.example.com/rss' });
    const inactive = await ctx().admin('POST', '/api/admin/blog-sources', { name: 'Dormant Feed', url: 'https://dormant.example.com/rss' });
    // There is no deactivate call (SPEC §4): an inactive source can only come from the database.
    await db.update(t.blogSources).set({ isActive: false }).where(eq(t.blogSources.id, inactive.body.id));

    const [oldest] = await insertArticles(ctx(), active.body.id, [
      {
        title: 'Oldest',
        url: 'https://probate.example.com/a/1',
        excerpt: 'An excerpt',
        content: '<p>Full text</p>',
        author: 'A. Writer',
        publishedAt: new Date('2024-01-10T12:00:00Z'),
        imageUrl: 'https://probate.example.com/a/1.jpg',
        externalId: 'guid-1',
        fetchedAt: new Date('2024-03-01T00:00:00Z'),
      },
    ]);
    await insertArticles(ctx(), active.body.id, [
      { title: 'Hidden', url: 'https://probate.example.com/a/2', publishedAt: new Date('2024-05-01T00:00:00Z'), isVisible: false },
      { title: 'Undated', url: 'https://probate.example.com/a/3' },
    ]);
    await insertArticles(ctx(), other.body.id, [
      { title: 'Newest', url: 'https://family.example.com/a/1', publishedAt: new Date('2024-04-01T00:00:00Z') },
      { title: 'Middle', url: 'https://family.example.com/a/2', publishedAt: new Date('2024-02-15T00:00:00Z') },
    ]);
    await insertArticles(ctx(), inactive.body.id, [
      { title: 'From a dormant source', url: 'https://dormant.example.com/a/1', publishedAt: new Date('2024-06-01T00:00:00Z') },
    ]);

    const res = await ctx().call('GET', '/api/external-blog-articles');
    expect(res.status).toBe(200);
    expect(res.body.map((a: { title: string }) => a.title)).toEqual(['Newest', 'Middle', 'Oldest', 'Undated']);
    const first = res.body.find((a: { title: string }) => a.title === 'Oldest');
    expect(first).toEqual({
      id: oldest!.id,
      sourceId: active.body.id,
      sourceName: 'Probate Weekly',
      title: 'Oldest',
      url: 'https://probate.example.com/a/1',
      excerpt: 'An excerpt',
      author: 'A. Writer',
      publishedAt: '2024-01-10T12:00:00.000Z',
      imageUrl: 'https://probate.example.com/a/1.jpg',
      isVisible: true,
      fetchedAt: '2024-03-01T00:00:00.000Z',
    });
    const undated = res.body.find((a: { title: string }) => a.title === 'Undated');
    expect(undated).toMatchObject({ excerpt: null, author: null, publishedAt: null, imageUrl: null, isVisible: true, fetchedAt: expect.any(String) });
    for (const article of res.body) expect(article.isVisible).toBe(true);
  });

  it("shows at most a source's displayLimit newest visible articles (SPEC §2 'Shows N articles')", async () => {
    const limited = await ctx().admin('POST', '/api/admin/blog-sources', { name: 'Limited', url: 'https://limited.example.com/rss', displayLimit: 2 });
    await insertArticles(ctx(), limited.body.id, [
      { title: 'L hidden newest', url: 'https://limited.example.com/0', publishedAt: new Date('2025-01-05T00:00:00Z'), isVisible: false },
      { title: 'L1', url: 'https://limited.example.com/1', publishedAt: new Date('2025-01-04T00:00:00Z') },
      { title: 'L2', url: 'https://limited.example.com/2', publishedAt: new Date('2025-01-03T00:00:00Z') },
      { title: 'L3', url: 'https://limited.example.com/3', publishedAt: new Date('2025-01-02T00:00:00Z') },
      { title: 'L undated', url: 'https://limited.example.com/4' },
    ]);
    const titles = (await ctx().call('GET', '/api/external-blog-articles')).body.map((a: { title: string }) => a.title);
    expect(titles.filter((t: string) => t.startsWith('L'))).toEqual(['L1', 'L2']);
    // The other sources keep their articles (limit 5 each, fewer stored).
    expect(titles).toEqual(['L1', 'L2', 'Newest', 'Middle', 'Oldest', 'Undated']);
    // Raising the limit in the database shows more; undated ones last, most recently fetched first.
    const { db, t } = ctx().database;
    await db.update(t.blogSources).set({ displayLimit: 10 }).where(eq(t.blogSources.id, limited.body.id));
    ctx().deps.events.changed({ topic: 'external-articles' }); // a direct edit: announced as a republish would
    const more = (await ctx().call('GET', '/api/external-blog-articles')).body.map((a: { title: string }) => a.title);
    expect(more).toEqual(['L1', 'L2', 'L3', 'Newest', 'Middle', 'Oldest', 'L undated', 'Undated']);
    await ctx().admin('DELETE', `/api/admin/blog-sources/${limited.body.id}`);
  });

  it('deletes a source together with its external articles, and no other', async () => {
    const doomed = await ctx().admin('POST', '/api/admin/blog-sources', { name: 'Doomed', url: 'https://doomed.example.com/rss' });
    const kept = await ctx().admin('POST', '/api/admin/blog-sources', { name: 'Kept', url: 'https://kept.example.com/rss' });
    await insertArticles(ctx(), doomed.body.id, [
      { title: 'Doomed one', url: 'https://doomed.example.com/1', publishedAt: new Date('2024-07-01T00:00:00Z') },
      { title: 'Doomed two', url: 'https://doomed.example.com/2', isVisible: false },
    ]);
    await insertArticles(ctx(), kept.body.id, [{ title: 'Kept one', url: 'https://kept.example.com/1' }]);
    expect(await articlesOf(ctx(), doomed.body.id)).toHaveLength(2);
    const changesBefore = ctx().changes.length;

    const res = await ctx().admin('DELETE', `/api/admin/blog-sources/${doomed.body.id}`);
    expect(res.status).toBe(204);
    expect(await sourceById(ctx(), doomed.body.id)).toBeUndefined();
    expect(await articlesOf(ctx(), doomed.body.id)).toEqual([]);
    expect(await sourceById(ctx(), kept.body.id)).toBeDefined();
    expect((await articlesOf(ctx(), kept.body.id)).map((a) => a.title)).toEqual(['Kept one']);
    expect(ctx().changes.slice(changesBefore)).toEqual([{ topic: 'external-articles' }]);

    const listed = (await ctx().admin('GET', '/api/admin/blog-sources')).body.map((s: { id: string }) => s.id);
    expect(listed).not.toContain(doomed.body.id);
    const titles = (await ctx().call('GET', '/api/external-blog-articles')).body.map((a: { title: string }) => a.title);
    expect(titles).not.toContain('Doomed one');
    expect(titles).toContain('Kept one');
  });

  it('answers 404 when deleting an unknown source and deletes nothing', async () => {
    const before = await sources(ctx());
    const changesBefore = ctx().changes.length;
    for (const id of ['no-such-source', 'x'.repeat(65)]) {
      const res = await ctx().admin('DELETE', `/api/admin/blog-sources/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBeTypeOf('string');
    }
    expect(await sources(ctx())).toEqual(before);
    expect(ctx().changes.length).toBe(changesBefore);
  });

  it('refuses the admin calls without an admin token', async () => {
    const before = await sources(ctx());
    const someId = before[0]!.id;
    expect((await ctx().call('GET', '/api/admin/blog-sources')).status).toBe(401);
    expect((await ctx().call('POST', '/api/admin/blog-sources', { body: valid })).status).toBe(401);
    expect((await ctx().call('POST', '/api/admin/blog-sources', { body: valid, token: NON_ADMIN_TOKEN })).status).toBe(403);
    expect((await ctx().call('DELETE', `/api/admin/blog-sources/${someId}`, { token: NON_ADMIN_TOKEN })).status).toBe(403);
    expect(await sources(ctx())).toEqual(before);
  });
});
