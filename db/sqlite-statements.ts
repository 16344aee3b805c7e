/**
 * Prepared statements kept by their SQL text, for the embedded SQLite database. Drizzle prepares
 * every query afresh; for better-sqlite3 that is a compile of the SQL each time, about a sixth of a
 * booking's CPU (measured with `BENCH_PROFILE`, bench/booking.ts). The same SQL text is now compiled
 * once and run again with new parameters.
 *
 * A compiled statement is shared by every query with the same text, so it cannot carry a query's own
 * state. Drizzle asks some of them for rows as arrays (`raw()`). Each `prepare` therefore returns a
 * small facade that remembers that choice and sets it on the shared statement right before running,
 * in the same synchronous call.
 */
import type BetterSqlite3 from 'better-sqlite3';

/** Distinct SQL texts kept (the app has a few hundred; anything past this is compiled afresh as before). */
const MAX_STATEMENTS = 1000;

type Statement = BetterSqlite3.Statement<unknown[]>;

function facade(statement: Statement) {
  let raw = false;
  const self = {
    get reader() {
      return statement.reader;
    },
    raw(on = true) {
      raw = on;
      return self;
    },
    run: (...params: unknown[]) => statement.run(...params),
    all: (...params: unknown[]) => (statement.reader ? statement.raw(raw) : statement).all(...params),
    get: (...params: unknown[]) => (statement.reader ? statement.raw(raw) : statement).get(...params),
    iterate: (...params: unknown[]) => (statement.reader ? statement.raw(raw) : statement).iterate(...params),
    columns: () => statement.columns(),
  };
  return self;
}

/** Makes `client.prepare` (as Drizzle and this app call it) reuse compiled statements. */
export function reuseStatements(client: BetterSqlite3.Database): void {
  const compile = client.prepare.bind(client) as (source: string) => Statement;
  const kept = new Map<string, Statement>();
  const prepare = (source: string) => {
    let statement = kept.get(source);
    if (!statement) {
      statement = compile(source);
      if (kept.size < MAX_STATEMENTS) kept.set(source, statement);
    }
    return facade(statement);
  };
  Object.defineProperty(client, 'prepare', { value: prepare, configurable: true });
}
