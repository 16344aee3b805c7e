/**
 * The PostgreSQL dialect of the data model, chosen by DATABASE_URL: the tables of ./model.ts built
 * with drizzle-orm/pg-core (docs/decisions/019-one-schema.md). Every table is exported by name, for
 * drizzle-kit and db/client.ts.
 */
import {
  boolean,
  check,
  index,
  integer,
  numeric,
  type PgBooleanBuilderInitial,
  type PgIntegerBuilderInitial,
  type PgNumericBuilderInitial,
  type PgTableWithColumns,
  type PgTextBuilderInitial,
  type PgTimestampBuilderInitial,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { BuildColumns } from 'drizzle-orm';
import { build, type Col, type Constraints, type Dialect, type Replay, type TableDef, type TableKeys } from './kit.ts';
import * as model from './model.ts';

const pg: Dialect = {
  table: pgTable,
  columns: {
    text: (name) => text(name),
    integer: (name) => integer(name),
    boolean: (name) => boolean(name),
    timestamp: (name) => timestamp(name, { withTimezone: true, mode: 'date' }),
    money: (name) => numeric(name, { precision: 12, scale: 2 }),
    identity: (name) => integer(name).primaryKey().generatedAlwaysAsIdentity(),
  },
  defaultNow: (builder: ReturnType<typeof timestamp>) => builder.defaultNow(),
  constraints: { check, index, uniqueIndex, unique } as unknown as Constraints,
};

/** The Drizzle builder each kind starts from (the same calls as `pg.columns`). */
interface Builders<N extends string> {
  text: PgTextBuilderInitial<N, [string, ...string[]]>;
  integer: PgIntegerBuilderInitial<N>;
  boolean: PgBooleanBuilderInitial<N>;
  timestamp: PgTimestampBuilderInitial<N>;
  money: PgNumericBuilderInitial<N>;
  identity: Replay<PgIntegerBuilderInitial<N>, ['primaryKey', 'generatedAlwaysAsIdentity']>;
}
type BuilderOf<C> = C extends Col<infer K, infer N, infer Ops> ? Replay<Builders<N>[K], Ops> : never;
type Tables<M> = {
  [T in TableKeys<M>]: M[T] extends TableDef<infer N, infer C>
    ? PgTableWithColumns<{ name: N; schema: undefined; columns: BuildColumns<N, { [K in keyof C]: BuilderOf<C[K]> }, 'pg'>; dialect: 'pg' }>
    : never;
};

const tables = build(pg, model) as Tables<typeof model>;
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
