/**
 * Opens the database the site runs on: PostgreSQL when a URL is given (DATABASE_URL), otherwise the
 * embedded SQLite file. Applies pending migrations on open. Both dialects are exposed through one
 * typed handle (`db`, `t`) so repositories are written once; see docs/decisions/002-two-dialects.md
 * for the subset of Drizzle they may use.
 */
import { fileURLToPath } from 'node:url';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type * as pgSchema from './schema/pg.ts';
import type { Build, Results } from './transactions.ts';

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
  /**
   * PostgreSQL only: the statements `build` makes, in one transaction sent in one round trip
   * (db/postgres.ts). db/transactions.ts's inTransaction is the way to call it.
   */
  pipelined?<T extends readonly PromiseLike<unknown>[]>(build: Build<T>): Promise<Results<T>>;
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

export const migrationsDir = (dialect: 'sqlite' | 'pg') => fileURLToPath(new URL(`./migrations/${dialect}`, import.meta.url));
/** Any fixed number: serialises migrations when several API containers start at once. */
export const MIGRATION_LOCK_KEY = 727_001;

export async function openDatabase(options: OpenOptions): Promise<Database> {
  // Each dialect's driver, Drizzle adapter and schema are loaded only when chosen.
  if (options.databaseUrl) return (await import('./postgres.ts')).openPostgres(options.databaseUrl, options);
  return (await import('./sqlite.ts')).openSqlite(options.sqlitePath ?? 'data/site.db', options);
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
