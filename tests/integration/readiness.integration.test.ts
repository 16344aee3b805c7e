/**
 * Readiness (GET /api/health/ready): a real write, probed at most once a second. What it answers on
 * a full disk, with the real server on a small file system, is in fleet-faults.integration.test.ts.
 */
import { expect, it } from 'vitest';
import { forEachDialect } from '../support/test-app.ts';

forEachDialect('readiness', (ctx) => {
  it('answers 200 when a write goes through, and says nothing of the database', async () => {
    const ready = await ctx().call('GET', '/api/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok' });
    expect(ready.headers.get('cache-control')).toContain('no-store');
    const rows = await ctx().database.db.select().from(ctx().database.t.healthProbes);
    expect(rows).toHaveLength(1);
  });

  it('probes with a real write at most once a second', async () => {
    const { db, t } = ctx().database;
    ctx().clock.set('2026-11-28T10:00:00.000Z');
    await ctx().call('GET', '/api/health/ready');
    ctx().clock.set('2026-11-28T10:00:00.900Z');
    await ctx().call('GET', '/api/health/ready');
    expect((await db.select().from(t.healthProbes)).map((r) => r.checkedAt.toISOString())).toEqual(['2026-11-28T10:00:00.000Z']);
    ctx().clock.set('2026-11-28T10:00:01.000Z');
    await ctx().call('GET', '/api/health/ready');
    expect((await db.select().from(t.healthProbes)).map((r) => r.checkedAt.toISOString())).toEqual(['2026-11-28T10:00:01.000Z']);
  });
});
