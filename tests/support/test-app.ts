/**
 * The API in-process over a real database (ARCHITECTURE Testing layers). `forEachDialect` runs the same
 * suite on SQLite and on PostgreSQL; `ctx.call` speaks HTTP to the app without a socket.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import type { Dialect } from '../../db/client.ts';
import { seedDatabase } from '../../db/seed/seed.ts';
import { createApp, type App } from '../../api/app.ts';
import { embeddedAdminDirectory } from '../../api/admins/admin-directory.ts';
import { parseAllowlist } from '../../api/auth/admin-allowlist.ts';
import type { AccessTokenVerifier } from '../../api/auth/verifier.ts';
import { embeddedInvitations } from '../../api/identity/admission.ts';
import { startEmbeddedIdentity, type EmbeddedIdentity } from '../../api/identity/embedded-identity.ts';
import { createContentEvents, type ContentChange } from '../../api/content-events.ts';
import type { Clock } from '../../api/clock.ts';
import type { Deps, IntegrationSettings } from '../../api/deps.ts';
import { startBackgroundWork, type BackgroundWork } from '../../api/composition.ts';
import { ADMIN_TOKEN, testDeps, testIdentity, testIntegrations, testSecrets, testVerifier } from './test-deps.ts';

export { ADMIN_TOKEN, NON_ADMIN_TOKEN, testDeps, testIdentity, testIntegrations, testVerifier } from './test-deps.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

export interface CallResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestContext {
  dialect: Dialect;
  app: App;
  database: TestDatabase;
  /** Content-change events the services announced, in order. */
  changes: ContentChange[];
  clock: { now(): Date; set(date: Date | string): void };
  /** What createApp was given (the outbox, the delivery queue, the integration settings). */
  deps: Deps;
  /** Mail, calendar sync, reminders and feeds, run by hand (nothing is scheduled in tests). */
  background: BackgroundWork;
  /** JSON request to the app; `token` defaults to none. */
  call<T = any>(
    method: string,
    path: string,
    options?: { body?: unknown; rawBody?: string; token?: string; headers?: Record<string, string> },
  ): Promise<CallResult<T>>;
  /** The embedded identity service's operator commands, with `embeddedAdmins` (to make admins). */
  embeddedAdmins: EmbeddedIdentity['admins'] | null;
  /** The same, as the admin. */
  admin<T = any>(method: string, path: string, body?: unknown): Promise<CallResult<T>>;
}

export interface ContextOptions {
  seed?: boolean | { sampleContent: boolean };
  migration?: Deps['migration'];
  identity?: Deps['identity'];
  verifier?: AccessTokenVerifier;
  integrations?: Partial<IntegrationSettings>;
  /**
   * The Admins screen's calls over the embedded identity service's admin group in this database (its
   * gateway stays off: the test tokens still sign in). Unset: those calls answer 503.
   */
  embeddedAdmins?: boolean;
}

export async function createTestContext(dialect: Dialect, options: ContextOptions = {}): Promise<TestContext> {
  const database = await createTestDatabase(dialect);
  if (options.seed) await seedDatabase(database, typeof options.seed === 'object' ? options.seed : {});
  let fixed: Date | null = null;
  const clock: Clock & TestContext['clock'] = {
    now: () => fixed ?? new Date(),
    set: (d) => {
      fixed = new Date(d);
    },
  };
  const changes: ContentChange[] = [];
  const events = createContentEvents();
  events.subscribe((change) => {
    changes.push(change);
  });
  const pool = options.embeddedAdmins
    ? await startEmbeddedIdentity({ database, secrets: testSecrets, clock, allowlist: parseAllowlist(''), sendCode: () => {} })
    : null;
  // Its invitations, mailed to the development outbox (no email setting here).
  const invitations = pool
    ? embeddedInvitations({
        database,
        clock,
        siteUrl: 'http://localhost:4321',
        send: async (message) => {
          deps.outbox.deliver(message);
          return 'held';
        },
      })
    : null;
  const deps = testDeps(database, {
    clock,
    verifier: options.verifier ?? testVerifier,
    events,
    migration: options.migration ?? { awsConfigured: false, awsRegion: null },
    identity: options.identity ?? testIdentity,
    integrations: testIntegrations(options.integrations),
    adminDirectory: pool ? embeddedAdminDirectory(pool, parseAllowlist(''), invitations) : null,
  });
  const app = createApp(deps);
  const background = startBackgroundWork(deps, { schedule: false });
  const call: TestContext['call'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    let body: string | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const res = await app.request(path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as any, headers: res.headers };
  };
  return {
    dialect,
    app,
    database,
    changes,
    clock,
    deps,
    background,
    embeddedAdmins: pool?.admins ?? null,
    call,
    admin: (method, path, body) => call(method, path, { body, token: ADMIN_TOKEN }),
  };
}

/**
 * Runs `suite` once per dialect, each with its own fresh database. `ctx()` is valid inside tests.
 */
export function forEachDialect(name: string, suite: (ctx: () => TestContext) => void, options: ContextOptions = {}) {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    describe(`${name} [${dialect}]`, () => {
      let context: TestContext | undefined;
      beforeAll(async () => {
        context = await createTestContext(dialect, options);
      });
      afterAll(async () => {
        await context?.background.stop();
        await context?.database.drop();
      });
      suite(() => {
        if (!context) throw new Error('test context not ready');
        return context;
      });
    });
  }
}

/** Row count of a table, straight from the database: what a rejected request must not change. */
export async function countRows(ctx: TestContext, table: keyof TestDatabase['t']): Promise<number> {
  const { db, t } = ctx.database;
  const rows = await db.select().from(t[table] as any);
  return rows.length;
}
