/**
 * The W3C Nu Html Checker (vnu-jar, run with the machine's Java) over every public page the server
 * sends, an article, the sign-in page and a 404, as a visitor's browser gets them (issue 18: "Nu HTML
 * checker with no errors on every route"). Its errors are listed with their page and line.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { publicRoutes } from '../../src/components/blog/public-routes.ts';
import { serverDatabase, startServerProcess, type ServerDatabase } from '../support/server-process.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
// The package's main export is the jar's path (a String object).
const vnu = String(createRequire(import.meta.url)('vnu-jar'));

let database: ServerDatabase;
let files: Map<string, string>;

beforeAll(async () => {
  execFileSync('flock', ['/tmp/firm-site-build.lock', process.execPath, 'scripts/build-if-needed.ts'], { cwd: root, stdio: 'ignore' });
  database = await serverDatabase('sqlite');
  const server = await startServerProcess({ ...database.env, SEED_SAMPLE_CONTENT: 'true' }, { site: true });
  const posts = (await (await fetch(`${server.url}/api/blog-posts?limit=1`)).json()) as { slug: string }[];
  const dir = mkdtempSync(join(tmpdir(), 'firm-vnu-'));
  files = new Map();
  for (const path of [...publicRoutes, `/blog/${posts[0]!.slug}`, '/login', '/manage-booking', '/no-such-page', '/blog/no-such-article']) {
    const res = await fetch(`${server.url}${path}`);
    expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
    const file = join(dir, `${path.replace(/[^a-z0-9]+/gi, '_') || 'home'}.html`);
    writeFileSync(file, await res.text());
    files.set(file, path);
  }
  server.child.kill('SIGTERM');
  await server.exited;
}, 240_000);

afterAll(async () => {
  await database?.drop();
});

it('finds no error on any page (W3C Nu Html Checker)', () => {
  const run = spawnSync('java', ['-jar', vnu, '--errors-only', '--format', 'json', ...files.keys()], { encoding: 'utf8' });
  expect(run.error, 'java -jar vnu.jar could not run: is Java installed?').toBeUndefined();
  const { messages } = JSON.parse(run.stderr) as { messages: { url: string; lastLine?: number; message: string }[] };
  const found = messages.map((m) => `${files.get(fileURLToPath(m.url)) ?? m.url}:${m.lastLine ?? '?'} ${m.message}`);
  expect(found).toEqual([]);
  expect(files.size).toBeGreaterThanOrEqual(16);
});
