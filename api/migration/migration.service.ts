/**
 * The one-way migration to DynamoDB (SPEC §2 /admin/migration, §4 Migration wizard): status,
 * the table, the runs, verification. The admin routes and the operator command
 * (scripts/migrate-dynamodb.ts) both go through this service.
 *
 * A run's states: running -> completed | failed | interrupted; failed and interrupted runs are resumed
 * (running again, same run, from their checkpoints) by the next Start Migration; a completed run is
 * final and the next Start Migration begins a new run (a rerun rewrites the same items). The process
 * running a run holds a lease on it, renewed with every checkpoint; a 'running' run whose lease ran
 * out (its server restarted or crashed) is found interrupted. Only the lease holder writes to a run.
 */
import { randomUUID } from 'node:crypto';
import { CreateTableCommand, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import {
  migrationKinds,
  migrationSetupAlert,
  type CreateTableResult,
  type MigrationKind,
  type MigrationRun,
  type MigrationStatus,
  type VerificationResult,
} from '../../src/shared/migration.ts';
import type { Deps } from '../deps.ts';
import { conflict, HttpError } from '../http/errors.ts';
import { describeDynamoError, describeTable, DynamoError, dynamoTarget, type BatchStats, type DynamoTarget } from './dynamodb.ts';
import { kindMappings } from './items.ts';
import { migrationRunsRepository, sourceRepository, type RunProgress, type RunRow } from './migration.repository.ts';
import { tuningWith, type MigrationTuning } from './migration-tuning.ts';
import { copyKind } from './migrator.ts';
import { createTableCliCommand, DEFAULT_TABLE_NAME, tableDefinition } from './table-design.ts';
import { verifyMigration } from './verifier.ts';

export type MigrationDeps = Pick<Deps, 'database' | 'clock' | 'log' | 'migration'>;

export interface StartedMigration {
  run: MigrationRun;
  /** Settles when this process's run ends; null when another process is running it. */
  finished: Promise<MigrationRun> | null;
}

interface ActiveRun {
  row: RunRow;
  progress: RunProgress;
  /** Stops the run gracefully: no new batch; the ones in flight finish and count (a shutdown). */
  halt: AbortController;
  /** Cuts off the calls in flight: the run was taken over, or a graceful stop ran out of time. */
  controller: AbortController;
  finished: Promise<MigrationRun>;
  stats: BatchStats;
}

const STALE_MESSAGE =
  'The migration stopped before it finished (its server restarted or lost its connection). Start Migration resumes it from its checkpoints.';
const STOPPED_MESSAGE = 'The migration was stopped (the server or the command shut down). Start Migration resumes it from its checkpoints.';
const MAX_TABLE_WAIT_SECONDS = 300;

export function createMigrationService(deps: MigrationDeps) {
  const { database, clock, log } = deps;
  const settings = deps.migration;
  const tuning: MigrationTuning = tuningWith(settings.tuning);
  const tableName = settings.tableName ?? DEFAULT_TABLE_NAME;
  const databaseName = database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite';
  /** This process, as the holder of a run's lease. */
  const owner = randomUUID();
  const runs = migrationRunsRepository(database);
  const source = sourceRepository(database);
  const active = new Map<string, ActiveRun>();
  const listeners = new Set<(run: MigrationRun) => void>();
  let target: DynamoTarget | null = null;
  let starting: Promise<StartedMigration> | null = null;
  let stopping = false;

  const leaseUntil = () => new Date(clock.now().getTime() + tuning.leaseMs);
  const getTarget = () => (target ??= dynamoTarget(settings, tuning));

  async function status(): Promise<MigrationStatus> {
    // "postgresConfigured" is SPEC's name for the relational source, whichever dialect the site runs on.
    const postgresConfigured = await database.ping().then(
      () => true,
      () => false,
    );
    return {
      postgresConfigured,
      awsConfigured: settings.awsConfigured,
      awsRegion: settings.awsRegion,
      ready: postgresConfigured && settings.awsConfigured,
      database: database.dialect,
      tableName,
    };
  }

  /** SPEC §8's setup alert as a 503 when either side is missing. */
  async function requireReady(): Promise<void> {
    const s = await status();
    if (!s.ready) throw new HttpError(503, migrationSetupAlert(s));
  }

  function httpError(err: unknown): HttpError {
    if (err instanceof HttpError) return err;
    const e = err instanceof DynamoError ? err : describeDynamoError(err, getTarget());
    if (e.kind === 'missing-table') return conflict(e.message);
    return new HttpError(e.kind === 'refused' ? 502 : 503, e.message);
  }

  /** The table must exist before items go in or are read back. */
  async function requireTable(): Promise<void> {
    if (!(await describeTable(getTarget()))) {
      throw conflict(
        `The DynamoDB table "${tableName}" does not exist yet at ${getTarget().where}: create it first (Generate Table Commands, or \`npm run migrate:dynamodb -- create-table\`).`,
      );
    }
  }

  async function createTable(): Promise<CreateTableResult> {
    await requireReady();
    const t = getTarget();
    const definition = tableDefinition(tableName);
    const cliCommand = createTableCliCommand(definition, { region: settings.awsRegion, endpoint: settings.endpoint });
    try {
      let created = false;
      const existing = await describeTable(t);
      if (!existing) {
        try {
          await t.client.send(new CreateTableCommand(definition));
          created = true;
          log.info('dynamodb table created', { table: tableName });
        } catch (err) {
          // Created by someone else meanwhile: harmless, like running it twice.
          if ((err as Error)?.name !== 'ResourceInUseException') throw err;
        }
      } else {
        const problem = designMismatch(existing);
        if (problem)
          throw conflict(
            `The DynamoDB table "${tableName}" already exists with another design (${problem}). Set DYNAMODB_TABLE to a new name, or delete that table.`,
          );
      }
      await waitUntilTableExists({ client: t.client, maxWaitTime: MAX_TABLE_WAIT_SECONDS, minDelay: 1, maxDelay: 5 }, { TableName: tableName });
      return { tableName, created, cliCommand, definition };
    } catch (err) {
      throw httpError(err);
    }
  }

  /** Totals now; for a resumed kind, done = the rows at or before its checkpoint. */
  async function measure(previous: RunProgress = {}): Promise<RunProgress> {
    const progress: RunProgress = {};
    for (const { kind } of kindMappings) {
      const before = previous[kind];
      if (before?.complete) progress[kind] = { ...before };
      else if (before?.after)
        progress[kind] = { after: before.after, done: await source.count(kind, before.after), total: await source.count(kind), complete: false };
      else progress[kind] = { after: null, done: 0, total: await source.count(kind), complete: false };
    }
    return progress;
  }

  function snapshot(row: RunRow, progress?: RunProgress): MigrationRun {
    const p: RunProgress = progress ?? (JSON.parse(row.progress) as RunProgress);
    return {
      id: row.id,
      state: row.state,
      startedAt: row.startedAt.toISOString(),
      finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
      error: row.error,
      kinds: migrationKinds.map(({ kind, label }) => ({ kind, label, done: p[kind]?.done ?? 0, total: p[kind]?.total ?? 0 })),
    };
  }

  const activeSnapshot = (run: ActiveRun) => snapshot(run.row, run.progress);
  const emit = (run: MigrationRun) => {
    for (const listener of listeners) listener(run);
  };

  async function latestRow(): Promise<RunRow | null> {
    await runs.settleStale(clock.now(), owner, STALE_MESSAGE);
    return runs.latest();
  }

  async function latestRun(): Promise<MigrationRun | null> {
    const row = await latestRow();
    if (!row) return null;
    const mine = active.get(row.id);
    return mine ? activeSnapshot(mine) : snapshot(row);
  }

  /** Starts a run, resumes the last unfinished one, or answers with the one already running. */
  function startMigration(): Promise<StartedMigration> {
    // One start at a time in this process: two clicks must not begin two runs.
    const attempt = (starting ?? Promise.resolve()).catch(() => {}).then(() => begin());
    starting = attempt;
    return attempt;
  }

  async function begin(): Promise<StartedMigration> {
    if (stopping) throw new HttpError(503, 'The server is shutting down; start the migration again in a moment.');
    await requireReady();
    const [mine] = active.values();
    if (mine) return { run: activeSnapshot(mine), finished: mine.finished };
    try {
      await requireTable();
    } catch (err) {
      throw httpError(err);
    }
    await runs.settleStale(clock.now(), owner, STALE_MESSAGE);
    const running = await runs.running();
    if (running) return { run: snapshot(running), finished: null };
    const latest = await runs.latest();
    let row: RunRow | null = null;
    let progress: RunProgress;
    if (latest && latest.state !== 'completed' && latest.tableName === tableName) {
      progress = await measure(JSON.parse(latest.progress) as RunProgress);
      row = await runs.claim(latest.id, owner, leaseUntil());
      if (!row) return { run: snapshot((await runs.running()) ?? (await runs.find(latest.id)) ?? latest), finished: null };
      await runs.save(row.id, owner, progress, leaseUntil());
      log.info('migration resumed', { run: row.id, table: tableName });
    } else {
      progress = await measure();
      row = await runs.insert({ id: randomUUID(), tableName, progress, owner, leaseExpiresAt: leaseUntil(), startedAt: clock.now() });
      // Another process started one at the same instant (the database keeps one running): report it.
      if (!row) return { run: snapshot((await runs.running()) ?? (await runs.latest())!), finished: null };
      log.info('migration started', { run: row.id, table: tableName });
    }
    const run: ActiveRun = {
      row: { ...row, state: 'running', error: null, finishedAt: null },
      progress,
      halt: new AbortController(),
      controller: new AbortController(),
      finished: null as never,
      stats: { calls: 0, unprocessedCalls: 0 },
    };
    active.set(row.id, run);
    run.finished = execute(run);
    return { run: activeSnapshot(run), finished: run.finished };
  }

  async function execute(run: ActiveRun): Promise<MigrationRun> {
    let lost = false;
    let flushing: Promise<void> | null = null;
    const flush = () => {
      flushing ??= runs
        .save(run.row.id, owner, run.progress, leaseUntil())
        .then(
          (held) => {
            if (!held) {
              // Taken over (its lease ran out while this process was stalled): stop writing at once.
              lost = true;
              run.controller.abort();
            }
          },
          (err) => log.warn('migration checkpoint not saved', { run: run.row.id, err: String(err) }),
        )
        .finally(() => {
          flushing = null;
        });
      emit(activeSnapshot(run));
      return flushing;
    };
    const timer = setInterval(flush, tuning.checkpointMs);
    timer.unref?.();
    let current: MigrationKind | null = null;
    let state: 'completed' | 'failed' | 'interrupted' = 'completed';
    let error: string | null = null;
    try {
      await new Promise((resolve) => setImmediate(resolve)); // answer the request first
      for (const { kind } of kindMappings) {
        const checkpoint = run.progress[kind]!;
        if (checkpoint.complete) continue;
        current = kind;
        await copyKind({ source, target: getTarget(), tuning, signal: run.controller.signal, halt: run.halt.signal, stats: run.stats }, kind, checkpoint);
        await flush();
      }
    } catch (err) {
      if (run.halt.signal.aborted || run.controller.signal.aborted) {
        state = 'interrupted';
        error = STOPPED_MESSAGE;
      } else {
        state = 'failed';
        error = failureMessage(err, current, run.progress);
        log.warn('migration failed', { run: run.row.id, kind: current, err: error });
      }
    } finally {
      clearInterval(timer);
      await flushing;
    }
    const finishedAt = clock.now();
    if (!lost) lost = !(await runs.finish(run.row.id, owner, { state, error, progress: run.progress, finishedAt }).catch(() => false));
    active.delete(run.row.id);
    if (lost) {
      log.warn('migration taken over by another process', { run: run.row.id });
      const now = await runs.find(run.row.id).catch(() => null);
      return now ? snapshot(now) : activeSnapshot(run);
    }
    run.row = { ...run.row, state, error, finishedAt };
    if (state === 'interrupted') log.info('migration stopped', { run: run.row.id, done: activeSnapshot(run).kinds.reduce((n, k) => n + k.done, 0) });
    if (state === 'completed') log.info('migration completed', { run: run.row.id, calls: run.stats.calls, unprocessedCalls: run.stats.unprocessedCalls });
    const done = activeSnapshot(run);
    emit(done);
    return done;
  }

  function failureMessage(err: unknown, kind: MigrationKind | null, progress: RunProgress): string {
    const cause = err instanceof DynamoError ? err.message : `Reading from the ${databaseName} database failed (${(err as Error)?.message ?? String(err)}).`;
    if (!kind) return cause;
    const label = migrationKinds.find((k) => k.kind === kind)!.label;
    const p = progress[kind]!;
    return `${cause} The migration stopped at ${label} (${p.done} of ${p.total}); Start Migration resumes it from there.`;
  }

  async function verify(): Promise<VerificationResult> {
    await requireReady();
    const latest = await latestRow();
    if (latest?.state === 'running') throw conflict('A migration is running: verify it once it has completed.');
    try {
      await requireTable();
      return await verifyMigration({ source, target: getTarget(), tuning });
    } catch (err) {
      throw httpError(err);
    }
  }

  return {
    tableName,
    tuning,
    status,
    createTable,
    startMigration,
    latestRun,
    verify,
    /** Every progress snapshot of this process's runs (the operator command's progress bars). */
    onProgress(listener: (run: MigrationRun) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /**
     * Stops this process's runs and closes the client (the server's shutdown, the command's Ctrl-C).
     * A run writes no new batch; the batches in flight finish (or are cut off after `stopGraceMs`, so
     * a stalled peer cannot outlast the shutdown deadline); it then records its checkpoints and
     * becomes interrupted at once, for Start Migration to resume, rather than when its lease runs out.
     */
    async stop(): Promise<void> {
      stopping = true;
      // A start under way registers its run before it settles: stop that one too.
      await starting?.catch(() => {});
      const stopped = [...active.values()];
      for (const run of stopped) run.halt.abort();
      const cutOff = setTimeout(() => {
        for (const run of stopped) run.controller.abort();
      }, tuning.stopGraceMs);
      await Promise.allSettled(stopped.map((run) => run.finished));
      clearTimeout(cutOff);
      target?.close();
      target = null;
    },
  };
}

export type MigrationService = ReturnType<typeof createMigrationService>;

/** What about an existing table differs from the design (null when it fits). */
function designMismatch(table: NonNullable<Awaited<ReturnType<typeof describeTable>>>): string | null {
  const expected = tableDefinition(table.TableName ?? DEFAULT_TABLE_NAME);
  const keys = (schema?: { AttributeName?: string; KeyType?: string }[]) => (schema ?? []).map((k) => `${k.AttributeName}:${k.KeyType}`).join(',');
  if (keys(table.KeySchema) !== keys(expected.KeySchema)) return `key schema ${keys(table.KeySchema)}`;
  const missing = (expected.GlobalSecondaryIndexes ?? []).filter((index) => {
    const found = table.GlobalSecondaryIndexes?.find((g) => g.IndexName === index.IndexName);
    return !found || keys(found.KeySchema) !== keys(index.KeySchema);
  });
  if (missing.length) return `no index ${missing.map((i) => i.IndexName).join(', ')} as designed`;
  return null;
}
