/**
 * Opens the database the site runs on: PostgreSQL when a URL is given (DATABASE_URL), otherwise the
 * embedded SQLite file. Applies pending migrations on open. Both dialects are exposed through one
 * typed handle (`db`, `t`) so repositories are written once; see docs/decisions/002-two-dialects.md
 * for the subset of Drizzle they may use.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { migrate as migrateSqlite } from 'drizzle-orm/better-sqlite3/migrator';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as pgSchema from './schema/pg.ts';
import * as sqliteSchema from './schema/sqlite.ts';
import { reuseStatements } from './sqlite-statements.ts';

export type Tables = typeof pgSchema;
/** The common query surface. SQLite instances are typed through it too (same table and column names). */
export type Db = NodePgDatabase<Tables>;
export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  dialect: Dialect;
  db: Db;
  t: Tables;
  /** Where the data lives, for logs and /api/health (no credentials). */
  label: string;
  /**
   * PostgreSQL only: the connection pool behind `db`, for the few things that speak plain SQL beside
   * Drizzle (the shared rate-limit store, api/http/shared-rate-limits.ts). Closed by close().
   */
  pgPool?: pg.Pool;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres:// URL; when absent the SQLite file is used. */
  databaseUrl?: string;
  sqlitePath?: string;
  migrate?: boolean;
  /** PostgreSQL pool size. */
  poolSize?: number;
}

const migrationsDir = (dialect: 'sqlite' | 'pg') => fileURLToPath(new URL(`./migrations/${dialect}`, import.meta.url));
/** Any fixed number: serialises migrations when several API containers start at once. */
const MIGRATION_LOCK_KEY = 727_001;

export async function openDatabase(options: OpenOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openSqlite(options.sqlitePath ?? 'data/site.db', options);
}

/**
 * The SQLite file holds clients' messages and the identity service's hashes: readable by this user
 * only (0600), in a folder of its own (0700 when the server creates it). SQLite gives the -wal and
 * -shm files the database file's mode; those an older install left are narrowed too.
 */
function keepPrivate(path: string) {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
}

function openSqlite(path: string, options: OpenOptions): Database {
  if (path !== ':memory:' && path !== '') keepPrivate(path);
  const client = new BetterSqlite3(path);
  client.pragma('journal_mode = WAL');
  // FULL: a booking that got its 201 survives a power cut, not only a process crash.
  client.pragma('synchronous = FULL');
  client.pragma('busy_timeout = 5000');
  client.pragma('foreign_keys = ON');
  reuseStatements(client);
  const db = drizzleSqlite(client, { schema: sqliteSchema });
  if (options.migrate !== false) migrateSqlite(db, { migrationsFolder: migrationsDir('sqlite') });
  return {
    dialect: 'sqlite',
    db: db as unknown as Db,
    t: sqliteSchema as unknown as Tables,
    label: `sqlite:${path}`,
    async ping() {
      client.prepare('select 1').get();
    },
    async close() {
      if (client.open) client.close();
    },
  };
}

async function openPostgres(url: string, options: OpenOptions): Promise<Database> {
  // Pipeline mode: a checked-out client sends queries without waiting for the one before (one round
  // trip for a whole transaction, db/transactions.ts); one query at a time behaves as before.
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, pipeline: true });
  // An idle client's network error must not crash the process; the next query reports it.
  pool.on('error', (err) => console.error(JSON.stringify({ level: 'error', msg: 'postgres pool error', err: err.message })));
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
        await migratePg(drizzlePg(client), { migrationsFolder: migrationsDir('pg') });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      }
    }
  } finally {
    client.release();
  }
  const db = drizzlePg(pool, { schema: pgSchema });
  return {
    dialect: 'postgres',
    db,
    t: pgSchema,
    label: `postgres:${where}`,
    pgPool: pool,
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      await pool.end();
    },
  };
}

/** host:port/database, never the password. */
export function describePostgres(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}
