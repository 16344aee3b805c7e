/**
 * The constraints of SPEC §3 behave the same in both dialects: uniques, checks, the cascade from a
 * blog source to its external articles, exact money, and booleans and timestamps read back as such.
 * Writes go straight to the database (no API validation in front), so this is the last line of defence.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firm } from '../../src/config/firm.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/test-database.ts';

type Violation = { kind: 'unique' | 'check' | 'foreign key' | 'not null' | 'other'; constraint?: string; detail: string };

/** Runs a write that must fail, and says which kind of constraint refused it (either dialect's error). */
async function violation(write: () => PromiseLike<unknown>): Promise<Violation> {
  try {
    await write();
  } catch (err) {
    // Drizzle wraps the driver's error (DrizzleQueryError); the code lives on the cause.
    let e: unknown = err;
    while (e instanceof Error && !('code' in e) && e.cause) e = e.cause;
    const { code, message, constraint } = e as { code?: string; message: string; constraint?: string };
    const sqliteCheck = /CHECK constraint failed: (\S+)/.exec(message);
    switch (code) {
      case 'SQLITE_CONSTRAINT_UNIQUE':
      case 'SQLITE_CONSTRAINT_PRIMARYKEY':
      case '23505':
        return { kind: 'unique', detail: message };
      case 'SQLITE_CONSTRAINT_CHECK':
      case '23514':
        return { kind: 'check', constraint: constraint ?? sqliteCheck?.[1], detail: message };
      case 'SQLITE_CONSTRAINT_FOREIGNKEY':
      case '23503':
        return { kind: 'foreign key', detail: message };
      case 'SQLITE_CONSTRAINT_NOTNULL':
      case '23502':
        return { kind: 'not null', detail: message };
      default:
        return { kind: 'other', detail: `${code}: ${message}` };
    }
  }
  throw new Error('expected the write to be refused by a constraint, but it succeeded');
}

let sequence = 0;
const next = () => `${Date.now().toString(36)}-${++sequence}`;

for (const dialect of dialects) {
  describe(`database constraints [${dialect}]`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await database?.drop();
    });

    const factories = {
      user: () => ({ username: `user-${next()}`, password: 'hash' }),
      post: () => ({ title: 'A post', slug: `post-${next()}`, excerpt: 'Excerpt.', content: '<p>Body.</p>', category: 'probate' }),
      component: () => ({ componentKey: `component_${next()}`, componentName: 'A component', description: 'Shown somewhere.' }),
      theme: () => ({ name: `theme-${next()}`, displayName: 'A theme', description: 'Colours.', cssVariables: '{"primary":"222 47% 11%"}' }),
      testimonial: () => ({ clientName: 'Jennifer M.', content: 'Clear advice.', practiceArea: 'divorce' }),
      appointment: () => ({
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        consultationType: 'initial',
        scheduledDate: new Date('2030-03-04T17:30:00.000Z'),
        practiceArea: 'family-law',
      }),
      source: () => ({ name: 'Source', url: `https://example.com/${next()}/feed.xml` }),
      article: (sourceId: string) => ({ sourceId, title: 'An article', url: `https://example.com/articles/${next()}` }),
    };

    describe('uniques', () => {
      it('refuses a second user with the same username', async () => {
        const { db, t } = database;
        const user = factories.user();
        await db.insert(t.users).values(user);
        expect((await violation(() => db.insert(t.users).values({ ...user, password: 'other' }))).kind).toBe('unique');
        expect(await db.select().from(t.users).where(eq(t.users.username, user.username))).toHaveLength(1);
      });

      it('refuses a second blog post with the same slug', async () => {
        const { db, t } = database;
        const post = factories.post();
        await db.insert(t.blogPosts).values(post);
        expect((await violation(() => db.insert(t.blogPosts).values({ ...post, title: 'Another title' }))).kind).toBe('unique');
        expect(await db.select().from(t.blogPosts).where(eq(t.blogPosts.slug, post.slug))).toHaveLength(1);
      });

      it('refuses a second component with the same componentKey', async () => {
        const { db, t } = database;
        const component = factories.component();
        await db.insert(t.componentVisibilitySettings).values(component);
        expect((await violation(() => db.insert(t.componentVisibilitySettings).values({ ...component, componentName: 'Other' }))).kind).toBe('unique');
        expect(
          await db.select().from(t.componentVisibilitySettings).where(eq(t.componentVisibilitySettings.componentKey, component.componentKey)),
        ).toHaveLength(1);
      });

      it('refuses a second theme with the same name', async () => {
        const { db, t } = database;
        const theme = factories.theme();
        await db.insert(t.themeSettings).values(theme);
        expect((await violation(() => db.insert(t.themeSettings).values({ ...theme, displayName: 'Other' }))).kind).toBe('unique');
        expect(await db.select().from(t.themeSettings).where(eq(t.themeSettings.name, theme.name))).toHaveLength(1);
      });

      it('is case-sensitive the same way in both dialects', async () => {
        const { db, t } = database;
        const user = factories.user();
        await db.insert(t.users).values(user);
        await db.insert(t.users).values({ ...user, username: user.username.toUpperCase() });
        expect(
          await db
            .select()
            .from(t.users)
            .where(inArray(t.users.username, [user.username, user.username.toUpperCase()])),
        ).toHaveLength(2);
      });

      it('refuses the same article url twice from one source, but not from two sources', async () => {
        const { db, t } = database;
        const [a, b] = await db.insert(t.blogSources).values([factories.source(), factories.source()]).returning();
        const article = factories.article(a!.id);
        await db.insert(t.externalBlogArticles).values(article);
        expect((await violation(() => db.insert(t.externalBlogArticles).values({ ...article, title: 'Again' }))).kind).toBe('unique');
        await db.insert(t.externalBlogArticles).values({ ...article, sourceId: b!.id });
      });
    });

    describe('checks', () => {
      it('accepts ratings 1 to 5 and refuses 0 and 6', async () => {
        const { db, t } = database;
        for (const rating of [1, 2, 3, 4, 5]) await db.insert(t.testimonials).values({ ...factories.testimonial(), rating });
        for (const rating of [0, 6, -1]) {
          expect(await violation(() => db.insert(t.testimonials).values({ ...factories.testimonial(), rating })), `rating ${rating}`).toMatchObject({
            kind: 'check',
            constraint: 'testimonials_rating_range',
          });
        }
        const [row] = await db.insert(t.testimonials).values(factories.testimonial()).returning();
        expect((await violation(() => db.update(t.testimonials).set({ rating: 6 }).where(eq(t.testimonials.id, row!.id)))).constraint).toBe(
          'testimonials_rating_range',
        );
      });

      it('accepts the four appointment statuses and refuses any other', async () => {
        const { db, t } = database;
        for (const status of ['scheduled', 'confirmed', 'cancelled', 'completed'])
          await db.insert(t.appointments).values({ ...factories.appointment(), status });
        for (const status of ['pending', 'Scheduled', '']) {
          expect(await violation(() => db.insert(t.appointments).values({ ...factories.appointment(), status })), `status "${status}"`).toMatchObject({
            kind: 'check',
            constraint: 'appointments_status_values',
          });
        }
        expect(await violation(() => db.insert(t.appointments).values({ ...factories.appointment(), duration: 0 }))).toMatchObject({
          kind: 'check',
          constraint: 'appointments_duration_positive',
        });
      });

      it('keeps providers, source types and the display limit within their lists', async () => {
        const { db, t } = database;
        for (const provider of ['calendly', 'google', 'outlook', 'custom']) await db.insert(t.calendarSettings).values({ provider, config: '{}' });
        expect((await violation(() => db.insert(t.calendarSettings).values({ provider: 'zoom', config: '{}' }))).constraint).toBe(
          'calendar_settings_provider_values',
        );
        for (const provider of ['sendgrid', 'smtp']) await db.insert(t.emailSettings).values({ provider, config: '{}' });
        expect((await violation(() => db.insert(t.emailSettings).values({ provider: 'mailgun', config: '{}' }))).constraint).toBe(
          'email_settings_provider_values',
        );
        for (const type of ['rss', 'api', 'scraper']) await db.insert(t.blogSources).values({ ...factories.source(), type });
        expect((await violation(() => db.insert(t.blogSources).values({ ...factories.source(), type: 'atom' }))).constraint).toBe('blog_sources_type_values');
        for (const displayLimit of [1, 10]) await db.insert(t.blogSources).values({ ...factories.source(), displayLimit });
        for (const displayLimit of [0, 11]) {
          expect((await violation(() => db.insert(t.blogSources).values({ ...factories.source(), displayLimit }))).constraint).toBe(
            'blog_sources_display_limit_range',
          );
        }
      });
    });

    describe('references', () => {
      it('deletes the external articles of a blog source with it, and only those', async () => {
        const { db, t } = database;
        const [doomed, kept] = await db.insert(t.blogSources).values([factories.source(), factories.source()]).returning();
        await db.insert(t.externalBlogArticles).values([factories.article(doomed!.id), factories.article(doomed!.id), factories.article(kept!.id)]);
        await db.delete(t.blogSources).where(eq(t.blogSources.id, doomed!.id));
        expect(await db.select().from(t.externalBlogArticles).where(eq(t.externalBlogArticles.sourceId, doomed!.id))).toEqual([]);
        expect(await db.select().from(t.externalBlogArticles).where(eq(t.externalBlogArticles.sourceId, kept!.id))).toHaveLength(1);
      });

      it('refuses an external article whose source does not exist', async () => {
        const { db, t } = database;
        expect((await violation(() => db.insert(t.externalBlogArticles).values(factories.article('no-such-source')))).kind).toBe('foreign key');
      });

      it('deletes the old-slug redirects of a blog post with it', async () => {
        const { db, t } = database;
        const [post] = await db.insert(t.blogPosts).values(factories.post()).returning();
        await db.insert(t.blogPostRedirects).values({ oldSlug: `old-${next()}`, postId: post!.id });
        await db.delete(t.blogPosts).where(eq(t.blogPosts.id, post!.id));
        expect(await db.select().from(t.blogPostRedirects).where(eq(t.blogPostRedirects.postId, post!.id))).toEqual([]);
      });
    });

    describe('values read back as written', () => {
      it('keeps money exact: 12 digits with 2 places round-trip as the same string', async () => {
        const { db, t } = database;
        const amounts = ['1234567890.12', '9999999999.99', '0.00', '3000.00', '0.05'];
        for (const amount of amounts) {
          const [row] = await db
            .insert(t.probateCalculations)
            .values({
              estateValue: amount,
              realEstateValue: amount,
              attorneyFees: amount,
              executorFees: amount,
              courtCosts: amount,
              totalProbate: amount,
              trustCost: amount,
              savings: amount,
            })
            .returning({ id: t.probateCalculations.id });
          const [stored] = await db.select().from(t.probateCalculations).where(eq(t.probateCalculations.id, row!.id));
          expect(stored).toMatchObject({
            estateValue: amount,
            realEstateValue: amount,
            attorneyFees: amount,
            executorFees: amount,
            courtCosts: amount,
            totalProbate: amount,
            trustCost: amount,
            savings: amount,
            userEmail: null,
          });
        }
      });

      it('reads booleans back as booleans and timestamps as Dates, to the millisecond', async () => {
        const { db, t } = database;
        const scheduledDate = new Date('2030-03-04T17:30:00.123Z');
        const [appointment] = await db
          .insert(t.appointments)
          .values({ ...factories.appointment(), scheduledDate })
          .returning({ id: t.appointments.id });
        const [stored] = await db.select().from(t.appointments).where(eq(t.appointments.id, appointment!.id));
        expect(stored!.scheduledDate).toBeInstanceOf(Date);
        expect(stored!.scheduledDate.toISOString()).toBe('2030-03-04T17:30:00.123Z');
        expect(stored!.reminderSent).toBe(false);
        expect(stored!.createdAt).toBeInstanceOf(Date);

        await db.update(t.appointments).set({ reminderSent: true }).where(eq(t.appointments.id, appointment!.id));
        const [updated] = await db.select().from(t.appointments).where(eq(t.appointments.id, appointment!.id));
        expect(updated!.reminderSent).toBe(true);

        for (const isPublished of [true, false]) {
          const [row] = await db
            .insert(t.testimonials)
            .values({ ...factories.testimonial(), isPublished })
            .returning();
          const [read] = await db.select().from(t.testimonials).where(eq(t.testimonials.id, row!.id));
          expect(read!.isPublished).toBe(isPublished);
        }

        const [post] = await db.insert(t.blogPosts).values(factories.post()).returning({ id: t.blogPosts.id });
        const [draft] = await db.select().from(t.blogPosts).where(eq(t.blogPosts.id, post!.id));
        expect(draft!.publishedAt).toBeNull();
        expect(draft!.isPublished).toBe(false);
        const publishedAt = new Date('2026-01-13T17:00:00.000Z');
        await db.update(t.blogPosts).set({ isPublished: true, publishedAt }).where(eq(t.blogPosts.id, post!.id));
        const [published] = await db.select().from(t.blogPosts).where(eq(t.blogPosts.id, post!.id));
        expect(published!.isPublished).toBe(true);
        expect(published!.publishedAt).toEqual(publishedAt);
      });

      it('fills in SPEC §3 defaults and "now" from the database itself when an insert leaves them out', async () => {
        // Raw SQL, so the database's own defaults apply (Drizzle supplies timestamps itself otherwise).
        const { db, t } = database;
        const run = async (statement: ReturnType<typeof sql>) => {
          if (dialect === 'sqlite') (db as unknown as BetterSQLite3Database).run(statement);
          else await db.execute(statement);
        };
        const id = (name: string) => `${name}-${next()}`;
        const ids = {
          user: id('user'),
          testimonial: id('testimonial'),
          post: id('post'),
          contact: id('contact'),
          theme: id('theme'),
          appointment: id('appt'),
          calendar: id('cal'),
          email: id('email'),
          source: id('source'),
          article: id('article'),
          component: id('component'),
        };
        const before = Date.now() - 60_000;
        await run(sql`insert into users (id, username, password) values (${ids.user}, ${ids.user}, 'hash')`);
        await run(sql`insert into testimonials (id, client_name, content, practice_area) values (${ids.testimonial}, 'A. B.', 'Good.', 'divorce')`);
        await run(sql`insert into blog_posts (id, title, slug, excerpt, content, category) values (${ids.post}, 'T', ${ids.post}, 'E', '<p>C</p>', 'probate')`);
        await run(
          sql`insert into contact_submissions (id, first_name, last_name, email, practice_area, message) values (${ids.contact}, 'A', 'B', 'a@example.com', 'other', 'Hello')`,
        );
        await run(sql`insert into theme_settings (id, name, display_name, description, css_variables) values (${ids.theme}, ${ids.theme}, 'T', 'D', '{}')`);
        await run(
          sql`insert into appointments (id, first_name, last_name, email, consultation_type, scheduled_date, practice_area) values (${ids.appointment}, 'A', 'B', 'a@example.com', 'initial', ${dialect === 'sqlite' ? Date.parse('2030-03-04T17:30:00Z') : '2030-03-04T17:30:00Z'}, 'other')`,
        );
        await run(sql`insert into calendar_settings (id, provider, config) values (${ids.calendar}, 'google', '{}')`);
        await run(sql`insert into email_settings (id, config) values (${ids.email}, '{}')`);
        await run(sql`insert into blog_sources (id, name, url) values (${ids.source}, 'S', 'https://example.com/feed')`);
        await run(sql`insert into external_blog_articles (id, source_id, title, url) values (${ids.article}, ${ids.source}, 'T', 'https://example.com/a')`);
        await run(
          sql`insert into component_visibility_settings (id, component_key, component_name, description) values (${ids.component}, ${ids.component}, 'C', 'D')`,
        );

        const one = async <T>(rows: Promise<T[]>) => (await rows)[0]!;
        const rows = {
          user: await one(db.select().from(t.users).where(eq(t.users.id, ids.user))),
          testimonial: await one(db.select().from(t.testimonials).where(eq(t.testimonials.id, ids.testimonial))),
          post: await one(db.select().from(t.blogPosts).where(eq(t.blogPosts.id, ids.post))),
          contact: await one(db.select().from(t.contactSubmissions).where(eq(t.contactSubmissions.id, ids.contact))),
          theme: await one(db.select().from(t.themeSettings).where(eq(t.themeSettings.id, ids.theme))),
          appointment: await one(db.select().from(t.appointments).where(eq(t.appointments.id, ids.appointment))),
          calendar: await one(db.select().from(t.calendarSettings).where(eq(t.calendarSettings.id, ids.calendar))),
          email: await one(db.select().from(t.emailSettings).where(eq(t.emailSettings.id, ids.email))),
          source: await one(db.select().from(t.blogSources).where(eq(t.blogSources.id, ids.source))),
          article: await one(db.select().from(t.externalBlogArticles).where(eq(t.externalBlogArticles.id, ids.article))),
          component: await one(db.select().from(t.componentVisibilitySettings).where(eq(t.componentVisibilitySettings.id, ids.component))),
        };
        expect(rows.user).toMatchObject({ role: 'admin' });
        expect(rows.testimonial).toMatchObject({ rating: 5, isPublished: true });
        expect(rows.post).toMatchObject({ author: firm.name, isPublished: false, publishedAt: null });
        expect(rows.contact).toMatchObject({ isRead: false, isResolved: false, phone: null });
        expect(rows.theme).toMatchObject({ isActive: false, isDefault: false });
        expect(rows.appointment).toMatchObject({ duration: 30, status: 'scheduled', reminderSent: false, notes: null, externalEventId: null });
        expect(rows.appointment.scheduledDate.toISOString()).toBe('2030-03-04T17:30:00.000Z');
        expect(rows.calendar).toMatchObject({ isActive: false, webhookUrl: null, apiKey: null });
        expect(rows.email).toMatchObject({ provider: 'sendgrid', isActive: false });
        expect(rows.source).toMatchObject({ type: 'rss', isActive: true, displayLimit: 5, config: null, lastFetched: null });
        expect(rows.article).toMatchObject({ isVisible: true, excerpt: null, publishedAt: null, externalId: null });
        expect(rows.component).toMatchObject({ isVisible: true });

        // "now" in milliseconds (SQLite's default must not be seconds, nor text), read back as a Date.
        const stamps = Object.entries(rows).flatMap(([name, row]) =>
          (['createdAt', 'updatedAt', 'fetchedAt'] as const)
            .filter((key) => key in row)
            .map((key) => [`${name}.${key}`, (row as Record<string, unknown>)[key]] as const),
        );
        expect(stamps).toHaveLength(20);
        for (const [name, value] of stamps) {
          expect(value, name).toBeInstanceOf(Date);
          expect((value as Date).getTime(), name).toBeGreaterThan(before);
          expect((value as Date).getTime(), name).toBeLessThan(Date.now() + 60_000);
        }
      });
    });
  });
}
