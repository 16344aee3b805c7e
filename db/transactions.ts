/**
 * Writes that must commit together, and SQLite's group commit (docs/decisions/008 and 010).
 *
 * `inTransaction` runs the statements `build` makes, in order, in ONE transaction, and returns each
 * one's rows: all of them commit or none does. The exception to decision 002's "no multi-statement
 * transactions", recorded in decision 008. better-sqlite3 transactions are synchronous, so the
 * statements are built first and then run inside it; IMMEDIATE takes the write lock at BEGIN, so a
 * writer in another process waits (busy_timeout) rather than failing half-way. PostgreSQL runs them
 * on one pooled client. Every statement must have a `returning` clause (SQLite's `.all()` needs rows).
 *
 * `atomically` is the same promise, and the way to write on a hot path. On SQLite, synchronous = FULL
 * makes every commit wait for the disk (decision 002), and better-sqlite3 waits with the event loop
 * blocked, so one transaction per write caps writes at one fsync each and stalls every other request
 * meanwhile. The writes that arrive in the same event-loop turn, from any repository, therefore share
 * one IMMEDIATE transaction, each inside its own savepoint: one that fails (a refused slot claim, say)
 * rolls back to its savepoint alone, the others commit together, with one fsync, and none is answered
 * before that commit. PostgreSQL groups concurrent commits itself, so there it is `inTransaction`.
 */
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type { Database, Db } from './client.ts';

export type Results<T extends readonly unknown[]> = { -readonly [K in keyof T]: Awaited<T[K]> };
export type Build<T extends readonly PromiseLike<unknown>[]> = (tx: Db) => [...T];
/**
 * One statement that another part of a request adds to a repository's transaction, so it commits
 * with the request's rows or not at all (the answer kept under an Idempotency-Key, decision 016).
 */
export type Write = (tx: Db) => PromiseLike<unknown>;

/** better-sqlite3 runs statements synchronously: `.all()` executes and returns the rows (`returning`). */
const runNow = <T extends readonly PromiseLike<unknown>[]>(tx: unknown, build: Build<T>) =>
  build(tx as Db).map((statement) => (statement as unknown as { all(): unknown }).all()) as Results<T>;

export async function inTransaction<T extends readonly PromiseLike<unknown>[]>(database: Database, build: Build<T>): Promise<Results<T>> {
  const { dialect, db } = database;
  if (dialect === 'sqlite') return (db as unknown as BetterSQLite3Database).transaction((tx) => runNow(tx, build), { behavior: 'immediate' });
  // One statement is a transaction of its own in PostgreSQL: sent alone, it takes one round trip
  // instead of three (BEGIN, the statement, COMMIT) and holds no pooled client in between.
  // (Drizzle's statements run when awaited: building them here and again on the transaction runs nothing.)
  const statements = build(db);
  if (statements.length === 1) return [await statements[0]] as Results<T>;
  return database.pipelined!(build);
}

type Job = { build: Build<PromiseLike<unknown>[]>; resolve(rows: unknown[]): void; reject(err: unknown): void };
type Committer = <T extends readonly PromiseLike<unknown>[]>(build: Build<T>) => Promise<Results<T>>;

function sqliteGroupCommit(db: Db): Committer {
  const sqlite = db as unknown as BetterSQLite3Database;
  let pending: Job[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    const outcomes: ({ rows: unknown[] } | { error: unknown })[] = [];
    try {
      sqlite.transaction(
        (tx) => {
          for (const job of batch) {
            try {
              outcomes.push({ rows: tx.transaction((savepoint) => runNow(savepoint, job.build)) });
            } catch (error) {
              outcomes.push({ error });
            }
          }
        },
        { behavior: 'immediate' },
      );
    } catch (error) {
      // BEGIN or COMMIT failed (locked past busy_timeout, disk error): nothing of the batch is stored.
      for (const job of batch) job.reject(error);
      return;
    }
    batch.forEach((job, i) => {
      const outcome = outcomes[i]!;
      if ('rows' in outcome) job.resolve(outcome.rows);
      else job.reject(outcome.error);
    });
  };
  return <T extends readonly PromiseLike<unknown>[]>(build: Build<T>) =>
    new Promise<Results<T>>((resolve, reject) => {
      if (pending.push({ build: build as unknown as Job['build'], resolve: resolve as (rows: unknown[]) => void, reject }) === 1) setImmediate(flush);
    });
}

/** One group-commit queue per open SQLite database, shared by every repository that writes to it. */
const committers = new WeakMap<object, Committer>();

export function atomically<T extends readonly PromiseLike<unknown>[]>(database: Database, build: Build<T>): Promise<Results<T>> {
  if (database.dialect !== 'sqlite') return inTransaction(database, build);
  let commit = committers.get(database.db);
  if (!commit) committers.set(database.db, (commit = sqliteGroupCommit(database.db)));
  return commit(build);
}
