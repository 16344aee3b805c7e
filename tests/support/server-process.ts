/**
 * The real server as a child process (`node api/server.ts --api-only`), for the tests that need a
 * process to kill or to stop (durability, graceful shutdown, backups while it writes, its
 * own log lines). It listens on a free port (PORT=0) and prints where; every line it writes is kept.
 * Below it, a booking and contact load to drive it over HTTP, and readers of what got stored.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase, type Database, type Dialect } from '../../db/client.ts';
import { addDays, firmInstant, firmToday } from '../../src/shared/firm-time.ts';
import { isBookableDay } from './bookable-days.ts';
import { testDatabaseUrl } from './test-database.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Every line written so far, stdout and stderr. */
  stdout: string[];
  stderr: string[];
  /** Settles when the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the first stdout line (from now on or already written) that matches. */
  waitForLine(match: (line: string) => boolean): Promise<string>;
}

/** A database the server process can open, made fresh for one test file. */
export interface ServerDatabase {
  dialect: Dialect;
  /** SQLITE_PATH or DATABASE_URL for the server. */
  env: Record<string, string>;
  /** A connection from the test itself (to read what was stored). */
  open(): Promise<Database>;
  drop(): Promise<void>;
}

export async function serverDatabase(dialect: Dialect): Promise<ServerDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'firm-server-'));
  const opened: Database[] = [];
  const open = async (options: { sqlitePath: string } | { databaseUrl: string }) => {
    const database = await openDatabase({ ...options, migrate: false });
    opened.push(database);
    return database;
  };
  if (dialect === 'sqlite') {
    const sqlitePath = join(dir, 'site.db');
    return {
      dialect,
      env: { SQLITE_PATH: sqlitePath, DATABASE_URL: '', SECRETS_KEY_FILE: join(dir, 'secrets.key'), OUTBOX_DIR: join(dir, 'outbox') },
      open: () => open({ sqlitePath }),
      async drop() {
        for (const database of opened) await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  // Empty: the server migrates it at start, as in production (and a test may migrate it partway first).
  const name = `firm_test_${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  return {
    dialect,
    env: { DATABASE_URL: databaseUrl, SECRETS_KEY_FILE: join(dir, 'secrets.key'), OUTBOX_DIR: join(dir, 'outbox') },
    open: () => open({ databaseUrl }),
    async drop() {
      for (const database of opened) await database.close();
      const cleanup = new pg.Client({ connectionString: testDatabaseUrl });
      await cleanup.connect();
      // A killed server's sessions linger a moment; the forced drop ends them.
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The server processes one test file starts: `start` on a database (its env, then `env`), `track`
 * for one started otherwise, and `killAll` for afterEach (a failed test may leave one behind: only
 * the ones this file started are ended). `running` holds those still alive.
 */
export function serverTracker() {
  const running = new Set<ServerProcess>();
  const track = (server: ServerProcess) => {
    running.add(server);
    void server.exited.then(() => running.delete(server));
    return server;
  };
  return {
    running,
    track,
    start: async (database: ServerDatabase, env: Record<string, string> = {}) => track(await startServerProcess({ ...database.env, ...env })),
    async killAll() {
      for (const server of running) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
    },
  };
}

/**
 * Starts `node api/server.ts --api-only` on a free port with `env` over the test's environment, and
 * resolves once it prints that it is ready. Rejects with its output if it ends first. `site`: the
 * site too (it needs `npm run build`); `nodeArgs`: options for node itself (`--import` a hook, say).
 */
export async function startServerProcess(env: Record<string, string>, options: { site?: boolean; nodeArgs?: string[] } = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--no-warnings', ...(options.nodeArgs ?? []), 'api/server.ts', ...(options.site ? [] : ['--api-only'])], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      SEED_SAMPLE_CONTENT: 'false',
      LOG_QUIET: 'true',
      // These tests send hundreds of requests from one address on purpose (the limits have tests of their own).
      RATE_LIMITS: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const waiters: { match(line: string): boolean; resolve(line: string): void }[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    stdout.push(line);
    for (const waiter of [...waiters]) {
      if (waiter.match(line)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const waitForLine = (match: (line: string) => boolean) =>
    new Promise<string>((resolve, reject) => {
      const found = stdout.find(match);
      if (found !== undefined) return resolve(found);
      waiters.push({ match, resolve });
      void exited.then(({ code, signal }) =>
        reject(new Error(`the server ended (code ${code}, signal ${signal}) before printing the line; its output:\n${[...stdout, ...stderr].join('\n')}`)),
      );
    });
  const ready = await waitForLine((line) => /ready at http:\/\//.test(line));
  const url = ready.match(/(http:\/\/\S+)/)![1]!;
  return { child, url, stdout, stderr, exited, waitForLine };
}

/** The JSON log lines the process wrote (its other output left out). */
export function logLines(lines: string[]): Record<string, unknown>[] {
  return lines.flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

// A booking and contact load over HTTP, and what it left in the database.

/** SPEC §9's slots, written out (the tests do not trust the code's copy). */
const SLOT_TIMES = ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '13:00', '13:30', '14:00', '14:30', '15:00', '15:30', '16:00'];

/**
 * `count` distinct 30-minute slots on bookable days (no weekend or holiday) from `fromDays` days ahead in firm time (the server's
 * clock is the real one here), as ISO instants.
 */
export function futureSlots(count: number, fromDays: number): string[] {
  const slots: string[] = [];
  for (let day = addDays(firmToday(new Date()), fromDays); slots.length < count; day = addDays(day, 1)) {
    if (!isBookableDay(day)) continue;
    for (const time of SLOT_TIMES) if (slots.length < count) slots.push(firmInstant(day, time).toISOString());
  }
  return slots;
}

/** `key`: sent as Idempotency-Key (decision 016), when set. */
export type Booking = { kind: 'booking'; slot: string; body: Record<string, unknown>; key?: string };
export type Contact = { kind: 'contact'; body: Record<string, unknown>; key?: string };
export type Operation = Booking | Contact;
export type Outcome = { op: Operation; status: number; body: Record<string, unknown> } | { op: Operation; lost: string };

let serial = 0;
export const booking = (slot: string): Booking => {
  const n = ++serial;
  return {
    kind: 'booking',
    slot,
    body: {
      firstName: `Durable${n}`,
      lastName: 'Client',
      email: `durable${n}@example.com`,
      phone: `(619) 555-${String(n % 10_000).padStart(4, '0')}`,
      consultationType: 'initial',
      practiceArea: 'family-law',
      notes: `Booking number ${n}`,
      scheduledDate: slot,
    },
  };
};
export const contact = (): Contact => {
  const n = ++serial;
  return {
    kind: 'contact',
    body: {
      firstName: `Writer${n}`,
      lastName: 'Client',
      email: `writer${n}@example.com`,
      phone: '',
      practiceArea: 'estate-planning',
      message: `Message number ${n}, please call me back.`,
    },
  };
};

export const pathOf = (op: Operation) => (op.kind === 'booking' ? '/api/appointments' : '/api/contact');

/** One POST over `agent`; rejects when the connection fails (refused, reset by a kill). */
export function send(url: string, agent: http.Agent, op: Operation): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', ...(op.key ? { 'idempotency-key': op.key } : {}) };
    const req = http.request(`${url}${pathOf(op)}`, { method: 'POST', agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        let body: Record<string, unknown> = {};
        try {
          body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
        } catch {
          body = { notJson: text.slice(0, 200) }; // a CDN's own error page, say
        }
        resolve({ status: res.statusCode!, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify(op.body));
  });
}

/**
 * `clients` concurrent clients work through `ops` in order, each waiting for its answer before taking
 * the next. `onAnswer` sees every answer as it arrives; once `stopped()` is true no client takes more.
 */
export async function drive(url: string, ops: Operation[], clients: number, onAnswer: (outcome: Outcome) => void, stopped = () => false): Promise<Outcome[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const queue = [...ops];
  const outcomes: Outcome[] = [];
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let op = queue.shift(); op && !stopped(); op = queue.shift()) {
        let outcome: Outcome;
        try {
          outcome = { op, ...(await send(url, agent, op)) };
        } catch (err) {
          outcome = { op, lost: (err as NodeJS.ErrnoException).code ?? String(err) };
        }
        outcomes.push(outcome);
        onAnswer(outcome);
        if ('lost' in outcome) return; // the server is gone: this client stops
      }
    }),
  );
  agent.destroy();
  return outcomes;
}

export const answered = (outcomes: Outcome[]) => outcomes.filter((o): o is Extract<Outcome, { status: number }> => 'status' in o);
export const ok = (outcomes: Outcome[]) => answered(outcomes).filter((o) => o.status >= 200 && o.status < 300);

/** What the database holds: appointments with their claims, and contact submissions. */
export async function stored(database: Database) {
  const { db, t } = database;
  const [appointments, claims, contacts] = await Promise.all([
    db.select().from(t.appointments),
    db.select().from(t.appointmentSlotClaims),
    db.select().from(t.contactSubmissions),
  ]);
  return { appointments, claims, contacts };
}

/** The booking's stored fields, in the shape the request sent them (the duration follows the type: 30). */
export const appointmentFields = (row: Awaited<ReturnType<typeof stored>>['appointments'][number]) => ({
  firstName: row.firstName,
  lastName: row.lastName,
  email: row.email,
  phone: row.phone,
  consultationType: row.consultationType,
  practiceArea: row.practiceArea,
  notes: row.notes,
  scheduledDate: row.scheduledDate.toISOString(),
  duration: row.duration,
  status: row.status,
});
export const contactFields = (row: Awaited<ReturnType<typeof stored>>['contacts'][number]) => ({
  firstName: row.firstName,
  lastName: row.lastName,
  email: row.email,
  phone: row.phone ?? '',
  practiceArea: row.practiceArea,
  message: row.message,
});
export const sentBooking = (body: Record<string, unknown>) => ({ ...body, duration: 30, status: 'scheduled' });

/**
 * Nothing half stored: every appointment holds exactly the one 30-minute cell its slot covers, and
 * every claim belongs to a stored appointment.
 */
export function halfStored({ appointments, claims }: Awaited<ReturnType<typeof stored>>): string[] {
  const problems: string[] = [];
  const ids = new Set(appointments.map((a) => a.id));
  for (const claim of claims)
    if (!ids.has(claim.appointmentId)) problems.push(`claim ${claim.startsAt.toISOString()} without its appointment ${claim.appointmentId}`);
  for (const a of appointments) {
    const held = claims.filter((c) => c.appointmentId === a.id).map((c) => c.startsAt.toISOString());
    if (JSON.stringify(held) !== JSON.stringify([a.scheduledDate.toISOString()]))
      problems.push(`appointment ${a.id} at ${a.scheduledDate.toISOString()} holds claims ${JSON.stringify(held)}`);
  }
  return problems;
}

/**
 * fetch for a GET, sent again once when the connection it reused was closed by the server as the
 * request left (a keep-alive race of loaded machines: `other side closed`); a GET changes nothing,
 * so sending it twice is safe.
 */
export async function getOnce(url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET') throw err;
    return fetch(url, init);
  }
}
