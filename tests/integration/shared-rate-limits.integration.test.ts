/**
 * Shared abuse limits (docs/decisions/013-abuse-limits.md, amendment "shared counts"): two API
 * containers on one PostgreSQL database count each client's requests together, in PostgreSQL (the
 * `rate_limits` table) or, with REDIS_URL, in Redis. Each "container" here is an app of its own with
 * its own database pool and its own store, as two processes would have; the client is the socket's
 * address, as @hono/node-server hands it to the app. Every test counts under a key prefix of its own
 * (Redis keys are deleted afterwards), so runs never meet.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL) and Redis (TEST_REDIS_URL, default redis://127.0.0.1:6379).
 */
import { randomUUID } from 'node:crypto';
import { like } from 'drizzle-orm';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../api/app.ts';
import { createMemoryRateLimitStore, defaultRateRules, TOO_MANY_REQUESTS, type Limit, type RateLimitStore, type RateRules } from '../../api/http/rate-limit.ts';
import { createRateLimitStore, describeRedis, type ClosableRateLimitStore } from '../../api/http/shared-rate-limits.ts';
import { createLogger } from '../../api/logger.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { testDeps } from '../support/test-deps.ts';

const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const runId = randomUUID().slice(0, 8);
const silent = createLogger({ silent: true });

let database: TestDatabase;
/** A second pool on the same database: the other container's. */
let otherDatabase: Database;
/** Key prefixes the tests counted under, and the stores they opened: flushed and closed at the end. */
const prefixes: string[] = [];
const opened: ClosableRateLimitStore[] = [];

beforeAll(async () => {
  database = await createTestDatabase('postgres');
  otherDatabase = await openDatabase({ databaseUrl: database.location, migrate: false });
});

afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  await redis.connect();
  for (const prefix of prefixes) {
    for await (const keys of redis.scanStream({ match: `${prefix}:*` }) as AsyncIterable<string[]>) if (keys.length) await redis.del(...keys);
  }
  await redis.quit();
  await otherDatabase?.close();
  await database?.drop();
});

type Backend = 'postgres' | 'redis';

/** A key prefix no other test or run counts under. */
function newPrefix(): string {
  const keyPrefix = `test-rl-${runId}-${randomUUID().slice(0, 8)}`;
  prefixes.push(keyPrefix);
  return keyPrefix;
}

/** What api/server.ts builds for a container: the shared store its environment picks. */
async function storeFor(backend: Backend, on: Database, { log = silent, keyPrefix = newPrefix() } = {}): Promise<ClosableRateLimitStore> {
  const store = await createRateLimitStore({ database: on, redisUrl: backend === 'redis' ? REDIS_URL : undefined, log, keyPrefix });
  opened.push(store);
  return store;
}

function appOn(on: Database, store: RateLimitStore, rules: RateRules = defaultRateRules): App {
  return createApp(testDeps(on, { rateLimits: { rules, trustedProxies: [], store } }));
}

/** Two containers sharing the database, each with its own pool and store on `backend`, counting under one prefix. */
async function twoContainers(backend: Backend, rules: RateRules = defaultRateRules) {
  const keyPrefix = newPrefix();
  const stores = [await storeFor(backend, database, { keyPrefix }), await storeFor(backend, otherDatabase, { keyPrefix })] as const;
  return { apps: [appOn(database, stores[0], rules), appOn(otherDatabase, stores[1], rules)] as const, stores };
}

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** A public contact message from `from` (the socket's address), as the Node server hands it to the app. */
async function postContact(app: App, from: string, marker: string, i: number): Promise<Answer> {
  const body = JSON.stringify({
    firstName: 'Maria',
    lastName: `Lopez ${i}`,
    email: `${marker}.${i}@example.com`,
    phone: '(619) 555-0199',
    practiceArea: 'estate-planning',
    message: 'I would like to set up a living trust for my family.',
  });
  const res = await app.request(
    '/api/contact',
    { method: 'POST', headers: { 'content-type': 'application/json' }, body },
    { incoming: { socket: { remoteAddress: from } } },
  );
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

/** Sends `n` messages from one client, alternating between the containers; every answer in order. */
async function alternate(apps: readonly App[], from: string, n: number) {
  const marker = `shared-rl.${runId}.${randomUUID().slice(0, 8)}`;
  const answers: Answer[] = [];
  for (let i = 0; i < n; i++) answers.push(await postContact(apps[i % apps.length]!, from, marker, i));
  const { db, t } = database;
  const stored = await db
    .select()
    .from(t.contactSubmissions)
    .where(like(t.contactSubmissions.email, `${marker}.%`));
  return { answers, stored: stored.length };
}

/** A 429 the way decision 013 answers it: Retry-After in whole seconds, within the window that refused. */
function expectTooMany(res: Answer, windowSeconds: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(429);
  expect(res.body).toEqual({ error: TOO_MANY_REQUESTS, requestId: expect.any(String) });
  const retryAfter = res.headers.get('retry-after') ?? '';
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(windowSeconds);
}

const only = (limits: Record<'contact', Limit[]>): RateRules => ({ ...defaultRateRules, ...limits });

describe('the control: two containers counting in their own memory', () => {
  it('allow 10 of 12 contact posts from one client where one container allows 5 (what shared counts fix)', async () => {
    const apps = [appOn(database, createMemoryRateLimitStore()), appOn(otherDatabase, createMemoryRateLimitStore())];
    const { answers, stored } = await alternate(apps, '203.0.113.50', 12);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    expect(stored).toBe(10);
  });
});

describe.each<Backend>(['postgres', 'redis'])('shared rate limits in %s', (backend) => {
  it('two containers allow exactly 5 of 12 contact posts from one client (5 a minute), and each 429 carries Retry-After', async () => {
    const { apps } = await twoContainers(backend);
    const { answers, stored } = await alternate(apps, '203.0.113.10', 12);
    // The first five go through, whichever container answers, then every one is refused, by both.
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 429, 429, 429, 429, 429, 429, 429]);
    for (const refused of answers.slice(5)) expectTooMany(refused, 60);
    expect(stored).toBe(5);
    // Another client has an allowance of its own, on either container.
    expect((await postContact(apps[1], '198.51.100.20', `shared-rl.${runId}.other`, 0)).status).toBe(201);
  });

  it('still exactly 5 of 12 when all twelve arrive at once, six at each container (each count is atomic)', async () => {
    const { apps } = await twoContainers(backend);
    const marker = `shared-rl.${runId}.burst-${backend}`;
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => postContact(apps[i % 2]!, '203.0.113.14', marker, i)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    for (const refused of answers.filter((a) => a.status !== 201)) expectTooMany(refused, 60);
    const { db, t } = database;
    expect(
      await db
        .select()
        .from(t.contactSubmissions)
        .where(like(t.contactSubmissions.email, `${marker}.%`)),
    ).toHaveLength(5);
  });

  it('a request the per-minute limit refuses does not count towards the daily limit', async () => {
    const { apps, stores } = await twoContainers(
      backend,
      only({
        contact: [
          { max: 2, windowMs: MINUTE },
          { max: 3, windowMs: DAY },
        ],
      }),
    );
    const { answers } = await alternate(apps, '203.0.113.11', 6);
    expect(answers.map((a) => a.status)).toEqual([201, 201, 429, 429, 429, 429]);
    for (const refused of answers.slice(2)) expectTooMany(refused, 60);
    // The day has counted the two that went through, not the four refused: one more of its 3 is left.
    // (Asked of the store itself, under the key the contact rule uses: waiting a minute is not a test.)
    const dayOnly = [{ max: 3, windowMs: DAY }];
    expect(await stores[1].take('contact 203.0.113.11', dayOnly, Date.now())).toEqual({ allowed: true });
    expect(await stores[0].take('contact 203.0.113.11', dayOnly, Date.now())).toMatchObject({ allowed: false });
  });

  it('a request the daily limit refuses gives the per-minute limit its request back, and waits for the day', async () => {
    const { apps, stores } = await twoContainers(
      backend,
      only({
        contact: [
          { max: 2, windowMs: MINUTE },
          { max: 1, windowMs: DAY },
        ],
      }),
    );
    const { answers, stored } = await alternate(apps, '203.0.113.12', 2);
    expect(answers.map((a) => a.status)).toEqual([201, 429]);
    expect(stored).toBe(1);
    // Refused by the day (1 a day): the wait is the day's, far beyond a minute.
    expect(Number(answers[1]!.headers.get('retry-after'))).toBeGreaterThan(60);
    // The minute counted only the request that went through: one of its 2 is left.
    const minuteOnly = [{ max: 2, windowMs: MINUTE }];
    expect(await stores[0].take('contact 203.0.113.12', minuteOnly, Date.now())).toEqual({ allowed: true });
    expect(await stores[1].take('contact 203.0.113.12', minuteOnly, Date.now())).toMatchObject({ allowed: false });
  });

  it('when the store fails, counts in the container’s memory (5 a minute still) and logs one error a minute', async () => {
    const lines: { level: string; msg: string; store?: string; failures?: number }[] = [];
    const log = createLogger({ write: (line) => lines.push(JSON.parse(line)) });
    // A container with a pool of its own, so the store can be cut off while the database stays up.
    const own = await openDatabase({ databaseUrl: database.location, migrate: false });
    const store = await storeFor(backend, own, { log });
    // PostgreSQL: the store's pool is gone; Redis: its connection is.
    if (backend === 'postgres') await own.close();
    else await store.close();
    let now = Date.now();
    const app = createApp(testDeps(database, { clock: { now: () => new Date(now) }, log, rateLimits: { rules: defaultRateRules, trustedProxies: [], store } }));
    const marker = `shared-rl.${runId}.down-${backend}`;
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await postContact(app, '203.0.113.13', marker, i)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
    const failures = () => lines.filter((l) => l.msg === 'rate-limit store failed: counting in this process until it answers');
    expect(failures()).toHaveLength(1);
    expect(failures()[0]).toMatchObject({ level: 'error', store: store.label, failures: 1 });
    // A minute later (the injected clock): the memory allowance is back, and the failure is said again, with the count since.
    now += MINUTE;
    expect((await postContact(app, '203.0.113.13', marker, 7)).status).toBe(201);
    expect(failures()).toHaveLength(2);
    expect(failures()[1]).toMatchObject({ failures: 7 });
    if (backend === 'redis') await own.close();
  });
});

describe('createRateLimitStore: which store', () => {
  it('counts in memory on SQLite, in PostgreSQL with a database pool, in Redis with REDIS_URL', async () => {
    const sqlite = await createTestDatabase('sqlite');
    try {
      const memory = await createRateLimitStore({ database: sqlite, log: silent });
      expect(memory.label).toBe('memory');
      await memory.close();
    } finally {
      await sqlite.drop();
    }
    expect((await storeFor('postgres', database)).label).toBe('postgres:rate_limits');
    expect((await storeFor('redis', database)).label).toBe(`redis:${describeRedis(REDIS_URL)}`);
  });

  it('eight containers starting at once on a fresh PostgreSQL database all get their table (a catalogue collision is asked again)', async () => {
    const fresh = await createTestDatabase('postgres');
    // A pool each, as each container has its own.
    const pools = Array.from({ length: 8 }, () => new pg.Pool({ connectionString: fresh.location, max: 2 }));
    try {
      const stores = await Promise.all(pools.map((pool) => createRateLimitStore({ database: { pgPool: pool }, log: silent })));
      expect(stores.map((s) => s.label)).toEqual(Array(8).fill('postgres:rate_limits'));
      for (const store of stores) await store.close();
    } finally {
      for (const pool of pools) await pool.end();
      await fresh.drop();
    }
  });

  it('stops with a message naming REDIS_URL when Redis does not answer', async () => {
    await expect(createRateLimitStore({ database, redisUrl: 'redis://127.0.0.1:9', log: silent })).rejects.toThrow(
      /REDIS_URL is set but Redis refused the connection at 127\.0\.0\.1:9 .*is it running/,
    );
  });
});
