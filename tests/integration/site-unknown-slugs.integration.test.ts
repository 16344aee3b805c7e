/**
 * Security review: an unknown /blog/{slug} must cost the server no more than a static 404. The real
 * server with the built site: a flood of distinct unknown slugs gets the one stored 'Article Not
 * Found' page, renders none of them (no render, so no API call for the slug), stores none of them,
 * and leaves the real article stored and served as it was; earlier slugs still redirect.
 */
import { execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import { logLines, serverDatabase, startServerProcess, type ServerDatabase, type ServerProcess } from '../support/server-process.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const FLOOD = 500;
const CLIENTS = 8;

let database: ServerDatabase;
let server: ServerProcess;

beforeAll(async () => {
  // The same build lock as the e2e suite: the site serves what the sources say.
  execFileSync('flock', ['/tmp/firm-site-build.lock', process.execPath, 'scripts/build-if-needed.ts'], { cwd: root, stdio: 'ignore' });
  database = await serverDatabase('sqlite');
  const db = await openDatabase({ sqlitePath: database.env.SQLITE_PATH! });
  const { t } = db;
  const [post] = await db.db
    .insert(t.blogPosts)
    .values({
      title: 'Flood-proof article',
      slug: 'flood-proof-article',
      excerpt: 'Still here.',
      content: '<p>Still here after the flood.</p>',
      category: 'probate',
      isPublished: true,
      publishedAt: new Date('2025-01-01T00:00:00Z'),
    })
    .returning();
  await db.db.insert(t.blogPostRedirects).values({ oldSlug: 'flood-proof-old-name', postId: post!.id });
  await db.db.insert(t.blogPosts).values({ title: 'A draft', slug: 'flood-draft', excerpt: 'x', content: '<p>x</p>', category: 'probate', isPublished: false });
  await db.close();
  server = await startServerProcess({ ...database.env, LOG_QUIET: 'false' }, { site: true });
}, 240_000);

afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  await database?.drop();
});

/** The site's log lines for one message. */
const logged = (msg: string) => logLines(server.stdout).filter((l) => l.msg === msg);

it(`answers ${FLOOD} distinct unknown slugs with the stored 404, rendering and storing none, the real article untouched`, async () => {
  const article = await fetch(`${server.url}/blog/flood-proof-article`, { headers: { 'accept-encoding': 'br' } });
  expect(article.status).toBe(200);
  expect(await article.text()).toContain('Still here after the flood.');
  const etag = article.headers.get('etag');
  const published = () => logged('page published').filter((l) => l.path === '/blog/flood-proof-article').length;
  expect(published()).toBe(1);

  const slugs = Array.from({ length: FLOOD }, (_, i) => `no-such-article-${i}-${crypto.randomUUID()}`);
  const queue = [...slugs];
  const answers: { status: number; text: string; etag: string | null }[] = [];
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let slug = queue.shift(); slug; slug = queue.shift()) {
        const res = await fetch(`${server.url}/blog/${slug}`, { headers: { 'accept-encoding': 'br, gzip' } });
        answers.push({ status: res.status, text: await res.text(), etag: res.headers.get('etag') });
      }
    }),
  );
  expect(answers).toHaveLength(FLOOD);
  for (const answer of answers) {
    expect(answer.status).toBe(404);
    expect(answer.text).toContain('Article Not Found');
    expect(answer.text).toContain('Back to Blog');
  }
  // One page for all of them, with no URL of its own.
  expect(new Set(answers.map((a) => a.etag)).size).toBe(1);
  expect(answers[0]!.text).not.toContain('no-such-article');

  // None rendered (a render would ask the API for the slug), none stored.
  const apiPaths = logged('request').map((l) => String(l.path));
  expect(apiPaths.filter((p) => p.startsWith('/api/blog-posts/no-such-article'))).toEqual([]);
  expect(logged('page published').filter((l) => String(l.path).startsWith('/blog/no-such-article'))).toEqual([]);

  // The article is still stored: served again without a render, the same bytes.
  const after = await fetch(`${server.url}/blog/flood-proof-article`, { headers: { 'accept-encoding': 'br' } });
  expect(after.status).toBe(200);
  expect(after.headers.get('etag')).toBe(etag);
  expect(after.headers.get('content-encoding')).toBe('br');
  expect(published()).toBe(1);
});

it('still redirects an earlier slug, and answers a draft, a long slug and any spelling of an unknown one with the 404', async () => {
  const moved = await fetch(`${server.url}/blog/flood-proof-old-name`, { redirect: 'manual' });
  expect(moved.status).toBe(301);
  expect(moved.headers.get('location')).toBe('/blog/flood-proof-article');
  // A spelling of a real slug is the same page.
  expect((await fetch(`${server.url}/blog/flood%2Dproof-article`)).status).toBe(200);
  for (const slug of ['flood-draft', 'x'.repeat(300), 'Flood-Proof-Article', 'a%00b']) {
    const res = await fetch(`${server.url}/blog/${slug}`);
    expect(res.status, slug).toBe(404);
    expect(await res.text(), slug).toContain('Article Not Found');
  }
});

it('a request target no URL can be made of is a 400, and the server goes on serving', async () => {
  const raw = (target: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(server.url).port), '127.0.0.1', () => socket.end(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });
  for (const target of ['//', '/\\\\', '//[::1']) {
    const answer = await raw(target);
    expect(answer.split('\r\n')[0], target).toBe('HTTP/1.1 400 Bad Request');
    expect(answer.toLowerCase(), target).toContain('content-security-policy:');
  }
  expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  expect((await fetch(`${server.url}/blog/flood-proof-article`)).status).toBe(200);
});
