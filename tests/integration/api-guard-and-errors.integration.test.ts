import { expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import { ADMIN_TOKEN, countRows, forEachDialect, NON_ADMIN_TOKEN } from '../support/test-app.ts';

/** Every registered admin route, taken from the router itself (not a hand list). */
function adminRoutes(app: { routes: { method: string; path: string }[] }) {
  const seen = new Set<string>();
  return app.routes
    .filter((r) => r.path.startsWith('/api/admin/') && r.method !== 'ALL')
    .filter((r) => {
      const key = `${r.method} ${r.path}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

const concrete = (path: string) => path.replace(/:(\w+)/g, (_, name) => (name === 'componentKey' ? 'testimonials' : 'some-id'));

forEachDialect('the admin guard and the error shape', (ctx) => {
  it('registers the admin calls of SPEC §7', () => {
    const routes = adminRoutes(ctx().app).map((r) => `${r.method} ${r.path}`);
    for (const expected of [
      'GET /api/admin/contact-submissions',
      'PUT /api/admin/contact-submissions/:id/read',
      'PUT /api/admin/contact-submissions/:id/resolved',
      'GET /api/admin/blog-posts',
      'POST /api/admin/blog-posts',
      'PUT /api/admin/blog-posts/:id',
      'DELETE /api/admin/blog-posts/:id',
      'GET /api/admin/testimonials',
      'POST /api/admin/testimonials',
      'PUT /api/admin/testimonials/:id',
      'DELETE /api/admin/testimonials/:id',
      'GET /api/admin/external-reviews',
      'POST /api/admin/external-reviews',
      'PUT /api/admin/external-reviews/:id',
      'DELETE /api/admin/external-reviews/:id',
      'GET /api/admin/themes',
      'POST /api/admin/themes',
      'PUT /api/admin/themes/:id/activate',
      'DELETE /api/admin/themes/:id',
      'GET /api/admin/appointments',
      'PUT /api/admin/appointments/:id',
      'DELETE /api/admin/appointments/:id',
      'GET /api/admin/calendar-settings',
      'POST /api/admin/calendar-settings',
      'PUT /api/admin/calendar-settings/:id/activate',
      'POST /api/admin/email-settings',
      'GET /api/admin/blog-sources',
      'POST /api/admin/blog-sources',
      'DELETE /api/admin/blog-sources/:id',
      'GET /api/admin/component-visibility',
      'PUT /api/admin/component-visibility/:componentKey',
      'POST /api/admin/component-visibility',
      'GET /api/admin/migration/status',
    ]) {
      expect(routes).toContain(expected);
    }
  });

  it('answers 401 on every registered admin route without a token, 401 with a bad one, 403 for a non-admin', async () => {
    const routes = adminRoutes(ctx().app);
    expect(routes.length).toBeGreaterThanOrEqual(29);
    for (const route of routes) {
      const path = concrete(route.path);
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : { isVisible: true };
      const none = await ctx().call(route.method, path, { body });
      expect(none.status, `${route.method} ${path}`).toBe(401);
      expect(none.body).toMatchObject({ error: 'Authentication required' });
      expect((await ctx().call(route.method, path, { body, token: 'forged' })).status, `${route.method} ${path} forged`).toBe(401);
      expect((await ctx().call(route.method, path, { body, headers: { authorization: `Basic ${ADMIN_TOKEN}` } })).status).toBe(401);
      expect((await ctx().call(route.method, path, { body, token: NON_ADMIN_TOKEN })).status, `${route.method} ${path} non-admin`).toBe(403);
    }
  });

  it('guards unknown admin paths too, so nothing under the prefix leaks', async () => {
    expect((await ctx().call('GET', '/api/admin/users')).status).toBe(401);
    expect((await ctx().call('GET', '/api/admin')).status).toBe(401);
    expect((await ctx().admin('GET', '/api/admin/users')).status).toBe(404);
  });

  it('answers unknown API routes with 404 in the one error shape, with a request id', async () => {
    const res = await ctx().call('GET', '/api/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found', requestId: expect.any(String) });
    expect(res.headers.get('x-request-id')).toBe(res.body.requestId);
  });

  it('refuses malformed JSON with 400 and writes nothing', async () => {
    const before = await countRows(ctx(), 'contactSubmissions');
    const res = await ctx().call('POST', '/api/contact', { rawBody: '{"firstName": "Ann",' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/JSON/);
    expect(await countRows(ctx(), 'contactSubmissions')).toBe(before);
  });

  it('refuses a body over 64 KB with 413 and writes nothing', async () => {
    const before = await countRows(ctx(), 'contactSubmissions');
    const body = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com', practiceArea: 'other', message: 'x'.repeat(70 * 1024) };
    const res = await ctx().call('POST', '/api/contact', { body });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatch(/too large/);
    expect(await countRows(ctx(), 'contactSubmissions')).toBe(before);
  });

  it('says only whether the site is up in /api/health: no dialect, host or file', async () => {
    const res = await ctx().call('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers 503 from /api/health when the database does not answer, or the server is draining', async () => {
    const down = createApp({ ...ctx().deps, database: { ...ctx().database, ping: () => Promise.reject(new Error('connection refused')) } });
    const res = await down.request('/api/health');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'unavailable' });
    const draining = createApp({ ...ctx().deps, draining: () => true });
    const drained = await draining.request('/api/health');
    expect(drained.status).toBe(503);
    expect(await drained.json()).toEqual({ status: 'unavailable' });
  });
});
