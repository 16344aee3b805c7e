/** The site as the bench runs it: one server process on its own SQLite file, quiet logs, no rate limits. */
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../api/server-flags.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
export const ADMIN_DOMAIN = 'bench.example.com';

/** Resident memory of a process, in MB. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

/**
 * The database and secrets of a site in `dir` (for seeding it before it starts), and the folder of
 * held mail files it would import (kept in `dir`, so a developer's data/outbox is never touched).
 */
export const siteFiles = (dir: string) => ({
  SQLITE_PATH: join(dir, 'site.db'),
  SECRETS_KEY_FILE: join(dir, 'secrets.key'),
  OUTBOX_DIR: join(dir, 'outbox'),
});

/** Where the held mail of a site in `dir` is read (tests/support/held-mail.ts). */
export const siteStore = (dir: string) => ({ sqlitePath: join(dir, 'site.db'), secretsKeyFile: join(dir, 'secrets.key') });

/** Starts the built site on `dir`'s files; resolves once /api/health answers, with the time it took. */
export async function startSite(dir: string): Promise<{ child: ChildProcess; origin: string; coldStartMs: number }> {
  const port = 4500 + Math.floor(Math.random() * 400);
  const started = performance.now();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'api/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      ...SERVER_ENV,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      ...siteFiles(dir),
      ADMIN_EMAILS: `@${ADMIN_DOMAIN}`,
      LOG_QUIET: 'true',
      // Throughput of the work itself: 50 clients from one address would otherwise meet the per-client limits.
      RATE_LIMITS: 'off',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error('the server exited during start');
    const ok = await fetch(`${origin}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return { child, origin, coldStartMs: Math.round(performance.now() - started) };
}
