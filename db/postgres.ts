/**
 * PostgreSQL (db/client.ts chooses it when DATABASE_URL is given). Loaded only then: the embedded
 * default never loads pg or the PostgreSQL schema. Also the pipelined transaction (db/transactions.ts).
 */
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { type Database, type Db, describePostgres, MIGRATION_LOCK_KEY, migrationsDir, type OpenOptions } from './client.ts';
import { databaseUnavailable } from './driver-errors.ts';
import * as pgSchema from './schema/pg.ts';
import type { Build, Results } from './transactions.ts';

export async function openPostgres(url: string, options: OpenOptions): Promise<Database> {
  // Pipeline mode: a checked-out client sends queries without waiting for the one before (one round
  // trip for a whole transaction, db/transactions.ts); one query at a time behaves as before.
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, pipeline: true });
  // A connection that dies (a failover, an idle timeout, a pgbouncer or RDS restart, an operator's
  // pg_terminate_backend) must never take the process down. node-postgres emits 'error' on the pool
  // for an idle client and on the client itself for one checked out between queries: an 'error'
  // event nobody listens to is thrown by Node. The query in flight, if any, fails on its own; the pool
  // drops the dead client and opens a new one for the next query.
  const connectionLost = (err: Error) => console.warn(JSON.stringify({ level: 'warn', msg: 'postgres connection lost', err: err.message }));
  pool.on('error', connectionLost);
  pool.on('connect', (client) => client.on('error', connectionLost));
  retryReadsOnce(pool);
  const where = describePostgres(url);
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    await pool.end().catch(() => {});
    throw new Error(
      `DATABASE_URL is set but PostgreSQL refused the connection at ${where} (${(err as Error).message}): is it running, and does the database exist?`,
    );
  }
  try {
    if (options.migrate !== false) {
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      try {
        await migrate(drizzle(client), { migrationsFolder: migrationsDir('pg') });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      }
    }
  } finally {
    client.release();
  }
  const db = drizzle(pool, { schema: pgSchema });
  return {
    dialect: 'postgres',
    db,
    t: pgSchema,
    label: `postgres:${where}`,
    pgPool: pool,
    pipelined: (build) => pipelinedTransaction(pool, build),
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      await pool.end();
    },
  };
}

/**
 * A read cut off by a lost connection is sent once more on another connection: a SELECT outside a
 * transaction changes nothing, so a second try is safe, and the visitor sees the page instead of an
 * error. Writes are not retried here (whether a cut-off COMMIT landed is unknown): they answer 503,
 * and the client's retry with its Idempotency-Key stores them once (api/http/errors.ts).
 */
function retryReadsOnce(pool: pg.Pool) {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as { query: unknown }).query = (...args: unknown[]) => {
    const [config] = args;
    const text = typeof config === 'string' ? config : (config as { text?: unknown } | undefined)?.text;
    const callback = args.some((arg) => typeof arg === 'function');
    if (callback || typeof text !== 'string' || !/^\s*select\b/i.test(text)) return query(...args);
    return query(...args).catch((err: unknown) => {
      if (databaseUnavailable(err) !== 'connection') throw err;
      return query(...args);
    });
  };
}

/** A Drizzle instance on one pooled client (kept per client: the pool reuses its clients). */
const clientDbs = new WeakMap<pg.PoolClient, Db>();

/** node-postgres' DatabaseError, or Drizzle's error wrapping one (as its `cause`). */
const answeredByServer = (err: unknown) => err instanceof pg.DatabaseError || (err as { cause?: unknown })?.cause instanceof pg.DatabaseError;

/**
 * PostgreSQL: BEGIN, the statements and COMMIT sent at once on one pooled client, which the pool
 * opens in pipeline mode (openPostgres above), so a transaction of several statements costs one round trip
 * instead of one per statement. The server runs them in order, each to its own Sync: when one fails,
 * the ones after it fail as "current transaction is aborted" and COMMIT ends it as ROLLBACK, so
 * nothing is kept, and the first failure (a refused slot claim, say) is what is thrown. No statement
 * can depend on another's result in JavaScript here; SQL may (INSERT … SELECT sees the rows before it).
 */
async function pipelinedTransaction<T extends readonly PromiseLike<unknown>[]>(pool: pg.Pool, build: Build<T>): Promise<Results<T>> {
  try {
    return await pipelinedTransactionOn(pool, build);
  } catch (err) {
    // The pool lent a client whose connection had died while idle: node-postgres refused to send
    // anything on it, so the transaction never started and is safe to run once more on a new one.
    if ((err as Error)?.message !== NOT_QUERYABLE) throw err;
    return pipelinedTransactionOn(pool, build);
  }
}
const NOT_QUERYABLE = 'Client has encountered a connection error and is not queryable';

async function pipelinedTransactionOn<T extends readonly PromiseLike<unknown>[]>(pool: pg.Pool, build: Build<T>): Promise<Results<T>> {
  const client = await pool.connect();
  let tx = clientDbs.get(client);
  if (!tx) clientDbs.set(client, (tx = drizzle(client, { schema: pgSchema }) as unknown as Db));
  let broken: Error | undefined;
  try {
    const statements = build(tx);
    const { begin, sent, commit } = sendTogether(client, statements);
    const outcomes = await Promise.allSettled([begin, ...sent, commit]);
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    const ended = (outcomes.at(-1) as PromiseFulfilledResult<pg.QueryResult>).value;
    if (ended.command !== 'COMMIT') throw new Error(`The transaction ended in ${ended.command} instead of COMMIT; nothing of it was stored.`);
    return outcomes.slice(1, -1).map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as Results<T>;
  } catch (err) {
    // The server's own answers (a constraint, an aborted transaction) leave the connection usable
    // and the transaction ended; anything else (a dropped connection) and the client is discarded.
    if (!answeredByServer(err)) broken = err as Error;
    throw err;
  } finally {
    client.release(broken);
  }
}

/**
 * BEGIN, the statements and COMMIT queued on `client` in this order, in one write to its socket.
 * Drizzle sends a statement when its `then` is called: called here, in order, so each is queued
 * behind BEGIN and ahead of COMMIT (awaiting them, or Promise.all, would call it a turn later). COMMIT
 * is sent only if every statement was queued; otherwise ROLLBACK.
 */
function sendTogether(client: pg.PoolClient, statements: readonly PromiseLike<unknown>[]) {
  const socket = (client as unknown as { connection?: { stream?: { cork?(): void; uncork?(): void } } }).connection?.stream;
  const query = client.query;
  let queued = 0;
  socket?.cork?.();
  try {
    const begin = client.query('begin');
    client.query = function (this: pg.PoolClient, ...args: Parameters<typeof query>) {
      queued++;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    let sent: Promise<unknown>[];
    try {
      sent = statements.map((statement) => new Promise<unknown>((resolve, reject) => statement.then(resolve, reject)));
    } finally {
      delete (client as { query?: unknown }).query; // the prototype's again
    }
    const commit = client.query(queued === statements.length ? 'commit' : 'rollback');
    return { begin, sent, commit };
  } finally {
    socket?.uncork?.();
  }
}
