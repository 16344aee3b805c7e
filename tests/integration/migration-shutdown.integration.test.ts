/**
 * The migration and graceful shutdown: a migration run caught by SIGTERM. The real server as a
 * child process (tests/support/server-process.ts) migrates to dynalite through a proxy that holds the
 * batches in flight at the moment of the signal, on SQLite and PostgreSQL:
 * - the run starts no new batch, lets the ones in flight finish and counts them in its checkpoints,
 *   and is recorded interrupted (resumable) before the process exits 0, within the drain deadline;
 *   another server finds it interrupted at once (not once its 30 s lease has run out) and resumes it
 *   from those checkpoints to completion, and Verify finds every item;
 * - a peer that never answers the batches in flight: they are cut off after the stop's grace, and the
 *   run is still recorded interrupted, with the checkpoints of what was confirmed, before the deadline.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { asc } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import type { MigrationSettings } from '../../api/deps.ts';
import { SHUTDOWN_DEADLINE_MS } from '../../api/server.ts';
import type { Database, Dialect } from '../../db/client.ts';
import type { MigrationRun, VerificationResult } from '../../src/shared/migration.ts';
import { startDynalite, startDynamoProxy, type DynamoProxy } from '../support/dynalite.ts';
import { serverDatabase, startServerProcess, type ServerDatabase, type ServerProcess } from '../support/server-process.ts';
import { ADMIN_TOKEN, testDeps } from '../support/test-deps.ts';

/** What the page shows for a run a shutdown stopped (the run's error, under the 'Interrupted' badge). */
const STOPPED = 'The migration was stopped (the server or the command shut down). Start Migration resumes it from its checkpoints.';
/** Enough testimonials that the run is far from done when the proxy starts holding its batches. */
const ROWS = 1_500;
const PASSWORD = 'Shutdown-Pass-2026';

const dynamo = await startDynalite();
afterAll(() => dynamo.stop());

const running = new Set<ServerProcess>();
afterEach(async () => {
  // A failed test may leave a server behind: end it (only the ones this file started).
  for (const server of running) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
});

const until = async (what: string, done: () => boolean | Promise<boolean>, limitMs = 20_000) => {
  const started = Date.now();
  while (!(await done())) {
    if (Date.now() - started > limitMs) throw new Error(`still waiting after ${limitMs} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** An admin made with `npm run admin:create`'s script in the server's identity service, signed in through its gateway. */
async function adminToken(server: ServerProcess, database: ServerDatabase): Promise<string> {
  const username = `migration-admin-${randomUUID().slice(0, 8)}`;
  await new Promise<void>((resolve, reject) =>
    execFile(
      process.execPath,
      ['scripts/admins.ts', 'create', '--username', username, '--email', `${username}@firm.test`, '--password', PASSWORD],
      { env: { ...process.env, ...database.env, COGNITO_USER_POOL_ID: '', LOG_QUIET: 'true' } },
      (err, stdout, stderr) => (err ? reject(new Error(`admin:create failed: ${stdout}${stderr}`)) : resolve()),
    ),
  );
  const { userPoolClientId } = (await (await fetch(`${server.url}/api/identity/config`)).json()) as { userPoolClientId: string };
  const res = await fetch(`${server.url}/api/identity/cognito`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
    body: JSON.stringify({ ClientId: userPoolClientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: username, PASSWORD } }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { AuthenticationResult: { AccessToken: string } }).AuthenticationResult.AccessToken;
}

type Call = <T = any>(method: string, path: string) => Promise<{ status: number; body: T }>;

const caller =
  (request: (path: string, init: RequestInit) => Promise<Response> | Response, token: string): Call =>
  async (method, path) => {
    const res = await request(path, { method, headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };

/** The run's row as the database holds it, with its progress read. */
async function runRow({ db, t }: Database) {
  const rows = await db.select().from(t.migrationRuns);
  expect(rows).toHaveLength(1);
  const row = rows[0]!;
  return { ...row, progress: JSON.parse(row.progress) as Record<string, { done: number; total: number; after: string | null; complete: boolean }> };
}

/** The ids of the items in the table (every one a testimonial until the run gets past them). */
async function itemIds(tableName: string): Promise<string[]> {
  const client = new DynamoDBClient({ region: 'us-west-2', endpoint: dynamo.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  const doc = DynamoDBDocumentClient.from(client);
  const ids: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start, ConsistentRead: true }));
    for (const item of out.Items ?? []) ids.push(item.id as string);
    start = out.LastEvaluatedKey;
  } while (start);
  client.destroy();
  return ids.sort();
}

/** A migration under way on a server process, its batches held by the proxy: what a SIGTERM meets. */
async function migrationInFlight(database: ServerDatabase, proxy: DynamoProxy, tableName: string) {
  const server = await startServerProcess({ ...database.env, AWS_REGION: 'us-west-2', DYNAMODB_ENDPOINT: proxy.endpoint, DYNAMODB_TABLE: tableName });
  running.add(server);
  void server.exited.then(() => running.delete(server));
  const call = caller((path, init) => fetch(`${server.url}${path}`, init), await adminToken(server, database));
  const db = await database.open();
  await db.db.insert(db.t.testimonials).values(
    Array.from({ length: ROWS }, (_, i) => ({
      clientName: `Client ${i}`,
      rating: 1 + (i % 5),
      content: `Testimonial ${i}`,
      practiceArea: 'estate-planning',
      isPublished: i % 2 === 0,
    })),
  );
  expect((await call('POST', '/api/admin/migration/create-table')).status).toBe(200);

  dynamo.resetCounts();
  // After a few batches the proxy holds whatever comes next: those batches are in flight at the signal.
  dynamo.afterBatchWrites(4, () => proxy.hold());
  const started = await call<{ run: MigrationRun }>('POST', '/api/admin/migration/migrate');
  expect(started.status).toBe(202);
  // A checkpoint reached the database (the run writes them twice a second), and batches wait in the proxy.
  await until('a checkpoint and batches held', async () => (await runRow(db)).progress.testimonials!.done > 0 && proxy.heldRequests > 0);
  expect((await runRow(db)).state).toBe('running');
  return { server, db, runId: started.body.run.id };
}

/** Another server on the same database (in-process, going to dynalite directly) finds the run and resumes it. */
async function resumeElsewhere(db: Database, tableName: string, runId: string, doneBefore: number) {
  const migration: MigrationSettings = { awsConfigured: true, awsRegion: 'us-west-2', endpoint: dynamo.endpoint, tableName, tuning: { checkpointMs: 20 } };
  const app = createApp(testDeps(db, { migration }));
  const call = caller((path, init) => app.request(path, init), ADMIN_TOKEN);

  // At once: interrupted with the shutdown's reason, not 'running' until a lease runs out.
  const seen = await call<{ run: MigrationRun }>('GET', '/api/admin/migration/run');
  expect(seen.body.run).toMatchObject({ id: runId, state: 'interrupted', error: STOPPED });
  expect(seen.body.run.kinds.reduce((n, k) => n + k.done, 0)).toBe(doneBefore);

  dynamo.resetCounts();
  const resumed = await call<{ run: MigrationRun }>('POST', '/api/admin/migration/migrate');
  expect(resumed.status).toBe(202);
  expect(resumed.body.run).toMatchObject({ id: runId, state: 'running' });
  let finished = resumed.body.run;
  await until('the resumed run to end', async () => {
    finished = (await call<{ run: MigrationRun }>('GET', '/api/admin/migration/run')).body.run;
    return finished.state !== 'running';
  });
  expect(finished).toMatchObject({ id: runId, state: 'completed', error: null });
  const total = finished.kinds.reduce((n, k) => n + k.total, 0);
  expect(finished.kinds.reduce((n, k) => n + k.done, 0)).toBe(total);
  // From the checkpoints: only what the stopped run had not written is written now.
  expect(dynamo.counts.items).toBe(total - doneBefore);
  const verified = await call<VerificationResult>('POST', '/api/admin/migration/verify');
  expect(verified.body.mismatches).toEqual([]);
  expect(verified.body.ok).toBe(true);
  await app.stop();
}

/** The stopped run's checkpoint: `done` testimonials in id order, the last of them `after`, every one in DynamoDB. */
async function expectCheckpointWritten(db: Database, tableName: string, checkpoint: { done: number; after: string | null }) {
  const ids = (await db.db.select({ id: db.t.testimonials.id }).from(db.t.testimonials).orderBy(asc(db.t.testimonials.id))).map((r) => r.id);
  expect(checkpoint.done).toBeGreaterThan(0);
  expect(checkpoint.done).toBeLessThan(ROWS);
  expect(checkpoint.after).toBe(ids[checkpoint.done - 1]);
  const written = new Set(await itemIds(tableName));
  expect(ids.slice(0, checkpoint.done).filter((id) => !written.has(id))).toEqual([]);
}

function perDialect(name: string, suite: (database: () => ServerDatabase, dialect: Dialect) => void, dialects: Dialect[] = ['sqlite', 'postgres']) {
  for (const dialect of dialects) {
    describe(`${name} [${dialect}]`, () => {
      let database: ServerDatabase | undefined;
      beforeAll(async () => {
        database = await serverDatabase(dialect);
      });
      afterAll(async () => {
        await database?.drop();
      });
      suite(() => database!, dialect);
    });
  }
}

perDialect('SIGTERM during a migration', (database) => {
  let proxy: DynamoProxy;
  beforeAll(async () => {
    proxy = await startDynamoProxy(dynamo.endpoint);
  });
  afterAll(() => proxy?.close());

  it('finishes the batches in flight, records the run interrupted with its checkpoints, exits 0 in time; another server resumes it', {
    timeout: 90_000,
  }, async () => {
    const tableName = `firm-stop-${randomUUID().slice(0, 8)}`;
    const { server, db, runId } = await migrationInFlight(database(), proxy, tableName);
    const writtenBefore = dynamo.counts.items;

    const signalled = Date.now();
    server.child.kill('SIGTERM');
    // The run waits for its batches in flight: the process is still there while the proxy holds them.
    await new Promise((r) => setTimeout(r, 300));
    expect(server.child.exitCode).toBeNull();
    proxy.release();
    expect(await server.exited, server.stderr.join('\n')).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeLessThan(SHUTDOWN_DEADLINE_MS);

    // Recorded before the exit: interrupted, no owner nor lease, with the shutdown's reason.
    const row = await runRow(db);
    expect(row).toMatchObject({ id: runId, state: 'interrupted', error: STOPPED, owner: null, leaseExpiresAt: null });
    expect(row.finishedAt).toBeInstanceOf(Date);
    // The held batches were written after the signal, and the checkpoint counts every item written.
    expect(dynamo.counts.items).toBeGreaterThan(writtenBefore);
    expect(row.progress.testimonials!.done).toBe(dynamo.counts.items);
    await expectCheckpointWritten(db, tableName, row.progress.testimonials!);

    await resumeElsewhere(db, tableName, runId, row.progress.testimonials!.done);
  });
});

perDialect(
  'SIGTERM during a migration whose peer stopped answering',
  (database) => {
    let proxy: DynamoProxy;
    beforeAll(async () => {
      proxy = await startDynamoProxy(dynamo.endpoint);
    });
    afterAll(() => proxy?.close());

    it('cuts the batches in flight off after the grace and still records the run interrupted before the deadline', { timeout: 90_000 }, async () => {
      const tableName = `firm-stall-${randomUUID().slice(0, 8)}`;
      const { server, db, runId } = await migrationInFlight(database(), proxy, tableName);

      const signalled = Date.now();
      server.child.kill('SIGTERM');
      // The proxy never answers: only the stop's grace (5 s) ends the wait for the batches in flight.
      expect(await server.exited, server.stderr.join('\n')).toEqual({ code: 0, signal: null });
      const took = Date.now() - signalled;
      expect(took).toBeGreaterThanOrEqual(4_500);
      expect(took).toBeLessThan(SHUTDOWN_DEADLINE_MS);

      const row = await runRow(db);
      expect(row).toMatchObject({ id: runId, state: 'interrupted', error: STOPPED, owner: null, leaseExpiresAt: null });
      // Only what was confirmed: the batches cut off are not in the checkpoint.
      expect(row.progress.testimonials!.done).toBe(dynamo.counts.items);
      await expectCheckpointWritten(db, tableName, row.progress.testimonials!);

      // Resumed directly against dynalite; what the proxy still holds is let go after the test (the same items).
      await resumeElsewhere(db, tableName, runId, row.progress.testimonials!.done);
    });
  },
  ['sqlite'],
);
