/**
 * The SQLite dialect of the data model, the embedded default: the tables of ./model.ts built with
 * drizzle-orm/sqlite-core (docs/decisions/019-one-schema.md). Every table is exported by name, for
 * drizzle-kit and db/client.ts. Timestamps are UTC epoch milliseconds, booleans 0-1, money canonical
 * decimal text ("1234.50").
 */
import { type BuildColumns, sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  type SQLiteBooleanBuilderInitial,
  type SQLiteIntegerBuilderInitial,
  type SQLiteTableWithColumns,
  type SQLiteTextBuilderInitial,
  type SQLiteTimestampBuilderInitial,
  sqliteTable,
  text,
  unique,
  uniqueIndex,
} from 'drizzle-orm/sqlite-core';
import { build, type Col, type Constraints, type Dialect, type Replay, type TableDef, type TableKeys } from './kit.ts';
import * as model from './model.ts';

const sqlite: Dialect = {
  table: sqliteTable,
  columns: {
    text: (name) => text(name),
    integer: (name) => integer(name),
    boolean: (name) => integer(name, { mode: 'boolean' }),
    timestamp: (name) => integer(name, { mode: 'timestamp_ms' }),
    money: (name) => text(name),
    identity: (name) => integer(name).primaryKey({ autoIncrement: true }),
  },
  defaultNow: (builder: SQLiteTimestampBuilderInitial<string>) => builder.default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
  constraints: { check, index, uniqueIndex, unique } as unknown as Constraints,
};

/** The Drizzle builder each kind starts from (the same calls as `sqlite.columns`). */
interface Builders<N extends string> {
  text: SQLiteTextBuilderInitial<N, [string, ...string[]], number | undefined>;
  integer: SQLiteIntegerBuilderInitial<N>;
  boolean: SQLiteBooleanBuilderInitial<N>;
  timestamp: SQLiteTimestampBuilderInitial<N>;
  money: SQLiteTextBuilderInitial<N, [string, ...string[]], number | undefined>;
  identity: Replay<SQLiteIntegerBuilderInitial<N>, ['primaryKey']>;
}
type BuilderOf<C> = C extends Col<infer K, infer N, infer Ops> ? Replay<Builders<N>[K], Ops, { defaultNow: 'default' }> : never;
type Tables<M> = {
  [T in TableKeys<M>]: M[T] extends TableDef<infer N, infer C>
    ? SQLiteTableWithColumns<{ name: N; schema: undefined; columns: BuildColumns<N, { [K in keyof C]: BuilderOf<C[K]> }, 'sqlite'>; dialect: 'sqlite' }>
    : never;
};

const tables = build(sqlite, model) as Tables<typeof model>;
export const {
  users,
  testimonials,
  blogPosts,
  blogPostRedirects,
  contactSubmissions,
  probateCalculations,
  themeSettings,
  appointments,
  appointmentSlotClaims,
  calendarSettings,
  calendarSyncStates,
  calendarAuthorizations,
  calendarConnections,
  emailSettings,
  blogSources,
  externalBlogArticles,
  externalReviews,
  deliveries,
  componentVisibilitySettings,
  bookingRules,
  bookingHours,
  bookingClosures,
  migrationRuns,
  identityPools,
  identitySigningKeys,
  identityUsers,
  identityCodes,
  identitySessions,
  identityThrottles,
  identityInvitations,
  identityChallenges,
  outboxMessages,
  healthProbes,
  cdnPurges,
  idempotencyKeys,
  contentChanges,
  calendarNotices,
} = tables;
