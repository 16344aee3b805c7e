import { expect, it } from 'vitest';
import { countRows, forEachDialect, NON_ADMIN_TOKEN } from '../support/test-app.ts';

const valid = { clientName: 'Jennifer M.', rating: 5, content: 'Clear advice at every step.', practiceArea: 'divorce', isPublished: true };

forEachDialect('testimonials', (ctx) => {
  it('creates a testimonial with SPEC defaults and stores exactly what was sent', async () => {
    const res = await ctx().admin('POST', '/api/admin/testimonials', {
      clientName: ' Robert K. ',
      content: 'Patient and thorough.',
      practiceArea: 'estate-planning',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ clientName: 'Robert K.', rating: 5, isPublished: true, practiceArea: 'estate-planning' });
    const { db, t } = ctx().database;
    const stored = (await db.select().from(t.testimonials)).find((r) => r.id === res.body.id)!;
    expect(stored).toMatchObject({ clientName: 'Robert K.', rating: 5, content: 'Patient and thorough.', isPublished: true });
    expect(stored.createdAt).toBeInstanceOf(Date);
    expect(ctx().changes.at(-1)).toEqual({ topic: 'testimonials' });
  });

  it('lists only published testimonials publicly, all of them for the admin', async () => {
    const hidden = await ctx().admin('POST', '/api/admin/testimonials', { ...valid, clientName: 'Hidden H.', isPublished: false });
    const pub = await ctx().call('GET', '/api/testimonials');
    expect(pub.status).toBe(200);
    expect(pub.body.map((r: { id: string }) => r.id)).not.toContain(hidden.body.id);
    expect(Object.keys(pub.body[0]).sort()).toEqual(['clientName', 'content', 'createdAt', 'id', 'practiceArea', 'rating']);
    const all = await ctx().admin('GET', '/api/admin/testimonials');
    expect(all.body.map((r: { id: string }) => r.id)).toContain(hidden.body.id);
  });

  it('updates all fields, or only isPublished for the quick toggle', async () => {
    const created = await ctx().admin('POST', '/api/admin/testimonials', valid);
    const toggled = await ctx().admin('PUT', `/api/admin/testimonials/${created.body.id}`, { isPublished: false });
    expect(toggled.status).toBe(200);
    expect(toggled.body).toMatchObject({ isPublished: false, clientName: 'Jennifer M.', rating: 5 });
    const edited = await ctx().admin('PUT', `/api/admin/testimonials/${created.body.id}`, { ...valid, rating: 4, content: 'Edited.' });
    expect(edited.body).toMatchObject({ rating: 4, content: 'Edited.', isPublished: true });
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
      const res = await ctx().admin('POST', '/api/admin/testimonials', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error).toBeTypeOf('string');
      expect(Object.keys(res.body.fields).length).toBeGreaterThan(0);
    }
    const missingName = await ctx().admin('POST', '/api/admin/testimonials', { ...valid, clientName: undefined });
    expect(missingName.body.fields.clientName).toBe('Client name is required');
    const emptyUpdate = await ctx().admin('PUT', `/api/admin/testimonials/any`, {});
    expect(emptyUpdate.status).toBe(400);
    expect(await countRows(ctx(), 'testimonials')).toBe(before);
  });

  it('answers 404 for an unknown testimonial on update and delete', async () => {
    expect((await ctx().admin('PUT', '/api/admin/testimonials/nope', { isPublished: true })).status).toBe(404);
    expect((await ctx().admin('DELETE', '/api/admin/testimonials/nope')).status).toBe(404);
  });

  it('deletes a testimonial', async () => {
    const created = await ctx().admin('POST', '/api/admin/testimonials', valid);
    const res = await ctx().admin('DELETE', `/api/admin/testimonials/${created.body.id}`);
    expect(res.status).toBe(204);
    const all = await ctx().admin('GET', '/api/admin/testimonials');
    expect(all.body.map((r: { id: string }) => r.id)).not.toContain(created.body.id);
  });

  it('refuses the admin calls without an admin token', async () => {
    const before = await countRows(ctx(), 'testimonials');
    expect((await ctx().call('POST', '/api/admin/testimonials', { body: valid })).status).toBe(401);
    expect((await ctx().call('POST', '/api/admin/testimonials', { body: valid, token: NON_ADMIN_TOKEN })).status).toBe(403);
    expect(await countRows(ctx(), 'testimonials')).toBe(before);
  });
});
