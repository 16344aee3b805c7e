/**
 * `npm run db:backup` while the site runs. The real server takes a booking and contact
 * load the whole time; the backup is taken in the middle of it. The copy opens, passes
 * `PRAGMA integrity_check`, and holds a consistent prefix of what was written: everything answered
 * before the backup began, nothing that is not in the live database, and no appointment without its
 * slot claim (or claim without its appointment). SQLite is copied by the script itself; on PostgreSQL
 * the script prints the pg_dump command (never the password) and runs it with --run.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client.ts';
import {
  appointmentFields,
  booking,
  contact,
  contactFields,
  drive,
  futureSlots,
  halfStored,
  ok,
  serverDatabase,
  startServerProcess,
  stored,
  type Operation,
  type Outcome,
  type ServerDatabase,
  type ServerProcess,
} from '../support/server-process.ts';
import { testDatabaseUrl } from '../support/test-database.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** `node scripts/db-backup.ts ...args` with `env`: its exit status and output. */
function backup(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--no-warnings', 'scripts/db-backup.ts', ...args], { cwd: root, env: { ...process.env, ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/**
 * Runs the load against `server` and, once `before` writes have been answered, the backup: resolves
 * with what was answered before the backup began, while it ran, and its result. The load stops a few
 * answers after the backup ends.
 */
async function backupDuringLoad(server: ServerProcess, runBackup: () => Promise<{ code: number; stdout: string; stderr: string }>) {
  const slots = futureSlots(400, 120);
  const ops: Operation[] = [];
  for (const [i, slot] of slots.entries()) ops.push(booking(slot), ...(i % 2 ? [contact()] : []));
  const answeredBefore: Outcome[] = [];
  let during = 0;
  let after = 0;
  let phase: 'before' | 'during' | 'after' = 'before';
  let result: Promise<{ code: number; stdout: string; stderr: string }> | null = null;
  const BEFORE = 40;
  const load = drive(
    server.url,
    ops,
    8,
    (outcome) => {
      if (!('status' in outcome) || outcome.status >= 300) return;
      if (phase === 'before') {
        answeredBefore.push(outcome);
        if (answeredBefore.length === BEFORE) {
          // Everything answered so far was committed before the backup starts.
          phase = 'during';
          result = runBackup().then((r) => {
            phase = 'after';
            return r;
          });
        }
      } else if (phase === 'during') during++;
      else after++;
    },
    () => after >= 20,
  );
  const outcomes = await load;
  expect(result, 'the load ended before the backup began').not.toBeNull();
  return { answeredBefore, during, outcomes, result: await result! };
}

/** The copy's claims all belong to its appointments and the other way round, and it is a subset of the live data. */
async function expectConsistentPrefix(copy: Database, live: Database, answeredBefore: Outcome[]) {
  const inCopy = await stored(copy);
  const inLive = await stored(live);
  expect(inCopy.appointments.length).toBeGreaterThan(0);
  expect(halfStored(inCopy)).toEqual([]);
  // Everything answered before the backup began is in it, exactly as stored live.
  const copyAppointments = new Map(inCopy.appointments.map((a) => [a.id, a]));
  const copyContacts = new Map(inCopy.contacts.map((c) => [c.id, c]));
  for (const o of ok(answeredBefore)) {
    const id = o.body.id as string;
    if (o.op.kind === 'booking') expect(copyAppointments.has(id), `booking ${id} answered before the backup`).toBe(true);
    else expect(copyContacts.has(id), `message ${id} answered before the backup`).toBe(true);
  }
  // Nothing in it that the live database does not hold, field for field.
  const liveAppointments = new Map(inLive.appointments.map((a) => [a.id, appointmentFields(a)]));
  const liveContacts = new Map(inLive.contacts.map((c) => [c.id, contactFields(c)]));
  for (const a of inCopy.appointments) expect(appointmentFields(a)).toEqual(liveAppointments.get(a.id));
  for (const c of inCopy.contacts) expect(contactFields(c)).toEqual(liveContacts.get(c.id));
  // The site went on writing after the copy's snapshot.
  expect(inLive.appointments.length + inLive.contacts.length).toBeGreaterThan(inCopy.appointments.length + inCopy.contacts.length);
  return inCopy;
}

const running = new Set<ServerProcess>();
afterEach(async () => {
  for (const server of running) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  running.clear();
});

describe('npm run db:backup [sqlite]', () => {
  let database: ServerDatabase;
  const dir = mkdtempSync(join(tmpdir(), 'firm-backup-'));
  beforeAll(async () => {
    database = await serverDatabase('sqlite');
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies the database while the site writes: the copy passes integrity_check and holds a consistent prefix', { timeout: 120_000 }, async () => {
    const server = await startServerProcess(database.env);
    running.add(server);
    // A reader in another connection keeps its snapshot for the whole load, as a long report would:
    // no checkpoint can pass it, so the database file alone stays behind and only a copy that reads
    // through the write-ahead log holds what was written (a plain file copy would not).
    const reader = new BetterSqlite3(database.env.SQLITE_PATH!, { readonly: true });
    reader.exec('begin');
    const seenByReader = reader.prepare('select count(*) from appointments').pluck().get();
    const destination = join(dir, 'during-load.db');
    const { answeredBefore, during, result } = await backupDuringLoad(server, () => backup([destination], { SQLITE_PATH: database.env.SQLITE_PATH! })).finally(
      () => {
        reader.exec('commit');
        reader.close();
      },
    );
    expect(seenByReader).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // The site kept answering while the backup ran.
    expect(during).toBeGreaterThan(0);

    // It says where and how big, and what it checked.
    const bytes = statSync(destination).size;
    expect(result.stdout).toContain(`to ${destination} (`);
    expect(result.stdout).toContain(`${bytes} bytes`);
    expect(result.stdout).toContain('integrity_check: ok');
    const printed = Object.fromEntries([...result.stdout.match(/^rows: (.*)$/m)![1]!.matchAll(/(\w+) (\d+)/g)].map((m) => [m[1], Number(m[2])]));

    const copy = await openDatabase({ sqlitePath: destination, migrate: false });
    const live = await database.open();
    try {
      const raw = (copy.db as unknown as { $client: { pragma(s: string, o: { simple: true }): unknown } }).$client;
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
      const inCopy = await expectConsistentPrefix(copy, live, answeredBefore);
      expect(printed).toMatchObject({
        appointments: inCopy.appointments.length,
        appointment_slot_claims: inCopy.claims.length,
        contact_submissions: inCopy.contacts.length,
      });
    } finally {
      await copy.close();
    }
  });

  it('by default writes backups/site-<UTC timestamp>.db beside the database, and never overwrites a backup', async () => {
    const backups = join(database.env.SQLITE_PATH!, '..', 'backups');
    const first = await backup([], { SQLITE_PATH: database.env.SQLITE_PATH! });
    expect(first.code).toBe(0);
    const files = readdirSync(backups);
    expect(files).toEqual([expect.stringMatching(/^site-\d{8}T\d{6}Z\.db$/)]);
    expect(first.stdout).toContain(join(backups, files[0]!));

    const again = await backup([join(backups, files[0]!)], { SQLITE_PATH: database.env.SQLITE_PATH! });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists already');
    expect(readdirSync(backups)).toEqual(files); // no partial file left behind either
  });

  it('refuses clearly when there is no database', async () => {
    const missing = join(dir, 'nothing-here.db');
    const result = await backup([join(dir, 'x.db')], { SQLITE_PATH: missing });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`there is no database at ${missing}`);
    expect(existsSync(join(dir, 'x.db'))).toBe(false);
  });
});

describe('npm run db:backup [postgres]', () => {
  let database: ServerDatabase;
  const dir = mkdtempSync(join(tmpdir(), 'firm-backup-'));
  const restored = `firm_restore_${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;
  /** The URL with a password in it: trust authentication ignores it, and it must never be printed. */
  const PASSWORD = 'never-print-this-9f2c';
  const withPassword = () => {
    const url = new URL(database.env.DATABASE_URL!);
    url.password = PASSWORD;
    return url.toString();
  };
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: testDatabaseUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  beforeAll(async () => {
    database = await serverDatabase('postgres');
  });
  afterAll(async () => {
    await database?.drop();
    await admin(`drop database if exists ${restored} with (force)`);
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the pg_dump command for DATABASE_URL, without the password', async () => {
    const result = await backup([], { DATABASE_URL: withPassword() });
    expect(result.code).toBe(0);
    const name = new URL(database.env.DATABASE_URL!).pathname.slice(1);
    expect(result.stdout).toMatch(
      new RegExp(`pg_dump --format=custom --host=127\\.0\\.0\\.1 --port=5432 --username=postgres --dbname=${name} --file=\\S+/site-\\d{8}T\\d{6}Z\\.dump`),
    );
    expect(result.stdout + result.stderr).not.toContain(PASSWORD);
  });

  it('--run dumps while the site writes; the archive restores into a consistent prefix', { timeout: 120_000 }, async () => {
    const server = await startServerProcess(database.env);
    running.add(server);
    const destination = join(dir, 'during-load.dump');
    const { answeredBefore, during, result } = await backupDuringLoad(server, () => backup(['--run', destination], { DATABASE_URL: withPassword() }));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(during).toBeGreaterThan(0);
    expect(result.stdout + result.stderr).not.toContain(PASSWORD);
    expect(result.stdout).toContain(`Backed up to ${destination} (`);

    await admin(`create database ${restored}`);
    const url = new URL(testDatabaseUrl);
    url.pathname = `/${restored}`;
    const restore = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile('pg_restore', ['--no-owner', `--dbname=${url}`, destination], (err, _out, stderr) => resolve({ code: err ? 1 : 0, stderr })),
    );
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    const copy = await openDatabase({ databaseUrl: url.toString(), migrate: false });
    const live = await database.open();
    try {
      await expectConsistentPrefix(copy, live, answeredBefore);
    } finally {
      await copy.close();
    }
  });
});
