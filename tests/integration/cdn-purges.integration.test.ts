/**
 * A purge the CDN did not confirm is never lost: recorded in the shared database, shown on the
 * dashboard's call, sent again with back-off (at most 30 s apart) by whichever container claims it,
 * and forgotten once the CDN confirms. The CDN here is a stand-in for Varnish's PURGE that can be
 * taken down; the real Varnish is in varnish-vcl and the fleet suites.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCdnPurger, RECORDED_RETRY_MAX_MS } from '../../api/cdn/cdn-purge.ts';
import { cdnPurgesRepository } from '../../api/cdn/cdn-purges.repository.ts';
import { createLogger } from '../../api/logger.ts';
import { forEachDialect } from '../support/test-app.ts';

let server: Server;
let base: string;
let up = false;
const purged: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (!up) return void res.writeHead(503).end('purge API unavailable');
      purged.push(String(req.headers['xkey-purge']));
      res.writeHead(200).end('1');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

forEachDialect('purges the CDN did not confirm', (ctx) => {
  const container = () =>
    createCdnPurger(
      { kind: 'varnish', urls: [base] },
      {
        log: createLogger({ write: () => {} }),
        retryDelaysMs: [],
        settleMs: 3_600_000,
        store: cdnPurgesRepository(ctx().database),
        clock: ctx().clock,
        schedule: false,
      },
    );

  it('are recorded, shown, sent again with back-off by one container, and forgotten once confirmed', async () => {
    const [a, b] = [container(), container()];
    const { db, t } = ctx().database;
    up = false;
    purged.length = 0;
    ctx().clock.set('2026-11-28T10:00:00.000Z');
    await a.purge({ topic: 'blog-posts', keys: ['phone-number-fix'] });
    const [row] = await db.select().from(t.cdnPurges);
    expect(row).toMatchObject({ attempts: 1, lastError: `Varnish at ${new URL(base).host} answered HTTP 503: purge API unavailable` });
    expect(JSON.parse(row!.keys)).toEqual(['posts', 'post:phone-number-fix']);

    const shown = await ctx().admin('GET', '/api/admin/cdn/purges');
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({ pending: 1, oldestAt: '2026-11-28T10:00:00.000Z', lastError: row!.lastError });
    expect((await ctx().call('GET', '/api/admin/cdn/purges')).status).toBe(401);

    // Not due yet: nothing is sent. Due, still down: sent, refused, put off further (never beyond 30 s).
    await a.retryRecorded();
    expect((await db.select().from(t.cdnPurges))[0]!.attempts).toBe(1);
    for (const second of [5, 20, 60, 120]) {
      ctx().clock.set(new Date(Date.parse('2026-11-28T10:00:00.000Z') + second * 1000));
      await a.retryRecorded();
    }
    const [later] = await db.select().from(t.cdnPurges);
    expect(later!.attempts).toBeGreaterThan(2);
    expect(later!.nextAttemptAt.getTime() - ctx().clock.now().getTime()).toBeLessThanOrEqual(RECORDED_RETRY_MAX_MS);

    // The CDN is back: at the next due time one of two containers sends it, once, and it is gone.
    up = true;
    ctx().clock.set(later!.nextAttemptAt);
    await Promise.all([a.retryRecorded(), b.retryRecorded()]);
    expect(purged).toEqual(['posts post:phone-number-fix']);
    expect(await db.select().from(t.cdnPurges)).toEqual([]);
    expect((await ctx().admin('GET', '/api/admin/cdn/purges')).body).toEqual({ pending: 0, oldestAt: null, lastError: null });
  });
});
