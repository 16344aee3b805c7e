/**
 * Content changes across containers on one PostgreSQL database (api/content-bus.ts):
 * each bus stands for one container, with its own events. A change made in one is heard in the
 * other, once, and never twice where it was made; a container whose listening connection was cut
 * hears on reconnect what changed meanwhile; one created before a change and listening after it
 * catches up; a change committed after a later-numbered one is not skipped; one whose missed rows
 * are gone republishes everything; old rows are pruned, the newest kept.
 */
import { desc, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createContentBus, CONTENT_CHANNEL, pruneContentChanges, type ContentBus } from '../../api/content-bus.ts';
import { createContentEvents, type ContentChange, type ContentEvents } from '../../api/content-events.ts';
import { createLogger } from '../../api/logger.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const log = createLogger({ silent: true });

interface Container {
  bus: ContentBus;
  events: ContentEvents;
  /** What this container's listeners heard, in order. */
  heard: ContentChange[];
}

let database: TestDatabase;
const running: ContentBus[] = [];

beforeAll(async () => {
  database = await createTestDatabase('postgres');
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((bus) => bus.stop()));
});
afterAll(async () => {
  await database.drop();
});

/** A container's bus, created (its starting point recorded) but listening only when `listen` is true. */
async function container({ listen = true, pollMs = 60_000 }: { listen?: boolean; pollMs?: number } = {}): Promise<Container> {
  const events = createContentEvents((err) => {
    throw err;
  });
  const heard: ContentChange[] = [];
  events.subscribe((change) => void heard.push(change));
  // A long poll: what is heard comes from notifications and reconnects, unless a test says otherwise.
  const bus = await createContentBus({ databaseUrl: database.location, database, events, log, pollMs, reconnectMs: 50 });
  running.push(bus);
  if (listen) await bus.listen();
  return { bus, events, heard };
}

const newestRow = async () => (await database.db.select().from(database.t.contentChanges).orderBy(desc(database.t.contentChanges.id)).limit(1))[0];

async function terminateListener(bus: ContentBus) {
  const admin = new pg.Client({ connectionString: database.location });
  await admin.connect();
  const { rowCount } = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [`content-bus ${bus.origin}`]);
  await admin.end();
  expect(rowCount).toBe(1);
}

describe('two containers', () => {
  it('a change made in one is heard in the other, once, and recorded with its keys', async () => {
    const a = await container();
    const b = await container();
    a.events.changed({ topic: 'blog-posts', keys: ['old-slug', 'new-slug'] });
    await expect.poll(() => b.heard).toEqual([{ topic: 'blog-posts', keys: ['old-slug', 'new-slug'] }]);
    b.events.changed({ topic: 'themes' });
    await expect.poll(() => a.heard).toEqual([{ topic: 'blog-posts', keys: ['old-slug', 'new-slug'] }, { topic: 'themes' }]);
    // Each heard its own change once (when made), not again from the database.
    await a.bus.sync();
    await b.bus.sync();
    expect(b.heard).toEqual([{ topic: 'blog-posts', keys: ['old-slug', 'new-slug'] }, { topic: 'themes' }]);
    expect(a.heard).toHaveLength(2);
    expect(await newestRow()).toMatchObject({ topic: 'themes', keys: null, origin: b.bus.origin });
  });

  it('a container whose connection was cut hears on reconnect what changed meanwhile', async () => {
    const a = await container();
    const b = await container();
    await terminateListener(b.bus);
    a.events.changed({ topic: 'testimonials' });
    a.events.changed({ topic: 'component-visibility' });
    await expect.poll(() => b.heard, { timeout: 5_000 }).toEqual([{ topic: 'testimonials' }, { topic: 'component-visibility' }]);
  });

  it('without notifications at all, the poll catches up', async () => {
    const a = await container();
    const b = await container({ pollMs: 100 });
    // Changes recorded without NOTIFY (as if the notification were lost).
    await database.db.insert(database.t.contentChanges).values({ topic: 'external-articles', origin: a.bus.origin });
    await expect.poll(() => b.heard, { timeout: 5_000 }).toEqual([{ topic: 'external-articles' }]);
  });

  it('a container created before a change and listening after it catches up', async () => {
    const a = await container();
    const b = await container({ listen: false });
    a.events.changed({ topic: 'blog-posts', keys: ['between'] });
    await expect.poll(async () => (await newestRow())?.keys).toBe('["between"]');
    await b.bus.listen();
    expect(b.heard).toEqual([{ topic: 'blog-posts', keys: ['between'] }]);
  });

  it('a change committed after a later-numbered one is still heard', async () => {
    const b = await container();
    const slow = new pg.Client({ connectionString: database.location });
    const fast = new pg.Client({ connectionString: database.location });
    await Promise.all([slow.connect(), fast.connect()]);
    const insert = (client: pg.Client, topic: string) =>
      client.query(
        `with c as (insert into content_changes (topic, origin) values ($1, 'elsewhere') returning id) select c.id, pg_notify('${CONTENT_CHANNEL}', c.id::text) from c`,
        [topic],
      );
    await slow.query('begin');
    await insert(slow, 'testimonials'); // numbered first, committed last
    await insert(fast, 'themes');
    await expect.poll(() => b.heard).toEqual([{ topic: 'themes' }]);
    await slow.query('commit');
    await expect.poll(() => b.heard).toEqual([{ topic: 'themes' }, { topic: 'testimonials' }]);
    await Promise.all([slow.end(), fast.end()]);
  });

  it('when the changes it missed are no longer kept, it republishes everything', async () => {
    const a = await container();
    const b = await container({ listen: false });
    for (const topic of ['testimonials', 'themes', 'blog-posts'] as const) a.events.changed({ topic });
    const recorded = async () => (await database.db.select().from(database.t.contentChanges).where(eq(database.t.contentChanges.origin, a.bus.origin))).length;
    await expect.poll(recorded).toBe(3);
    const newest = (await newestRow())!;
    // Housekeeping a day later: all but the newest are gone.
    await pruneContentChanges(database, new Date(Date.now() + 25 * 60 * 60_000));
    expect((await database.db.select().from(database.t.contentChanges)).map((r) => r.id)).toEqual([newest.id]);
    await b.bus.listen();
    expect(b.heard).toEqual([{ topic: 'site' }]);
  });

  it('a change that could not be recorded is retried, in order, and heard once the database takes it', async () => {
    const a = await container({ pollMs: 100 });
    const b = await container();
    await database.db.execute(sql`alter table content_changes rename to content_changes_away`);
    try {
      a.events.changed({ topic: 'testimonials' });
      a.events.changed({ topic: 'themes' });
      await new Promise((resolve) => setTimeout(resolve, 300)); // a few failed polls
      expect(b.heard).toEqual([]);
    } finally {
      await database.db.execute(sql`alter table content_changes_away rename to content_changes`);
    }
    await expect.poll(() => b.heard, { timeout: 5_000 }).toEqual([{ topic: 'testimonials' }, { topic: 'themes' }]);
  });

  it('unknown topics in the table are ignored, not delivered', async () => {
    const b = await container();
    await database.db.insert(database.t.contentChanges).values({ topic: 'nonsense', origin: 'elsewhere' });
    await database.db.insert(database.t.contentChanges).values({ topic: 'themes', origin: 'elsewhere' });
    await b.bus.sync();
    expect(b.heard).toEqual([{ topic: 'themes' }]);
  });
});

it('pruning keeps a day of changes and always the newest', async () => {
  await database.db.delete(database.t.contentChanges);
  const now = new Date();
  const hoursAgo = (h: number) => new Date(now.getTime() - h * 60 * 60_000);
  await database.db.insert(database.t.contentChanges).values([
    { topic: 'themes', origin: 'x', createdAt: hoursAgo(30) },
    { topic: 'themes', origin: 'x', createdAt: hoursAgo(2) },
  ]);
  await pruneContentChanges(database, now);
  expect((await database.db.select().from(database.t.contentChanges)).map((r) => r.createdAt.getTime())).toEqual([hoursAgo(2).getTime()]);
  await pruneContentChanges(database, new Date(now.getTime() + 48 * 60 * 60_000));
  expect(await database.db.select().from(database.t.contentChanges)).toHaveLength(1);
});
