import Sqlite from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { databaseRefusal, databaseUnavailable, isUniqueViolation } from './driver-errors.ts';

/** What better-sqlite3 throws through Drizzle, for real: an in-memory database refusing a statement (so changing nothing). */
const sqlite = drizzle(new Sqlite(':memory:'));
sqlite.run(sql`pragma foreign_keys = on`);
sqlite.run(sql`create table runs (id integer primary key, state text, parent integer references runs(id), size integer check (size > 0))`);
sqlite.run(sql`create unique index runs_one_running on runs (state) where state = 'running'`);
sqlite.run(sql`create table pairs (a text, b text, unique (a, b))`);
sqlite.run(sql`insert into runs (id, state) values (1, 'running')`);
sqlite.run(sql`insert into pairs values ('x', 'y')`);

function sqliteRefusal(statement: string): unknown {
  try {
    sqlite.run(sql.raw(statement));
  } catch (err) {
    return err;
  }
  throw new Error(`SQLite accepted: ${statement}`);
}

/** What node-postgres throws through Drizzle: its DatabaseError (as the protocol parser fills it), as the cause. */
function pgRefusal(code: string, constraint?: string): unknown {
  const driver = new pg.DatabaseError('duplicate key value violates unique constraint', 100, 'error');
  driver.code = code;
  driver.constraint = constraint;
  return new DrizzleQueryError('insert into "runs" ...', [], driver);
}

describe('databaseRefusal', () => {
  it('reads SQLite refusals through Drizzle’s wrapper', () => {
    expect(databaseRefusal(sqliteRefusal('insert into runs (id) values (1)'))).toEqual({
      kind: 'unique',
      code: 'SQLITE_CONSTRAINT_PRIMARYKEY',
      constraint: undefined,
      message: 'UNIQUE constraint failed: runs.id',
    });
    expect(databaseRefusal(sqliteRefusal("insert into runs (id, state) values (2, 'running')"))).toMatchObject({
      kind: 'unique',
      code: 'SQLITE_CONSTRAINT_UNIQUE',
    });
    expect(databaseRefusal(sqliteRefusal('insert into runs (id, parent) values (2, 99)'))?.kind).toBe('foreign-key');
    expect(databaseRefusal(sqliteRefusal('insert into runs (id, size) values (2, 0)'))?.kind).toBe('invalid-value');
  });

  it('reads PostgreSQL refusals by SQLSTATE, with the constraint’s name', () => {
    expect(databaseRefusal(pgRefusal('23505', 'runs_pkey'))).toEqual({
      kind: 'unique',
      code: '23505',
      constraint: 'runs_pkey',
      message: 'duplicate key value violates unique constraint',
    });
    expect(databaseRefusal(pgRefusal('23503'))?.kind).toBe('foreign-key');
    for (const code of ['23514', '22003', '22P02', '22008', '22009']) expect(databaseRefusal(pgRefusal(code))?.kind, code).toBe('invalid-value');
    for (const code of ['22021', '22P05']) expect(databaseRefusal(pgRefusal(code))?.kind, code).toBe('unstorable-text');
  });

  it('finds the driver’s error a few wrappers deep, and no deeper than five', () => {
    const driver = Object.assign(new Error('refused'), { code: '23505', constraint: 'runs_pkey' });
    const wrapped = (depth: number): unknown => (depth === 0 ? driver : new Error('wrapper', { cause: wrapped(depth - 1) }));
    expect(databaseRefusal(driver)?.constraint).toBe('runs_pkey');
    expect(databaseRefusal(wrapped(4))?.constraint).toBe('runs_pkey');
    expect(databaseRefusal(wrapped(5))).toBeNull();
  });

  it('is null for anything else: other codes, lost connections, non-errors, a cycle of causes', () => {
    expect(databaseRefusal(pgRefusal('40001'))).toBeNull();
    expect(databaseRefusal(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBeNull();
    expect(databaseRefusal(new Error('plain'))).toBeNull();
    for (const value of [null, undefined, '23505', 23505, { code: 23505 }]) expect(databaseRefusal(value)).toBeNull();
    const loop: { cause?: unknown } = {};
    loop.cause = loop;
    expect(databaseRefusal(loop)).toBeNull();
  });

  it('takes the outermost refusal when a wrapper carries a code of its own', () => {
    const outer = Object.assign(new Error('outer'), { code: 'SQLITE_CONSTRAINT_UNIQUE', cause: pgRefusal('23503') });
    expect(databaseRefusal(outer)?.kind).toBe('unique');
  });
});

describe('isUniqueViolation', () => {
  const running = { pg: 'runs_one_running', sqlite: 'runs.state' };

  it('names the index: by its name in PostgreSQL, by its columns in SQLite', () => {
    expect(isUniqueViolation(pgRefusal('23505', 'runs_one_running'), running)).toBe(true);
    expect(isUniqueViolation(sqliteRefusal("insert into runs (id, state) values (2, 'running')"), running)).toBe(true);
    // A primary key is a unique index too (SQLite gives it a code of its own).
    expect(isUniqueViolation(sqliteRefusal('insert into runs (id) values (1)'), { pg: 'runs_pkey', sqlite: 'runs.id' })).toBe(true);
    expect(isUniqueViolation(sqliteRefusal("insert into pairs values ('x', 'y')"), { pg: 'pairs_a_b_unique', sqlite: 'pairs.a, pairs.b' })).toBe(true);
  });

  it('is false for another index, another refusal, or a column name the message only starts with', () => {
    expect(isUniqueViolation(pgRefusal('23505', 'runs_pkey'), running)).toBe(false);
    expect(isUniqueViolation(sqliteRefusal('insert into runs (id) values (1)'), running)).toBe(false);
    expect(isUniqueViolation(pgRefusal('23503', 'runs_one_running'), running)).toBe(false);
    expect(isUniqueViolation(sqliteRefusal('insert into runs (id, parent) values (2, 99)'), running)).toBe(false);
    expect(isUniqueViolation(sqliteRefusal("insert into pairs values ('x', 'y')"), { pg: 'x', sqlite: 'pairs.a' })).toBe(false);
    expect(isUniqueViolation(new Error('UNIQUE constraint failed: runs.state'), running)).toBe(false);
  });
});

describe('databaseUnavailable', () => {
  it("names a lost connection: PostgreSQL's shutdown and connection codes, a socket torn down", () => {
    for (const code of ['57P01', '57P02', '57P03', '08006', '08003']) expect(databaseUnavailable(pgRefusal(code)), code).toBe('connection');
    expect(databaseUnavailable(new DrizzleQueryError('select 1', [], new Error('Connection terminated unexpectedly')))).toBe('connection');
    expect(databaseUnavailable(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe('connection');
  });

  it('names a full disk on either database', () => {
    expect(databaseUnavailable(pgRefusal('53100'))).toBe('disk-full');
    expect(databaseUnavailable(new DrizzleQueryError('insert', [], Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })))).toBe(
      'disk-full',
    );
  });

  it('is null for a refusal, a bug, or a message that only resembles one', () => {
    expect(databaseUnavailable(pgRefusal('23505'))).toBe(null);
    expect(databaseUnavailable(sqliteRefusal('insert into runs (id) values (1)'))).toBe(null);
    expect(databaseUnavailable(new TypeError('x is undefined'))).toBe(null);
    expect(databaseUnavailable(new Error('Connection terminated by the client on purpose'))).toBe(null);
  });
});
