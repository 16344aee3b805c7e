/**
 * What the database refused, read from either driver's error. Drizzle wraps the driver's error (a
 * DrizzleError or DrizzleQueryError with it as `cause`), so the cause chain is walked.
 * node-postgres' DatabaseError carries the SQLSTATE code and the constraint's name; better-sqlite3's
 * SqliteError an extended SQLITE_CONSTRAINT_* code and a message that names the table's columns
 * ("UNIQUE constraint failed: idempotency_keys.key"), never the constraint.
 */

export type RefusalKind = 'unique' | 'foreign-key' | 'invalid-value' | 'unstorable-text';

const kindOfCode: Record<string, RefusalKind> = {
  '23505': 'unique',
  SQLITE_CONSTRAINT_UNIQUE: 'unique',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'unique',
  '23503': 'foreign-key',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'foreign-key',
  '23514': 'invalid-value',
  SQLITE_CONSTRAINT_CHECK: 'invalid-value',
  // 22003 a number out of range, 22P02 text that is not a number, 22008/22009 a date PostgreSQL
  // cannot hold (year 0, year 10000...). The validators refuse these first.
  '22003': 'invalid-value',
  '22P02': 'invalid-value',
  '22008': 'invalid-value',
  '22009': 'invalid-value',
  // 22021/22P05: text PostgreSQL cannot store (a NUL character); refused by the validators first.
  '22021': 'unstorable-text',
  '22P05': 'unstorable-text',
};

export interface Refusal {
  kind: RefusalKind;
  /** The driver's own code: '23505', 'SQLITE_CONSTRAINT_UNIQUE'... */
  code: string;
  /** PostgreSQL only: the name of the constraint or index that refused. */
  constraint: string | undefined;
  message: string;
}

/** How many wrappers deep the driver's error may be (Drizzle adds one). */
const MAX_DEPTH = 5;

/** The refusal in err's cause chain, or null when err is not one (a lost connection, a bug...). */
export function databaseRefusal(err: unknown): Refusal | null {
  let e = err;
  for (let depth = 0; e !== null && typeof e === 'object' && depth < MAX_DEPTH; depth++) {
    const { code, constraint, message, cause } = e as { code?: unknown; constraint?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && Object.hasOwn(kindOfCode, code)) {
      return { kind: kindOfCode[code]!, code, constraint: typeof constraint === 'string' ? constraint : undefined, message: String(message ?? '') };
    }
    e = cause;
  }
  return null;
}

/**
 * One unique index (or primary key) refused a second row; any other refusal is not this one.
 * `pg` is its name in PostgreSQL; `sqlite` the columns SQLite's message names instead, as it names
 * them ("table.column", or "table.a, table.b" for several).
 */
export function isUniqueViolation(err: unknown, index: { pg: string; sqlite: string }): boolean {
  const refusal = databaseRefusal(err);
  if (refusal?.kind !== 'unique') return false;
  if (!refusal.code.startsWith('SQLITE_')) return refusal.constraint === index.pg;
  return /constraint failed: (.*)$/.exec(refusal.message)?.[1] === index.sqlite;
}

/**
 * Why the database could not be reached or written for a moment, when that is what err says:
 * 'connection' for a connection lost or refused (PostgreSQL's class 08, an administrator's or a
 * crash's shutdown 57P01-57P03, a socket reset), 'disk-full' for a full disk (PostgreSQL's 53100,
 * SQLite's SQLITE_FULL). Either passes; null for anything else.
 */
export function databaseUnavailable(err: unknown): 'connection' | 'disk-full' | null {
  let e = err;
  for (let depth = 0; e !== null && typeof e === 'object' && depth < MAX_DEPTH; depth++) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (code === '53100' || code === 'SQLITE_FULL') return 'disk-full';
    if (typeof code === 'string' && (code.startsWith('08') || /^57P0[123]$/.test(code) || ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT'].includes(code)))
      return 'connection';
    if (
      typeof message === 'string' &&
      /^(Connection terminated( unexpectedly| due to connection timeout)?|Client has encountered a connection error and is not queryable)$/.test(message)
    )
      return 'connection';
    e = cause;
  }
  return null;
}
