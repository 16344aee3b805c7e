/**
 * The two dialects describe one data model (ARCHITECTURE Data, SPEC §3). Both real, migrated databases
 * are introspected, reduced to a logical description (tables, columns with logical type, nullability
 * and default, primary keys, unique column sets, indexes, foreign keys, CHECK constraints) and
 * compared; a failure prints every difference, one per line. The same descriptions are then checked
 * against the field list of SPEC §3. The comparison itself is unit-tested on hand-made descriptions
 * so a passing parity test cannot be a comparison that never fails.
 */
import { readFileSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { generateDrizzleJson, generateSQLiteDrizzleJson } from 'drizzle-kit/api';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as pgSchema from '../../db/schema/pg.ts';
import * as sqliteSchema from '../../db/schema/sqlite.ts';
import { firm } from '../../src/config/firm.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

// ---------------------------------------------------------------------------------------------
// Logical description
// ---------------------------------------------------------------------------------------------

/** text | integer | boolean | timestamp | decimal(p,s), or `sqlite:<type>` / `pg:<type>` for anything unmapped. */
type LogicalType = string;

export interface ColumnDescription {
  type: LogicalType;
  nullable: boolean;
  /** null (none), 'now', 'true' / 'false', a number ('30'), a JSON string ('"admin"'), or 'expr:<raw>'. */
  default: string | null;
}

export interface TableDescription {
  columns: Record<string, ColumnDescription>;
  primaryKey: string[];
  /** Unique constraints and unique indexes (the primary key excluded), each as its sorted column set "a,b". */
  unique: string[];
  /** Non-unique indexes, "name(a,b)" with columns in index order. */
  indexes: string[];
  /** "source_id -> blog_sources(id) on delete cascade on update no action". */
  foreignKeys: string[];
  /** CHECK constraints by name: the columns they read and the literals they compare with. */
  checks: Record<string, string>;
}

export type SchemaDescription = Record<string, TableDescription>;

/** Drizzle's bookkeeping, not part of the model. */
const MIGRATIONS_TABLE = '__drizzle_migrations';

/** SPEC §3: "all decimals, 12 digits, 2 decimal places". SQLite stores them as canonical text. */
const MONEY_COLUMNS: Record<string, readonly string[]> = {
  probate_calculations: ['estate_value', 'real_estate_value', 'attorney_fees', 'executor_fees', 'court_costs', 'total_probate', 'trust_cost', 'savings'],
};
const MONEY_TYPE = 'decimal(12,2)';

const isTimestampName = (column: string) => /_at$|_date$|_until$/.test(column) || column === 'last_fetched';
const isBooleanName = (column: string) => /^is_/.test(column) || ['reminder_sent', 'email_verified', 'enabled'].includes(column);

export function sqliteLogicalType(table: string, column: string, declared: string): LogicalType {
  const type = declared.trim().toLowerCase();
  if (type === 'text') return MONEY_COLUMNS[table]?.includes(column) ? MONEY_TYPE : 'text';
  if (type === 'integer') {
    if (isTimestampName(column)) return 'timestamp';
    if (isBooleanName(column)) return 'boolean';
    return 'integer';
  }
  return `sqlite:${type}`;
}

export function pgLogicalType(dataType: string, precision: number | null, scale: number | null): LogicalType {
  switch (dataType) {
    case 'text':
      return 'text';
    case 'integer':
      return 'integer';
    case 'boolean':
      return 'boolean';
    case 'timestamp with time zone':
      return 'timestamp';
    case 'numeric':
      return `decimal(${precision ?? '*'},${scale ?? '*'})`;
    default:
      return `pg:${dataType}`;
  }
}

const NOW_PATTERN = /\bnow\s*\(|current_timestamp|unixepoch\s*\(|strftime\s*\(|datetime\s*\(\s*'now'/i;

/** One normal form for a column default of either dialect (see ColumnDescription.default). */
export function normaliseDefault(raw: string | null | undefined, type: LogicalType): string | null {
  if (raw === null || raw === undefined) return null;
  let value = raw.trim();
  // PostgreSQL annotates literals with casts ('admin'::text, '5'::numeric); SQLite may keep outer parentheses.
  value = value.replace(/::[a-z ]+(\(\d+(,\s*\d+)?\))?(\[\])?$/i, '');
  while (/^\(.*\)$/s.test(value) && balanced(value.slice(1, -1))) value = value.slice(1, -1).trim();
  if (/^null$/i.test(value)) return null;
  if (NOW_PATTERN.test(value)) return 'now';
  if (type === 'boolean') {
    const unquoted = value.replace(/^'(.*)'$/, '$1').toLowerCase();
    if (unquoted === 'true' || unquoted === '1' || unquoted === 't') return 'true';
    if (unquoted === 'false' || unquoted === '0' || unquoted === 'f') return 'false';
  }
  if (/^-?\d+(\.\d+)?$/.test(value)) return String(Number(value));
  const quoted = /^'(.*)'$/s.exec(value);
  if (quoted) {
    const text = quoted[1]!.replace(/''/g, "'");
    // A numeric default written as a string literal on a numeric column ('0.00'::numeric) is a number.
    if (type !== 'text' && /^-?\d+(\.\d+)?$/.test(text)) return String(Number(text));
    return JSON.stringify(text);
  }
  if (/^(true|false)$/i.test(value)) return value.toLowerCase();
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
 * What a CHECK constraint is about, comparable across dialects: `"t"."rating" between 1 and 5` (SQLite)
 * and `CHECK (((rating >= 1) AND (rating <= 5)))` (PostgreSQL) both read rating and compare with 1 and 5.
 */
export function checkSignature(expression: string, columns: readonly string[]): string {
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
  const literals = [...strings, ...numbers].sort();
  return `reads (${read.join(', ')}) compares with [${literals.join(', ')}]`;
}

/** The CHECK constraints of a SQLite CREATE TABLE statement, with their names and expressions. */
export function sqliteChecks(createSql: string): Array<{ name: string; expression: string }> {
  const found: Array<{ name: string; expression: string }> = [];
  const pattern = /(?:\bconstraint\s+(?:"((?:[^"]|"")+)"|`([^`]+)`|([A-Za-z_][\w$]*))\s+)?\bcheck\s*\(/gi;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(createSql))) {
    const start = pattern.lastIndex;
    let depth = 1;
    let quote: string | null = null;
    let i = start;
    for (; i < createSql.length && depth > 0; i++) {
      const ch = createSql[i]!;
      if (quote) {
        if (ch === quote) quote = null;
      } else if (ch === "'" || ch === '"' || ch === '`') quote = ch;
      else if (ch === '(') depth++;
      else if (ch === ')') depth--;
    }
    const name = match[1]?.replace(/""/g, '"') ?? match[2] ?? match[3] ?? `(unnamed check #${found.length + 1})`;
    found.push({ name, expression: createSql.slice(start, i - 1).trim() });
    pattern.lastIndex = i;
  }
  return found;
}

const fkAction = (action: string) => action.trim().toLowerCase();
const describeFk = (columns: readonly string[], refTable: string, refColumns: readonly string[], onDelete: string, onUpdate: string) =>
  `${columns.join(',')} -> ${refTable}(${refColumns.join(',')}) on delete ${fkAction(onDelete)} on update ${fkAction(onUpdate)}`;
const uniqueSet = (columns: readonly string[]) => [...columns].sort().join(',');
const sortedUnique = (values: string[]) => [...new Set(values)].sort();

// ---------------------------------------------------------------------------------------------
// Introspection of the real databases
// ---------------------------------------------------------------------------------------------

export function describeSqlite(path: string): SchemaDescription {
  const client = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  try {
    const tables = client
      .prepare(`select name, sql from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' and name <> ? order by name`)
      .all(MIGRATIONS_TABLE) as Array<{ name: string; sql: string }>;
    const schema: SchemaDescription = {};
    for (const { name: table, sql } of tables) {
      const info = client.prepare(`select * from pragma_table_info(?)`).all(table) as Array<{
        name: string;
        type: string;
        notnull: number;
        dflt_value: string | null;
        pk: number;
      }>;
      const columns: Record<string, ColumnDescription> = {};
      for (const col of info) {
        const type = sqliteLogicalType(table, col.name, col.type);
        columns[col.name] = { type, nullable: col.notnull === 0, default: normaliseDefault(col.dflt_value, type) };
      }
      const primaryKey = info
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name);

      const unique: string[] = [];
      const indexes: string[] = [];
      const indexList = client.prepare(`select * from pragma_index_list(?)`).all(table) as Array<{
        name: string;
        unique: number;
        origin: string;
        partial: number;
      }>;
      for (const index of indexList) {
        if (index.origin === 'pk') continue;
        const cols = (client.prepare(`select * from pragma_index_info(?) order by seqno`).all(index.name) as Array<{ name: string | null }>).map(
          (c) => c.name ?? '<expression>',
        );
        const partial = index.partial ? ' where …' : '';
        if (index.unique) unique.push(uniqueSet(cols) + partial);
        else indexes.push(`${index.name}(${cols.join(',')})${partial}`);
      }

      const fkRows = client.prepare(`select * from pragma_foreign_key_list(?) order by id, seq`).all(table) as Array<{
        id: number;
        table: string;
        from: string;
        to: string;
        on_update: string;
        on_delete: string;
      }>;
      const foreignKeys: string[] = [];
      for (const id of new Set(fkRows.map((r) => r.id))) {
        const rows = fkRows.filter((r) => r.id === id);
        const first = rows[0]!;
        foreignKeys.push(
          describeFk(
            rows.map((r) => r.from),
            first.table,
            rows.map((r) => r.to),
            first.on_delete,
            first.on_update,
          ),
        );
      }

      const columnNames = Object.keys(columns);
      const checks: Record<string, string> = {};
      for (const check of sqliteChecks(sql)) checks[check.name] = checkSignature(check.expression, columnNames);

      schema[table] = { columns, primaryKey, unique: sortedUnique(unique), indexes: sortedUnique(indexes), foreignKeys: sortedUnique(foreignKeys), checks };
    }
    return schema;
  } finally {
    client.close();
  }
}

const ACTION_CODES: Record<string, string> = { a: 'no action', r: 'restrict', c: 'cascade', n: 'set null', d: 'set default' };

export async function describePostgres(url: string): Promise<SchemaDescription> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = (
      await client.query<{ table_name: string }>(
        `select table_name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> $1 order by table_name`,
        [MIGRATIONS_TABLE],
      )
    ).rows.map((r) => r.table_name);
    const columnRows = (
      await client.query<{
        table_name: string;
        column_name: string;
        data_type: string;
        is_nullable: 'YES' | 'NO';
        column_default: string | null;
        numeric_precision: number | null;
        numeric_scale: number | null;
      }>(
        `select table_name, column_name, data_type, is_nullable, column_default, numeric_precision, numeric_scale
           from information_schema.columns where table_schema = 'public' order by table_name, ordinal_position`,
      )
    ).rows;
    const constraints = (
      await client.query<{
        name: string;
        type: 'p' | 'u' | 'f' | 'c' | 'x' | 't' | 'n';
        table_name: string;
        ref_table: string | null;
        columns: string[];
        ref_columns: string[];
        on_delete: string;
        on_update: string;
        definition: string;
      }>(
        `select c.conname as name, c.contype as type, rel.relname as table_name, frel.relname as ref_table,
                array(select a.attname::text from unnest(c.conkey) with ordinality k(attnum, ord)
                        join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum order by k.ord) as columns,
                array(select a.attname::text from unnest(c.confkey) with ordinality k(attnum, ord)
                        join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.attnum order by k.ord) as ref_columns,
                c.confdeltype as on_delete, c.confupdtype as on_update, pg_get_constraintdef(c.oid) as definition
           from pg_constraint c
           join pg_class rel on rel.oid = c.conrelid
           join pg_namespace n on n.oid = rel.relnamespace
           left join pg_class frel on frel.oid = c.confrelid
          where n.nspname = 'public'
          order by c.conname`,
      )
    ).rows;
    const indexRows = (
      await client.query<{
        name: string;
        table_name: string;
        is_unique: boolean;
        is_primary: boolean;
        backs_constraint: boolean;
        partial: boolean;
        columns: string[];
      }>(
        `select i.relname as name, t.relname as table_name, ix.indisunique as is_unique, ix.indisprimary as is_primary,
                exists (select 1 from pg_constraint c where c.conindid = ix.indexrelid and c.contype in ('p', 'u', 'x')) as backs_constraint,
                ix.indpred is not null as partial,
                array(select coalesce(a.attname::text, '<expression>') from unnest(ix.indkey::int2[]) with ordinality k(attnum, ord)
                        left join pg_attribute a on a.attrelid = ix.indrelid and a.attnum = k.attnum order by k.ord) as columns
           from pg_index ix
           join pg_class i on i.oid = ix.indexrelid
           join pg_class t on t.oid = ix.indrelid
           join pg_namespace n on n.oid = t.relnamespace
          where n.nspname = 'public'
          order by i.relname`,
      )
    ).rows;

    const schema: SchemaDescription = {};
    for (const table of tables) {
      const columns: Record<string, ColumnDescription> = {};
      for (const col of columnRows.filter((c) => c.table_name === table)) {
        const type = pgLogicalType(col.data_type, col.numeric_precision, col.numeric_scale);
        columns[col.column_name] = { type, nullable: col.is_nullable === 'YES', default: normaliseDefault(col.column_default, type) };
      }
      const own = constraints.filter((c) => c.table_name === table);
      const ownIndexes = indexRows.filter((i) => i.table_name === table && !i.is_primary && !i.backs_constraint);
      const checks: Record<string, string> = {};
      for (const c of own.filter((c) => c.type === 'c')) checks[c.name] = checkSignature(c.definition, c.columns);
      schema[table] = {
        columns,
        primaryKey: own.find((c) => c.type === 'p')?.columns ?? [],
        unique: sortedUnique([
          ...own.filter((c) => c.type === 'u').map((c) => uniqueSet(c.columns)),
          ...ownIndexes.filter((i) => i.is_unique).map((i) => uniqueSet(i.columns) + (i.partial ? ' where …' : '')),
        ]),
        indexes: sortedUnique(ownIndexes.filter((i) => !i.is_unique).map((i) => `${i.name}(${i.columns.join(',')})${i.partial ? ' where …' : ''}`)),
        foreignKeys: sortedUnique(
          own
            .filter((c) => c.type === 'f')
            .map((c) =>
              describeFk(c.columns, c.ref_table ?? '?', c.ref_columns, ACTION_CODES[c.on_delete] ?? c.on_delete, ACTION_CODES[c.on_update] ?? c.on_update),
            ),
        ),
        checks,
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

/** Every difference between two descriptions, one readable line each; [] when they match. */
export function diffSchemas(a: SchemaDescription, b: SchemaDescription, [nameA, nameB]: [string, string] = ['sqlite', 'postgres']): string[] {
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
      if (!ca || !cb) {
        lines.push(`${table}.${column}: column only in ${ca ? nameA : nameB}`);
        continue;
      }
      for (const key of ['type', 'nullable', 'default'] as const) {
        if (ca[key] !== cb[key]) lines.push(`${table}.${column}: ${key} ${nameA}=${show(ca[key])} ${nameB}=${show(cb[key])}`);
      }
    }
    if (ta.primaryKey.join(',') !== tb.primaryKey.join(',')) {
      lines.push(`${table}: primary key ${nameA}=(${ta.primaryKey.join(',')}) ${nameB}=(${tb.primaryKey.join(',')})`);
    }
    setDiff(
      table,
      'unique',
      ta.unique.map((u) => `(${u})`),
      tb.unique.map((u) => `(${u})`),
    );
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

// ---------------------------------------------------------------------------------------------
// SPEC §3, transcribed: fields ('?' = optional in the spec), defaults, uniques and references.
// ---------------------------------------------------------------------------------------------

interface SpecEntity {
  fields: string;
  defaults?: Record<string, string | number | boolean>;
  unique?: string[];
}

const TIMESTAMPS = 'createdAt updatedAt';
const spec: Record<string, SpecEntity> = {
  users: { fields: 'id username password role', defaults: { role: 'admin' }, unique: ['username'] },
  testimonials: { fields: `id clientName rating content practiceArea isPublished ${TIMESTAMPS}`, defaults: { rating: 5, isPublished: true } },
  blog_posts: {
    fields: `id title slug excerpt content category author isPublished publishedAt? ${TIMESTAMPS}`,
    defaults: { author: firm.name, isPublished: false },
    unique: ['slug'],
  },
  contact_submissions: {
    fields: 'id firstName lastName email phone? practiceArea message isRead isResolved createdAt',
    defaults: { isRead: false, isResolved: false },
  },
  probate_calculations: { fields: 'id estateValue realEstateValue attorneyFees executorFees courtCosts totalProbate trustCost savings userEmail? createdAt' },
  theme_settings: {
    fields: `id name displayName description cssVariables isActive isDefault ${TIMESTAMPS}`,
    defaults: { isActive: false, isDefault: false },
    // Not written in §3, but the theme name is its URL-friendly key (activation, export): the issue requires it unique.
    unique: ['name'],
  },
  appointments: {
    fields: `id firstName lastName email phone? consultationType scheduledDate duration status notes? practiceArea reminderSent externalEventId? ${TIMESTAMPS}`,
    defaults: { duration: 30, status: 'scheduled', reminderSent: false },
  },
  calendar_settings: { fields: `id provider isActive config webhookUrl? apiKey? ${TIMESTAMPS}`, defaults: { isActive: false } },
  email_settings: { fields: `id provider isActive config ${TIMESTAMPS}`, defaults: { provider: 'sendgrid', isActive: false } },
  blog_sources: {
    fields: `id name url type isActive displayLimit config? lastFetched? ${TIMESTAMPS}`,
    defaults: { type: 'rss', isActive: true, displayLimit: 5 },
  },
  external_blog_articles: {
    fields: 'id sourceId title url excerpt? content? author? publishedAt? imageUrl? isVisible externalId? fetchedAt createdAt',
    defaults: { isVisible: true },
  },
  component_visibility_settings: {
    fields: `id componentKey componentName description isVisible ${TIMESTAMPS}`,
    defaults: { isVisible: true },
    unique: ['componentKey'],
  },
};

const snake = (camel: string) => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const specDefault = (value: string | number | boolean) => (typeof value === 'string' ? JSON.stringify(value) : String(value));
const specFields = (entity: SpecEntity) => entity.fields.split(/\s+/).map((f) => ({ column: snake(f.replace(/\?$/, '')), optional: f.endsWith('?') }));

/** What SPEC §3 requires of one dialect's description; [] when it is all there. */
function specViolations(schema: SchemaDescription): string[] {
  const lines: string[] = [];
  for (const [table, entity] of Object.entries(spec)) {
    const described = schema[table];
    if (!described) {
      lines.push(`table ${table} is missing`);
      continue;
    }
    for (const { column, optional } of specFields(entity)) {
      const col = described.columns[column];
      if (!col) lines.push(`${table}.${column} is missing`);
      // Optional fields may be absent; everything else the spec lists is always there (insert shapes omit only ids and timestamps).
      else if (col.nullable !== optional)
        lines.push(`${table}.${column} is ${col.nullable ? 'nullable' : 'not null'}, SPEC says ${optional ? 'optional' : 'required'}`);
    }
    for (const [field, value] of Object.entries(entity.defaults ?? {})) {
      const actual = described.columns[snake(field)]?.default;
      if (actual !== specDefault(value)) lines.push(`${table}.${snake(field)} default is ${show(actual ?? null)}, SPEC says ${specDefault(value)}`);
    }
    for (const column of ['created_at', 'updated_at', 'fetched_at']) {
      const col = described.columns[column];
      if (col && (col.type !== 'timestamp' || col.default !== 'now'))
        lines.push(`${table}.${column} is ${col.type} default ${show(col.default)}, expected a timestamp defaulting to now`);
    }
    for (const field of entity.unique ?? []) {
      if (!described.unique.includes(snake(field))) lines.push(`${table}.${snake(field)} is not unique`);
    }
    if (described.primaryKey.join(',') !== 'id') lines.push(`${table}: primary key is (${described.primaryKey.join(',')}), expected (id)`);
  }
  for (const column of MONEY_COLUMNS.probate_calculations!) {
    const type = schema.probate_calculations?.columns[column]?.type;
    if (type !== MONEY_TYPE) lines.push(`probate_calculations.${column} is ${type}, SPEC says ${MONEY_TYPE}`);
  }
  if (schema.testimonials?.columns.rating?.type !== 'integer') lines.push('testimonials.rating is not an integer');
  if (!schema.testimonials?.checks.testimonials_rating_range?.includes('reads (rating) compares with [1, 5]')) {
    lines.push(`testimonials: no rating 1..5 check (${JSON.stringify(schema.testimonials?.checks)})`);
  }
  const cascade = 'source_id -> blog_sources(id) on delete cascade on update no action';
  if (!schema.external_blog_articles?.foreignKeys.includes(cascade)) {
    lines.push(`external_blog_articles: expected foreign key "${cascade}", found ${JSON.stringify(schema.external_blog_articles?.foreignKeys)}`);
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

describe('schema parity: SQLite and PostgreSQL after their migrations', () => {
  let sqliteDb: TestDatabase | undefined;
  let pgDb: TestDatabase | undefined;
  let sqlite: SchemaDescription;
  let postgres: SchemaDescription;

  beforeAll(async () => {
    [sqliteDb, pgDb] = await Promise.all([createTestDatabase('sqlite'), createTestDatabase('postgres')]);
    sqlite = describeSqlite(sqliteDb.location);
    postgres = await describePostgres(pgDb.location);
  });
  afterAll(async () => {
    await Promise.all([sqliteDb?.drop(), pgDb?.drop()]);
  });

  it('introspects something real in both (every SPEC §3 table, with columns and constraints)', () => {
    for (const schema of [sqlite, postgres]) {
      expect(Object.keys(schema)).toEqual(expect.arrayContaining(Object.keys(spec)));
      expect(schema).not.toHaveProperty(MIGRATIONS_TABLE);
      expect(Object.keys(schema.users!.columns)).toContain('username');
      expect(schema.users!.unique).toContain('username');
      expect(Object.keys(schema.appointments!.checks).length).toBeGreaterThan(0);
      expect(schema.external_blog_articles!.foreignKeys.length).toBeGreaterThan(0);
    }
  });

  it('has the same tables, columns, types, nullability, defaults, keys, indexes and checks in both dialects', () => {
    const diff = diffSchemas(sqlite, postgres);
    expect(diff.join('\n'), `SQLite and PostgreSQL schemas differ in ${diff.length} place(s), listed under Received`).toBe('');
  });

  it('stores money as numeric(12,2) in PostgreSQL and as text in SQLite', () => {
    for (const column of MONEY_COLUMNS.probate_calculations!) {
      expect(postgres.probate_calculations!.columns[column]!.type, column).toBe('decimal(12,2)');
      expect(sqlite.probate_calculations!.columns[column]!.type, column).toBe('decimal(12,2)');
    }
  });

  it('has every entity and field of SPEC §3, with its defaults, uniques and references, in SQLite', () => {
    const violations = specViolations(sqlite);
    expect(violations.join('\n'), 'SQLite schema departs from SPEC §3').toBe('');
  });

  it('has every entity and field of SPEC §3, with its defaults, uniques and references, in PostgreSQL', () => {
    const violations = specViolations(postgres);
    expect(violations.join('\n'), 'PostgreSQL schema departs from SPEC §3').toBe('');
  });

  it("maps SQLite columns by name the same way the SQLite schema's Drizzle modes do", () => {
    // The name rules (…_at is a timestamp, is_… a boolean) stand in for types SQLite does not have; a
    // column whose Drizzle mode disagrees would be read back as the wrong JS type while parity passed.
    const expectedByMode: Record<string, string> = { SQLiteTimestamp: 'timestamp', SQLiteBoolean: 'boolean', SQLiteInteger: 'integer', SQLiteText: 'text' };
    const mismatches: string[] = [];
    for (const table of (Object.values(sqliteSchema) as unknown[]).filter((v): v is SQLiteTable => v instanceof SQLiteTable)) {
      const config = getTableConfig(table);
      for (const column of config.columns) {
        const mapped = sqliteLogicalType(config.name, column.name, column.getSQLType());
        const expected = expectedByMode[column.columnType] ?? column.columnType;
        const logical = mapped === MONEY_TYPE ? 'text' : mapped;
        if (logical !== expected) mismatches.push(`${config.name}.${column.name}: Drizzle ${column.columnType}, mapped by name to ${mapped}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe('migrations are up to date with the schema files', () => {
  // The parity test above reads the migrated databases, so a schema file edited without
  // `npm run db:generate` would slip past it. drizzle-kit's own snapshot of the schema must equal
  // the last snapshot committed with the migrations (compared as data: drizzle-kit's diff may prompt).
  const lastSnapshot = (dialect: 'sqlite' | 'pg') => {
    const meta = new URL(`../../db/migrations/${dialect}/meta/`, import.meta.url);
    const journal = JSON.parse(readFileSync(new URL('_journal.json', meta), 'utf8')) as { entries: Array<{ idx: number; tag: string }> };
    const last = journal.entries.at(-1)!;
    return JSON.parse(readFileSync(new URL(`${String(last.idx).padStart(4, '0')}_snapshot.json`, meta), 'utf8')) as Record<string, unknown>;
  };
  const asData = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

  it('SQLite: db/schema/sqlite.ts matches the last generated migration', async () => {
    const current = asData(await generateSQLiteDrizzleJson(sqliteSchema)) as Record<string, unknown>;
    const committed = lastSnapshot('sqlite');
    const drift = ['tables', 'views', 'enums'].flatMap((key) => jsonDifferences(committed[key], current[key], key));
    expect(drift.join('\n'), 'db/schema/sqlite.ts changed since its last migration: run `npm run db:generate`').toBe('');
  });

  it('PostgreSQL: db/schema/pg.ts matches the last generated migration', () => {
    const current = asData(generateDrizzleJson(pgSchema)) as Record<string, unknown>;
    const committed = lastSnapshot('pg');
    const drift = ['tables', 'enums', 'schemas', 'sequences', 'roles', 'policies', 'views'].flatMap((key) =>
      jsonDifferences(committed[key], current[key], key),
    );
    expect(drift.join('\n'), 'db/schema/pg.ts changed since its last migration: run `npm run db:generate`').toBe('');
  });

  it('reports a drifted snapshot by path', () => {
    expect(jsonDifferences({ users: { role: { default: "'admin'" } } }, { users: { role: { default: "'user'" }, nick: {} } }, 'tables')).toEqual([
      'tables.users.nick: only in the schema files',
      `tables.users.role.default: migration "'admin'", schema files "'user'"`,
    ]);
  });
});

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

describe('the parity check catches drift in real databases', () => {
  // Throwaway databases altered after migrating (never the migrations): the introspection must see it.
  let sqliteDb: TestDatabase | undefined;
  let pgDb: TestDatabase | undefined;
  beforeAll(async () => {
    [sqliteDb, pgDb] = await Promise.all([createTestDatabase('sqlite'), createTestDatabase('postgres')]);
  });
  afterAll(async () => {
    await Promise.all([sqliteDb?.drop(), pgDb?.drop()]);
  });

  it('reports a changed default, column, nullability, type, precision, unique, index, foreign key and check', async () => {
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
        'probate_calculations.savings: type sqlite=decimal(12,2) postgres=decimal(14,2)',
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

describe('the parity comparison itself', () => {
  const table = (overrides: Partial<TableDescription> = {}): TableDescription => ({
    columns: {
      id: { type: 'text', nullable: false, default: null },
      rating: { type: 'integer', nullable: false, default: '5' },
      is_published: { type: 'boolean', nullable: false, default: 'true' },
      created_at: { type: 'timestamp', nullable: false, default: 'now' },
    },
    primaryKey: ['id'],
    unique: ['client_name'],
    indexes: ['testimonials_created_at_idx(created_at)'],
    foreignKeys: ['source_id -> blog_sources(id) on delete cascade on update no action'],
    checks: { testimonials_rating_range: 'reads (rating) compares with [1, 5]' },
    ...overrides,
  });

  it('finds no difference between identical descriptions', () => {
    expect(diffSchemas({ testimonials: table() }, { testimonials: table() })).toEqual([]);
  });

  it('reports every kind of difference, one line each, naming table, column and both sides', () => {
    const left: SchemaDescription = { testimonials: table(), only_left: table() };
    const right: SchemaDescription = {
      testimonials: table({
        columns: {
          id: { type: 'text', nullable: false, default: null },
          rating: { type: 'text', nullable: true, default: '"5"' },
          created_at: { type: 'timestamp', nullable: false, default: 'now' },
          extra: { type: 'text', nullable: true, default: null },
        },
        primaryKey: ['id', 'rating'],
        unique: [],
        indexes: ['testimonials_created_at_idx(created_at,id)'],
        foreignKeys: ['source_id -> blog_sources(id) on delete no action on update no action'],
        checks: { testimonials_rating_range: 'reads (rating) compares with [1, 10]', other_check: 'reads () compares with []' },
      }),
    };
    expect(diffSchemas(left, right)).toEqual([
      'table only_left: only in sqlite',
      'testimonials.extra: column only in postgres',
      'testimonials.is_published: column only in sqlite',
      'testimonials.rating: type sqlite=integer postgres=text',
      'testimonials.rating: nullable sqlite=false postgres=true',
      'testimonials.rating: default sqlite=5 postgres="5"',
      'testimonials: primary key sqlite=(id) postgres=(id,rating)',
      'testimonials: unique (client_name) only in sqlite',
      'testimonials: index testimonials_created_at_idx(created_at) only in sqlite',
      'testimonials: index testimonials_created_at_idx(created_at,id) only in postgres',
      'testimonials: foreign key source_id -> blog_sources(id) on delete cascade on update no action only in sqlite',
      'testimonials: foreign key source_id -> blog_sources(id) on delete no action on update no action only in postgres',
      'testimonials: check other_check only in postgres',
      'testimonials: check testimonials_rating_range differs: sqlite reads (rating) compares with [1, 5]; postgres reads (rating) compares with [1, 10]',
    ]);
  });

  it('maps each dialect onto the same logical types, and keeps unknown types distinct', () => {
    expect(sqliteLogicalType('appointments', 'scheduled_date', 'integer')).toBe('timestamp');
    expect(sqliteLogicalType('blog_sources', 'last_fetched', 'INTEGER')).toBe('timestamp');
    expect(sqliteLogicalType('appointments', 'reminder_sent', 'integer')).toBe('boolean');
    expect(sqliteLogicalType('themes', 'is_active', 'integer')).toBe('boolean');
    expect(sqliteLogicalType('appointments', 'duration', 'integer')).toBe('integer');
    expect(sqliteLogicalType('probate_calculations', 'savings', 'text')).toBe('decimal(12,2)');
    expect(sqliteLogicalType('probate_calculations', 'user_email', 'text')).toBe('text');
    expect(sqliteLogicalType('probate_calculations', 'savings', 'real')).toBe('sqlite:real');
    expect(pgLogicalType('timestamp with time zone', null, null)).toBe('timestamp');
    expect(pgLogicalType('timestamp without time zone', null, null)).toBe('pg:timestamp without time zone');
    expect(pgLogicalType('numeric', 12, 2)).toBe('decimal(12,2)');
    expect(pgLogicalType('numeric', 10, 2)).toBe('decimal(10,2)');
    expect(pgLogicalType('boolean', null, null)).toBe('boolean');
  });

  it('normalises the defaults both dialects write to one form', () => {
    expect(normaliseDefault('false', 'boolean')).toBe('false');
    expect(normaliseDefault('0', 'boolean')).toBe('false');
    expect(normaliseDefault('1', 'boolean')).toBe('true');
    expect(normaliseDefault('true', 'boolean')).toBe('true');
    expect(normaliseDefault("cast(unixepoch('subsec') * 1000 as integer)", 'timestamp')).toBe('now');
    expect(normaliseDefault("(cast(unixepoch('subsec') * 1000 as integer))", 'timestamp')).toBe('now');
    expect(normaliseDefault('now()', 'timestamp')).toBe('now');
    expect(normaliseDefault('CURRENT_TIMESTAMP', 'timestamp')).toBe('now');
    expect(normaliseDefault("'admin'", 'text')).toBe('"admin"');
    expect(normaliseDefault("'admin'::text", 'text')).toBe('"admin"');
    expect(normaliseDefault("'O''Brien'::text", 'text')).toBe('"O\'Brien"');
    expect(normaliseDefault('30', 'integer')).toBe('30');
    expect(normaliseDefault("'0.00'::numeric", 'decimal(12,2)')).toBe('0');
    expect(normaliseDefault("'30'", 'text')).toBe('"30"');
    expect(normaliseDefault(null, 'text')).toBeNull();
    expect(normaliseDefault('random()', 'integer')).toBe('expr:random()');
  });

  it('reads CHECK constraints out of SQLite DDL and reduces both dialects to the same signature', () => {
    const ddl = `CREATE TABLE \`t\` (\n\t\`rating\` integer,\n\t\`status\` text,\n\tCONSTRAINT "t_rating" CHECK("t"."rating" between 1 and 5),\n\tCONSTRAINT "t_status" CHECK("t"."status" in ('a(b', 'it''s'))\n)`;
    const checks = sqliteChecks(ddl);
    expect(checks).toEqual([
      { name: 't_rating', expression: '"t"."rating" between 1 and 5' },
      { name: 't_status', expression: `"t"."status" in ('a(b', 'it''s')` },
    ]);
    expect(checkSignature(checks[0]!.expression, ['rating', 'status'])).toBe(checkSignature('CHECK (((rating >= 1) AND (rating <= 5)))', ['rating']));
    expect(checkSignature(checks[1]!.expression, ['rating', 'status'])).toBe(
      checkSignature("CHECK ((status = ANY (ARRAY['a(b'::text, 'it''s'::text])))", ['status']),
    );
    expect(checkSignature('"t"."rating" between 1 and 5', ['rating'])).not.toBe(checkSignature('"t"."rating" between 1 and 10', ['rating']));
  });
});
