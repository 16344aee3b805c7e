/**
 * npm run db:backup [-- <file or folder>] [-- --run]
 *
 * SQLite (the embedded default): writes a consistent copy of the database while the site runs, with
 * `VACUUM INTO` on a read-only connection. It reads one snapshot (a single read transaction: in WAL
 * mode the site's writers go on meanwhile, and the copy holds every transaction committed before the
 * snapshot and none after), where the online backup API would start over each time the site writes.
 * The copy is written under a temporary name, flushed to disk, checked (`PRAGMA integrity_check`,
 * rows per table) and only then given its name: a file named site-*.db is always a whole backup.
 * Default destination: `backups/site-<UTC timestamp>.db` beside the database (data/backups/ for
 * data/site.db); a folder argument puts that name in the folder.
 *
 * PostgreSQL (DATABASE_URL set): prints the pg_dump command for this database (pg_dump also reads one
 * snapshot while the site runs), without the password; `--run` runs it and checks the archive with
 * pg_restore --list. Exit status: 0 done, 1 failed, 2 usage.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { EnvError, loadEnv } from '../api/env.ts';

const USAGE = `Usage: npm run db:backup [-- <file or folder>] [-- --run]

SQLite (SQLITE_PATH, default data/site.db): a consistent copy while the site runs, checked with
PRAGMA integrity_check; by default into backups/site-<UTC timestamp>.db beside the database.
PostgreSQL (DATABASE_URL): prints the pg_dump command (without the password); --run runs it.`;

export interface BackupIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

const nodeIo: BackupIo = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

/** 2026-11-21T15:20:00.123Z -> 20261121T152000Z: sorts by time, safe in any file system. */
export const backupStamp = (now: Date) =>
  now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');

const size = (bytes: number) => (bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/** Where the copy goes: the argument (a file, or a folder to put the default name in), else backups/ beside the database. */
function destinationFor(argument: string | undefined, databaseDir: string, fileName: string): string {
  if (!argument) return join(databaseDir, 'backups', fileName);
  const path = resolve(argument);
  const isFolder = argument.endsWith('/') || (existsSync(path) && statSync(path).isDirectory());
  return isFolder ? join(path, fileName) : path;
}

/** Tables and their row counts, from a database handle (the copy). */
function rowCounts(db: BetterSqlite3.Database): Record<string, number> {
  const tables = db.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`).pluck().all() as string[];
  return Object.fromEntries(
    tables.map((name) => [
      name,
      db
        .prepare(`select count(*) from "${name.replace(/"/g, '""')}"`)
        .pluck()
        .get() as number,
    ]),
  );
}

export function backupSqlite(sqlitePath: string, argument: string | undefined, io: BackupIo, now = new Date()): number {
  const source = resolve(sqlitePath);
  if (!existsSync(source)) {
    io.err(`db:backup: there is no database at ${source} (SQLITE_PATH). Start the site once to create it.\n`);
    return 1;
  }
  const destination = destinationFor(argument, dirname(source), `site-${backupStamp(now)}.db`);
  if (existsSync(destination)) {
    io.err(`db:backup: ${destination} exists already; choose another name (a backup never overwrites one).\n`);
    return 1;
  }
  mkdirSync(dirname(destination), { recursive: true, mode: 0o700 });
  const partial = join(dirname(destination), `.${basename(destination)}.partial`);
  rmSync(partial, { force: true });
  try {
    // Read-only: the backup can never change the site's data. busy_timeout: wait out a checkpoint.
    const live = new BetterSqlite3(source, { readonly: true, fileMustExist: true });
    try {
      live.pragma('busy_timeout = 10000');
      live.prepare('VACUUM INTO ?').run(partial);
    } finally {
      live.close();
    }
    chmodSync(partial, 0o600); // a copy of clients' data: this user's only, like the database
    // VACUUM INTO does not sync what it wrote: a backup must survive a power cut too.
    const fd = openSync(partial, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    const copy = new BetterSqlite3(partial, { readonly: true, fileMustExist: true });
    let integrity: string;
    let counts: Record<string, number>;
    try {
      integrity = (copy.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
      counts = rowCounts(copy);
    } finally {
      copy.close();
    }
    if (integrity !== 'ok') {
      io.err(`db:backup: the copy failed PRAGMA integrity_check (${integrity}); it is left at ${partial} for inspection.\n`);
      return 1;
    }
    renameSync(partial, destination);
    const dirFd = openSync(dirname(destination), 'r');
    try {
      fsyncSync(dirFd); // the new name survives a power cut as well
    } finally {
      closeSync(dirFd);
    }
    const bytes = statSync(destination).size;
    io.out(`Backed up ${source}\n       to ${destination} (${size(bytes)}, ${bytes} bytes)\n`);
    io.out(
      `integrity_check: ok\nrows: ${Object.entries(counts)
        .map(([table, n]) => `${table} ${n}`)
        .join(', ')}\n`,
    );
    io.out(`Restore: stop the site, then copy it over ${source} (and delete ${basename(source)}-wal and ${basename(source)}-shm beside it).\n`);
    return 0;
  } catch (err) {
    rmSync(partial, { force: true });
    io.err(`db:backup: the backup of ${source} failed: ${(err as Error).message}\n`);
    return 1;
  }
}

/**
 * pg_dump's options for a URL. The password is kept apart (given to pg_dump in PGPASSWORD, never
 * printed); an sslmode in the URL becomes PGSSLMODE.
 */
export function pgDumpArgs(databaseUrl: string, file: string): { args: string[]; password: string | null; sslmode: string | null } {
  const url = new URL(databaseUrl);
  const args = ['--format=custom', `--host=${url.hostname}`, `--port=${url.port || '5432'}`];
  if (url.username) args.push(`--username=${decodeURIComponent(url.username)}`);
  args.push(`--dbname=${decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres'}`, `--file=${file}`);
  return { args, password: url.password ? decodeURIComponent(url.password) : null, sslmode: url.searchParams.get('sslmode') };
}

const shellQuote = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);

export function backupPostgres(databaseUrl: string, argument: string | undefined, run: boolean, io: BackupIo, now = new Date()): number {
  const destination = destinationFor(argument, resolve('data'), `site-${backupStamp(now)}.dump`);
  const { args, password, sslmode } = pgDumpArgs(databaseUrl, destination);
  const command = `${sslmode ? `PGSSLMODE=${shellQuote(sslmode)} ` : ''}pg_dump ${args.map(shellQuote).join(' ')}`;
  if (!run) {
    io.out(
      `PostgreSQL (DATABASE_URL): back it up with pg_dump, which reads one consistent snapshot while the site runs:\n\n` +
        `  mkdir -p ${shellQuote(dirname(destination))}\n  ${command}\n\n` +
        `The password is not shown: give it in PGPASSWORD or ~/.pgpass${password ? '' : ' (if the server asks for one)'}. ` +
        `Or run \`npm run db:backup -- --run\` to have this script run it.\n` +
        `Restore into a new, empty database: createdb <name> && pg_restore --no-owner --dbname=<name> ${shellQuote(destination)}\n`,
    );
    return 0;
  }
  if (existsSync(destination)) {
    io.err(`db:backup: ${destination} exists already; choose another name.\n`);
    return 1;
  }
  mkdirSync(dirname(destination), { recursive: true, mode: 0o700 });
  io.out(`Running: ${command}\n`);
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}), ...(sslmode ? { PGSSLMODE: sslmode } : {}) };
  const dump = spawnSync('pg_dump', args, { env, encoding: 'utf8' });
  if (dump.error || dump.status !== 0) {
    rmSync(destination, { force: true });
    io.err(`db:backup: pg_dump failed: ${dump.error?.message ?? dump.stderr.trim()}\n`);
    return 1;
  }
  chmodSync(destination, 0o600);
  const list = spawnSync('pg_restore', ['--list', destination], { encoding: 'utf8' });
  if (list.error || list.status !== 0) {
    io.err(`db:backup: pg_restore --list cannot read the archive: ${list.error?.message ?? list.stderr.trim()}\n`);
    return 1;
  }
  const tables = list.stdout.split('\n').filter((line) => / TABLE DATA /.test(line)).length;
  const bytes = statSync(destination).size;
  io.out(`Backed up to ${destination} (${size(bytes)}, ${bytes} bytes; ${tables} tables with data)\n`);
  return 0;
}

export function runBackup(argv: string[], env: Record<string, string | undefined> = process.env, io: BackupIo = nodeIo): number {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { run: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    io.err(`db:backup: ${(err as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed.values.help) {
    io.out(`${USAGE}\n`);
    return 0;
  }
  if (parsed.positionals.length > 1) {
    io.err(`db:backup: one destination at most.\n\n${USAGE}\n`);
    return 2;
  }
  let settings;
  try {
    settings = loadEnv(env);
  } catch (err) {
    io.err(`${err instanceof EnvError ? err.message : String(err)}\n`);
    return 2;
  }
  const [argument] = parsed.positionals;
  if (settings.DATABASE_URL) return backupPostgres(settings.DATABASE_URL, argument, Boolean(parsed.values.run), io);
  return backupSqlite(settings.SQLITE_PATH, argument, io);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exit(runBackup(process.argv.slice(2)));
