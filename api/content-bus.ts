/**
 * Content changes across containers (docs/decisions/017-many-containers.md). With
 * several API containers on one PostgreSQL database, a change made through one must reach every
 * other's stored pages and /theme.css within a second, and a container that missed announcements
 * (a restart, a dropped connection) must never keep serving what they changed.
 *
 * - A change made here is numbered in `content_changes` and announced with NOTIFY, in one statement
 *   (the notification leaves at commit, after the row is readable).
 * - Each container LISTENs on its own connection; a notification makes it read the rows it has not
 *   seen and hear the other containers' changes (`events.deliver`).
 * - What it has seen is "every id up to `highest`, except the gaps": a row numbered below one
 *   already read, whose insert had not committed yet, is read when it commits; a gap left by an
 *   insert that rolled back is given up after a minute.
 * - After a reconnect, and every `pollMs` as a backstop for a connection that died silently, it
 *   compares the newest number with what it has seen and catches up. When the rows it missed are
 *   gone (kept a day) or too many, it republishes everything instead.
 * - A change that could not be recorded (the database briefly unreachable) is retried on each poll,
 *   so the other containers hear of it once the database is back.
 * SQLite is one process: it needs none of this (api/server.ts starts the bus only with DATABASE_URL).
 */
import { randomUUID } from 'node:crypto';
import { and, gt, inArray, lt, max, min, or, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Database } from '../db/client.ts';
import { contentTopics, type ContentChange, type ContentEvents, type ContentTopic } from './content-events.ts';
import type { Logger } from './logger.ts';

export const CONTENT_CHANNEL = 'content_changes';
/** How long a change is kept for containers that were away. */
export const CONTENT_CHANGES_KEPT_MS = 24 * 60 * 60_000;
/** More missed changes than this: republish everything rather than replay them one by one. */
const MAX_CATCH_UP = 500;
/** An id never seen this long after a later one was: its insert rolled back. */
const GAP_GIVE_UP_MS = 60_000;
/** Failed announcements held for retry; beyond this the oldest become one 'site' change. */
const MAX_UNSENT = 100;

export interface ContentBusOptions {
  databaseUrl: string;
  database: Database;
  events: ContentEvents;
  log: Logger;
  /** The backstop check's interval. */
  pollMs?: number;
  /** The first wait before reconnecting; it doubles up to 5 s. */
  reconnectMs?: number;
}

export interface ContentBus {
  /** This process's name in `content_changes.origin`. */
  readonly origin: string;
  /** Starts listening and catches up with what changed since the bus was created. */
  listen(): Promise<void>;
  /** Reads what is new now (tests; the poll and notifications call it themselves). */
  sync(): Promise<void>;
  stop(): Promise<void>;
}

interface Row {
  id: number;
  topic: string;
  keys: string | null;
  origin: string;
}

const toChange = (row: Row): ContentChange | null => {
  if (!contentTopics.includes(row.topic as ContentTopic)) return null;
  const keys = row.keys ? (JSON.parse(row.keys) as unknown) : undefined;
  return { topic: row.topic as ContentTopic, ...(Array.isArray(keys) ? { keys: keys.map(String) } : {}) };
};

/**
 * Creates the bus and records where it starts: call before the site loads what it shows, so a
 * change made between then and `listen()` is caught up with rather than missed.
 */
export async function createContentBus({ databaseUrl, database, events, log, pollMs = 2_000, reconnectMs = 250 }: ContentBusOptions): Promise<ContentBus> {
  if (database.dialect !== 'postgres') throw new Error('The content bus needs PostgreSQL (DATABASE_URL).');
  const { db, t } = database;
  const table = t.contentChanges;
  const origin = randomUUID();

  const newest = async () => (await db.select({ id: max(table.id) }).from(table))[0]?.id ?? 0;
  let highest = await newest();
  /** Ids below `highest` not read yet, with when the gap was found. */
  const gaps = new Map<number, number>();
  const unsent: ContentChange[] = [];
  let stopped = false;

  const saw = (id: number) => {
    gaps.delete(id);
    if (id <= highest) return;
    const now = Date.now();
    for (let missing = highest + 1; missing < id && missing > id - MAX_CATCH_UP; missing++) gaps.set(missing, now);
    highest = id;
  };

  const record = async (change: ContentChange) => {
    const keys = change.keys?.length ? JSON.stringify(change.keys) : null;
    const result = await db.execute<{ id: number }>(sql`
      with c as (insert into ${table} (topic, keys, origin) values (${change.topic}, ${keys}, ${origin}) returning id)
      select c.id, pg_notify(${CONTENT_CHANNEL}, c.id::text) from c`);
    return Number(result.rows[0]!.id);
  };

  // One read at a time, in order: a notification during a read is answered by the next one.
  let queue: Promise<void> = Promise.resolve();
  let queued = false;
  const sync = (opts: { afterReconnect?: boolean } = {}): Promise<void> => {
    if (queued && !opts.afterReconnect) return queue.catch(() => {});
    queued = true;
    queue = queue.then(async () => {
      queued = false;
      if (stopped) return;
      const now = Date.now();
      for (const [id, since] of gaps) if (now - since > GAP_GIVE_UP_MS) gaps.delete(id);
      if (opts.afterReconnect) {
        // Rows this container never read are gone: it cannot know what they changed.
        const oldest = (await db.select({ id: min(table.id) }).from(table))[0]?.id;
        if (oldest != null && oldest > highest + 1) {
          log.warn('content changes were missed beyond what is kept: republishing everything', { seen: highest, oldestKept: oldest });
          highest = await newest();
          gaps.clear();
          await events.deliver({ topic: 'site' });
          return;
        }
      }
      const waiting = [...gaps.keys()];
      const rows: Row[] = await db
        .select({ id: table.id, topic: table.topic, keys: table.keys, origin: table.origin })
        .from(table)
        .where(waiting.length ? or(gt(table.id, highest), inArray(table.id, waiting)) : gt(table.id, highest))
        .orderBy(table.id)
        .limit(MAX_CATCH_UP + 1);
      if (rows.length > MAX_CATCH_UP) {
        log.warn('many content changes were missed: republishing everything', { seen: highest, missed: rows.length });
        highest = await newest();
        gaps.clear();
        await events.deliver({ topic: 'site' });
        return;
      }
      const heard: Promise<void>[] = [];
      for (const row of rows) {
        if (!gaps.has(row.id) && row.id <= highest) continue;
        saw(row.id);
        if (row.origin === origin) continue; // heard here when it was made
        const change = toChange(row);
        if (change) heard.push(events.deliver(change));
      }
      await Promise.all(heard);
    });
    const current = queue;
    current.catch((err: unknown) => log.error('content changes could not be read', { err: String(err) }));
    return current.catch(() => {});
  };

  // One at a time, so this container's changes are numbered in the order they were made.
  let announcing: Promise<void> = Promise.resolve();
  const announce = (change: ContentChange) =>
    (announcing = announcing.then(async () => {
      try {
        if (unsent.length) throw new Error('earlier changes are still waiting'); // keep the order
        saw(await record(change));
      } catch (err) {
        log.error('a content change could not be announced to the other containers: retrying', { topic: change.topic, err: String(err) });
        unsent.push(change);
        if (unsent.length > MAX_UNSENT) unsent.splice(0, unsent.length, { topic: 'site' });
      }
    }));
  const unrelay = events.relay(announce);

  const retryUnsent = () =>
    (announcing = announcing.then(async () => {
      while (unsent.length && !stopped) {
        try {
          saw(await record(unsent[0]!));
          unsent.shift();
        } catch {
          return; // still unreachable: next poll
        }
      }
    }));

  let client: pg.Client | null = null;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let wait = reconnectMs;

  const scheduleReconnect = () => {
    if (stopped || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      void connect();
    }, wait);
    reconnectTimer.unref();
    wait = Math.min(wait * 2, 5_000);
  };

  const connect = async () => {
    // Loaded here: only a container on PostgreSQL has a bus to listen to.
    const { Client } = (await import('pg')).default;
    const next = new Client({ connectionString: databaseUrl, keepAlive: true, application_name: `content-bus ${origin}` });
    next.on('notification', (message) => {
      if (message.channel === CONTENT_CHANNEL) void sync();
    });
    const lost = (err?: unknown) => {
      if (client !== next) return;
      client = null;
      if (!stopped) log.warn('content change listener disconnected: reconnecting', { err: err ? String(err) : undefined });
      next.end().catch(() => {});
      scheduleReconnect();
    };
    next.on('error', lost);
    next.on('end', () => lost());
    client = next;
    try {
      await next.connect();
      await next.query(`listen ${CONTENT_CHANNEL}`);
      if (stopped) return void next.end().catch(() => {});
      wait = reconnectMs;
      // Whatever changed while nobody listened (since the bus was created, or the connection died).
      await sync({ afterReconnect: true });
    } catch (err) {
      lost(err);
    }
  };

  let poll: NodeJS.Timeout | null = null;
  return {
    origin,
    async listen() {
      await connect();
      poll = setInterval(() => {
        void retryUnsent()
          .then(async () => {
            if (stopped) return;
            if (gaps.size || (await newest()) > highest) await sync();
          })
          .catch((err: unknown) => log.error('content changes could not be checked', { err: String(err) }));
      }, pollMs);
      poll.unref();
    },
    sync: () => sync(),
    async stop() {
      unrelay();
      await announcing; // what was made here is numbered before the database closes
      stopped = true;
      if (poll) clearInterval(poll);
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const last = client;
      client = null;
      await last?.end().catch(() => {});
      await queue.catch(() => {});
    },
  };
}

/** Housekeeping: drops changes older than a day, always keeping the newest (it numbers what comes next). */
export async function pruneContentChanges(database: Database, now: Date): Promise<void> {
  const { db, t } = database;
  const newestId = (await db.select({ id: max(t.contentChanges.id) }).from(t.contentChanges))[0]?.id;
  if (newestId == null) return;
  await db
    .delete(t.contentChanges)
    .where(and(lt(t.contentChanges.createdAt, new Date(now.getTime() - CONTENT_CHANGES_KEPT_MS)), lt(t.contentChanges.id, newestId)));
}
