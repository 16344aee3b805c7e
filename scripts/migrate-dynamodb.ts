/**
 * npm run migrate:dynamodb -- <command> [options]
 *
 * The admin portal's migration wizard from a shell, for large data sets and for scripts: the same
 * service (api/migration), the same environment as the server (api/env.ts: DATABASE_URL or
 * SQLITE_PATH, AWS_REGION, credentials, DYNAMODB_ENDPOINT, DYNAMODB_TABLE), the same runs: a run
 * started here shows in the wizard and the other way round, and either resumes the other's.
 * Exit status: 0 done (verify: no mismatch), 1 failed (verify: mismatches), 2 usage, 130 interrupted.
 */
import { parseArgs } from 'node:util';
import { systemClock } from '../api/clock.ts';
import { EnvError, loadEnv, migrationSettings } from '../api/env.ts';
import { HttpError } from '../api/http/errors.ts';
import { createLogger } from '../api/logger.ts';
import { createMigrationService, type MigrationService } from '../api/migration/migration.service.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { migrationSetupAlert, type MigrationRun, type VerificationResult } from '../src/shared/migration.ts';

const USAGE = `Usage: npm run migrate:dynamodb -- <command> [options]

Commands:
  status         the relational database, DynamoDB settings and the latest run
  create-table   create the DynamoDB table (single-table design) if missing, wait until ACTIVE,
                 and print it as an AWS CLI command; harmless when it exists
  migrate        copy every kind to DynamoDB, or resume the last unfinished run from its checkpoints;
                 a progress bar per kind (plain lines when not on a terminal)
  verify         compare counts and every item field by field; lists mismatches (exit 1 if any)

Options:
  --concurrency <n>   BatchWriteItem calls in flight (default 8)
  --json              print the result as JSON (for scripts)
  -h, --help          this text

Reads the same environment as the server (see .env.example): DATABASE_URL or SQLITE_PATH,
AWS_REGION with credentials (or DYNAMODB_ENDPOINT), DYNAMODB_TABLE (default firm-site).`;

export interface CommandIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Redraw progress bars in place. */
  tty: boolean;
}

const nodeIo: CommandIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  tty: Boolean(process.stdout.isTTY),
};

export async function runCommand(argv: string[], env: Record<string, string | undefined> = process.env, io: CommandIo = nodeIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { concurrency: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (err) {
    io.err(`migrate:dynamodb: ${(err as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(`${USAGE}\n`);
    return 0;
  }
  const command = positionals[0];
  if (!command || positionals.length > 1 || !['status', 'create-table', 'migrate', 'verify'].includes(command)) {
    io.err(`migrate:dynamodb: ${command ? `unknown command "${positionals.join(' ')}"` : 'a command is required'}\n\n${USAGE}\n`);
    return 2;
  }
  const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
  if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)) {
    io.err('migrate:dynamodb: --concurrency must be a whole number from 1 to 64\n');
    return 2;
  }

  let database: Database | null = null;
  let service: MigrationService | null = null;
  const interrupt = () => {
    io.err('\nStopping: the run will be marked interrupted; run `migrate` again to resume it.\n');
    void service?.stop();
  };
  try {
    const loaded = loadEnv(env);
    database = await openDatabase({ databaseUrl: loaded.DATABASE_URL, sqlitePath: loaded.SQLITE_PATH });
    const settings = migrationSettings(loaded);
    service = createMigrationService({
      database,
      clock: systemClock,
      log: createLogger({ silent: true }),
      migration: { ...settings, tuning: { ...settings.tuning, ...(concurrency ? { concurrency } : {}) } },
    });
    process.once('SIGINT', interrupt);
    process.once('SIGTERM', interrupt);
    switch (command) {
      case 'status':
        return await status(service, io, Boolean(values.json));
      case 'create-table':
        return await createTable(service, io, Boolean(values.json));
      case 'migrate':
        return await migrate(service, io, Boolean(values.json));
      default:
        return await verify(service, io, Boolean(values.json));
    }
  } catch (err) {
    const message = err instanceof HttpError || err instanceof EnvError || err instanceof Error ? err.message : String(err);
    io.err(`migrate:dynamodb: ${message}\n`);
    return 1;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await service?.stop();
    await database?.close();
  }
}

async function status(service: MigrationService, io: CommandIo, json: boolean): Promise<number> {
  const s = await service.status();
  const run = await service.latestRun();
  if (json) {
    io.out(`${JSON.stringify({ status: s, run }, null, 2)}\n`);
    return s.ready ? 0 : 1;
  }
  io.out(
    [
      `Relational database (${s.database}): ${s.postgresConfigured ? 'Connected' : 'Not Connected'}`,
      `DynamoDB: ${s.awsConfigured ? 'Configured' : 'Not Configured'}, region ${s.awsRegion ?? 'Not Set'}, table ${s.tableName}`,
      migrationSetupAlert(s),
      run ? `Latest run ${run.id}: ${run.state}, ${summary(run)}${run.error ? `\n  ${run.error}` : ''}` : 'No migration run yet.',
      '',
    ].join('\n'),
  );
  return s.ready ? 0 : 1;
}

async function createTable(service: MigrationService, io: CommandIo, json: boolean): Promise<number> {
  const result = await service.createTable();
  if (json) io.out(`${JSON.stringify(result, null, 2)}\n`);
  else io.out(`${result.created ? 'Created' : 'Already there:'} table "${result.tableName}" (ACTIVE).\n\nAs an AWS CLI command:\n\n${result.cliCommand}\n`);
  return 0;
}

async function migrate(service: MigrationService, io: CommandIo, json: boolean): Promise<number> {
  const bars = json ? null : progressDisplay(io);
  const unsubscribe = service.onProgress((run) => bars?.draw(run));
  try {
    const started = await service.startMigration();
    bars?.draw(started.run);
    let run: MigrationRun;
    if (started.finished) {
      run = await started.finished;
    } else {
      // Another process (the server, or another shell) is running it: follow its progress.
      io.err(`A migration started ${started.run.startedAt} is running in another process; following it.\n`);
      run = started.run;
      while (run.state === 'running') {
        await new Promise((r) => setTimeout(r, 1_000));
        run = (await service.latestRun()) ?? run;
        bars?.draw(run);
      }
    }
    bars?.draw(run);
    if (json) io.out(`${JSON.stringify({ run }, null, 2)}\n`);
    else io.out(run.state === 'completed' ? `Migration Completed: ${summary(run)}.\n` : `Migration ${run.state}: ${run.error ?? ''}\n`);
    return run.state === 'completed' ? 0 : run.state === 'interrupted' ? 130 : 1;
  } finally {
    unsubscribe();
  }
}

async function verify(service: MigrationService, io: CommandIo, json: boolean): Promise<number> {
  const result: VerificationResult = await service.verify();
  if (json) {
    io.out(`${JSON.stringify(result, null, 2)}\n`);
    return result.ok ? 0 : 1;
  }
  const width = Math.max(...result.kinds.map((k) => k.label.length));
  const lines = [`${'kind'.padEnd(width)}  relational  DynamoDB  mismatches`];
  for (const k of result.kinds)
    lines.push(`${k.label.padEnd(width)}  ${String(k.source).padStart(10)}  ${String(k.target).padStart(8)}  ${String(k.mismatches).padStart(10)}`);
  for (const m of result.mismatches) lines.push(`  ${m.kind} ${m.id}: ${m.problem}`);
  const total = result.kinds.reduce((n, k) => n + k.mismatches, 0);
  if (total > result.mismatches.length) lines.push(`  … and ${total - result.mismatches.length} more`);
  lines.push(result.ok ? 'Verification Complete: every item matches.' : `Verification Failed: ${total} mismatch(es).`, '');
  io.out(lines.join('\n'));
  return result.ok ? 0 : 1;
}

const summary = (run: MigrationRun) => {
  const done = run.kinds.reduce((n, k) => n + k.done, 0);
  const total = run.kinds.reduce((n, k) => n + k.total, 0);
  return `${done} of ${total} rows`;
};

/** A bar per kind, redrawn in place on a terminal; elsewhere a line per finished kind and one every 5 s. */
function progressDisplay(io: CommandIo) {
  let drawn = 0;
  let lastLine = 0;
  const finished = new Set<string>();
  const width = 28;
  return {
    draw(run: MigrationRun) {
      if (io.tty) {
        const labelWidth = Math.max(...run.kinds.map((k) => k.label.length));
        const lines = run.kinds.map((k) => {
          const share = k.total === 0 ? 1 : Math.min(1, k.done / k.total);
          const filled = Math.round(share * width);
          return `  ${k.label.padEnd(labelWidth)} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${k.done}/${k.total}`;
        });
        io.out(`${drawn ? `\x1b[${drawn}A` : ''}${lines.map((l) => `\x1b[2K${l}`).join('\n')}\n`);
        drawn = lines.length;
        return;
      }
      for (const k of run.kinds) {
        if (k.done < k.total || finished.has(k.kind)) continue;
        finished.add(k.kind);
        io.out(`${k.label}: ${k.done}/${k.total}\n`);
      }
      if (Date.now() - lastLine >= 5_000 && run.state === 'running') {
        lastLine = Date.now();
        io.out(`progress: ${summary(run)}\n`);
      }
    },
  };
}

if (import.meta.main) process.exit(await runCommand(process.argv.slice(2)));
