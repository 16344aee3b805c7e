/**
 * Shared counts for the per-client limits (docs/decisions/013-abuse-limits.md,
 * amendment "shared counts"). Each API container counting in its own memory allows N per client per
 * container, so with REDIS_URL the counts live in Redis and otherwise, with DATABASE_URL, in
 * PostgreSQL (table `rate_limits`), both through rate-limiter-flexible. SQLite is one process: its
 * memory store stays.
 *
 * - One library limiter per distinct limit ("N per window"), made on first use and then reused. Its key
 *   prefix names the window (`rate-limit:60s`), the key the rule and client (`contact 203.0.113.7`).
 * - The library counts fixed windows: from a key's first request until its window expires (Redis by
 *   the key's TTL, PostgreSQL by the `expire` column each container's clock writes). Each count is
 *   one atomic statement (a Lua script, an INSERT … ON CONFLICT), so two containers never both take
 *   the last request.
 * - A rule's limits are counted shortest window first, and a longer one only when the shorter allowed:
 *   a request the per-minute limit refuses never reaches the daily count. A refusal by a longer
 *   window gives the shorter ones their request back. Either way a refused request uses no allowance.
 * - Over a limit, a container remembers the refusal in memory until that window ends (the library's
 *   in-memory block), so a script hammering one address costs the store one call per window, not one
 *   per request.
 * - If the store fails (down, unreachable, too slow), requests are counted in this process's memory
 *   store instead (per-container limits) and one error is logged a minute: a
 *   limiter hiccup never turns visitors away, and never lifts the limits altogether.
 */
import type pg from 'pg';
import type { RateLimiterPostgres, RateLimiterRedis } from 'rate-limiter-flexible';
import type { Database } from '../../db/client.ts';
import type { Logger } from '../logger.ts';
import { createMemoryRateLimitStore, type Limit, type RateLimitStore, type RateVerdict } from './rate-limit.ts';

/** The PostgreSQL table of the counts (created by the library, outside the Drizzle migrations). */
export const RATE_LIMITS_TABLE = 'rate_limits';
/** Start of every key (Redis) or row key (PostgreSQL); tests give their own so runs never meet. */
export const DEFAULT_KEY_PREFIX = 'rate-limit';
/** At most one "store failed" line a minute, however many requests fall back meanwhile. */
export const FAILURE_LOG_INTERVAL_MS = 60_000;
/** A Redis command not answered in this time fails (the request falls back) instead of waiting. */
const REDIS_COMMAND_TIMEOUT_MS = 1_000;

export interface ClosableRateLimitStore extends RateLimitStore {
  /** Where the counts live, for the start-up log (no credentials): memory, postgres:rate_limits, redis:host:port. */
  readonly label: string;
  /** Lets go of the store's own connection (Redis). The PostgreSQL pool is the database's: it closes with it. */
  close(): Promise<void>;
}

export interface SharedStoreOptions {
  log: Logger;
  keyPrefix?: string;
}

/**
 * The store the limits are counted in: Redis when `redisUrl` is given, else PostgreSQL when the
 * database is, else this process's memory (SQLite: one process). Waits until the store is ready (the
 * table created, Redis connected); throws, saying how to fix it, when it cannot be.
 */
export async function createRateLimitStore({
  database,
  redisUrl,
  ...options
}: SharedStoreOptions & { database: Pick<Database, 'pgPool'>; redisUrl?: string }): Promise<ClosableRateLimitStore> {
  if (redisUrl) return createRedisRateLimitStore({ url: redisUrl, ...options });
  if (database.pgPool) return createPostgresRateLimitStore({ pool: database.pgPool, ...options });
  const memory = createMemoryRateLimitStore();
  return { label: 'memory', take: (key, limits, nowMs) => memory.take(key, limits, nowMs), close: async () => {} };
}

/** Counts in PostgreSQL's `rate_limits` table, through the database's own pool. */
export async function createPostgresRateLimitStore({
  pool,
  log,
  keyPrefix = DEFAULT_KEY_PREFIX,
}: SharedStoreOptions & { pool: pg.Pool }): Promise<ClosableRateLimitStore> {
  // Loaded when a shared store is configured, not at every start (the library and ioredis weigh ~23 MB).
  const { RateLimiterPostgres, RateLimiterRes } = await import('rate-limiter-flexible');
  const common = { storeClient: pool, storeType: 'pool', tableName: RATE_LIMITS_TABLE };
  // One limiter, made first, creates the table (CREATE TABLE IF NOT EXISTS) and deletes rows expired
  // over an hour ago every 5 minutes, for every window; the counting limiters are told the table exists
  // and leave the clearing to it. Two containers creating it at the same moment can collide in
  // PostgreSQL's catalogue ("type … already exists", a unique violation) even with IF NOT EXISTS: the
  // other one made it, so asking again finds it.
  const createTable = () =>
    new Promise<void>((resolve, reject) => {
      new RateLimiterPostgres({ ...common, keyPrefix: `${keyPrefix}:housekeeping`, points: 1, duration: 1, clearExpiredByTimeout: true }, (err) =>
        err ? reject(err) : resolve(),
      );
    });
  const collided = (err: unknown) => /already exists|duplicate key/i.test(String((err as Error | undefined)?.message ?? err));
  for (let attempt = 1; ; attempt++) {
    try {
      await createTable();
      break;
    } catch (err) {
      if (collided(err) && attempt < 3) {
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
        continue;
      }
      throw new Error(
        `The rate limits could not create their table ${RATE_LIMITS_TABLE} in PostgreSQL (${(err as Error).message}): may DATABASE_URL's user create tables in the public schema?`,
      );
    }
  }
  return sharedStore({
    label: `postgres:${RATE_LIMITS_TABLE}`,
    log,
    keyPrefix,
    limiter: (options) => new RateLimiterPostgres({ ...common, ...options, tableCreated: true, clearExpiredByTimeout: false }),
    RateLimiterRes,
    close: async () => {},
  });
}

/** Counts in Redis (REDIS_URL), on a connection of its own. */
export async function createRedisRateLimitStore({
  url,
  log,
  keyPrefix = DEFAULT_KEY_PREFIX,
}: SharedStoreOptions & { url: string }): Promise<ClosableRateLimitStore> {
  const where = describeRedis(url);
  const [{ Redis }, { RateLimiterRedis, RateLimiterRes }] = await Promise.all([import('ioredis'), import('rate-limiter-flexible')]);
  // No offline queue: while Redis is away a command fails at once (and the request is counted in
  // memory) rather than waiting for the reconnection. ioredis keeps reconnecting by itself.
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, commandTimeout: REDIS_COMMAND_TIMEOUT_MS, maxRetriesPerRequest: 1 });
  let lastError = '';
  // Without a listener ioredis prints every failed reconnection; the store's own line says it once a minute.
  redis.on('error', (err: Error) => {
    lastError = err.message;
  });
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    throw new Error(
      `REDIS_URL is set but Redis refused the connection at ${where} (${lastError || (err as Error).message}): is it running, and are the URL's password and scheme (rediss:// for TLS) right?`,
    );
  }
  return sharedStore({
    label: `redis:${where}`,
    log,
    keyPrefix,
    limiter: (options) => new RateLimiterRedis({ ...options, storeClient: redis, rejectIfRedisNotReady: true }),
    RateLimiterRes,
    cause: () => lastError || undefined,
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  });
}

/** host:port, never the password. */
export function describeRedis(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 6379}`;
  } catch {
    return '(unparseable REDIS_URL)';
  }
}

type Counter = RateLimiterPostgres | RateLimiterRedis;

interface Backend {
  label: string;
  log: Logger;
  keyPrefix: string;
  limiter(options: { points: number; duration: number; keyPrefix: string; inMemoryBlockOnConsumed: number }): Counter;
  /** What the library rejects with when a count is over its limit (an Error means the store failed). */
  RateLimiterRes: typeof import('rate-limiter-flexible').RateLimiterRes;
  /** The connection's last error, when the failing command's own says little ("Stream isn't writeable"). */
  cause?: () => string | undefined;
  close(): Promise<void>;
}

function sharedStore(backend: Backend): ClosableRateLimitStore {
  const { label, log } = backend;
  const limiters = new Map<string, Counter>();
  const limiterOf = ({ max, windowMs }: Limit): Counter => {
    const id = `${max}/${windowMs}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      const seconds = windowMs / 1000; // parseLimits: whole seconds
      limiter = backend.limiter({
        points: max,
        duration: seconds,
        keyPrefix: `${backend.keyPrefix}:${seconds}s`,
        // The request that goes over is refused by the store; later ones by this container's memory
        // until the window ends, without a round trip.
        inMemoryBlockOnConsumed: max + 1,
      });
      limiters.set(id, limiter);
    }
    return limiter;
  };

  const count = async (key: string, limits: readonly Limit[]): Promise<RateVerdict> => {
    // Limits of one window share its count (the key prefix names the window): the smallest applies.
    const byWindow = new Map<number, Limit>();
    for (const limit of limits) {
      const held = byWindow.get(limit.windowMs);
      if (!held || limit.max < held.max) byWindow.set(limit.windowMs, limit);
    }
    const taken: Counter[] = [];
    for (const limit of [...byWindow.values()].sort((a, b) => a.windowMs - b.windowMs)) {
      const limiter = limiterOf(limit);
      try {
        await limiter.consume(key);
        taken.push(limiter);
      } catch (err) {
        // The library rejects with a RateLimiterRes when over the limit, with an Error when the store fails.
        if (!(err instanceof backend.RateLimiterRes)) throw err;
        await Promise.all(taken.map((shorter) => shorter.reward(key).catch(() => {})));
        return { allowed: false, retryAfterMs: err.msBeforeNext };
      }
    }
    return { allowed: true };
  };

  const fallback = createMemoryRateLimitStore();
  let failing = false;
  let loggedAt = -Infinity;
  let failures = 0;
  return {
    label,
    async take(key, limits, nowMs) {
      try {
        const verdict = await count(key, limits);
        if (failing) {
          failing = false;
          log.info('rate-limit store answering again', { store: label });
        }
        return verdict;
      } catch (err) {
        // Deliberate (decision 013): counted per container rather than refused or let through unlimited.
        failing = true;
        failures += 1;
        if (nowMs - loggedAt >= FAILURE_LOG_INTERVAL_MS) {
          log.error('rate-limit store failed: counting in this process until it answers', { store: label, err, cause: backend.cause?.(), failures });
          loggedAt = nowMs;
          failures = 0;
        }
        return fallback.take(key, limits, nowMs);
      }
    },
    close: () => backend.close(),
  };
}
