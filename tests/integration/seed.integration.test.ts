/**
 * The seed (SPEC §3 default components and theme; sample content; docs/decisions/004-themes-and-seed.md),
 * on a fresh database of each dialect per test: what it writes, that it is idempotent, that content
 * an admin deleted or changed stays that way, and that servers starting together seed only once.
 */
import { eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sanitizeArticleHtml } from '../../api/http/sanitize-html.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import { seedDatabase, type SeedResult } from '../../db/seed/seed.ts';
import { firm } from '../../src/config/firm.ts';
import { blogPostInput } from '../../src/shared/schemas/blog-posts.ts';
import { testimonialInput } from '../../src/shared/schemas/testimonials.ts';
import { isSlug } from '../../src/shared/slug.ts';
import { findThemeTemplate } from '../../src/shared/theme-templates.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/test-database.ts';
import { forEachDialect } from '../support/test-app.ts';

/** SPEC §3, default component catalogue: eight keys, all visible by default. */
const specComponents = [
  ['testimonials', 'Client Testimonials'],
  ['blog_articles', 'Blog Articles'],
  ['external_blog_articles', 'External Blog Articles'],
  ['probate_calculator', 'Probate Calculator'],
  ['consultation_booking', 'Consultation Booking'],
  ['contact_form', 'Contact Form'],
  ['newsletter_signup', 'Newsletter Signup'],
  ['practice_areas', 'Practice Areas'],
] as const;
/** SPEC §9 category lists. */
const testimonialPracticeAreas = ['divorce', 'estate-planning', 'custody', 'trust-administration', 'family-law', 'other'];
const blogCategories = ['estate-planning', 'family-law', 'divorce', 'probate'];
/** SPEC §3 theme variables (plus their foreground pairs) and radius. */
const themeVariables = [
  'background',
  'foreground',
  'card',
  'popover',
  'primary',
  'secondary',
  'muted',
  'accent',
  'destructive',
  'border',
  'input',
  'ring',
  'radius',
];
const noSeed: SeedResult = { components: 0, themes: 0, testimonials: 0, posts: 0 };

async function counts({ db, t }: Database) {
  const [components, themes, testimonials, posts] = await Promise.all([
    db.select().from(t.componentVisibilitySettings),
    db.select().from(t.themeSettings),
    db.select().from(t.testimonials),
    db.select().from(t.blogPosts),
  ]);
  return { components: components.length, themes: themes.length, testimonials: testimonials.length, posts: posts.length };
}

for (const dialect of dialects) {
  describe(`seed [${dialect}]`, () => {
    const opened: Array<{ close(): Promise<void> }> = [];
    const fresh = async () => {
      const database = await createTestDatabase(dialect);
      opened.push({ close: () => database.drop() });
      return database;
    };
    // Closed after all tests, not after each: dropping a PostgreSQL database can make the closing
    // pool log an error, which the console.error guard would pin on whichever test was running.
    afterAll(async () => {
      for (const handle of opened.splice(0).reverse()) await handle.close();
    });

    // The content tests only read, so they share one database seeded once.
    let seeded: TestDatabase;
    let seedResult: SeedResult;
    beforeAll(async () => {
      seeded = await fresh();
      seedResult = await seedDatabase(seeded);
    });

    it('gives a fresh database the eight SPEC §3 components, all visible', async () => {
      const database = seeded;
      const result = seedResult;
      expect(result.components).toBe(8);
      const rows = await database.db.select().from(database.t.componentVisibilitySettings);
      expect(rows.map((r) => [r.componentKey, r.componentName]).sort()).toEqual([...specComponents].map((c) => [...c]).sort());
      for (const row of rows) {
        expect(row.isVisible, row.componentKey).toBe(true);
        expect(row.description.trim(), row.componentKey).not.toBe('');
      }
    });

    it('installs Professional Blue as the one theme, default and active', async () => {
      const database = seeded;
      expect(seedResult.themes).toBe(1);
      const themes = await database.db.select().from(database.t.themeSettings);
      expect(themes).toHaveLength(1);
      expect(themes[0]).toMatchObject({ name: 'professional-blue', displayName: 'Professional Blue', isActive: true, isDefault: true });
      const variables = JSON.parse(themes[0]!.cssVariables) as Record<string, string>;
      expect(Object.keys(variables)).toEqual(expect.arrayContaining(themeVariables));
      expect(variables['primary-foreground']).toBeTypeOf('string');
    });

    it('gives an installed template stored before templates had variants its variants, and leaves an edited one alone', async () => {
      const database = await fresh();
      await seedDatabase(database);
      const { db, t } = database;
      const teal = findThemeTemplate('modern-teal')!;
      const { dark: _blueDark, warm: _blueWarm, ...blueLight } = findThemeTemplate('professional-blue')!.cssVariables;
      const { dark: _tealDark, ...tealLight } = teal.cssVariables;
      const edited = { ...tealLight, primary: '186 80% 20%' };
      await db
        .update(t.themeSettings)
        .set({ cssVariables: JSON.stringify(blueLight) })
        .where(eq(t.themeSettings.name, 'professional-blue'));
      await db.insert(t.themeSettings).values([
        { name: teal.name, displayName: teal.displayName, description: '', cssVariables: JSON.stringify(tealLight) },
        { name: 'evergreen', displayName: 'Evergreen, edited', description: '', cssVariables: JSON.stringify(edited) },
      ]);
      await seedDatabase(database);
      const stored = async (name: string) => {
        const [row] = await db.select().from(t.themeSettings).where(eq(t.themeSettings.name, name));
        return JSON.parse(row!.cssVariables) as unknown;
      };
      expect(await stored('professional-blue')).toEqual(findThemeTemplate('professional-blue')!.cssVariables);
      expect(await stored(teal.name)).toEqual(teal.cssVariables);
      expect(await stored('evergreen')).toEqual(edited);
      // Idempotent: a second start changes nothing more.
      await seedDatabase(database);
      expect(await stored(teal.name)).toEqual(teal.cssVariables);
    });

    it('writes published testimonials covering every practice area, valid as the admin form would save them', async () => {
      const database = seeded;
      const result = seedResult;
      const rows = await database.db.select().from(database.t.testimonials);
      expect(result.testimonials).toBe(rows.length);
      expect(rows.length).toBeGreaterThanOrEqual(6);
      expect(new Set(rows.map((r) => r.practiceArea))).toEqual(new Set(testimonialPracticeAreas));
      for (const row of rows) {
        expect(row.isPublished, row.clientName).toBe(true);
        expect(row.createdAt).toBeInstanceOf(Date);
        const { clientName, rating, content, practiceArea, isPublished } = row;
        expect(testimonialInput.safeParse({ clientName, rating, content, practiceArea, isPublished }).error?.issues, row.clientName).toBeUndefined();
      }
    });

    it('writes two published posts per blog category with real, safe HTML, and exactly one draft', async () => {
      const database = seeded;
      const result = seedResult;
      const rows = await database.db.select().from(database.t.blogPosts);
      expect(result.posts).toBe(rows.length);
      const published = rows.filter((r) => r.isPublished);
      for (const category of blogCategories)
        expect(
          published.filter((r) => r.category === category),
          category,
        ).toHaveLength(2);
      expect(published).toHaveLength(8);

      const drafts = rows.filter((r) => !r.isPublished);
      expect(drafts).toHaveLength(1);
      expect(drafts[0]!.publishedAt).toBeNull();

      expect(new Set(rows.map((r) => r.slug)).size).toBe(rows.length);
      for (const post of rows) {
        const label = post.slug;
        expect(isSlug(post.slug), label).toBe(true);
        expect(post.excerpt.trim(), label).not.toBe('');
        expect(post.content, label).toMatch(/^<(p|h2)>/);
        expect(post.content.match(/<p>/g)?.length ?? 0, label).toBeGreaterThanOrEqual(3);
        expect(post.content, label).toMatch(/<h2>[^<]+<\/h2>/);
        // Written straight to the database, so it must already be what the sanitiser would have stored.
        expect(sanitizeArticleHtml(post.content), label).toBe(post.content);
        expect([firm.name, ...firm.attorneys.map((a) => a.name)], label).toContain(post.author);
        if (post.isPublished) {
          expect(post.publishedAt, label).toBeInstanceOf(Date);
          expect(post.publishedAt!.getTime(), label).not.toBeNaN();
          // Last changed when published, not at seeding (the sitemap's lastmod reads it).
          expect(post.updatedAt, label).toEqual(post.publishedAt);
        }
        const { title, slug, excerpt, content, category, author, isPublished, publishedAt } = post;
        expect(blogPostInput.safeParse({ title, slug, excerpt, content, category, author, isPublished, publishedAt }).error?.issues, label).toBeUndefined();
      }
    });

    it('is idempotent: seeding again adds nothing and reports zeros', async () => {
      const database = await fresh();
      const first = await seedDatabase(database);
      const afterFirst = await counts(database);
      expect(afterFirst).toEqual(first);
      expect(await seedDatabase(database)).toEqual(noSeed);
      expect(await seedDatabase(database)).toEqual(noSeed);
      expect(await counts(database)).toEqual(afterFirst);
    });

    it('does not bring back sample testimonials or posts an admin deleted', async () => {
      const database = await fresh();
      const { db, t } = database;
      await seedDatabase(database);
      await db.delete(t.testimonials);
      expect(await seedDatabase(database)).toEqual(noSeed);
      expect(await db.select().from(t.testimonials)).toEqual([]);

      await db.delete(t.blogPosts);
      expect(await seedDatabase(database)).toEqual(noSeed);
      expect(await db.select().from(t.blogPosts)).toEqual([]);
    });

    it("keeps an admin's component and theme choices, and restores a missing default component", async () => {
      const database = await fresh();
      const { db, t } = database;
      await seedDatabase(database);
      await db.update(t.componentVisibilitySettings).set({ isVisible: false }).where(eq(t.componentVisibilitySettings.componentKey, 'newsletter_signup'));
      await db.delete(t.componentVisibilitySettings).where(eq(t.componentVisibilitySettings.componentKey, 'practice_areas'));
      await db.update(t.themeSettings).set({ isActive: false });
      await db
        .insert(t.themeSettings)
        .values({ name: 'midnight-navy', displayName: 'Midnight Navy', description: 'Dark.', cssVariables: '{}', isActive: true });

      expect(await seedDatabase(database)).toEqual({ ...noSeed, components: 1 });

      const components = await db.select().from(t.componentVisibilitySettings);
      expect(components).toHaveLength(8);
      expect(components.find((c) => c.componentKey === 'newsletter_signup')!.isVisible).toBe(false);
      expect(components.find((c) => c.componentKey === 'practice_areas')).toMatchObject({ componentName: 'Practice Areas', isVisible: true });
      const themes = await db.select().from(t.themeSettings);
      expect(themes.filter((th) => th.isActive).map((th) => th.name)).toEqual(['midnight-navy']);
      expect(themes.find((th) => th.name === 'professional-blue')).toMatchObject({ isActive: false, isDefault: true });
    });

    it('with { sampleContent: false } seeds only the components and the theme', async () => {
      const database = await fresh();
      expect(await seedDatabase(database, { sampleContent: false })).toEqual({ components: 8, themes: 1, testimonials: 0, posts: 0 });
      expect(await counts(database)).toEqual({ components: 8, themes: 1, testimonials: 0, posts: 0 });
      expect(await seedDatabase(database, { sampleContent: false })).toEqual(noSeed);
    });

    it('seeds the samples once when two servers start on the same fresh database together', async () => {
      const database = await fresh();
      // A second connection (pool) as a second container would have, plus a second call on the first.
      const other = await openDatabase(dialect === 'sqlite' ? { sqlitePath: database.location } : { databaseUrl: database.location, poolSize: 2 });
      opened.push(other);
      const results = await Promise.all([seedDatabase(database), seedDatabase(other), seedDatabase(database)]);
      const total = (key: keyof SeedResult) => results.reduce((sum, r) => sum + r[key], 0);
      const single = await counts(database);
      expect(single.components).toBe(8);
      expect(single.themes).toBe(1);
      expect({ components: total('components'), themes: total('themes'), testimonials: total('testimonials'), posts: total('posts') }).toEqual(single);
      // Exactly one copy of the samples: every client name once.
      const names = (await database.db.select().from(database.t.testimonials)).map((r) => r.clientName);
      expect(names.length).toBeGreaterThanOrEqual(6);
      expect(new Set(names).size).toBe(names.length);
      expect(await database.db.select().from(database.t.themeSettings).where(ne(database.t.themeSettings.name, 'professional-blue'))).toEqual([]);
    });
  });
}

// What the e2e suite's server starts from (a seeded database), asked of the API in-process: it is up,
// its public list holds the seeded articles, and its admin list is closed to the public.
forEachDialect(
  'the API over the seeded database',
  (ctx) => {
    it('answers /api/health, lists the seeded articles but not the draft, and guards the admin list', async () => {
      const health = await ctx().call('GET', '/api/health');
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ status: 'ok' });
      const posts = await ctx().call('GET', '/api/blog-posts');
      expect(posts.status).toBe(200);
      expect(posts.body.length).toBeGreaterThanOrEqual(8);
      const published = await ctx().database.db.select().from(ctx().database.t.blogPosts).where(eq(ctx().database.t.blogPosts.isPublished, true));
      expect(posts.body.map((p: { slug: string }) => p.slug).sort()).toEqual(published.map((p) => p.slug).sort());
      expect((await ctx().call('GET', '/api/admin/blog-posts')).status).toBe(401);
    });

    it('marks the seeded testimonials and posts Sample in the admin lists until their text is made the firm’s own (issue 19)', async () => {
      const testimonials = await ctx().admin('GET', '/api/admin/testimonials');
      const posts = await ctx().admin('GET', '/api/admin/blog-posts');
      expect(testimonials.body.length).toBeGreaterThan(0);
      expect(testimonials.body.every((t: { isSample: boolean }) => t.isSample)).toBe(true);
      expect(posts.body.every((p: { isSample: boolean }) => p.isSample)).toBe(true);
      // Edited text is the firm's: no longer a sample. A row the firm adds never is one.
      const [first] = testimonials.body;
      expect((await ctx().admin('PUT', `/api/admin/testimonials/${first.id}`, { content: 'What a real client wrote.' })).status).toBe(200);
      const added = await ctx().admin('POST', '/api/admin/testimonials', { clientName: 'Real R.', content: 'Clear and kind.', practiceArea: 'other' });
      const after = await ctx().admin('GET', '/api/admin/testimonials');
      const sample = (id: string) => after.body.find((t: { id: string }) => t.id === id).isSample;
      expect([sample(first.id), sample(added.body.id)]).toEqual([false, false]);
      expect(after.body.filter((t: { isSample: boolean }) => t.isSample)).toHaveLength(testimonials.body.length - 1);
      const [post] = posts.body;
      expect((await ctx().admin('PUT', `/api/admin/blog-posts/${post.id}`, { ...post, content: '<p>Rewritten by the firm.</p>' })).status).toBe(200);
      const postsAfter = await ctx().admin('GET', '/api/admin/blog-posts');
      expect(postsAfter.body.find((p: { id: string }) => p.id === post.id).isSample).toBe(false);
    });
  },
  { seed: true },
);
