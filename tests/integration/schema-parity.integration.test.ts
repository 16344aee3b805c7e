/**
 * db/schema/model.ts defines every table once and pg.ts / sqlite.ts build it (docs/decisions/019), so
 * the two schema files cannot disagree. What can still diverge lies below them, and is checked here:
 * - a schema file changed without `npm run db:generate`: its migrations no longer produce it;
 * - the migrated databases themselves: a migration edited or added by hand in one dialect, or a dialect
 *   storing a kind differently from decision 002. Both real databases are introspected, reduced to one
 *   description (columns with kind, nullability and default; primary key, uniques, indexes, foreign
 *   keys, CHECKs) and compared, one line per difference;
 * - that this comparison sees such drift at all: the same databases, altered, must differ.
 */
import { readFileSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { generateDrizzleJson, generateSQLiteDrizzleJson } from 'drizzle-kit/api';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Kind, kinds } from '../../db/schema/kit.ts';
import * as model from '../../db/schema/model.ts';
import * as pgSchema from '../../db/schema/pg.ts';
import * as sqliteSchema from '../../db/schema/sqlite.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

interface TableDescription {
  /** type: the model's kind when the dialect stores it as decision 002 says, else `<dialect>:<type>`. */
  columns: Record<string, { type: string; nullable: boolean; default: string | null }>;
  primaryKey: string[];
  /** Unique constraints and unique indexes (the primary key excluded), each as its sorted column set. */
  unique: string[];
  /** Non-unique indexes, "name(a,b)" with columns in index order. */
  indexes: string[];
  foreignKeys: string[];
  /** CHECK constraints by name: the columns they read and the literals they compare with. */
  checks: Record<string, string>;
}
type SchemaDescription = Record<string, TableDescription>;

/** Drizzle's bookkeeping, not part of the model. */
const MIGRATIONS_TABLE = '__drizzle_migrations';

/** How each dialect stores each kind (decision 002). */
const STORAGE: Record<'sqlite' | 'pg', Record<Kind, string>> = {
  sqlite: { text: 'text', integer: 'integer', boolean: 'integer', timestamp: 'integer', money: 'text', identity: 'integer' },
  pg: { text: 'text', integer: 'integer', boolean: 'boolean', timestamp: 'timestamp with time zone', money: 'numeric(12,2)', identity: 'integer' },
};
const modelKinds = kinds(model);
const logicalType = (dialect: 'sqlite' | 'pg', table: string, column: string, stored: string) => {
  const kind = modelKinds[table]?.[column];
  return kind && STORAGE[dialect][kind] === stored.toLowerCase() ? kind : `${dialect}:${stored}`;
};

const NOW_PATTERN = /\bnow\s*\(|current_timestamp|unixepoch\s*\(/i;

/** One form for a column default of either dialect: null, 'now', 'true' / 'false', a number, a JSON string, or 'expr:<raw>'. */
function normaliseDefault(raw: string | null, type: string): string | null {
  if (raw === null) return null;
  // PostgreSQL annotates literals with casts ('admin'::text); SQLite may keep outer parentheses.
  let value = raw.trim().replace(/::[a-z ]+(\(\d+(,\s*\d+)?\))?$/i, '');
  while (/^\(.*\)$/s.test(value) && balanced(value.slice(1, -1))) value = value.slice(1, -1).trim();
  if (NOW_PATTERN.test(value)) return 'now';
  if (type === 'boolean' && /^'?(true|false|1|0)'?$/i.test(value)) return /^'?(true|1)'?$/i.test(value) ? 'true' : 'false';
  if (/^-?\d+(\.\d+)?$/.test(value)) return String(Number(value));
  const quoted = /^'(.*)'$/s.exec(value);
  if (quoted) return JSON.stringify(quoted[1]!.replace(/''/g, "'"));
  return `expr:${value}`;
}

function balanced(text: string): boolean {
  let depth = 0;
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

/**
 * What a CHECK is about, comparable across dialects: `"t"."rating" between 1 and 5` (SQLite) and
 * `CHECK (((rating >= 1) AND (rating <= 5)))` (PostgreSQL) both read rating and compare with 1 and 5.
 */
function checkSignature(expression: string, columns: readonly string[]): string {
  const strings: string[] = [];
  let rest = expression.replace(/'((?:[^']|'')*)'/g, (_, s: string) => {
    strings.push(JSON.stringify(s.replace(/''/g, "'")));
    return ' ';
  });
  const identifiers: string[] = [];
  rest = rest.replace(/"((?:[^"]|"")*)"|`([^`]*)`/g, (_, dq: string | undefined, bq: string | undefined) => {
    identifiers.push((dq ?? bq ?? '').replace(/""/g, '"'));
    return ' ';
  });
  identifiers.push(...(rest.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []));
  const numbers = (rest.match(/(?<![\w.])\d+(\.\d+)?(?![\w.])/g) ?? []).map((n) => String(Number(n)));
  const read = [...new Set(identifiers.filter((id) => columns.includes(id)))].sort();
  return `reads (${read.join(', ')}) compares with [${[...strings, ...numbers].sort().join(', ')}]`;
}

/** The named CHECK constraints of a SQLite CREATE TABLE statement. */
function sqliteChecks(createSql: string): Array<{ name: string; expression: string }> {
  const found: Array<{ name: string; expression: string }> = [];
  const pattern = /(?:\bconstraint\s+(?:"((?:[^"]|"")+)"|`([^`]+)`|([A-Za-z_][\w$]*))\s+)?\bcheck\s*\(/gi;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(createSql))) {
    let depth = 1;
    let quote: string | null = null;
    let i = pattern.lastIndex;
    for (; i < createSql.length && depth > 0; i++) {
      const ch = createSql[i]!;
      if (quote) {
        if (ch === quote) quote = null;
      } else if (ch === "'" || ch === '"' || ch === '`') quote = ch;
      else if (ch === '(') depth++;
      else if (ch === ')') depth--;
    }
    const name = match[1]?.replace(/""/g, '"') ?? match[2] ?? match[3] ?? `(unnamed check #${found.length + 1})`;
    found.push({ name, expression: createSql.slice(pattern.lastIndex, i - 1).trim() });
    pattern.lastIndex = i;
  }
  return found;
}

const describeFk = (columns: readonly string[], refTable: string, refColumns: readonly string[], onDelete: string, onUpdate: string) =>
  `${columns.join(',')} -> ${refTable}(${refColumns.join(',')}) on delete ${onDelete.toLowerCase()} on update ${onUpdate.toLowerCase()}`;
const uniqueSet = (columns: readonly string[], partial: boolean) => [...columns].sort().join(',') + (partial ? ' where …' : '');
const sortedUnique = (values: string[]) => [...new Set(values)].sort();

// ---------------------------------------------------------------------------------------------
// Introspection of the real databases
// ---------------------------------------------------------------------------------------------

function describeSqlite(path: string): SchemaDescription {
  const client = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  const rows = <T>(query: string, ...params: unknown[]) => client.prepare(query).all(...params) as T[];
  try {
    const schema: SchemaDescription = {};
    const tables = rows<{ name: string; sql: string }>(
      `select name, sql from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' and name <> ? order by name`,
      MIGRATIONS_TABLE,
    );
    for (const { name: table, sql } of tables) {
      const info = rows<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(`select * from pragma_table_info(?)`, table);
      const columns: TableDescription['columns'] = {};
      for (const col of info) {
        const type = logicalType('sqlite', table, col.name, col.type);
        columns[col.name] = { type, nullable: col.notnull === 0, default: normaliseDefault(col.dflt_value, type) };
      }
      const unique: string[] = [];
      const indexes: string[] = [];
      for (const index of rows<{ name: string; unique: number; origin: string; partial: number }>(`select * from pragma_index_list(?)`, table)) {
        if (index.origin === 'pk') continue;
        const cols = rows<{ name: string | null }>(`select * from pragma_index_info(?) order by seqno`, index.name).map((c) => c.name ?? '<expression>');
        if (index.unique) unique.push(uniqueSet(cols, index.partial === 1));
        else indexes.push(`${index.name}(${cols.join(',')})${index.partial ? ' where …' : ''}`);
      }
      const fks = rows<{ id: number; table: string; from: string; to: string; on_update: string; on_delete: string }>(
        `select * from pragma_foreign_key_list(?) order by id, seq`,
        table,
      );
      const foreignKeys = [...new Set(fks.map((r) => r.id))].map((id) => {
        const parts = fks.filter((r) => r.id === id);
        return describeFk(
          parts.map((r) => r.from),
          parts[0]!.table,
          parts.map((r) => r.to),
          parts[0]!.on_delete,
          parts[0]!.on_update,
        );
      });
      const checks = Object.fromEntries(sqliteChecks(sql).map((c) => [c.name, checkSignature(c.expression, Object.keys(columns))]));
      schema[table] = {
        columns,
        primaryKey: info
          .filter((c) => c.pk > 0)
          .sort((a, b) => a.pk - b.pk)
          .map((c) => c.name),
        unique: sortedUnique(unique),
        indexes: sortedUnique(indexes),
        foreignKeys: sortedUnique(foreignKeys),
        checks,
      };
    }
    return schema;
  } finally {
    client.close();
  }
}

const ACTION_CODES: Record<string, string> = { a: 'no action', r: 'restrict', c: 'cascade', n: 'set null', d: 'set default' };
/** The column names of an int2vector / attnum array, in order. */
const columnNames = (attnums: string, relation: string) =>
  `array(select a.attname::text from unnest(${attnums}) with ordinality k(attnum, ord)
           join pg_attribute a on a.attrelid = ${relation} and a.attnum = k.attnum order by k.ord)`;

async function describePostgres(url: string): Promise<SchemaDescription> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const rows = async <T extends pg.QueryResultRow>(query: string) => (await client.query<T>(query)).rows;
  try {
    const columnRows = await rows<{ table_name: string; column_name: string; type: string; nullable: boolean; column_default: string | null }>(
      `select c.relname as table_name, a.attname as column_name, format_type(a.atttypid, a.atttypmod) as type,
              not a.attnotnull as nullable, pg_get_expr(d.adbin, d.adrelid) as column_default
         from pg_attribute a
         join pg_class c on c.oid = a.attrelid
         join pg_namespace n on n.oid = c.relnamespace
         left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where n.nspname = 'public' and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
        order by c.relname, a.attnum`,
    );
    const constraints = await rows<{
      name: string;
      type: string;
      table_name: string;
      ref_table: string | null;
      columns: string[];
      ref_columns: string[];
      on_delete: string;
      on_update: string;
      definition: string;
    }>(
      `select c.conname as name, c.contype as type, rel.relname as table_name, frel.relname as ref_table,
              ${columnNames('c.conkey', 'c.conrelid')} as columns, ${columnNames('c.confkey', 'c.confrelid')} as ref_columns,
              c.confdeltype as on_delete, c.confupdtype as on_update, pg_get_constraintdef(c.oid) as definition
         from pg_constraint c
         join pg_class rel on rel.oid = c.conrelid
         join pg_namespace n on n.oid = rel.relnamespace
         left join pg_class frel on frel.oid = c.confrelid
        where n.nspname = 'public'`,
    );
    // Indexes that back a primary key or unique constraint are described by the constraint.
    const indexRows = await rows<{ name: string; table_name: string; is_unique: boolean; partial: boolean; columns: string[] }>(
      `select i.relname as name, t.relname as table_name, ix.indisunique as is_unique, ix.indpred is not null as partial,
              ${columnNames('ix.indkey::int2[]', 'ix.indrelid')} as columns
         from pg_index ix
         join pg_class i on i.oid = ix.indexrelid
         join pg_class t on t.oid = ix.indrelid
         join pg_namespace n on n.oid = t.relnamespace
        where n.nspname = 'public' and not ix.indisprimary
          and not exists (select 1 from pg_constraint c where c.conindid = ix.indexrelid and c.contype in ('p', 'u', 'x'))`,
    );
    const schema: SchemaDescription = {};
    for (const table of sortedUnique(columnRows.map((c) => c.table_name)).filter((t) => t !== MIGRATIONS_TABLE)) {
      const columns: TableDescription['columns'] = {};
      for (const col of columnRows.filter((c) => c.table_name === table)) {
        const type = logicalType('pg', table, col.column_name, col.type);
        columns[col.column_name] = { type, nullable: col.nullable, default: normaliseDefault(col.column_default, type) };
      }
      const own = (type: string) => constraints.filter((c) => c.table_name === table && c.type === type);
      const ownIndexes = indexRows.filter((i) => i.table_name === table);
      schema[table] = {
        columns,
        primaryKey: own('p')[0]?.columns ?? [],
        unique: sortedUnique([
          ...own('u').map((c) => uniqueSet(c.columns, false)),
          ...ownIndexes.filter((i) => i.is_unique).map((i) => uniqueSet(i.columns, i.partial)),
        ]),
        indexes: sortedUnique(ownIndexes.filter((i) => !i.is_unique).map((i) => `${i.name}(${i.columns.join(',')})${i.partial ? ' where …' : ''}`)),
        foreignKeys: sortedUnique(
          own('f').map((c) => describeFk(c.columns, c.ref_table ?? '?', c.ref_columns, ACTION_CODES[c.on_delete]!, ACTION_CODES[c.on_update]!)),
        ),
        checks: Object.fromEntries(own('c').map((c) => [c.name, checkSignature(c.definition, c.columns)])),
      };
    }
    return schema;
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------------------------

const show = (value: unknown) => (value === null ? 'none' : typeof value === 'string' ? value : JSON.stringify(value));

/** Every difference between the two descriptions, one readable line each; [] when they match. */
function diffSchemas(a: SchemaDescription, b: SchemaDescription, [nameA, nameB] = ['sqlite', 'postgres']): string[] {
  const lines: string[] = [];
  const setDiff = (table: string, what: string, left: readonly string[], right: readonly string[]) => {
    for (const item of left) if (!right.includes(item)) lines.push(`${table}: ${what} ${item} only in ${nameA}`);
    for (const item of right) if (!left.includes(item)) lines.push(`${table}: ${what} ${item} only in ${nameB}`);
  };
  for (const table of sortedUnique([...Object.keys(a), ...Object.keys(b)])) {
    const ta = a[table];
    const tb = b[table];
    if (!ta || !tb) {
      lines.push(`table ${table}: only in ${ta ? nameA : nameB}`);
      continue;
    }
    for (const column of sortedUnique([...Object.keys(ta.columns), ...Object.keys(tb.columns)])) {
      const ca = ta.columns[column];
      const cb = tb.columns[column];
      if (!ca || !cb) lines.push(`${table}.${column}: column only in ${ca ? nameA : nameB}`);
      else
        for (const key of ['type', 'nullable', 'default'] as const) {
          if (ca[key] !== cb[key]) lines.push(`${table}.${column}: ${key} ${nameA}=${show(ca[key])} ${nameB}=${show(cb[key])}`);
        }
    }
    if (ta.primaryKey.join(',') !== tb.primaryKey.join(',')) {
      lines.push(`${table}: primary key ${nameA}=(${ta.primaryKey.join(',')}) ${nameB}=(${tb.primaryKey.join(',')})`);
    }
    const parenthesised = (values: string[]) => values.map((u) => `(${u})`);
    setDiff(table, 'unique', parenthesised(ta.unique), parenthesised(tb.unique));
    setDiff(table, 'index', ta.indexes, tb.indexes);
    setDiff(table, 'foreign key', ta.foreignKeys, tb.foreignKeys);
    for (const check of sortedUnique([...Object.keys(ta.checks), ...Object.keys(tb.checks)])) {
      const xa = ta.checks[check];
      const xb = tb.checks[check];
      if (xa === undefined || xb === undefined) lines.push(`${table}: check ${check} only in ${xa === undefined ? nameB : nameA}`);
      else if (xa !== xb) lines.push(`${table}: check ${check} differs: ${nameA} ${xa}; ${nameB} ${xb}`);
    }
  }
  return lines;
}

/** Paths where two JSON values differ ("migration" = committed snapshot, "schema files" = current). */
function jsonDifferences(committed: unknown, current: unknown, path: string): string[] {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObject(committed) && isObject(current)) {
    return sortedUnique([...Object.keys(committed), ...Object.keys(current)]).flatMap((key) => {
      if (!(key in committed)) return [`${path}.${key}: only in the schema files`];
      if (!(key in current)) return [`${path}.${key}: only in the migration`];
      return jsonDifferences(committed[key], current[key], `${path}.${key}`);
    });
  }
  return JSON.stringify(committed) === JSON.stringify(current)
    ? []
    : [`${path}: migration ${JSON.stringify(committed)}, schema files ${JSON.stringify(current)}`];
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

describe('migrations are up to date with the schema files', () => {
  // The databases below are built by the migrations, so a schema edited without `npm run db:generate`
  // would slip past them. drizzle-kit's snapshot of each schema file must equal the last one committed
  // with its migrations (compared as data: drizzle-kit's own diff may prompt).
  const lastSnapshot = (dialect: 'sqlite' | 'pg') => {
    const meta = new URL(`../../db/migrations/${dialect}/meta/`, import.meta.url);
    const journal = JSON.parse(readFileSync(new URL('_journal.json', meta), 'utf8')) as { entries: Array<{ idx: number }> };
    const last = String(journal.entries.at(-1)!.idx).padStart(4, '0');
    return JSON.parse(readFileSync(new URL(`${last}_snapshot.json`, meta), 'utf8')) as Record<string, unknown>;
  };
  const drift = (committed: Record<string, unknown>, current: unknown, keys: string[]) => {
    const data = JSON.parse(JSON.stringify(current)) as Record<string, unknown>;
    return keys.flatMap((key) => jsonDifferences(committed[key], data[key], key)).join('\n');
  };

  it('SQLite: db/schema/sqlite.ts matches the last generated migration', async () => {
    const current = await generateSQLiteDrizzleJson(sqliteSchema);
    expect(drift(lastSnapshot('sqlite'), current, ['tables', 'views', 'enums']), 'run `npm run db:generate`').toBe('');
  });

  it('PostgreSQL: db/schema/pg.ts matches the last generated migration', () => {
    const current = generateDrizzleJson(pgSchema);
    const keys = ['tables', 'enums', 'schemas', 'sequences', 'roles', 'policies', 'views'];
    expect(drift(lastSnapshot('pg'), current, keys), 'run `npm run db:generate`').toBe('');
  });
});

describe('schema parity: SQLite and PostgreSQL after their migrations', () => {
  let sqliteDb: TestDatabase | undefined;
  let pgDb: TestDatabase | undefined;
  beforeAll(async () => {
    [sqliteDb, pgDb] = await Promise.all([createTestDatabase('sqlite'), createTestDatabase('postgres')]);
  });
  afterAll(async () => {
    await Promise.all([sqliteDb?.drop(), pgDb?.drop()]);
  });

  it('has every table of the model in both, each column stored as its kind', async () => {
    const [sqlite, postgres] = [describeSqlite(sqliteDb!.location), await describePostgres(pgDb!.location)];
    for (const schema of [sqlite, postgres]) {
      expect(Object.keys(schema).sort()).toEqual(Object.keys(modelKinds).sort());
      for (const [table, columns] of Object.entries(modelKinds)) {
        expect(Object.fromEntries(Object.entries(schema[table]!.columns).map(([name, c]) => [name, c.type])), table).toEqual(columns);
      }
    }
    // Something real was read, so an empty comparison below cannot pass by reading nothing.
    expect(postgres.external_blog_articles!.foreignKeys).toEqual(['source_id -> blog_sources(id) on delete cascade on update no action']);
    expect(Object.keys(sqlite.appointments!.checks).sort()).toEqual(['appointments_duration_positive', 'appointments_status_values']);
  });

  it('has the same tables, columns, nullability, defaults, keys, indexes and checks in both dialects', async () => {
    const diff = diffSchemas(describeSqlite(sqliteDb!.location), await describePostgres(pgDb!.location));
    expect(diff.join('\n'), `SQLite and PostgreSQL schemas differ in ${diff.length} place(s), listed under Received`).toBe('');
  });

  it('reports drift: a changed default, column, nullability, type, unique, index, foreign key and check', async () => {
    // The same throwaway databases, altered after migrating (never the migrations); this test runs last.
    const client = new pg.Client({ connectionString: pgDb!.location });
    await client.connect();
    try {
      await client.query(`
        alter table users alter column role set default 'editor';
        alter table users add column nickname text;
        alter table contact_submissions alter column phone set not null;
        alter table appointments alter column scheduled_date type timestamp;
        alter table probate_calculations alter column savings type numeric(14,2);
        alter table blog_posts drop constraint blog_posts_slug_unique;
        alter table testimonials drop constraint testimonials_rating_range;
        alter table testimonials add constraint testimonials_rating_range check (rating between 1 and 10);
        alter table email_settings drop constraint email_settings_provider_values;
        alter table external_blog_articles drop constraint external_blog_articles_source_id_blog_sources_id_fk;
        alter table external_blog_articles add constraint external_blog_articles_source_fk foreign key (source_id) references blog_sources(id);
        create index users_role_idx on users (role);
      `);
    } finally {
      await client.end();
    }
    const writable = new BetterSqlite3(sqliteDb!.location);
    writable.exec('drop index theme_settings_name_unique');
    writable.close();

    const diff = diffSchemas(describeSqlite(sqliteDb!.location), await describePostgres(pgDb!.location));
    expect([...diff].sort()).toEqual(
      [
        'users.role: default sqlite="admin" postgres="editor"',
        'users.nickname: column only in postgres',
        'users: index users_role_idx(role) only in postgres',
        'contact_submissions.phone: nullable sqlite=true postgres=false',
        'appointments.scheduled_date: type sqlite=timestamp postgres=pg:timestamp without time zone',
        'probate_calculations.savings: type sqlite=money postgres=pg:numeric(14,2)',
        'blog_posts: unique (slug) only in sqlite',
        'testimonials: check testimonials_rating_range differs: sqlite reads (rating) compares with [1, 5]; postgres reads (rating) compares with [1, 10]',
        'email_settings: check email_settings_provider_values only in sqlite',
        'external_blog_articles: foreign key source_id -> blog_sources(id) on delete cascade on update no action only in sqlite',
        'external_blog_articles: foreign key source_id -> blog_sources(id) on delete no action on update no action only in postgres',
        'theme_settings: unique (name) only in postgres',
      ].sort(),
    );
  });
});
