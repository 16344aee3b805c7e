import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { countRows, forEachDialect, type TestContext } from '../support/test-app.ts';

/** SPEC §3 Default component catalogue, written out here so the test does not trust the code's copy. */
const catalogue: Record<string, string> = {
  testimonials: 'Client Testimonials',
  blog_articles: 'Blog Articles',
  external_blog_articles: 'External Blog Articles',
  probate_calculator: 'Probate Calculator',
  consultation_booking: 'Consultation Booking',
  contact_form: 'Contact Form',
  newsletter_signup: 'Newsletter Signup',
  practice_areas: 'Practice Areas',
};
const catalogueKeys = Object.keys(catalogue).sort();

async function storedSettings(ctx: TestContext) {
  const { db, t } = ctx.database;
  return db.select().from(t.componentVisibilitySettings);
}

async function storedSetting(ctx: TestContext, componentKey: string) {
  const { db, t } = ctx.database;
  const [row] = await db.select().from(t.componentVisibilitySettings).where(eq(t.componentVisibilitySettings.componentKey, componentKey));
  return row;
}

/** componentKey -> isVisible, straight from the database. */
async function storedVisibility(ctx: TestContext) {
  return Object.fromEntries((await storedSettings(ctx)).map((r) => [r.componentKey, r.isVisible]));
}

forEachDialect(
  'component visibility',
  (ctx) => {
    it('lists publicly only componentKey and isVisible, for the eight seeded components, all visible', async () => {
      const res = await ctx().call('GET', '/api/component-visibility');
      expect(res.status).toBe(200);
      for (const row of res.body) expect(Object.keys(row).sort()).toEqual(['componentKey', 'isVisible']);
      expect(res.body.map((r: { componentKey: string }) => r.componentKey).sort()).toEqual(catalogueKeys);
      expect(res.body.every((r: { isVisible: unknown }) => r.isVisible === true)).toBe(true);
      expect(Object.keys(await storedVisibility(ctx())).sort()).toEqual(catalogueKeys);
    });

    it('lists every field for the admin, with the SPEC component names', async () => {
      const res = await ctx().admin('GET', '/api/admin/component-visibility');
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(8);
      for (const row of res.body) {
        expect(Object.keys(row).sort()).toEqual(['componentKey', 'componentName', 'createdAt', 'description', 'id', 'isVisible', 'updatedAt']);
        expect(row.componentName).toBe(catalogue[row.componentKey]);
        expect(row.isVisible).toBe(true);
        expect(row.description).toBeTypeOf('string');
      }
      const stored = await storedSettings(ctx());
      expect(res.body.map((r: { id: string }) => r.id).sort()).toEqual(stored.map((r) => r.id).sort());
    });

    it('hides a component: stored, shown in the public list, change announced; others untouched', async () => {
      const before = await storedSetting(ctx(), 'newsletter_signup');
      const res = await ctx().admin('PUT', '/api/admin/component-visibility/newsletter_signup', { isVisible: false });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ componentKey: 'newsletter_signup', componentName: 'Newsletter Signup', isVisible: false });
      const stored = await storedSetting(ctx(), 'newsletter_signup');
      expect(stored).toMatchObject({ id: before!.id, isVisible: false, componentName: 'Newsletter Signup', description: before!.description });
      expect(stored!.updatedAt.getTime()).toBeGreaterThanOrEqual(before!.updatedAt.getTime());
      const visibility = await storedVisibility(ctx());
      expect(Object.entries(visibility).filter(([, v]) => !v)).toEqual([['newsletter_signup', false]]);
      const pub = await ctx().call('GET', '/api/component-visibility');
      expect(pub.body.find((r: { componentKey: string }) => r.componentKey === 'newsletter_signup')).toEqual({
        componentKey: 'newsletter_signup',
        isVisible: false,
      });
      expect(ctx().changes.at(-1)).toEqual({ topic: 'component-visibility', keys: ['newsletter_signup'] });
    });

    it('shows a hidden component again', async () => {
      const res = await ctx().admin('PUT', '/api/admin/component-visibility/newsletter_signup', { isVisible: true });
      expect(res.status).toBe(200);
      expect((await storedSetting(ctx(), 'newsletter_signup'))!.isVisible).toBe(true);
      expect(ctx().changes.at(-1)).toEqual({ topic: 'component-visibility', keys: ['newsletter_signup'] });
    });

    it('answers 404 for an unknown component key and changes nothing', async () => {
      const before = await storedVisibility(ctx());
      const eventsBefore = ctx().changes.length;
      for (const key of ['no_such_component', 'Testimonials', 'contact-form', 'x'.repeat(61)]) {
        const res = await ctx().admin('PUT', `/api/admin/component-visibility/${key}`, { isVisible: false });
        expect(res.status, key).toBe(404);
      }
      expect(await storedVisibility(ctx())).toEqual(before);
      expect(await countRows(ctx(), 'componentVisibilitySettings')).toBe(8);
      expect(ctx().changes.length).toBe(eventsBefore);
    });

    it('rejects a non-boolean isVisible with 400 and changes nothing', async () => {
      const eventsBefore = ctx().changes.length;
      for (const body of [{ isVisible: 'false' }, { isVisible: 0 }, { isVisible: null }, {}, { visible: false }]) {
        const res = await ctx().admin('PUT', '/api/admin/component-visibility/contact_form', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.fields.isVisible).toBeTypeOf('string');
      }
      const malformed = await ctx().call('PUT', '/api/admin/component-visibility/contact_form', { rawBody: '{isVisible: false', token: 'test-admin-token' });
      expect(malformed.status).toBe(400);
      expect((await storedSetting(ctx(), 'contact_form'))!.isVisible).toBe(true);
      expect(ctx().changes.length).toBe(eventsBefore);
    });

    it('creates a new component setting (201), stored as sent, change announced', async () => {
      const body = { componentKey: 'faq_section', componentName: 'FAQ Section', description: 'Frequently asked questions.', isVisible: false };
      const res = await ctx().admin('POST', '/api/admin/component-visibility', body);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject(body);
      expect(await storedSetting(ctx(), 'faq_section')).toMatchObject({ ...body, id: res.body.id });
      expect(ctx().changes.at(-1)).toEqual({ topic: 'component-visibility', keys: ['faq_section'] });
      const pub = await ctx().call('GET', '/api/component-visibility');
      expect(pub.body).toContainEqual({ componentKey: 'faq_section', isVisible: false });
    });

    it('creates with the SPEC defaults: visible, empty description', async () => {
      const res = await ctx().admin('POST', '/api/admin/component-visibility', { componentKey: 'office_map', componentName: 'Office Map' });
      expect(res.status).toBe(201);
      expect(await storedSetting(ctx(), 'office_map')).toMatchObject({ componentName: 'Office Map', description: '', isVisible: true });
    });

    it('refuses to create an existing key: 409 on componentKey, stored one unchanged', async () => {
      const before = await countRows(ctx(), 'componentVisibilitySettings');
      const eventsBefore = ctx().changes.length;
      const res = await ctx().admin('POST', '/api/admin/component-visibility', { componentKey: 'testimonials', componentName: 'Reviews', isVisible: false });
      expect(res.status).toBe(409);
      expect(res.body.fields.componentKey).toBeTypeOf('string');
      expect(await storedSetting(ctx(), 'testimonials')).toMatchObject({ componentName: 'Client Testimonials', isVisible: true });
      expect(await countRows(ctx(), 'componentVisibilitySettings')).toBe(before);
      expect(ctx().changes.length).toBe(eventsBefore);
    });

    it('rejects an invalid key or a missing name with 400 and writes nothing', async () => {
      const before = await storedSettings(ctx());
      const cases: [Record<string, unknown>, string][] = [
        [{ componentKey: 'Has Space', componentName: 'X' }, 'componentKey'],
        [{ componentKey: 'UPPER', componentName: 'X' }, 'componentKey'],
        [{ componentKey: 'with-hyphen', componentName: 'X' }, 'componentKey'],
        [{ componentKey: '1starts_with_digit', componentName: 'X' }, 'componentKey'],
        [{ componentKey: '<script>', componentName: 'X' }, 'componentKey'],
        [{ componentKey: '', componentName: 'X' }, 'componentKey'],
        [{ componentKey: 'a'.repeat(61), componentName: 'X' }, 'componentKey'],
        [{ componentKey: 42, componentName: 'X' }, 'componentKey'],
        [{ componentName: 'X' }, 'componentKey'],
        [{ componentKey: 'good_key' }, 'componentName'],
        [{ componentKey: 'good_key', componentName: '  ' }, 'componentName'],
        [{ componentKey: 'good_key', componentName: 'X', isVisible: 'yes' }, 'isVisible'],
      ];
      for (const [body, field] of cases) {
        const res = await ctx().admin('POST', '/api/admin/component-visibility', body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.body.fields?.[field], JSON.stringify(body).slice(0, 80)).toBeTypeOf('string');
      }
      expect((await storedSettings(ctx())).map((r) => r.id).sort()).toEqual(before.map((r) => r.id).sort());
    });
  },
  { seed: true },
);
