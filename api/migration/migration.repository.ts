/**
 * The migration's queries: the source rows, read in primary-key order in keyset pages (`id > last`,
 * the same on both dialects and as fast on the last page as on the first), and the runs
 * (migration_runs: state, progress and checkpoints, and which process holds the run).
 */
import { and, asc, count, desc, eq, getTableColumns, gt, inArray, lt, lte, ne } from 'drizzle-orm';
import type { Database, Tables } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/driver-errors.ts';
import type { MigrationKind, MigrationRun } from '../../src/shared/migration.ts';
import { mappingOf, type Row } from './items.ts';

/** What a run knows of one kind: the checkpoint is the last id written with every id before it. */
export interface KindCheckpoint {
  done: number;
  total: number;
  after: string | null;
  complete: boolean;
}
export type RunProgress = Partial<Record<MigrationKind, KindCheckpoint>>;

export type RunRow = {
  id: string;
  tableName: string;
  state: MigrationRun['state'];
  progress: string;
  error: string | null;
  owner: string | null;
  leaseExpiresAt: Date | null;
  startedAt: Date;
  finishedAt: Date | null;
  updatedAt: Date;
};

export function sourceRepository({ db, t }: Database) {
  const source = (kind: MigrationKind) => {
    const mapping = mappingOf(kind);
    // Typed as one of them: the twelve tables differ, and only `id` and the column list matter here.
    const table = t[mapping.table] as unknown as Tables['testimonials'];
    const columns: Record<string, unknown> = { ...getTableColumns(table) };
    for (const name of mapping.omit ?? []) delete columns[name];
    return { table, columns: columns as Tables['testimonials']['_']['columns'] };
  };
  return {
    /** Up to `limit` rows after `after` (null: from the start), in id order. */
    async page(kind: MigrationKind, after: string | null, limit: number): Promise<Row[]> {
      const { table, columns } = source(kind);
      const rows = await db
        .select(columns)
        .from(table)
        .where(after === null ? undefined : gt(table.id, after))
        .orderBy(asc(table.id))
        .limit(limit);
      return rows as Row[];
    },
    /** Rows in the table; with `upTo`, only those with an id at or before it (a checkpoint's done). */
    async count(kind: MigrationKind, upTo?: string): Promise<number> {
      const { table } = source(kind);
      const [row] = await db
        .select({ n: count() })
        .from(table)
        .where(upTo === undefined ? undefined : lte(table.id, upTo));
      return Number(row?.n ?? 0);
    },
  };
}

/**
 * The unique index migration_runs_one_running refused a second 'running' run. Only that index counts;
 * any other failure is a real error.
 */
const isAnotherRunRunning = (err: unknown) => isUniqueViolation(err, { pg: 'migration_runs_one_running', sqlite: 'migration_runs.state' });

export function migrationRunsRepository({ db, t }: Database) {
  const table = t.migrationRuns;
  /** A write that would make a second run 'running': null instead (the database keeps one). */
  const unlessAnotherRuns = async <T>(write: Promise<T>): Promise<T | null> => {
    try {
      return await write;
    } catch (err) {
      if (isAnotherRunRunning(err)) return null;
      throw err;
    }
  };
  return {
    /** A new running run, or null when another run is running (started by another process meanwhile). */
    async insert(values: {
      id: string;
      tableName: string;
      progress: RunProgress;
      owner: string;
      leaseExpiresAt: Date;
      startedAt: Date;
    }): Promise<RunRow | null> {
      const rows = await unlessAnotherRuns(
        db
          .insert(table)
          .values({ ...values, state: 'running', progress: JSON.stringify(values.progress) })
          .returning(),
      );
      return (rows?.[0] as RunRow | undefined) ?? null;
    },

    /** The run being copied, if any (at most one: the unique index migration_runs_one_running). */
    async running(): Promise<RunRow | null> {
      const [row] = await db.select().from(table).where(eq(table.state, 'running'));
      return (row as RunRow | undefined) ?? null;
    },

    async latest(): Promise<RunRow | null> {
      const [row] = await db.select().from(table).orderBy(desc(table.startedAt), desc(table.id)).limit(1);
      return (row as RunRow | undefined) ?? null;
    },

    async find(id: string): Promise<RunRow | null> {
      const [row] = await db.select().from(table).where(eq(table.id, id));
      return (row as RunRow | undefined) ?? null;
    },

    /**
     * A 'running' run whose lease ran out belongs to a process that stopped (a restart, a crash):
     * it becomes 'interrupted', and the next Start Migration resumes it. Never this process's own.
     */
    async settleStale(now: Date, self: string, error: string): Promise<number> {
      const rows = await db
        .update(table)
        .set({ state: 'interrupted', error, owner: null, leaseExpiresAt: null })
        .where(and(eq(table.state, 'running'), lt(table.leaseExpiresAt, now), ne(table.owner, self)))
        .returning({ id: table.id });
      return rows.length;
    },

    /**
     * Compare-and-set: takes over a failed or interrupted run to resume it. The row as claimed, or null
     * (another process claimed it, or started another run, at the same moment).
     */
    async claim(id: string, owner: string, leaseExpiresAt: Date): Promise<RunRow | null> {
      const rows = await unlessAnotherRuns(
        db
          .update(table)
          .set({ state: 'running', owner, leaseExpiresAt, error: null, finishedAt: null })
          .where(and(eq(table.id, id), inArray(table.state, ['failed', 'interrupted'])))
          .returning(),
      );
      return (rows?.[0] as RunRow | undefined) ?? null;
    },

    /** Progress, checkpoints and a longer lease. false when the run is no longer this process's. */
    async save(id: string, owner: string, progress: RunProgress, leaseExpiresAt: Date): Promise<boolean> {
      const rows = await db
        .update(table)
        .set({ progress: JSON.stringify(progress), leaseExpiresAt })
        .where(and(eq(table.id, id), eq(table.owner, owner), eq(table.state, 'running')))
        .returning({ id: table.id });
      return rows.length > 0;
    },

    async finish(
      id: string,
      owner: string,
      values: { state: 'completed' | 'failed' | 'interrupted'; error: string | null; progress: RunProgress; finishedAt: Date },
    ): Promise<boolean> {
      const rows = await db
        .update(table)
        .set({
          state: values.state,
          error: values.error,
          progress: JSON.stringify(values.progress),
          finishedAt: values.finishedAt,
          owner: null,
          leaseExpiresAt: null,
        })
        .where(and(eq(table.id, id), eq(table.owner, owner), eq(table.state, 'running')))
        .returning({ id: table.id });
      return rows.length > 0;
    },
  };
}
