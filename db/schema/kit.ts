/**
 * The vocabulary db/schema/model.ts is written in: Drizzle's table and column builders without the
 * dialect (docs/decisions/019-one-schema.md). A column records the builder calls made on it
 * (`text('slug').notNull().unique()`); each dialect (pg.ts, sqlite.ts) replays them on its own Drizzle
 * builders, and the types replay them too, so every table has exactly the type pgTable or sqliteTable
 * would have given it.
 */
import { type Column, type SQL, sql } from 'drizzle-orm';

/** What a column holds; each dialect says how it stores it (pg.ts, sqlite.ts). */
export type Kind = 'text' | 'integer' | 'boolean' | 'timestamp' | 'money' | 'identity';
interface Data {
  text: string;
  integer: number;
  boolean: boolean;
  timestamp: Date;
  money: string;
  identity: number;
}
/** Drizzle's builder methods, plus `defaultNow`, which each dialect spells its own way. */
export type Op = 'notNull' | 'default' | 'defaultNow' | '$defaultFn' | '$onUpdate' | 'primaryKey' | 'unique' | 'references';
type Step = { op: Op; args: unknown[] };
type ReferentialAction = 'cascade' | 'restrict' | 'no action' | 'set null' | 'set default';

/** A column: its kind, its SQL name and the builder calls made on it (`Ops`, kept in its type). */
export class Col<K extends Kind = Kind, N extends string = string, Ops extends Op[] = Op[]> {
  /** Set by table(), so references() can find the column in each dialect. */
  owner?: { table: object; key: string };
  readonly kind: K;
  readonly name: N;
  readonly steps: readonly Step[];
  constructor(kind: K, name: N, steps: readonly Step[] = []) {
    this.kind = kind;
    this.name = name;
    this.steps = steps;
  }
  private step<O extends Op>(op: O, ...args: unknown[]): Col<K, N, [...Ops, O]> {
    return new Col<K, N, [...Ops, O]>(this.kind, this.name, [...this.steps, { op, args }]);
  }
  notNull() {
    return this.step('notNull');
  }
  default(value: Data[K] | SQL) {
    return this.step('default', value);
  }
  /** The database's clock: now() in PostgreSQL, epoch milliseconds in SQLite. */
  defaultNow(this: Col<'timestamp', N, Ops>) {
    return this.step('defaultNow');
  }
  $defaultFn(fn: () => Data[K]) {
    return this.step('$defaultFn', fn);
  }
  $onUpdate(fn: () => Data[K]) {
    return this.step('$onUpdate', fn);
  }
  primaryKey() {
    return this.step('primaryKey');
  }
  unique() {
    return this.step('unique');
  }
  references(target: () => Col, actions?: { onDelete?: ReferentialAction; onUpdate?: ReferentialAction }) {
    return this.step('references', target, actions);
  }
}

const column =
  <K extends Kind>(kind: K) =>
  <N extends string>(name: N) =>
    new Col<K, N, []>(kind, name);
export const text = column('text');
export const integer = column('integer');
export const boolean = column('boolean');
export const timestamp = column('timestamp');
/** SPEC §3 money: 12 digits, 2 places. */
export const money = column('money');
/** An integer key the database numbers itself. */
export const identity = column('identity');

/** Indexes and constraints, from the dialect the table is built in. */
export interface Constraints {
  check(name: string, condition: SQL): Constraint;
  index(name: string): { on(...columns: Column[]): Constraint & { where(condition: SQL): Constraint } };
  uniqueIndex(name: string): { on(...columns: Column[]): Constraint & { where(condition: SQL): Constraint } };
  unique(name: string): { on(...columns: Column[]): Constraint };
}
export type Constraint = object;
type Extra<C> = (t: { readonly [K in keyof C]: Column }, c: Constraints) => Constraint[];

const TABLE = Symbol('table');
export interface TableDef<N extends string = string, C extends Record<string, Col> = Record<string, Col>> {
  readonly [TABLE]: { name: N; columns: C; extra?: Extra<C> };
}

/** A table: its columns stay readable as properties (`blogPosts.id`) for references(). */
export function table<N extends string, C extends Record<string, Col>>(name: N, columns: C, extra?: Extra<C>): TableDef<N, C> & C {
  const def = { ...columns, [TABLE]: { name, columns, extra } };
  for (const [key, col] of Object.entries(columns)) {
    if (col.owner) throw new Error(`column ${name}.${key} is already used by another table`);
    col.owner = { table: def, key };
  }
  return def;
}

/** `column in ('a', 'b')` for a CHECK, from a list of the product's values (quoted, never bound). */
export function isOneOf(column: Column, values: readonly string[]): SQL {
  if (values.length === 0) throw new Error('isOneOf: an empty list would refuse every row');
  return sql`${column} in ${sql.raw(`(${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', ')})`)}`;
}

/** `column between min and max` for a CHECK, from whole numbers. */
export function isBetween(column: Column, { min, max }: { min: number; max: number }): SQL {
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max)) throw new Error('isBetween: bounds must be integers');
  return sql`${column} between ${sql.raw(String(min))} and ${sql.raw(String(max))}`;
}

// ---------------------------------------------------------------------------------------------
// Building a dialect
// ---------------------------------------------------------------------------------------------

/** What pg.ts and sqlite.ts provide: their Drizzle builders. */
export interface Dialect {
  table(name: string, columns: never, extra?: never): unknown;
  columns: { [K in Kind]: (name: string) => unknown };
  defaultNow(builder: never): unknown;
  constraints: Constraints;
}

/** The type a chain of builder calls gives, replayed on a dialect's builder (`Alias` renames an op). */
export type Replay<B, Ops extends readonly string[], Alias = object> = Ops extends readonly [infer O extends string, ...infer Rest extends string[]]
  ? (O extends keyof Alias ? Alias[O] : O) extends infer M extends keyof B
    ? B[M] extends (...args: never[]) => infer Next
      ? Replay<Next, Rest, Alias>
      : never
    : never
  : B;

/** The keys of a model module that are tables. */
export type TableKeys<M> = { [K in keyof M]: M[K] extends { readonly [TABLE]: unknown } ? K : never }[keyof M];

type Builder = Record<string, (...args: unknown[]) => unknown>;
const tableDefs = (model: Record<string, unknown>) =>
  Object.entries(model).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null && TABLE in value ? [{ key, value, ...(value as TableDef)[TABLE] }] : [],
  );

/** Each table's columns' kinds, by SQL name: `{ users: { id: 'text', ... } }` (for tests that read the databases). */
export function kinds(model: Record<string, unknown>): Record<string, Record<string, Kind>> {
  return Object.fromEntries(tableDefs(model).map(({ name, columns }) => [name, Object.fromEntries(Object.values(columns).map((c) => [c.name, c.kind]))]));
}

/** Every table of `model`, built with `dialect`'s builders. The dialect module types the result. */
export function build(dialect: Dialect, model: Record<string, unknown>): Record<string, unknown> {
  const built = new Map<object, Record<string, unknown>>();
  const columnIn = (col: Col) => {
    const table = col.owner && built.get(col.owner.table);
    if (!table) throw new Error(`references(): column ${col.name} belongs to no table of this model`);
    return table[col.owner!.key];
  };
  const out: Record<string, unknown> = {};
  for (const { key, value, name, columns, extra } of tableDefs(model)) {
    const builders: Record<string, unknown> = {};
    for (const [columnKey, col] of Object.entries(columns)) {
      let builder = dialect.columns[col.kind](col.name);
      for (const { op, args } of col.steps) {
        if (op === 'defaultNow') builder = dialect.defaultNow(builder as never);
        else if (op === 'references') {
          const [target, actions] = args as [() => Col, object | undefined];
          builder = (builder as Builder).references!(() => columnIn(target()), actions);
        } else builder = (builder as Builder)[op]!(...args);
      }
      builders[columnKey] = builder;
    }
    const constraints = extra && ((self: Record<string, Column>) => extra(self, dialect.constraints));
    const table = dialect.table(name, builders as never, constraints as never) as Record<string, unknown>;
    built.set(value, table);
    out[key] = table;
  }
  return out;
}
