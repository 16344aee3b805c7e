/**
 * Docs/decisions/011: at most one migration run is running, as a rule of the database (the
 * partial unique index migration_runs_one_running), on SQLite and PostgreSQL:
 * - the database refuses a second running run, whoever writes it;
 * - several servers on one database (each its own service and connection) pressing Start Migration at
 *   the same instant create exactly one run: every one of them is answered 202 with it, and its items
 *   are written once;
 * - the migration that adds the rule applies to an existing database holding runs, two of them
 *   running (the race it closes): the latest stays running, the other becomes interrupted (resumable).
 */
import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate as migrateSqlite } from 'drizzle-orm/better-sqlite3/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../api/app.ts';
import type { MigrationSettings } from '../../api/deps.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import type { MigrationRun } from '../../src/shared/migration.ts';
import { startDynalite } from '../support/dynalite.ts';
import { serverDatabase } from '../support/server-process.ts';
import { ADMIN_TOKEN, forEachDialect, testDeps } from '../support/test-app.ts';

const dynamo = await startDynalite();
afterAll(() => dynamo.stop());

const SERVERS = 4;
const ROWS = 120;
const INTERRUPTED = 'The migration stopped before it finished (its server restarted or lost its connection). Start Migration resumes it from its checkpoints.';

const runValues = (state: 'running' | 'completed' | 'failed' | 'interrupted', startedAt: Date) => ({
  id: randomUUID(),
  tableName: 'firm-site',
  state,
  progress: '{}',
  owner: state === 'running' ? randomUUID() : null,
  leaseExpiresAt: state === 'running' ? new Date(startedAt.getTime() + 30_000) : null,
  startedAt,
  finishedAt: state === 'running' ? null : new Date(startedAt.getTime() + 1_000),
});

/**
 * better-sqlite3 answers a query at once, so in-process servers on SQLite would run a whole start
 * without letting the others in. Here every query settles on a later turn of the event loop, as one
 * from another process would, so the servers' reads and inserts interleave (PostgreSQL's do anyway).
 */
function yieldingEachQuery(database: Database): Database {
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(obj, prop) {
        const value = Reflect.get(obj, prop, obj) as unknown;
        if (typeof value !== 'function') return value;
        if (prop === 'then')
          return (ok: (v: unknown) => unknown, fail: (e: unknown) => unknown) =>
            new Promise((r) => setImmediate(r)).then(() => (value as Function).call(obj)).then(ok, fail);
        return (...args: unknown[]) => {
          const out = (value as Function).apply(obj, args) as unknown;
          return out && typeof out === 'object' ? wrap(out) : out;
        };
      },
    });
  return { ...database, db: wrap(database.db) };
}

/** Whether the database's own error is a unique violation (the driver's code, through Drizzle's wrapper). */
const uniqueViolation = (err: unknown) => {
  for (let e = err as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e)
    if (e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE') return true;
  return false;
};

forEachDialect('at most one running migration run', (ctx) => {
  it('the database refuses a second running run, and takes any number of finished ones', async () => {
    const { db, t } = ctx().database;
    await db
      .insert(t.migrationRuns)
      .values([
        runValues('completed', new Date(1_000)),
        runValues('failed', new Date(2_000)),
        runValues('interrupted', new Date(3_000)),
        runValues('completed', new Date(4_000)),
      ]);
    const first = runValues('running', new Date(5_000));
    await db.insert(t.migrationRuns).values(first);
    const refused = await db
      .insert(t.migrationRuns)
      .values(runValues('running', new Date(6_000)))
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(uniqueViolation(refused), String(refused)).toBe(true);
    // Nor can a finished run be set running again beside it (a resume racing a start).
    const [failed] = await db.select().from(t.migrationRuns).where(eq(t.migrationRuns.state, 'failed'));
    const reopened = await db
      .update(t.migrationRuns)
      .set({ state: 'running' })
      .where(eq(t.migrationRuns.id, failed!.id))
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(uniqueViolation(reopened), String(reopened)).toBe(true);
    // Once it ends, another may run.
    await db.update(t.migrationRuns).set({ state: 'completed' }).where(eq(t.migrationRuns.id, first.id));
    await db.insert(t.migrationRuns).values(runValues('running', new Date(7_000)));
    expect((await db.select().from(t.migrationRuns).where(eq(t.migrationRuns.state, 'running'))).length).toBe(1);
    await db.delete(t.migrationRuns);
  });

  describe('servers pressing Start Migration at the same instant', () => {
    const connections: Database[] = [];
    let servers: App[];
    beforeAll(async () => {
      const { db, t, dialect, location } = ctx().database;
      await db.insert(t.testimonials).values(
        Array.from({ length: ROWS }, (_, i) => ({
          clientName: `Client ${i}`,
          rating: 5,
          content: `Testimonial ${i}`,
          practiceArea: 'probate',
          isPublished: true,
        })),
      );
      const migration: MigrationSettings = {
        awsConfigured: true,
        awsRegion: 'us-west-2',
        endpoint: dynamo.endpoint,
        tableName: `firm-once-${randomUUID().slice(0, 8)}`,
        tuning: { checkpointMs: 20, pageSize: 40, concurrency: 2 },
      };
      // Each server its own connection, as separate processes would have.
      for (let i = 0; i < SERVERS; i++)
        connections.push(await openDatabase(dialect === 'postgres' ? { databaseUrl: location, migrate: false } : { sqlitePath: location, migrate: false }));
      servers = connections.map((database) => createApp(testDeps(dialect === 'sqlite' ? yieldingEachQuery(database) : database, { migration })));
      const created = await servers[0]!.request('/api/admin/migration/create-table', { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(created.status).toBe(200);
    });
    afterAll(async () => {
      for (const server of servers ?? []) await server.stop();
      for (const database of connections) await database.close();
    });

    it('exactly one run is created; every server answers 202 with it, and its items are written once', async () => {
      dynamo.resetCounts();
      const answers = await Promise.all(
        servers.map(async (server) => {
          const res = await server.request('/api/admin/migration/migrate', { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
          return { status: res.status, body: (await res.json()) as { run: MigrationRun } };
        }),
      );
      const { db, t } = ctx().database;
      const rows = await db.select().from(t.migrationRuns);
      expect(rows).toHaveLength(1);
      expect(answers.map((a) => a.status)).toEqual(servers.map(() => 202));
      expect(new Set(answers.map((a) => a.body.run.id))).toEqual(new Set([rows[0]!.id]));

      // It runs to the end on whichever server created it.
      const started = Date.now();
      for (;;) {
        const [row] = await db.select().from(t.migrationRuns);
        if (row!.state !== 'running') {
          expect(row!.state, row!.error ?? '').toBe('completed');
          break;
        }
        if (Date.now() - started > 30_000) throw new Error('the run still runs after 30 s');
        await new Promise((r) => setTimeout(r, 20));
      }
      const total = Object.values(JSON.parse((await db.select().from(t.migrationRuns))[0]!.progress) as Record<string, { total: number }>).reduce(
        (n, k) => n + k.total,
        0,
      );
      expect(total).toBeGreaterThanOrEqual(ROWS);
      // One copy, not one per server.
      expect(dynamo.counts.items).toBe(total);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// The migration adding the rule, on a database that already holds runs
// ---------------------------------------------------------------------------------------------

const migrationsRoot = fileURLToPath(new URL('../../db/migrations/', import.meta.url));
const RULE_MIGRATION = '0004_one_running_migration';

/** The dialect's migrations folder as it was before the rule: the journal cut before RULE_MIGRATION. */
function migrationsBeforeRule(folder: 'sqlite' | 'pg'): string {
  const dir = mkdtempSync(join(tmpdir(), 'firm-migrations-'));
  cpSync(join(migrationsRoot, folder), dir, { recursive: true });
  const journal = JSON.parse(readFileSync(join(dir, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === RULE_MIGRATION);
  expect(at, `${RULE_MIGRATION} in the ${folder} journal`).toBeGreaterThan(0);
  writeFileSync(join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
  return dir;
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  describe(`the migration adding the rule, on an existing database [${dialect}]`, () => {
    it('applies over runs already there: the latest running run stays running, an older one becomes interrupted', async () => {
      const database = await serverDatabase(dialect);
      const before = migrationsBeforeRule(dialect === 'postgres' ? 'pg' : 'sqlite');
      try {
        const location = dialect === 'postgres' ? { databaseUrl: database.env.DATABASE_URL! } : { sqlitePath: database.env.SQLITE_PATH! };
        // The database as a server before the rule left it: migrated that far, holding runs and content.
        const old = await openDatabase({ ...location, migrate: false });
        if (dialect === 'postgres') await migratePg(old.db, { migrationsFolder: before });
        else migrateSqlite(old.db as unknown as BetterSQLite3Database, { migrationsFolder: before });
        const completed = runValues('completed', new Date('2026-01-05T10:00:00.000Z'));
        const olderRunning = runValues('running', new Date('2026-01-06T10:00:00.000Z'));
        const latestRunning = runValues('running', new Date('2026-01-06T10:00:00.500Z'));
        const failed = runValues('failed', new Date('2026-01-04T10:00:00.000Z'));
        await old.db.insert(old.t.migrationRuns).values([completed, olderRunning, latestRunning, failed]);
        await old.db
          .insert(old.t.testimonials)
          .values({ clientName: 'Kept', rating: 4, content: 'Still here after the upgrade', practiceArea: 'probate', isPublished: true });
        await old.close();

        // Opening it applies the pending migration, as a server's start does.
        const upgraded = await openDatabase(location);
        try {
          const { db, t } = upgraded;
          const byId = new Map((await db.select().from(t.migrationRuns)).map((r) => [r.id, r]));
          expect(byId.size).toBe(4);
          expect(byId.get(latestRunning.id)).toMatchObject({ state: 'running', owner: latestRunning.owner, error: null });
          expect(byId.get(olderRunning.id)).toMatchObject({ state: 'interrupted', owner: null, leaseExpiresAt: null, error: INTERRUPTED });
          expect(byId.get(completed.id)).toMatchObject({ state: 'completed', error: null });
          expect(byId.get(failed.id)).toMatchObject({ state: 'failed' });
          expect((await db.select().from(t.testimonials)).map((r) => r.content)).toEqual(['Still here after the upgrade']);
          // And the rule holds from now on.
          const refused = await db
            .insert(t.migrationRuns)
            .values(runValues('running', new Date()))
            .then(
              () => null,
              (err: unknown) => err,
            );
          expect(uniqueViolation(refused), String(refused)).toBe(true);
        } finally {
          await upgraded.close();
        }
      } finally {
        rmSync(before, { recursive: true, force: true });
        await database.drop();
      }
    });
  });
}
