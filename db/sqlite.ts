/**
 * The embedded SQLite database (db/client.ts chooses it when no DATABASE_URL is given). Loaded only
 * then: a container on PostgreSQL never loads better-sqlite3 or the SQLite schema.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { type Database, type Db, migrationsDir, type OpenOptions, type Tables } from './client.ts';
import * as sqliteSchema from './schema/sqlite.ts';
import { reuseStatements } from './sqlite-statements.ts';

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

export function openSqlite(path: string, options: OpenOptions): Database {
  if (path !== ':memory:' && path !== '') keepPrivate(path);
  const client = new BetterSqlite3(path);
  client.pragma('journal_mode = WAL');
  // FULL: a booking that got its 201 survives a power cut, not only a process crash.
  client.pragma('synchronous = FULL');
  client.pragma('busy_timeout = 5000');
  client.pragma('foreign_keys = ON');
  reuseStatements(client);
  const db = drizzle(client, { schema: sqliteSchema });
  if (options.migrate !== false) migrate(db, { migrationsFolder: migrationsDir('sqlite') });
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
