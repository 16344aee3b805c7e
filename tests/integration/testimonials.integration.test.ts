import { expect, it } from 'vitest';
import type { TestimonialInput } from '../../src/shared/schemas/testimonials.ts';
import { errorOf, testApi, unchecked } from '../support/api.ts';
import { ADMIN_TOKEN, countRows, forEachDialect, NON_ADMIN_TOKEN } from '../support/test-app.ts';

const valid = { clientName: 'Jennifer M.', rating: 5, content: 'Clear advice at every step.', practiceArea: 'divorce', isPublished: true } as const;

forEachDialect('testimonials', (ctx) => {
  // The typed client: as a visitor, and as the admin.
  const visitor = () => testApi(ctx().app);
  const admin = () => testApi(ctx().app, { token: ADMIN_TOKEN }).admin;
  const create = async (json: TestimonialInput) => (await admin().testimonials.$post({ json })).json();

  it('creates a testimonial with SPEC defaults and stores exactly what was sent', async () => {
    const res = await admin().testimonials.$post({
      json: {
        clientName: ' Robert K. ',
        content: 'Patient and thorough.',
        practiceArea: 'estate-planning',
      },
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ clientName: 'Robert K.', rating: 5, isPublished: true, practiceArea: 'estate-planning' });
    const { db, t } = ctx().database;
    const stored = (await db.select().from(t.testimonials)).find((r) => r.id === body.id)!;
    expect(stored).toMatchObject({ clientName: 'Robert K.', rating: 5, content: 'Patient and thorough.', isPublished: true });
    expect(stored.createdAt).toBeInstanceOf(Date);
    expect(ctx().changes.at(-1)).toEqual({ topic: 'testimonials' });
  });

  it('lists only published testimonials publicly, all of them for the admin', async () => {
    const hidden = await create({ ...valid, clientName: 'Hidden H.', isPublished: false });
    const pub = await visitor().testimonials.$get();
    expect(pub.status).toBe(200);
    const published = await pub.json();
    expect(published.map((r) => r.id)).not.toContain(hidden.id);
    expect(Object.keys(published[0]!).sort()).toEqual(['clientName', 'content', 'createdAt', 'id', 'practiceArea', 'rating']);
    const all = await (await admin().testimonials.$get()).json();
    expect(all.map((r) => r.id)).toContain(hidden.id);
  });

  it('updates all fields, or only isPublished for the quick toggle', async () => {
    const created = await create(valid);
    const param = { id: created.id };
    const toggled = await admin().testimonials[':id'].$put({ param, json: { isPublished: false } });
    expect(toggled.status).toBe(200);
    expect(await toggled.json()).toMatchObject({ isPublished: false, clientName: 'Jennifer M.', rating: 5 });
    const edited = await admin().testimonials[':id'].$put({ param, json: { ...valid, rating: 4, content: 'Edited.' } });
    expect(await edited.json()).toMatchObject({ rating: 4, content: 'Edited.', isPublished: true });
  });

  it('rejects invalid input with a message per field and writes nothing', async () => {
    const before = await countRows(ctx(), 'testimonials');
    for (const body of [
      { ...valid, rating: 6 },
      { ...valid, rating: 0 },
      { ...valid, rating: 4.5 },
      { ...valid, rating: '5' },
      { ...valid, clientName: '   ' },
      { ...valid, practiceArea: 'tax' },
      { ...valid, content: 'x'.repeat(2001) },
      { ...valid, isPublished: 'yes' },
      {},
    ]) {
      // Outside the route's contract on purpose: what a broken or hostile client sends.
      const res = await admin().testimonials.$post({ json: unchecked(body) });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      const answer = await errorOf(res);
      expect(answer.error).toBeTypeOf('string');
      expect(Object.keys(answer.fields).length).toBeGreaterThan(0);
    }
    const missingName = await admin().testimonials.$post({ json: unchecked({ ...valid, clientName: undefined }) });
    expect((await errorOf(missingName)).fields.clientName).toBe('Client name is required');
    const emptyUpdate = await admin().testimonials[':id'].$put({ param: { id: 'any' }, json: {} });
    expect(emptyUpdate.status).toBe(400);
    expect(await countRows(ctx(), 'testimonials')).toBe(before);
  });

  it('answers 404 for an unknown testimonial on update and delete', async () => {
    expect((await admin().testimonials[':id'].$put({ param: { id: 'nope' }, json: { isPublished: true } })).status).toBe(404);
    expect((await admin().testimonials[':id'].$delete({ param: { id: 'nope' } })).status).toBe(404);
  });

  it('deletes a testimonial', async () => {
    const created = await create(valid);
    const res = await admin().testimonials[':id'].$delete({ param: { id: created.id } });
    expect(res.status).toBe(204);
    const all = await (await admin().testimonials.$get()).json();
    expect(all.map((r) => r.id)).not.toContain(created.id);
  });

  it('refuses the admin calls without an admin token', async () => {
    const before = await countRows(ctx(), 'testimonials');
    expect((await visitor().admin.testimonials.$post({ json: valid })).status).toBe(401);
    expect((await testApi(ctx().app, { token: NON_ADMIN_TOKEN }).admin.testimonials.$post({ json: valid })).status).toBe(403);
    expect(await countRows(ctx(), 'testimonials')).toBe(before);
  });
});
