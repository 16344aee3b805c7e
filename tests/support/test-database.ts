/**
 * A real database per test file, in each dialect: SQLite in a temporary file, PostgreSQL in a database
 * of its own created on TEST_DATABASE_URL's server and dropped afterwards, so runs never collide.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { openDatabase, type Database, type Dialect } from '../../db/client.ts';

export const dialects: Dialect[] = ['sqlite', 'postgres'];

export const testDatabaseUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase extends Database {
  /** Closes and deletes the database. */
  drop(): Promise<void>;
  /** A URL (postgres) or file path (sqlite) a second process can open. */
  location: string;
}

export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const path = join(tmpdir(), `firm-test-${randomUUID()}.db`);
    const database = await openDatabase({ sqlitePath: path });
    return {
      ...database,
      location: path,
      async drop() {
        await database.close();
        for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
      },
    };
  }
  const name = await createMigratedDatabase();
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 20 });
  return {
    ...database,
    location: url.toString(),
    async drop() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: testDatabaseUrl });
      await cleanup.connect();
      // pool.end() returns before the server has let go of the backends; a forced drop would kill
      // them and the pool would report it. Wait (briefly) until the database has no sessions.
      for (let i = 0; i < 50; i++) {
        const { rows } = await cleanup.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

const migrationsDir = fileURLToPath(new URL('../../db/migrations/pg/', import.meta.url));
/** Serialises making the template across the suite's workers. */
const TEMPLATE_LOCK = 727_002;

/** The template's name: one per set of migrations, so a new migration makes a new template. */
function templateName(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrationsDir, { recursive: true, encoding: 'utf8' }).sort()) {
    if (file.endsWith('.sql') || file.endsWith('_journal.json')) hash.update(file).update(readFileSync(migrationsDir + file));
  }
  return `firm_test_template_${hash.digest('hex').slice(0, 12)}`;
}

async function connectAdmin(): Promise<pg.Client> {
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(
      `The PostgreSQL half of the suite needs a server: TEST_DATABASE_URL=${testDatabaseUrl} refused (${(err as Error).message}). ` +
        'Start PostgreSQL, or point TEST_DATABASE_URL at one (user with CREATEDB).',
    );
  }
  return admin;
}

/**
 * A new PostgreSQL database with every migration applied, copied from a template migrated once per
 * set of migrations (CREATE DATABASE ... TEMPLATE: a file copy, far quicker than migrating each
 * block's database). Returns its name. Templates of older migrations are dropped.
 */
export async function createMigratedDatabase(): Promise<string> {
  const name = `firm_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const template = templateName();
  const admin = await connectAdmin();
  try {
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [template]);
      if (!rowCount) {
        const { rows } = await admin.query<{ datname: string }>("select datname from pg_database where datname like 'firm\\_test\\_template\\_%'");
        for (const old of rows) await admin.query(`drop database if exists ${old.datname} with (force)`);
        await admin.query(`create database ${template}_building`);
        const url = new URL(testDatabaseUrl);
        url.pathname = `/${template}_building`;
        const building = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
        await building.close();
        await waitUntilUnused(admin, `${template}_building`);
        // Named once complete: a template that exists is a migrated one.
        await admin.query(`alter database ${template}_building rename to ${template}`);
      }
      await admin.query(`create database ${name} template ${template}`);
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  } finally {
    await admin.end();
  }
  return name;
}

/** pool.end() returns before the server has let go of the backends: wait (briefly) until none is left. */
async function waitUntilUnused(admin: pg.Client, database: string) {
  for (let i = 0; i < 100; i++) {
    const { rows } = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1', [database]);
    if (rows[0].n === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}
