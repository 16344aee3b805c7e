/**
 * Idempotent public POSTs (docs/decisions/016): a submission retried after its answer was lost (a
 * phone's network dropped it, the process died between the commit and the answer) gets the first
 * answer, never a second row.
 *
 * The islands send `Idempotency-Key`, one random key per submission. With one, this middleware:
 * - refuses a malformed key (400);
 * - answers a key it has seen (kept 24 hours, per route): the same body gets the first answer again
 *   with `Idempotent-Replayed: true` and nothing is written; another body 422; a key whose first
 *   request is still running 409 with Retry-After;
 * - otherwise lets the route run. The route adds `storedAnswer(c, 201, answer)` to the transaction
 *   that writes its rows, so the key and its answer commit with the rows or not at all: a crash
 *   before the commit leaves neither (the retry does the work), after it both (the retry is answered
 *   from the table). Two requests with one key in two processes both try to insert it; the key's
 *   primary key lets one transaction commit and fails the other whole, which then answers the
 *   winner's answer.
 * Only what a route records is kept (its 201): a refusal (400, a slot taken, 429, a 500) stores
 * nothing, and the retry runs again. A bot's request (the honeypot) records nothing either. Without
 * the header a request runs exactly as before.
 */
import { createHash } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/driver-errors.ts';
import { atomically, type Write } from '../../db/transactions.ts';
import type { Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import { errorBody } from './errors.ts';

/** How long a key is remembered: far longer than any retry, short enough that the table stays small. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60_000;
/** Expired keys are deleted by the first keyed request after this long (per route and process). */
const SWEEP_EVERY_MS = 60 * 60_000;

export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{1,255}$/;
export const INVALID_KEY = 'Idempotency-Key must be 1 to 255 letters, digits, hyphens or underscores (a UUID, for example).';
export const KEY_REUSED = 'This Idempotency-Key was already used for a different request. Send a new key with a new submission.';
export const KEY_IN_PROGRESS = 'A request with this Idempotency-Key is still being processed. Please try again in a moment.';

interface KeyedRequest {
  database: Database;
  /** Scoped by route: "POST /api/contact:<key>". */
  key: string;
  fingerprint: string;
  receivedAt: Date;
}

/** The keyed requests the middleware let through, until their route records the answer. */
const keyed = new WeakMap<Request, KeyedRequest>();

/**
 * The statement that keeps `body` as the answer to this request's Idempotency-Key: put it in the
 * transaction that writes the request's rows, first (so a racing duplicate fails on the key before
 * it touches anything else). None without a key.
 */
export function storedAnswer(c: Context, status: ContentfulStatusCode, body: unknown): Write[] {
  const request = keyed.get(c.req.raw);
  if (!request) return [];
  const { database, key, fingerprint, receivedAt } = request;
  const table = database.t.idempotencyKeys;
  return [
    (tx) =>
      tx
        .insert(table)
        .values({ key, fingerprint, statusCode: status, responseBody: JSON.stringify(body), createdAt: receivedAt })
        .returning({ key: table.key }),
  ];
}

/** Deletes the keys older than IDEMPOTENCY_KEY_TTL_MS; how many went. (A timer may call it too.) */
export async function deleteExpiredIdempotencyKeys(database: Database, now: Date): Promise<number> {
  const table = database.t.idempotencyKeys;
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS);
  const [deleted] = await atomically(database, (tx) => [tx.delete(table).where(lt(table.createdAt, cutoff)).returning({ key: table.key })]);
  return deleted.length;
}

/** The key's primary key refused a second insert. */
const isKeyTaken = (err: unknown) => isUniqueViolation(err, { pg: 'idempotency_keys_pkey', sqlite: 'idempotency_keys.key' });

/** Middleware for one public POST, after its rate limit (a 429 never reaches it, so is never kept). */
export function idempotency({ database, clock, log }: { database: Database; clock: Clock; log: Logger }): MiddlewareHandler {
  const { db, t } = database;
  const table = t.idempotencyKeys;
  // A repeat arriving while the first is still running in this process (a double tap, an impatient
  // retry). In another process the database decides, above.
  const running = new Set<string>();
  let nextSweep = 0;

  const find = async (key: string) => (await db.select().from(table).where(eq(table.key, key)))[0];
  const sweep = async (now: Date) => {
    try {
      await deleteExpiredIdempotencyKeys(database, now);
    } catch (err) {
      log.warn('idempotency: expired keys not deleted', { err: err instanceof Error ? err.message : String(err) });
    }
  };
  const inProgress = (c: Context) => {
    c.header('Retry-After', '1');
    return errorBody(c, 409, KEY_IN_PROGRESS);
  };
  const replay = (c: Context, row: NonNullable<Awaited<ReturnType<typeof find>>>, fingerprint: string) => {
    if (row.fingerprint !== fingerprint) return errorBody(c, 422, KEY_REUSED);
    if (row.statusCode === null || row.responseBody === null) return inProgress(c);
    log.info('idempotency: answer replayed', { requestId: c.get('requestId'), path: c.req.path });
    return c.body(row.responseBody, row.statusCode as ContentfulStatusCode, { 'Content-Type': 'application/json', 'Idempotent-Replayed': 'true' });
  };

  return async (c, next) => {
    const given = c.req.header('idempotency-key');
    if (given === undefined) return next();
    if (!IDEMPOTENCY_KEY_PATTERN.test(given)) return errorBody(c, 400, INVALID_KEY);
    const key = `${c.req.method} ${c.req.path}:${given}`;
    if (running.has(key)) return inProgress(c);
    running.add(key);
    try {
      const receivedAt = clock.now();
      const cutoff = new Date(receivedAt.getTime() - IDEMPOTENCY_KEY_TTL_MS);
      if (receivedAt.getTime() >= nextSweep) {
        nextSweep = receivedAt.getTime() + SWEEP_EVERY_MS;
        await sweep(receivedAt);
      }
      // The bytes sent: a retry of one submission sends the same ones.
      const fingerprint = createHash('sha256')
        .update(await c.req.text())
        .digest('base64url');
      let earlier = await find(key);
      if (earlier && earlier.createdAt < cutoff) {
        await sweep(receivedAt); // expired: the key is free again
        earlier = undefined;
      }
      if (earlier) return replay(c, earlier, fingerprint);
      keyed.set(c.req.raw, { database, key, fingerprint, receivedAt });
      await next();
      // Another process committed this key first, and this request's transaction failed whole on it.
      if (c.error && isKeyTaken(c.error)) {
        const winner = await find(key);
        if (winner) {
          c.error = undefined;
          c.res = replay(c, winner, fingerprint);
        }
      }
    } finally {
      running.delete(key);
    }
  };
}
