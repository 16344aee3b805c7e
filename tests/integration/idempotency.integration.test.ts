/**
 * Decision 016 on SQLite and PostgreSQL: the public POSTs with an Idempotency-Key. A retry after a
 * lost answer gets the first answer (same status and body, `Idempotent-Replayed: true`) and stores
 * nothing; the same key with another body is refused (422); duplicates racing, in one process or in
 * two sharing the database, store one row; a request without the key is unchanged; a malformed key is
 * refused (400); refusals (400, 429) and a bot's request are not kept as answers; keys expire after
 * 24 hours.
 */
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { createApp, type App } from '../../api/app.ts';
import { IDEMPOTENCY_KEY_TTL_MS, INVALID_KEY, KEY_IN_PROGRESS, KEY_REUSED } from '../../api/http/idempotency.ts';
import { createMemoryRateLimitStore, noRateLimits } from '../../api/http/rate-limit.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import { estimateProbate } from '../../src/shared/probate.ts';
import { freeSlots, NOW, visitorBooking } from '../support/appointment-requests.ts';
import { countRows, forEachDialect, type CallResult, type TestContext } from '../support/test-app.ts';

const nextSlot = freeSlots('2030-05-06');

let seq = 0;
const message = () => ({
  firstName: 'Maria',
  lastName: `Lopez ${++seq}`,
  email: `maria.${seq}@example.com`,
  phone: '(619) 555-0199',
  practiceArea: 'estate-planning',
  message: 'I would like to set up a living trust for my family.',
});
const calculation = () => {
  const e = estimateProbate(400_000 + ++seq * 1000, 0);
  return Object.fromEntries([...Object.entries(e).map(([k, v]) => [k, String(v)]), ['userEmail', `saver${seq}@example.com`]]);
};
const booking = () => ({ ...visitorBooking, email: `booker${++seq}@example.com`, scheduledDate: nextSlot() });

/** The three public POSTs, each with the table its row goes to. */
const routes = [
  { path: '/api/contact', table: 'contactSubmissions', body: message },
  { path: '/api/probate-calculator', table: 'probateCalculations', body: calculation },
  { path: '/api/appointments', table: 'appointments', body: booking },
] as const;

const key = () => crypto.randomUUID();
const post = (ctx: TestContext, path: string, body: unknown, idempotencyKey?: string) =>
  ctx.call('POST', path, { body, headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey } });

/** The same call to another app (another container) over the same database. */
async function postTo(app: App, path: string, body: unknown, idempotencyKey: string): Promise<CallResult> {
  const res = await app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

const storedKeys = async (ctx: TestContext) => ctx.database.db.select().from(ctx.database.t.idempotencyKeys);

forEachDialect('idempotent public POSTs', (ctx) => {
  for (const route of routes) {
    it(`${route.path}: a retry with the same key and body gets the first answer, replayed, and stores nothing more`, async () => {
      ctx().clock.set(NOW);
      const rowsBefore = await countRows(ctx(), route.table);
      const deliveriesBefore = await countRows(ctx(), 'deliveries');
      const body = route.body();
      const k = key();
      const first = await post(ctx(), route.path, body, k);
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const deliveriesAfterFirst = await countRows(ctx(), 'deliveries');

      // The answer was lost (a dropped connection, a crash after the commit): the island sends it again.
      ctx().clock.set('2030-04-01T16:05:00.000Z');
      for (let attempt = 0; attempt < 2; attempt++) {
        const again = await post(ctx(), route.path, body, k);
        expect(again.status).toBe(201);
        expect(again.body).toEqual(first.body);
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        expect(again.headers.get('content-type')).toMatch(/^application\/json/);
        expect(again.headers.get('cache-control')).toBe('no-store');
      }
      expect(await countRows(ctx(), route.table)).toBe(rowsBefore + 1);
      // Nothing is announced again either: no second notification or confirmation is queued.
      expect(await countRows(ctx(), 'deliveries')).toBe(deliveriesAfterFirst);
      expect(deliveriesAfterFirst).toBeGreaterThanOrEqual(deliveriesBefore);
      // Kept per route, with the answer, in the same commit as the row.
      const [kept] = (await storedKeys(ctx())).filter((row) => row.key === `POST ${route.path}:${k}`);
      expect(kept).toMatchObject({ statusCode: 201, responseBody: JSON.stringify(first.body) });
    });

    it(`${route.path}: the same key with a different body is refused (422) and stores nothing`, async () => {
      ctx().clock.set(NOW);
      const k = key();
      expect((await post(ctx(), route.path, route.body(), k)).status).toBe(201);
      const rows = await countRows(ctx(), route.table);
      const other = await post(ctx(), route.path, route.body(), k);
      expect(other.status).toBe(422);
      expect(other.body).toMatchObject({ error: KEY_REUSED, requestId: expect.any(String) });
      expect(await countRows(ctx(), route.table)).toBe(rows);
    });

    it(`${route.path}: duplicates sent at once store one row; the others get the same answer or 409 with Retry-After`, async () => {
      ctx().clock.set(NOW);
      const rows = await countRows(ctx(), route.table);
      const body = route.body();
      const k = key();
      const answers = await Promise.all(Array.from({ length: 8 }, () => post(ctx(), route.path, body, k)));
      const created = answers.filter((a) => a.status === 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      for (const a of created) expect(a.body).toEqual(created[0]!.body);
      for (const a of answers.filter((a) => a.status !== 201)) {
        expect(a.status).toBe(409);
        expect(a.body.error).toBe(KEY_IN_PROGRESS);
        expect(a.headers.get('retry-after')).toBe('1');
      }
      expect(await countRows(ctx(), route.table)).toBe(rows + 1);
      // Once the first is done, a retry gets its answer.
      expect((await post(ctx(), route.path, body, k)).body).toEqual(created[0]!.body);
    });

    it(`${route.path}: duplicates racing in two processes over one database store one row, and both get its answer`, async () => {
      ctx().clock.set(NOW);
      const { dialect, location } = ctx().database;
      const second: Database = await openDatabase(
        dialect === 'sqlite' ? { sqlitePath: location, migrate: false } : { databaseUrl: location, migrate: false, poolSize: 2 },
      );
      try {
        const other = createApp({ ...ctx().deps, database: second, rateLimits: { rules: noRateLimits, trustedProxies: [] } });
        for (let round = 0; round < 3; round++) {
          const rows = await countRows(ctx(), route.table);
          const body = route.body();
          const k = key();
          // Neither sees the other's key before it writes: the database refuses one transaction whole.
          const [a, b] = await Promise.all([postTo(ctx().app, route.path, body, k), postTo(other, route.path, body, k)]);
          expect([a.status, b.status], JSON.stringify([a.body, b.body])).toEqual([201, 201]);
          expect(b.body).toEqual(a.body);
          expect([a.headers.get('idempotent-replayed'), b.headers.get('idempotent-replayed')].filter(Boolean)).toEqual(['true']);
          expect(await countRows(ctx(), route.table)).toBe(rows + 1);
        }
      } finally {
        await second.close();
      }
    });

    it(`${route.path}: without a key, every request is stored as before`, async () => {
      ctx().clock.set(NOW);
      const rows = await countRows(ctx(), route.table);
      const body = route.body();
      const first = await post(ctx(), route.path, body);
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      if (route.path !== '/api/appointments') {
        // The same body again is a second message (a booking's second request finds its slot taken).
        const second = await post(ctx(), route.path, body);
        expect(second.status).toBe(201);
        expect(second.body.id).not.toBe(first.body.id);
        expect(await countRows(ctx(), route.table)).toBe(rows + 2);
      } else {
        expect((await post(ctx(), route.path, body)).status).toBe(409);
        expect(await countRows(ctx(), route.table)).toBe(rows + 1);
      }
    });

    it(`${route.path}: a malformed key is refused (400) before anything is read or stored`, async () => {
      ctx().clock.set(NOW);
      const rows = await countRows(ctx(), route.table);
      for (const bad of ['', 'has space', 'a'.repeat(256), 'clé', 'a/b', 'a.b', 'a,b']) {
        const res = await post(ctx(), route.path, route.body(), bad);
        expect(res.status, JSON.stringify(bad)).toBe(400);
        expect(res.body).toMatchObject({ error: INVALID_KEY, requestId: expect.any(String) });
      }
      expect(await countRows(ctx(), route.table)).toBe(rows);
      // The bounds themselves are keys.
      for (const good of ['a'.repeat(255), 'A', '_-', 'Z9']) expect((await post(ctx(), route.path, route.body(), good)).status).toBe(201);
    });
  }

  it('scopes a key by route: one key on two routes stores a row on each', async () => {
    ctx().clock.set(NOW);
    const k = key();
    const contact = await post(ctx(), '/api/contact', message(), k);
    const saved = await post(ctx(), '/api/probate-calculator', calculation(), k);
    expect([contact.status, saved.status]).toEqual([201, 201]);
    expect(saved.headers.get('idempotent-replayed')).toBeNull();
    expect(contact.body.id).not.toBe(saved.body.id);
  });

  it('keeps no refusal as the answer: after a 400, the corrected request with the same key is stored', async () => {
    ctx().clock.set(NOW);
    const k = key();
    const body = message();
    const refused = await post(ctx(), '/api/contact', { ...body, email: 'not an address' }, k);
    expect(refused.status).toBe(400);
    const corrected = await post(ctx(), '/api/contact', body, k);
    expect(corrected.status).toBe(201);
    expect(corrected.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keeps no 409 for a slot taken: the same key may book another time', async () => {
    ctx().clock.set(NOW);
    const slot = nextSlot();
    expect((await post(ctx(), '/api/appointments', { ...booking(), scheduledDate: slot }, key())).status).toBe(201);
    const k = key();
    const taken = await post(ctx(), '/api/appointments', { ...booking(), scheduledDate: slot }, k);
    expect(taken.status).toBe(409);
    const retried = await post(ctx(), '/api/appointments', { ...booking(), scheduledDate: nextSlot() }, k);
    expect(retried.status).toBe(201);
  });

  it('keeps no 429: a rate-limited request retried later with its key is stored then', async () => {
    ctx().clock.set(NOW);
    const limited = createApp({
      ...ctx().deps,
      rateLimits: { rules: { ...noRateLimits, contact: [{ max: 1, windowMs: 60_000 }] }, trustedProxies: [], store: createMemoryRateLimitStore() },
    });
    const rows = await countRows(ctx(), 'contactSubmissions');
    expect((await postTo(limited, '/api/contact', message(), key())).status).toBe(201);
    const k = key();
    const body = message();
    const refused = await postTo(limited, '/api/contact', body, k);
    expect(refused.status).toBe(429);
    ctx().clock.set('2030-04-01T16:01:00.000Z');
    const later = await postTo(limited, '/api/contact', body, k);
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(await countRows(ctx(), 'contactSubmissions')).toBe(rows + 2);
  });

  it("keeps nothing for a bot's request (the honeypot): answered alike, no key stored", async () => {
    ctx().clock.set(NOW);
    const k = key();
    const rows = await countRows(ctx(), 'contactSubmissions');
    const res = await post(ctx(), '/api/contact', { ...message(), website: 'https://spam.example' }, k);
    expect(res.status).toBe(201);
    expect(await countRows(ctx(), 'contactSubmissions')).toBe(rows);
    expect((await storedKeys(ctx())).filter((row) => row.key.endsWith(k))).toEqual([]);
  });

  it('answers 409 with Retry-After for a key whose answer is not recorded yet', async () => {
    ctx().clock.set(NOW);
    const k = key();
    const body = message();
    const { db, t } = ctx().database;
    // A key without its answer yet (what a writer that records the answer after its work leaves meanwhile).
    const fingerprint = createHash('sha256').update(JSON.stringify(body)).digest('base64url');
    await db.insert(t.idempotencyKeys).values({ key: `POST /api/contact:${k}`, fingerprint, createdAt: new Date(NOW) });
    const res = await post(ctx(), '/api/contact', body, k);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(KEY_IN_PROGRESS);
    expect(res.headers.get('retry-after')).toBe('1');
  });

  it('forgets keys after 24 hours: the same key then stores a new row, and expired keys are deleted', async () => {
    ctx().clock.set(NOW);
    const k = key();
    const body = message();
    const first = await post(ctx(), '/api/contact', body, k);
    const rows = await countRows(ctx(), 'contactSubmissions');
    ctx().clock.set(new Date(Date.parse(NOW) + IDEMPOTENCY_KEY_TTL_MS - 60_000));
    expect((await post(ctx(), '/api/contact', body, k)).body).toEqual(first.body);
    ctx().clock.set(new Date(Date.parse(NOW) + IDEMPOTENCY_KEY_TTL_MS + 60_000));
    const later = await post(ctx(), '/api/contact', body, k);
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.id).not.toBe(first.body.id);
    expect(await countRows(ctx(), 'contactSubmissions')).toBe(rows + 1);
    // Every key older than a day is gone; the new one is kept.
    const cutoff = Date.parse(NOW) + 60_000;
    const left = await storedKeys(ctx());
    expect(left.filter((row) => row.createdAt.getTime() < cutoff)).toEqual([]);
    expect(left.map((row) => row.key)).toContain(`POST /api/contact:${k}`);
  });
});
