/**
 * What a start costs in memory is mostly what it loads (issue 17: start-up under 150 MB). Modules
 * only some requests need are loaded on first use, not by every start of every container: the site
 * started and its pages served, none of these is loaded.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serverDatabase, startServerProcess, type ServerDatabase } from '../support/server-process.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Loaded on first use, each with why. */
const notAtStart = {
  'lucide-react/': "the icon library's index, every icon (1,300 KB): the server build bundles the icons it uses",
  '@zxcvbn-ts/': 'the common-passwords list (400 KB): when a password is first judged',
  'sanitize-html/': 'with postcss and htmlparser2 (450 KB): when a post is first saved',
  '@aws-sdk/': 'the migration and the CDN purge: when first used',
  'cheerio/': "the feeds' HTML parsing: in the feed worker",
  'pg/': 'the PostgreSQL driver: by a container on PostgreSQL only (this one runs on SQLite)',
};

let database: ServerDatabase;
let loaded: string[];

beforeAll(async () => {
  execFileSync('flock', ['/tmp/firm-site-build.lock', process.execPath, 'scripts/build-if-needed.ts'], { cwd: root, stdio: 'ignore' });
  database = await serverDatabase('sqlite');
  const log = join(mkdtempSync(join(tmpdir(), 'firm-modules-')), 'modules.txt');
  const server = await startServerProcess(
    { ...database.env, SEED_SAMPLE_CONTENT: 'true', MODULES_LOG: log },
    { site: true, nodeArgs: ['--import', join(root, 'tests/support/record-modules.ts')] },
  );
  for (const path of [
    '/',
    '/about',
    '/blog',
    '/contact',
    '/probate-calculator',
    '/login',
    '/admin',
    '/blog/revocable-living-trusts-in-california-how-they-work-and-why-funding-matters',
    '/api/blog-posts',
  ]) {
    const res = await fetch(`${server.url}${path}`);
    expect(res.status, path).toBeLessThan(400);
    await res.arrayBuffer();
  }
  server.child.kill('SIGTERM');
  await server.exited;
  loaded = readFileSync(log, 'utf8').split('\n');
}, 240_000);

afterAll(async () => {
  await database?.drop();
});

it('starts and serves its pages without loading what only some requests need', () => {
  expect(loaded.length).toBeGreaterThan(100); // the hook saw the server's modules
  const found = Object.keys(notAtStart).filter((name) => loaded.some((url) => url.includes(`/node_modules/${name}`)));
  expect(found, found.map((name) => `${name}: ${notAtStart[name as keyof typeof notAtStart]}`).join('; ')).toEqual([]);
});
