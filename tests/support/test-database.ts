/**
 * A real database per test file, in each dialect: SQLite in a temporary file, PostgreSQL in a database
 * of its own created on TEST_DATABASE_URL's server and dropped afterwards, so runs never collide.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
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
  const name = `firm_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(
      `The PostgreSQL half of the suite needs a server: TEST_DATABASE_URL=${testDatabaseUrl} refused (${(err as Error).message}). ` +
        'Start PostgreSQL, or point TEST_DATABASE_URL at one (user with CREATEDB).',
    );
  }
  await admin.query(`create database ${name}`);
  await admin.end();
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
