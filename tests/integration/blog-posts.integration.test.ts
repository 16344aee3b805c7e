import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { internalHeaders } from '../../api/internal.ts';
import { defaultBlogAuthor, firm } from '../../src/config/firm.ts';
import { ADMIN_TOKEN, countRows, forEachDialect, NON_ADMIN_TOKEN, type TestContext } from '../support/test-app.ts';

let seq = 0;
/** A valid POST body with a title (and so a generated slug) no other test uses. */
function draft(overrides: Record<string, unknown> = {}) {
  seq += 1;
  return {
    title: `Understanding Living Trusts ${seq}`,
    slug: `understanding-living-trusts-${seq}`,
    excerpt: 'What a living trust does and when it helps.',
    content: '<p>A <strong>living trust</strong> avoids probate.</p>',
    category: 'estate-planning',
    author: firm.attorneys[0].name,
    isPublished: false,
    ...overrides,
  };
}

async function storedPost(ctx: TestContext, id: string) {
  const { db, t } = ctx.database;
  const [row] = await db.select().from(t.blogPosts).where(eq(t.blogPosts.id, id));
  return row;
}

async function redirectsOf(ctx: TestContext, postId: string) {
  const { db, t } = ctx.database;
  const rows = await db.select().from(t.blogPostRedirects).where(eq(t.blogPostRedirects.postId, postId));
  return rows.map((r) => r.oldSlug).sort();
}

async function create(ctx: TestContext, body: Record<string, unknown>) {
  const res = await ctx.admin('POST', '/api/admin/blog-posts', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; slug: string; publishedAt: string | null };
}

/** SPEC's list fields, and updatedAt for the sitemap's lastmod (the sitemap reads only the list). */
const summaryKeys = ['author', 'category', 'excerpt', 'id', 'publishedAt', 'slug', 'title', 'updatedAt'];

forEachDialect('blog posts', (ctx) => {
  it('creates a post storing exactly what was sent (trimmed), with SPEC defaults', async () => {
    const body = draft();
    const res = await ctx().admin('POST', '/api/admin/blog-posts', {
      title: `  ${body.title}  `,
      excerpt: ` ${body.excerpt} `,
      content: body.content,
      category: 'estate-planning',
    });
    expect(res.status).toBe(201);
    const stored = await storedPost(ctx(), res.body.id);
    expect(stored).toMatchObject({
      title: body.title,
      slug: body.slug,
      excerpt: body.excerpt,
      content: body.content,
      category: 'estate-planning',
      author: defaultBlogAuthor,
      isPublished: false,
      publishedAt: null,
    });
    expect(defaultBlogAuthor).toBe(firm.name);
    expect(stored!.createdAt).toBeInstanceOf(Date);
    expect(res.body).toMatchObject({ id: stored!.id, slug: body.slug, author: firm.name, isPublished: false, publishedAt: null });
  });

  it('generates an empty slug from the title with the SPEC §5 rules', async () => {
    const cases: [string, string][] = [
      [`Probate vs. Trust: What's Best? ${seq + 1}`, `probate-vs-trust-whats-best-${seq + 1}`],
      [`  Divorce   --  Custody  ${seq + 2} `, `divorce-custody-${seq + 2}`],
      [`Café Résumé ${seq + 3}`, `cafe-resume-${seq + 3}`],
    ];
    seq += 3;
    for (const [title, slug] of cases) {
      const created = await create(ctx(), draft({ title, slug: '' }));
      expect((await storedPost(ctx(), created.id))!.slug).toBe(slug);
    }
    const n = ++seq;
    const missing = await create(ctx(), { ...draft({ title: `No Slug Sent ${n}` }), slug: undefined });
    expect((await storedPost(ctx(), missing.id))!.slug).toBe(`no-slug-sent-${n}`);
    const blank = await create(ctx(), draft({ title: `Blank Slug ${n}`, slug: '   ' }));
    expect((await storedPost(ctx(), blank.id))!.slug).toBe(`blank-slug-${n}`);
  });

  it('rejects a title from which no slug can be made when the slug is empty', async () => {
    const before = await countRows(ctx(), 'blogPosts');
    const res = await ctx().admin('POST', '/api/admin/blog-posts', draft({ title: '¿¡ !!! ?', slug: '' }));
    expect(res.status).toBe(400);
    expect(res.body.fields.slug).toBeTypeOf('string');
    expect(await countRows(ctx(), 'blogPosts')).toBe(before);
  });

  it('sets publishedAt to now when published without a date, and keeps a given date', async () => {
    ctx().clock.set('2025-03-04T15:16:17.123Z');
    const now = await create(ctx(), draft({ isPublished: true }));
    expect((await storedPost(ctx(), now.id))!.publishedAt).toEqual(new Date('2025-03-04T15:16:17.123Z'));
    expect(now.publishedAt).toBe('2025-03-04T15:16:17.123Z');

    const nullDate = await create(ctx(), draft({ isPublished: true, publishedAt: null }));
    expect((await storedPost(ctx(), nullDate.id))!.publishedAt).toEqual(new Date('2025-03-04T15:16:17.123Z'));

    const blankDate = await create(ctx(), draft({ isPublished: true, publishedAt: '' }));
    expect((await storedPost(ctx(), blankDate.id))!.publishedAt).toEqual(new Date('2025-03-04T15:16:17.123Z'));

    const given = await create(ctx(), draft({ isPublished: true, publishedAt: '2024-12-25T08:00:00.000Z' }));
    expect((await storedPost(ctx(), given.id))!.publishedAt).toEqual(new Date('2024-12-25T08:00:00.000Z'));
  });

  it('clears publishedAt on an unpublished post, even when one is sent', async () => {
    const created = await create(ctx(), draft({ isPublished: false, publishedAt: '2024-12-25T08:00:00.000Z' }));
    expect((await storedPost(ctx(), created.id))!.publishedAt).toBeNull();

    ctx().clock.set('2025-04-01T09:00:00.000Z');
    const published = await create(ctx(), draft({ isPublished: true }));
    const body = draft({ slug: published.slug, isPublished: false, publishedAt: '2025-04-01T09:00:00.000Z' });
    const res = await ctx().admin('PUT', `/api/admin/blog-posts/${published.id}`, body);
    expect(res.status).toBe(200);
    const stored = await storedPost(ctx(), published.id);
    expect(stored).toMatchObject({ isPublished: false, publishedAt: null });
  });

  it('keeps the original publish date when an already published post is edited', async () => {
    ctx().clock.set('2025-05-01T12:00:00.000Z');
    const body = draft({ isPublished: true });
    const created = await create(ctx(), body);
    ctx().clock.set('2025-06-15T12:00:00.000Z');
    const res = await ctx().admin('PUT', `/api/admin/blog-posts/${created.id}`, { ...body, title: 'Edited title', publishedAt: null });
    expect(res.status).toBe(200);
    const stored = await storedPost(ctx(), created.id);
    expect(stored).toMatchObject({ title: 'Edited title', isPublished: true, publishedAt: new Date('2025-05-01T12:00:00.000Z') });
    expect(stored!.updatedAt.getTime()).toBeGreaterThanOrEqual(stored!.createdAt.getTime());

    // Unpublishing clears the date; publishing again dates it anew.
    await ctx().admin('PUT', `/api/admin/blog-posts/${created.id}`, { ...body, isPublished: false });
    expect((await storedPost(ctx(), created.id))!.publishedAt).toBeNull();
    ctx().clock.set('2025-07-01T12:00:00.000Z');
    await ctx().admin('PUT', `/api/admin/blog-posts/${created.id}`, { ...body, isPublished: true });
    expect((await storedPost(ctx(), created.id))!.publishedAt).toEqual(new Date('2025-07-01T12:00:00.000Z'));

    // An explicit new date sent by the form wins.
    await ctx().admin('PUT', `/api/admin/blog-posts/${created.id}`, { ...body, isPublished: true, publishedAt: '2025-01-02T03:04:05.000Z' });
    expect((await storedPost(ctx(), created.id))!.publishedAt).toEqual(new Date('2025-01-02T03:04:05.000Z'));
  });

  it('updates every field of a post', async () => {
    const created = await create(ctx(), draft());
    const edited = draft({ category: 'probate', author: firm.attorneys[1].name, excerpt: 'New excerpt', content: '<p>New</p>' });
    const res = await ctx().admin('PUT', `/api/admin/blog-posts/${created.id}`, edited);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, slug: edited.slug });
    expect(await storedPost(ctx(), created.id)).toMatchObject({
      title: edited.title,
      slug: edited.slug,
      excerpt: 'New excerpt',
      content: '<p>New</p>',
      category: 'probate',
      author: firm.attorneys[1].name,
    });
  });

  it('answers 409 with fields.slug for a duplicate slug, on create and on update, and writes nothing', async () => {
    const a = await create(ctx(), draft());
    const b = await create(ctx(), draft());
    const before = await countRows(ctx(), 'blogPosts');
    const dup = await ctx().admin('POST', '/api/admin/blog-posts', draft({ slug: a.slug }));
    expect(dup.status).toBe(409);
    expect(dup.body.fields.slug).toBeTypeOf('string');
    expect(await countRows(ctx(), 'blogPosts')).toBe(before);

    const storedA = await storedPost(ctx(), a.id);
    const generatedDup = await ctx().admin('POST', '/api/admin/blog-posts', draft({ title: storedA!.title, slug: '' }));
    expect(generatedDup.status).toBe(409);
    expect(generatedDup.body.fields.slug).toBeTypeOf('string');

    const bBody = draft({ slug: a.slug, title: 'Renamed B' });
    const upd = await ctx().admin('PUT', `/api/admin/blog-posts/${b.id}`, bBody);
    expect(upd.status).toBe(409);
    expect(upd.body.fields.slug).toBeTypeOf('string');
    expect(await storedPost(ctx(), b.id)).toMatchObject({ slug: b.slug });
    expect((await storedPost(ctx(), b.id))!.title).not.toBe('Renamed B');
    expect(await redirectsOf(ctx(), b.id)).toEqual([]);
    expect(await countRows(ctx(), 'blogPosts')).toBe(before);
  });

  it('rejects invalid input with a message per field and writes nothing', async () => {
    const before = await countRows(ctx(), 'blogPosts');
    const beforeChanges = ctx().changes.length;
    const cases: [Record<string, unknown>, string][] = [
      [draft({ slug: 'Has Spaces' }), 'slug'],
      [draft({ slug: 'UPPER-case' }), 'slug'],
      [draft({ slug: 'double--hyphen' }), 'slug'],
      [draft({ slug: '-leading' }), 'slug'],
      [draft({ slug: 'trailing-' }), 'slug'],
      [draft({ slug: 'a/b' }), 'slug'],
      [draft({ slug: 'x'.repeat(201) }), 'slug'],
      [draft({ category: 'tax' }), 'category'],
      [draft({ category: undefined }), 'category'],
      [draft({ author: 'Someone Else' }), 'author'],
      [draft({ title: '' }), 'title'],
      [draft({ title: '   ' }), 'title'],
      [draft({ title: undefined }), 'title'],
      [draft({ title: 'x'.repeat(201) }), 'title'],
      [draft({ excerpt: '' }), 'excerpt'],
      [draft({ content: '  ' }), 'content'],
      [draft({ isPublished: 'yes' }), 'isPublished'],
      [draft({ publishedAt: 'not a date' }), 'publishedAt'],
    ];
    for (const [body, field] of cases) {
      const res = await ctx().admin('POST', '/api/admin/blog-posts', body);
      expect(res.status, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(res.body.error).toBeTypeOf('string');
      expect(res.body.fields[field], `${field} in ${JSON.stringify(res.body.fields)}`).toBeTypeOf('string');
    }
    const noTitle = await ctx().admin('POST', '/api/admin/blog-posts', draft({ title: '  ' }));
    expect(noTitle.body.fields.title).toBe('Title is required');
    const badCategory = await ctx().admin('POST', '/api/admin/blog-posts', draft({ category: 'tax' }));
    expect(badCategory.body.fields.category).toBe('Please choose a category');
    const badAuthor = await ctx().admin('POST', '/api/admin/blog-posts', draft({ author: 'Someone Else' }));
    expect(badAuthor.body.fields.author).toBe('Please choose an author');
    const badSlug = await ctx().admin('POST', '/api/admin/blog-posts', draft({ slug: 'Has Spaces' }));
    expect(badSlug.body.fields.slug).toBe('Slug may contain only lowercase letters, digits and single hyphens');

    // Content that is nothing but script is empty once sanitised.
    const onlyScript = await ctx().admin('POST', '/api/admin/blog-posts', draft({ content: '<script>alert(1)</script>' }));
    expect(onlyScript.status).toBe(400);
    expect(onlyScript.body.fields.content).toBeTypeOf('string');

    expect((await ctx().call('POST', '/api/admin/blog-posts', { rawBody: '{"title":', token: ADMIN_TOKEN })).status).toBe(400);
    expect(await countRows(ctx(), 'blogPosts')).toBe(before);
    expect(ctx().changes.length).toBe(beforeChanges);

    const existing = await create(ctx(), draft());
    const snapshot = await storedPost(ctx(), existing.id);
    const badUpdate = await ctx().admin('PUT', `/api/admin/blog-posts/${existing.id}`, draft({ category: 'tax', title: 'Changed' }));
    expect(badUpdate.status).toBe(400);
    expect(badUpdate.body.fields.category).toBe('Please choose a category');
    expect(await storedPost(ctx(), existing.id)).toEqual(snapshot);
  });

  it('removes script from content on write and keeps the safe tags', async () => {
    const content = [
      '<h2>Heading</h2>',
      '<p>Safe <strong>bold</strong> <em>em</em> <a href="https://example.com/x">link</a></p>',
      '<ul><li>one</li></ul>',
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '<a href="javascript:alert(1)">bad</a>',
      '<p onclick="alert(1)" style="color:red">text</p>',
      '<iframe src="https://evil.example"></iframe>',
    ].join('');
    const created = await create(ctx(), draft({ content }));
    const stored = (await storedPost(ctx(), created.id))!.content;
    expect(stored).toBe(
      '<h2>Heading</h2>' +
        '<p>Safe <strong>bold</strong> <em>em</em> <a href="https://example.com/x">link</a></p>' +
        '<ul><li>one</li></ul>' +
        '<img src="x" />' +
        '<a>bad</a>' +
        '<p>text</p>',
    );
    for (const bad of ['<script', 'alert', 'onerror', 'javascript:', 'onclick', 'iframe', 'style=']) expect(stored).not.toContain(bad);

    // Obfuscated and less common vectors.
    const tricky = await create(
      ctx(),
      draft({
        content:
          '<p>keep</p><a href="&#106;avascript:alert(1)">a</a><a href=" javascript:alert(1)">b</a><svg onload=alert(1)><circle/></svg>' +
          '<img src="data:image/png;base64,AAA"><img src="https://cdn.example/ok.png" onerror="a()"><a href="https://x.example" target="_blank">t</a>',
      }),
    );
    expect((await storedPost(ctx(), tricky.id))!.content).toBe(
      // An image left without a usable address (data: here) goes whole (api/http/sanitize-html.ts).
      '<p>keep</p><a>a</a><a>b</a><img src="https://cdn.example/ok.png" /><a href="https://x.example" target="_blank" rel="noopener noreferrer">t</a>',
    );

    // The same on update.
    const res = await ctx().admin('PUT', `/api/admin/blog-posts/${created.id}`, draft({ slug: created.slug, content: '<p>ok</p><script>steal()</script>' }));
    expect(res.status).toBe(200);
    expect((await storedPost(ctx(), created.id))!.content).toBe('<p>ok</p>');
  });

  it('lists only published posts publicly, newest publishedAt first, with summary fields only', async () => {
    // Every date below has come (a post dated later is scheduled: shown from that moment).
    ctx().clock.set('2031-01-01T00:00:00.000Z');
    const older = await create(ctx(), draft({ isPublished: true, publishedAt: '2023-01-10T00:00:00.000Z' }));
    const newest = await create(ctx(), draft({ isPublished: true, publishedAt: '2030-02-10T00:00:00.000Z' }));
    const middle = await create(ctx(), draft({ isPublished: true, publishedAt: '2026-05-10T00:00:00.000Z' }));
    const hidden = await create(ctx(), draft({ isPublished: false }));

    const res = await ctx().call('GET', '/api/blog-posts');
    expect(res.status).toBe(200);
    const ids = res.body.map((p: { id: string }) => p.id);
    expect(ids).not.toContain(hidden.id);
    expect(ids.filter((id: string) => [older.id, newest.id, middle.id].includes(id))).toEqual([newest.id, middle.id, older.id]);
    expect(ids[0]).toBe(newest.id);
    for (const p of res.body) {
      expect(Object.keys(p).sort()).toEqual(summaryKeys);
      expect(p.publishedAt).toBeTypeOf('string');
    }
    const dates = res.body.map((p: { publishedAt: string }) => Date.parse(p.publishedAt));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));

    const { db, t } = ctx().database;
    const publishedRows = await db.select().from(t.blogPosts).where(eq(t.blogPosts.isPublished, true));
    expect(res.body.length).toBe(publishedRows.length);
    const newestRow = publishedRows.find((r) => r.id === newest.id)!;
    expect(res.body[0]).toEqual({
      id: newestRow.id,
      title: newestRow.title,
      slug: newestRow.slug,
      excerpt: newestRow.excerpt,
      category: newestRow.category,
      author: newestRow.author,
      publishedAt: '2030-02-10T00:00:00.000Z',
      updatedAt: newestRow.updatedAt.toISOString(),
    });
  });

  it('gives a page what it shows: a slice of the published list with the whole count, or some fields only', async () => {
    for (let i = 1; i <= 5; i++) await create(ctx(), draft({ isPublished: true, publishedAt: `2030-0${i}-10T00:00:00.000Z` }));
    await create(ctx(), draft({ isPublished: false }));
    const all = (await ctx().call('GET', '/api/blog-posts')).body as { id: string }[];

    const slice = await ctx().call('GET', '/api/blog-posts?limit=2&offset=1');
    expect(slice.status).toBe(200);
    expect(slice.body.map((p: { id: string }) => p.id)).toEqual(all.slice(1, 3).map((p) => p.id));
    expect(Object.keys(slice.body[0]).sort()).toEqual(summaryKeys);
    expect(slice.headers.get('x-total-count')).toBe(String(all.length));
    // Past the end: none, and the count still.
    const past = await ctx().call('GET', `/api/blog-posts?limit=3&offset=${all.length}`);
    expect(past.body).toEqual([]);
    expect(past.headers.get('x-total-count')).toBe(String(all.length));

    const dates = await ctx().call('GET', '/api/blog-posts?fields=slug,updatedAt');
    expect(dates.status).toBe(200);
    expect(dates.body).toHaveLength(all.length);
    for (const p of dates.body) expect(Object.keys(p).sort()).toEqual(['slug', 'updatedAt']);

    for (const [query, field, message] of [
      ['limit=0', 'limit', 'Limit must be a whole number from 1 to 100'],
      ['limit=101', 'limit', 'Limit must be a whole number from 1 to 100'],
      ['limit=2.5', 'limit', 'Limit must be a whole number from 1 to 100'],
      ['limit=ten', 'limit', 'Limit must be a whole number from 1 to 100'],
      ['limit=2&offset=-1', 'offset', 'Offset must be a whole number from 0'],
      ['fields=slug,content', 'fields', 'Fields must be some of id, title, slug, excerpt, category, author, publishedAt, updatedAt, separated by commas'],
      ['fields=', 'fields', 'Fields must be some of id, title, slug, excerpt, category, author, publishedAt, updatedAt, separated by commas'],
      ['fields=slug&fields=id', 'fields', 'Fields must be given once, separated by commas'],
      ['limit=2&limit=3', 'limit', 'Limit must be a whole number from 1 to 100'],
      ['offset=5', 'offset', 'Offset needs a limit'],
    ]) {
      const res = await ctx().call('GET', `/api/blog-posts?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.fields?.[field!], query).toBe(message);
    }
  });

  it('lists every post, drafts included, for the admin', async () => {
    const hidden = await create(ctx(), draft({ isPublished: false }));
    const res = await ctx().admin('GET', '/api/admin/blog-posts');
    expect(res.status).toBe(200);
    const row = res.body.find((p: { id: string }) => p.id === hidden.id);
    expect(row).toMatchObject({ id: hidden.id, isPublished: false, publishedAt: null, content: expect.any(String) });
    expect(res.body.length).toBe(await countRows(ctx(), 'blogPosts'));
  });

  it('serves one published post by slug and 404 "Article Not Found" for a draft or an unknown slug', async () => {
    const body = draft({ isPublished: true, publishedAt: '2025-02-02T02:02:02.000Z' });
    const pub = await create(ctx(), body);
    const res = await ctx().call('GET', `/api/blog-posts/${pub.slug}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: pub.id,
      title: body.title,
      slug: body.slug,
      content: body.content,
      category: body.category,
      author: body.author,
      publishedAt: '2025-02-02T02:02:02.000Z',
    });
    expect(res.body.createdAt).toBeTypeOf('string');

    const hidden = await create(ctx(), draft({ isPublished: false }));
    for (const slug of [hidden.slug, 'no-such-article', pub.slug.toUpperCase(), 'x'.repeat(300), encodeURIComponent('ü-ß')]) {
      const missing = await ctx().call('GET', `/api/blog-posts/${slug}`);
      expect(missing.status, slug).toBe(404);
      expect(missing.body.error, slug).toBe('Article Not Found');
    }
  });

  it('keeps an old slug working after a rename, and renaming back works', async () => {
    const body = draft({ isPublished: true });
    const post = await create(ctx(), body);
    const first = body.slug;
    const second = `${first}-renamed`;

    const renamed = await ctx().admin('PUT', `/api/admin/blog-posts/${post.id}`, { ...body, slug: second });
    expect(renamed.status).toBe(200);
    expect((await storedPost(ctx(), post.id))!.slug).toBe(second);
    expect(await redirectsOf(ctx(), post.id)).toEqual([first]);
    expect(ctx().changes.at(-1)).toEqual({ topic: 'blog-posts', keys: [first, second] });

    const viaOld = await ctx().call('GET', `/api/blog-posts/${first}`);
    expect(viaOld.status).toBe(200);
    expect(viaOld.body).toMatchObject({ id: post.id, slug: second });
    expect((await ctx().call('GET', `/api/blog-posts/${second}`)).body).toMatchObject({ id: post.id, slug: second });

    const back = await ctx().admin('PUT', `/api/admin/blog-posts/${post.id}`, { ...body, slug: first });
    expect(back.status).toBe(200);
    expect((await storedPost(ctx(), post.id))!.slug).toBe(first);
    expect(await redirectsOf(ctx(), post.id)).toEqual([second]);
    expect(ctx().changes.at(-1)).toEqual({ topic: 'blog-posts', keys: [second, first] });
    expect((await ctx().call('GET', `/api/blog-posts/${first}`)).body).toMatchObject({ id: post.id, slug: first });
    expect((await ctx().call('GET', `/api/blog-posts/${second}`)).body).toMatchObject({ id: post.id, slug: first });

    // A third name: both earlier slugs lead to the post, and every one of them is announced.
    const third = `${first}-third`;
    await ctx().admin('PUT', `/api/admin/blog-posts/${post.id}`, { ...body, slug: third });
    expect(await redirectsOf(ctx(), post.id)).toEqual([first, second].sort());
    expect(ctx().changes.at(-1)!.keys!.slice().sort()).toEqual([first, second, third].sort());
    for (const slug of [first, second, third]) {
      expect((await ctx().call('GET', `/api/blog-posts/${slug}`)).body, slug).toMatchObject({ id: post.id, slug: third });
    }

    // Unpublished, no slug of it is served.
    await ctx().admin('PUT', `/api/admin/blog-posts/${post.id}`, { ...body, slug: third, isPublished: false });
    for (const slug of [first, second, third]) {
      const res = await ctx().call('GET', `/api/blog-posts/${slug}`);
      expect(res.status, slug).toBe(404);
      expect(res.body.error).toBe('Article Not Found');
    }
  });

  it('lists, for the site alone, every slug an article answers at: published slugs and the earlier slugs of published posts', async () => {
    const body = draft({ isPublished: true });
    const post = await create(ctx(), body);
    await ctx().admin('PUT', `/api/admin/blog-posts/${post.id}`, { ...body, slug: `${body.slug}-renamed` });
    const hiddenBody = draft({ isPublished: false });
    const hidden = await create(ctx(), hiddenBody);
    await ctx().admin('PUT', `/api/admin/blog-posts/${hidden.id}`, { ...hiddenBody, slug: `${hiddenBody.slug}-renamed` });

    const res = await ctx().call('GET', '/api/internal/article-slugs', { headers: internalHeaders });
    expect(res.status).toBe(200);
    const slugs = res.body as string[];
    expect(slugs).toEqual(expect.arrayContaining([body.slug, `${body.slug}-renamed`]));
    expect(slugs).not.toContain(hiddenBody.slug);
    expect(slugs).not.toContain(`${hiddenBody.slug}-renamed`);
    // Exactly the slugs GET /api/blog-posts/:slug answers.
    for (const slug of slugs) expect((await ctx().call('GET', `/api/blog-posts/${encodeURIComponent(slug)}`)).status, slug).toBe(200);
    const published = (await ctx().call('GET', '/api/blog-posts')).body as { slug: string }[];
    expect(slugs).toEqual(expect.arrayContaining(published.map((p) => p.slug)));

    // Earlier slugs may hold words an admin renamed a post to remove: never listed to a visitor.
    for (const headers of [{}, { 'x-internal-call': 'guess' }] as Record<string, string>[]) {
      const outside = await ctx().call('GET', '/api/internal/article-slugs', { headers });
      expect(outside.status).toBe(404);
      expect(outside.body.error).toBe('Not found');
    }
  });

  it('lets a new post take over a slug that is only an old redirect', async () => {
    const body = draft({ isPublished: true });
    const original = await create(ctx(), body);
    const oldSlug = body.slug;
    await ctx().admin('PUT', `/api/admin/blog-posts/${original.id}`, { ...body, slug: `${oldSlug}-v2` });
    expect(await redirectsOf(ctx(), original.id)).toEqual([oldSlug]);

    const newcomer = await create(ctx(), draft({ isPublished: true, slug: oldSlug }));
    expect(newcomer.slug).toBe(oldSlug);
    expect(await redirectsOf(ctx(), original.id)).toEqual([]);
    expect((await ctx().call('GET', `/api/blog-posts/${oldSlug}`)).body).toMatchObject({ id: newcomer.id, slug: oldSlug });
    expect((await ctx().call('GET', `/api/blog-posts/${oldSlug}-v2`)).body).toMatchObject({ id: original.id });

    // The same through a rename of another existing post.
    const third = await create(ctx(), draft({ isPublished: true }));
    const thirdBody = draft({ isPublished: true, slug: third.slug });
    await ctx().admin('PUT', `/api/admin/blog-posts/${third.id}`, { ...thirdBody, slug: `${third.slug}-moved` });
    const taker = await create(ctx(), draft({ isPublished: true }));
    const takeover = await ctx().admin('PUT', `/api/admin/blog-posts/${taker.id}`, draft({ isPublished: true, slug: third.slug }));
    expect(takeover.status).toBe(200);
    expect((await ctx().call('GET', `/api/blog-posts/${third.slug}`)).body).toMatchObject({ id: taker.id });
    expect(await redirectsOf(ctx(), third.id)).toEqual([]);
    expect(await redirectsOf(ctx(), taker.id)).toEqual([taker.slug]);
  });

  it('announces content changes with the slugs touched', async () => {
    const body = draft({ isPublished: true });
    const n = ctx().changes.length;
    const created = await create(ctx(), body);
    expect(ctx().changes.slice(n)).toEqual([{ topic: 'blog-posts', keys: [body.slug] }]);

    await ctx().admin('PUT', `/api/admin/blog-posts/${created.id}`, { ...body, title: 'Same slug' });
    expect(ctx().changes.at(-1)).toEqual({ topic: 'blog-posts', keys: [body.slug] });

    await ctx().admin('PUT', `/api/admin/blog-posts/${created.id}`, { ...body, slug: `${body.slug}-new` });
    expect(ctx().changes.at(-1)).toEqual({ topic: 'blog-posts', keys: [body.slug, `${body.slug}-new`] });

    const del = await ctx().admin('DELETE', `/api/admin/blog-posts/${created.id}`);
    expect(del.status).toBe(204);
    // The old slug's page stops redirecting too, so it is announced with the current one.
    expect(ctx().changes.at(-1)!.topic).toBe('blog-posts');
    expect(ctx().changes.at(-1)!.keys!.slice().sort()).toEqual([body.slug, `${body.slug}-new`].sort());
  });

  it('deletes a post with its old slugs, and answers 404 for unknown ids', async () => {
    const body = draft({ isPublished: true });
    const post = await create(ctx(), body);
    await ctx().admin('PUT', `/api/admin/blog-posts/${post.id}`, { ...body, slug: `${body.slug}-x` });
    const res = await ctx().admin('DELETE', `/api/admin/blog-posts/${post.id}`);
    expect(res.status).toBe(204);
    expect(await storedPost(ctx(), post.id)).toBeUndefined();
    expect(await redirectsOf(ctx(), post.id)).toEqual([]);
    expect((await ctx().call('GET', `/api/blog-posts/${body.slug}`)).status).toBe(404);
    expect((await ctx().call('GET', `/api/blog-posts/${body.slug}-x`)).status).toBe(404);

    const before = await countRows(ctx(), 'blogPosts');
    const changes = ctx().changes.length;
    const again = await ctx().admin('DELETE', `/api/admin/blog-posts/${post.id}`);
    expect(again.status).toBe(404);
    const put = await ctx().admin('PUT', '/api/admin/blog-posts/no-such-id', draft());
    expect(put.status).toBe(404);
    expect(put.body.error).toBe('Blog post not found');
    expect((await ctx().admin('DELETE', '/api/admin/blog-posts/no-such-id')).status).toBe(404);
    expect(await countRows(ctx(), 'blogPosts')).toBe(before);
    expect(ctx().changes.length).toBe(changes);
  });

  it('refuses the admin calls without an admin token', async () => {
    const before = await countRows(ctx(), 'blogPosts');
    const existing = await create(ctx(), draft());
    expect((await ctx().call('GET', '/api/admin/blog-posts')).status).toBe(401);
    expect((await ctx().call('POST', '/api/admin/blog-posts', { body: draft() })).status).toBe(401);
    expect((await ctx().call('POST', '/api/admin/blog-posts', { body: draft(), token: NON_ADMIN_TOKEN })).status).toBe(403);
    expect((await ctx().call('PUT', `/api/admin/blog-posts/${existing.id}`, { body: draft(), token: NON_ADMIN_TOKEN })).status).toBe(403);
    expect((await ctx().call('DELETE', `/api/admin/blog-posts/${existing.id}`, { token: NON_ADMIN_TOKEN })).status).toBe(403);
    expect(await countRows(ctx(), 'blogPosts')).toBe(before + 1);
    expect(await storedPost(ctx(), existing.id)).toMatchObject({ slug: existing.slug });
  });

  it('keeps a post scheduled five minutes ahead off every public list, page and feed until that minute, then announces it', async () => {
    ctx().clock.set('2026-12-01T17:00:00.000Z');
    await ctx().background.publishDuePosts(); // what went live before now was announced then
    const scheduled = await create(ctx(), draft({ isPublished: true, publishedAt: '2026-12-01T17:05:00.000Z' }));
    const earlier = await create(ctx(), draft({ isPublished: true, publishedAt: '2026-12-01T16:00:00.000Z' }));
    const slugs = async () => ((await ctx().call('GET', '/api/blog-posts')).body as { slug: string }[]).map((p) => p.slug);
    const articleSlugs = async () => (await ctx().call('GET', '/api/internal/article-slugs', { headers: internalHeaders })).body as string[];

    // Before: the admin sees it, as scheduled; no visitor does, by list, page, slice or the site's slugs.
    expect((await ctx().admin('GET', '/api/admin/blog-posts')).body).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: scheduled.id, isPublished: true })]),
    );
    expect(await slugs()).toContain(earlier.slug);
    expect(await slugs()).not.toContain(scheduled.slug);
    expect((await ctx().call('GET', `/api/blog-posts/${scheduled.slug}`)).status).toBe(404);
    const part = await ctx().call('GET', '/api/blog-posts?limit=50&offset=0');
    expect((part.body as { slug: string }[]).map((p) => p.slug)).not.toContain(scheduled.slug);
    expect(await articleSlugs()).not.toContain(scheduled.slug);
    ctx().clock.set('2026-12-01T17:04:59.000Z');
    expect(await ctx().background.publishDuePosts()).toEqual([]);
    expect(await slugs()).not.toContain(scheduled.slug);

    // At the minute: live everywhere, and announced (pages, feeds and the CDN follow the change).
    ctx().clock.set('2026-12-01T17:05:00.000Z');
    ctx().changes.length = 0;
    expect(await ctx().background.publishDuePosts()).toEqual([scheduled.slug]);
    expect(ctx().changes).toEqual([{ topic: 'blog-posts', keys: [scheduled.slug] }]);
    expect((await slugs())[0]).toBe(scheduled.slug);
    expect((await ctx().call('GET', `/api/blog-posts/${scheduled.slug}`)).status).toBe(200);
    expect(await articleSlugs()).toContain(scheduled.slug);
    // Announced once.
    ctx().clock.set('2026-12-01T17:06:00.000Z');
    expect(await ctx().background.publishDuePosts()).toEqual([]);
  });

  it('lets the admin move a scheduled post back to a draft, or its date later, and nothing shows early', async () => {
    ctx().clock.set('2026-12-02T17:00:00.000Z');
    await ctx().background.publishDuePosts();
    const post = await create(ctx(), draft({ isPublished: true, publishedAt: '2026-12-02T18:00:00.000Z' }));
    const { id: _id, slug: _slug, publishedAt: _at, ...body } = { ...(await storedPost(ctx(), post.id))! };
    const base = { title: body.title, slug: post.slug, excerpt: body.excerpt, content: body.content, category: body.category, author: body.author };
    expect((await ctx().admin('PUT', `/api/admin/blog-posts/${post.id}`, { ...base, isPublished: true, publishedAt: '2026-12-03T18:00:00.000Z' })).status).toBe(
      200,
    );
    ctx().clock.set('2026-12-02T18:30:00.000Z');
    expect(await ctx().background.publishDuePosts()).toEqual([]);
    expect((await ctx().call('GET', `/api/blog-posts/${post.slug}`)).status).toBe(404);
    expect((await ctx().admin('PUT', `/api/admin/blog-posts/${post.id}`, { ...base, isPublished: false })).status).toBe(200);
    ctx().clock.set('2026-12-03T18:30:00.000Z');
    expect(await ctx().background.publishDuePosts()).toEqual([]);
    expect((await ctx().call('GET', `/api/blog-posts/${post.slug}`)).status).toBe(404);
  });

  it('makes a preview link that shows a draft to whoever holds it, for a week, and nothing once altered, expired or deleted', async () => {
    ctx().clock.set('2026-12-10T17:00:00.000Z');
    const post = await create(ctx(), draft({ featuredImageUrl: 'https://media.example.com/trust.jpg', featuredImageAlt: 'A signed trust document' }));
    const made = await ctx().admin('POST', `/api/admin/blog-posts/${post.id}/preview-link`);
    expect(made.status).toBe(201);
    expect(made.body.expiresAt).toBe('2026-12-17T17:00:00.000Z');
    const url = new URL(made.body.url as string);
    expect(url.pathname).toBe('/blog-preview');
    const token = decodeURIComponent(url.hash.slice(1));
    const open = (t: string) => ctx().call('GET', '/api/blog-post-preview', { headers: { 'X-Preview-Token': t } });

    const seen = await open(token);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({
      title: expect.any(String),
      isPublished: false,
      featuredImageAlt: 'A signed trust document',
      expiresAt: '2026-12-17T17:00:00.000Z',
    });
    expect(seen.headers.get('cache-control')).toBe('no-store');
    // Not a public page meanwhile.
    expect((await ctx().call('GET', `/api/blog-posts/${post.slug}`)).status).toBe(404);
    // Altered anywhere (the id, the date, the mac), missing, or made up: nothing.
    const [id, expires, mac] = token.split('.');
    for (const bad of [
      `${id}.${Number(expires) + 86_400}.${mac}`,
      `${id}.${expires}.${mac!.slice(0, -1)}${mac!.endsWith('A') ? 'B' : 'A'}`,
      '',
      'x.y.z',
      `${id}.${expires}`,
    ]) {
      const res = await open(bad);
      expect(res.status, bad).toBe(404);
      expect(res.body.error).toMatch(/does not open any post/);
    }
    expect((await ctx().call('GET', '/api/blog-post-preview')).status).toBe(404);
    // A week later: gone, and it says so.
    ctx().clock.set('2026-12-17T17:00:00.000Z');
    const late = await open(token);
    expect(late.status).toBe(410);
    expect(late.body.error).toBe('This preview link has expired. Ask for a new one.');
    // A deleted post opens nothing.
    ctx().clock.set('2026-12-10T18:00:00.000Z');
    expect((await ctx().admin('DELETE', `/api/admin/blog-posts/${post.id}`)).status).toBe(204);
    expect((await open(token)).status).toBe(404);
    expect((await ctx().admin('POST', `/api/admin/blog-posts/${post.id}/preview-link`)).status).toBe(404);
    expect((await ctx().call('POST', `/api/admin/blog-posts/${post.id}/preview-link`, { token: NON_ADMIN_TOKEN })).status).toBe(403);
  });

  it('revokes a post’s preview links: each made before answers as an expired one, to the second; one made after works; other posts keep theirs', async () => {
    ctx().clock.set('2026-12-11T17:00:00.500Z');
    const post = await create(ctx(), draft());
    const other = await create(ctx(), draft());
    const linkTo = async (id: string) => {
      const made = await ctx().admin('POST', `/api/admin/blog-posts/${id}/preview-link`);
      expect(made.status).toBe(201);
      return { token: decodeURIComponent(new URL(made.body.url as string).hash.slice(1)), expiresAt: made.body.expiresAt as string };
    };
    const open = (t: string) => ctx().call('GET', '/api/blog-post-preview', { headers: { 'X-Preview-Token': t } });
    const expired = { status: 410, body: { error: 'This preview link has expired. Ask for a new one.' } };

    const early = await linkTo(post.id);
    ctx().clock.set('2026-12-11T17:00:00.900Z');
    // Made in the very millisecond of the revocation, before it: a link's time is only known to the second.
    const sameMoment = await linkTo(post.id);
    const others = await linkTo(other.id);
    const seen = await open(early.token);
    expect(seen.status).toBe(200);
    expect(Object.keys(seen.body)).not.toContain('previewsRevokedAt');
    const updatedAt = (await storedPost(ctx(), post.id))!.updatedAt;

    const revoked = await ctx().admin('DELETE', `/api/admin/blog-posts/${post.id}/preview-links`);
    expect(revoked).toMatchObject({ status: 200, body: { previewsRevokedAt: '2026-12-11T17:00:00.900Z' } });
    for (const link of [early, sameMoment]) expect(await open(link.token)).toMatchObject(expired);
    // The post itself did not change (its lastmod stays); the admin's list says when its links were revoked.
    expect((await storedPost(ctx(), post.id))!.updatedAt).toEqual(updatedAt);
    const listed = (await ctx().admin('GET', '/api/admin/blog-posts')).body.find((p: { id: string }) => p.id === post.id);
    expect(listed.previewsRevokedAt).toBe('2026-12-11T17:00:00.900Z');

    // Made after, in the same second: works, for a week from the next whole second.
    const after = await linkTo(post.id);
    expect(after.expiresAt).toBe('2026-12-18T17:00:01.000Z');
    expect((await open(after.token)).status).toBe(200);
    ctx().clock.set('2026-12-18T17:00:00.950Z');
    expect((await open(after.token)).status).toBe(200);
    ctx().clock.set('2026-12-12T09:00:00.000Z');
    const nextDay = await linkTo(post.id);
    expect(nextDay.expiresAt).toBe('2026-12-19T09:00:00.000Z');
    expect((await open(nextDay.token)).status).toBe(200);
    // Another post's links are its own.
    expect((await open(others.token)).status).toBe(200);

    // Revoked again, in the very millisecond the last link was made (a whole second): every link so far goes.
    expect((await ctx().admin('DELETE', `/api/admin/blog-posts/${post.id}/preview-links`)).status).toBe(200);
    for (const link of [after, nextDay]) expect(await open(link.token)).toMatchObject(expired);

    // Only an admin, and only a post that exists.
    expect((await ctx().call('DELETE', `/api/admin/blog-posts/${other.id}/preview-links`)).status).toBe(401);
    expect((await ctx().call('DELETE', `/api/admin/blog-posts/${other.id}/preview-links`, { token: NON_ADMIN_TOKEN })).status).toBe(403);
    expect((await ctx().admin('DELETE', `/api/admin/blog-posts/${crypto.randomUUID()}/preview-links`)).status).toBe(404);
    expect((await open(others.token)).status).toBe(200);
  });

  it('unpublishing a post revokes its preview links; saving a draft or a published post again does not; the time is never public', async () => {
    ctx().clock.set('2026-12-13T17:00:00.000Z');
    const body = draft({ isPublished: true });
    const post = await create(ctx(), body);
    const linkTo = async () =>
      decodeURIComponent(new URL((await ctx().admin('POST', `/api/admin/blog-posts/${post.id}/preview-link`)).body.url as string).hash.slice(1));
    const open = (t: string) => ctx().call('GET', '/api/blog-post-preview', { headers: { 'X-Preview-Token': t } });
    const whilePublished = await linkTo();
    ctx().clock.set('2026-12-13T18:00:00.000Z');
    // Saved again, still published: nothing is revoked, and the public article names no revocation.
    expect((await ctx().admin('PUT', `/api/admin/blog-posts/${post.id}`, { ...body, excerpt: 'Edited.' })).status).toBe(200);
    expect((await open(whilePublished)).status).toBe(200);
    const article = await ctx().call('GET', `/api/blog-posts/${post.slug}`);
    expect(article.status).toBe(200);
    expect(Object.keys(article.body)).not.toContain('previewsRevokedAt');
    expect(JSON.stringify((await ctx().call('GET', '/api/blog-posts')).body)).not.toContain('previewsRevokedAt');

    // Unpublished (retracted): the link made while it was out stops working.
    ctx().clock.set('2026-12-13T19:00:00.000Z');
    expect((await ctx().admin('PUT', `/api/admin/blog-posts/${post.id}`, { ...body, isPublished: false })).status).toBe(200);
    expect((await storedPost(ctx(), post.id))!.previewsRevokedAt).toEqual(new Date('2026-12-13T19:00:00.000Z'));
    expect(await open(whilePublished)).toMatchObject({ status: 410, body: { error: 'This preview link has expired. Ask for a new one.' } });
    // A link made after works, and saving the draft again keeps it working.
    ctx().clock.set('2026-12-13T19:30:00.000Z');
    const ofTheDraft = await linkTo();
    expect((await open(ofTheDraft)).status).toBe(200);
    ctx().clock.set('2026-12-13T20:00:00.000Z');
    expect((await ctx().admin('PUT', `/api/admin/blog-posts/${post.id}`, { ...body, isPublished: false, excerpt: 'Draft again.' })).status).toBe(200);
    expect((await open(ofTheDraft)).status).toBe(200);
    expect((await storedPost(ctx(), post.id))!.previewsRevokedAt).toEqual(new Date('2026-12-13T19:00:00.000Z'));
  });

  it('stores the SEO title and description and the featured image, gives them with the article, and refuses them malformed', async () => {
    const fields = {
      seoTitle: '  Living trusts in San Diego  ',
      seoDescription: 'What a trust costs and saves.',
      featuredImageUrl: 'https://media.example.com/a.jpg',
      featuredImageAlt: 'A desk',
    };
    const post = await create(ctx(), draft({ isPublished: true, ...fields }));
    expect(await storedPost(ctx(), post.id)).toMatchObject({ ...fields, seoTitle: 'Living trusts in San Diego' });
    const shown = await ctx().call('GET', `/api/blog-posts/${post.slug}`);
    expect(shown.body).toMatchObject({ ...fields, seoTitle: 'Living trusts in San Diego' });
    // Blank: none.
    const plain = await create(ctx(), draft({ isPublished: true, seoTitle: ' ', seoDescription: '', featuredImageUrl: '', featuredImageAlt: '' }));
    expect(await storedPost(ctx(), plain.id)).toMatchObject({ seoTitle: null, seoDescription: null, featuredImageUrl: null, featuredImageAlt: null });

    const before = await countRows(ctx(), 'blogPosts');
    for (const [bad, field, message] of [
      [{ featuredImageUrl: 'http://media.example.com/a.jpg', featuredImageAlt: 'x' }, 'featuredImageUrl', 'Featured image must be an https:// address'],
      [{ featuredImageUrl: 'javascript:alert(1)', featuredImageAlt: 'x' }, 'featuredImageUrl', 'Featured image must be an https:// address'],
      [{ featuredImageUrl: 'https://media.example.com/a.jpg' }, 'featuredImageAlt', 'Describe the image for visitors who cannot see it'],
      [{ seoTitle: 'x'.repeat(71) }, 'seoTitle', 'SEO title must be at most 70 characters'],
      [{ seoDescription: 'x'.repeat(161) }, 'seoDescription', 'SEO description must be at most 160 characters'],
    ] as const) {
      const res = await ctx().admin('POST', '/api/admin/blog-posts', draft(bad));
      expect(res.status, field).toBe(400);
      expect(res.body.fields).toEqual({ [field]: message });
    }
    expect(await countRows(ctx(), 'blogPosts')).toBe(before);
  });
});
