/**
 * As an operator runs it: containers (`node api/server.ts`, the built site) on one PostgreSQL
 * database, with Varnish in front configured by the shipped deploy/varnish/default.vcl and purged by
 * the containers (CDN_PURGE=varnish). Every change made through one container is seen through the
 * other and through Varnish, whose copies were warmed first (so a stale copy would show): publish,
 * unpublish, slug change, delete, testimonial publish, theme activation, component hiding (every page). An admin
 * token from one container is admitted by the other (the embedded identity lives in the database).
 * The contact limit holds across containers. A container whose change listener was cut, and one
 * restarted, serve the changes they missed. A due blog source is fetched once by three containers.
 *
 * No timing is asserted (machines here are shared): each check waits (polls) until the change shows,
 * with a generous limit; `npm run bench` measures publish-to-visible.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorAdminToken } from '../../bench/identity.ts';
import { findThemeTemplate } from '../../src/shared/theme-templates.ts';
import { feedPaths, startFeedServer, type FeedServer } from '../support/feed-server.ts';
import { serverDatabase, startServerProcess, type ServerDatabase, type ServerProcess } from '../support/server-process.ts';
import { startVarnish, type Varnish } from '../support/varnish.ts';
import { freePort } from '../../scripts/varnish.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** Long enough for a busy machine; the bench says how long it really takes. */
const VISIBLE = { timeout: 15_000, intervals: [50, 100, 200] };

let database: ServerDatabase;
let varnish: Varnish;
let varnishPort: number;
const servers: ServerProcess[] = [];
let a: ServerProcess;
let b: ServerProcess;
let token: string;
const secretsKey = randomBytes(32).toString('base64');

const containerEnv = () => ({
  ...database.env,
  SECRETS_KEY: secretsKey,
  CDN_PURGE: 'varnish',
  CDN_PURGE_URLS: `http://127.0.0.1:${varnishPort}`,
  // The contact limit is under test; the others stay out of the way.
  RATE_LIMITS: 'on',
  RATE_LIMIT_CONTACT: '5/minute',
  RATE_LIMIT_AVAILABILITY: 'off',
  INTEGRATIONS_ALLOW_PRIVATE_NETWORKS: 'true',
});

async function startContainer(extra: Record<string, string> = {}) {
  const server = await startServerProcess({ ...containerEnv(), ...extra }, { site: true });
  servers.push(server);
  return server;
}

async function stopContainer(server: ServerProcess) {
  server.child.kill('SIGTERM');
  await server.exited;
  servers.splice(servers.indexOf(server), 1);
}

beforeAll(async () => {
  execFileSync('flock', ['/tmp/firm-site-build.lock', process.execPath, 'scripts/build-if-needed.ts'], { cwd: root, stdio: 'ignore' });
  database = await serverDatabase('postgres');
  varnishPort = await freePort();
  [a, b] = await Promise.all([startContainer(), startContainer()]);
  varnish = await startVarnish({ backends: [a.url, b.url], port: varnishPort });
  // An admin, made as the operator would (npm run admin:create), signed in through container A.
  token = await operatorAdminToken(a.url, { ...database.env, SECRETS_KEY: secretsKey });
}, 300_000);

afterAll(async () => {
  await varnish?.stop();
  for (const server of [...servers]) await stopContainer(server);
  await database?.drop();
}, 60_000);

/** An admin call through a container. */
async function admin(server: ServerProcess, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

/** The three ways in: each container, and the CDN. */
const ways = () => [
  { name: 'container A', url: a.url },
  { name: 'container B', url: b.url },
  { name: 'Varnish', url: varnish.url },
];

const get = async (base: string, path: string) => {
  const res = await fetch(`${base}${path}`, { redirect: 'manual', headers: { 'accept-encoding': 'gzip' } });
  return { status: res.status, text: await res.text(), location: res.headers.get('location'), cache: res.headers.get('x-cache') };
};

/** Asks every way in for each path (Varnish keeps its copy), so a stale copy anywhere would show. */
async function warm(paths: string[]) {
  for (const { url } of ways()) for (const path of paths) await get(url, path);
}

/** Waits until `check` holds for `path` through every way in. */
async function visibleEverywhere(path: string, check: (res: Awaited<ReturnType<typeof get>>) => boolean, what: string) {
  for (const way of ways()) {
    await expect.poll(async () => check(await get(way.url, path)), { ...VISIBLE, message: `${what}: ${path} through ${way.name}` }).toBe(true);
  }
}

describe('a change made through one container shows through every container and the CDN', () => {
  const post = {
    title: 'Trusts for blended families',
    slug: 'trusts-blended-families',
    excerpt: 'How a trust keeps promises.',
    content: '<p>Blended families need a plan.</p>',
    category: 'estate-planning',
    isPublished: true,
  };
  let postId: string;

  it('the CDN keeps public pages: a second visit is a hit, the admin never is', async () => {
    await get(varnish.url, '/blog');
    expect((await get(varnish.url, '/blog')).cache).toBe('HIT');
    for (const path of ['/admin', '/login', '/api/admin/blog-posts']) {
      await get(varnish.url, path);
      expect((await get(varnish.url, path)).cache, path).not.toBe('HIT');
      const origin = await fetch(`${a.url}${path}`);
      expect(origin.headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('publish: the post is on /, /blog, its page, the feed and the sitemap', async () => {
    await warm(['/', '/blog', `/blog/${post.slug}`, '/rss.xml', '/sitemap.xml', '/api/blog-posts']);
    const created = await admin(a, 'POST', '/api/admin/blog-posts', post);
    expect(created.status).toBe(201);
    postId = String(created.body!.id);
    for (const path of ['/', '/blog', '/rss.xml', '/api/blog-posts']) await visibleEverywhere(path, (r) => r.text.includes(post.title), 'published');
    await visibleEverywhere('/sitemap.xml', (r) => r.text.includes(`/blog/${post.slug}<`), 'published');
    await visibleEverywhere(`/blog/${post.slug}`, (r) => r.status === 200 && r.text.includes('Blended families need a plan.'), 'published');
  });

  it('an admin token from container A is admitted by container B', async () => {
    expect((await admin(b, 'GET', '/api/admin/blog-posts')).status).toBe(200);
  });

  it('slug change (through B): the old address redirects to the new one everywhere', async () => {
    await warm([`/blog/${post.slug}`, '/blog/trusts-for-blended-families']);
    expect((await admin(b, 'PUT', `/api/admin/blog-posts/${postId}`, { ...post, slug: 'trusts-for-blended-families' })).status).toBe(200);
    await visibleEverywhere(`/blog/${post.slug}`, (r) => r.status === 301 && r.location === '/blog/trusts-for-blended-families', 'renamed');
    await visibleEverywhere('/blog/trusts-for-blended-families', (r) => r.status === 200, 'renamed');
  });

  it('unpublish (through A): gone from every page and list, its address a 404', async () => {
    await warm(['/', '/blog', '/blog/trusts-for-blended-families', '/rss.xml', '/sitemap.xml', '/api/blog-posts']);
    expect((await get(varnish.url, '/sitemap.xml')).text).toContain('/blog/trusts-for-blended-families<');
    expect((await admin(a, 'PUT', `/api/admin/blog-posts/${postId}`, { ...post, slug: 'trusts-for-blended-families', isPublished: false })).status).toBe(200);
    await visibleEverywhere('/blog/trusts-for-blended-families', (r) => r.status === 404, 'unpublished');
    for (const path of ['/', '/blog', '/rss.xml', '/api/blog-posts']) await visibleEverywhere(path, (r) => !r.text.includes(post.title), 'unpublished');
    await visibleEverywhere('/sitemap.xml', (r) => r.status === 200 && !r.text.includes('/blog/trusts-for-blended-families<'), 'unpublished');
  });

  it('delete (through B) after publishing again: a 404 everywhere', async () => {
    expect((await admin(b, 'PUT', `/api/admin/blog-posts/${postId}`, { ...post, slug: 'trusts-for-blended-families' })).status).toBe(200);
    await visibleEverywhere('/blog/trusts-for-blended-families', (r) => r.status === 200, 'published again');
    expect((await admin(b, 'DELETE', `/api/admin/blog-posts/${postId}`)).status).toBe(204);
    await visibleEverywhere('/blog/trusts-for-blended-families', (r) => r.status === 404, 'deleted');
    await visibleEverywhere('/blog', (r) => !r.text.includes(post.title), 'deleted');
  });

  it('testimonial publish (through A): on the home page everywhere', async () => {
    await warm(['/', '/api/testimonials']);
    const created = await admin(a, 'POST', '/api/admin/testimonials', {
      clientName: 'Dana R.',
      content: 'They made a hard year bearable.',
      practiceArea: 'divorce',
      isPublished: true,
    });
    expect(created.status).toBe(201);
    await visibleEverywhere('/', (r) => r.text.includes('They made a hard year bearable.'), 'testimonial');
    await visibleEverywhere('/api/testimonials', (r) => r.text.includes('Dana R.'), 'testimonial');
  });

  it('theme activation (through B): /theme.css follows everywhere', async () => {
    const template = findThemeTemplate('executive-navy-gold')!;
    const created = await admin(b, 'POST', '/api/admin/themes', {
      name: 'navy-gold-scale',
      displayName: 'Navy and Gold',
      cssVariables: JSON.stringify(template.cssVariables),
    });
    expect(created.status).toBe(201);
    await warm(['/theme.css', '/api/themes/active']);
    const before = (await get(varnish.url, '/theme.css')).text;
    expect((await admin(b, 'PUT', `/api/admin/themes/${String(created.body!.id)}/activate`)).status).toBe(200);
    await visibleEverywhere('/theme.css', (r) => r.text !== before, 'theme activated');
    await visibleEverywhere('/api/themes/active', (r) => r.text.includes('navy-gold-scale'), 'theme activated');
  });

  it('a post scheduled through A goes live at its moment on every container and through the CDN', async () => {
    await warm(['/blog', '/rss.xml']);
    const scheduled = {
      ...post,
      title: 'Guardianship for a grandchild',
      slug: 'guardianship-grandchild',
      publishedAt: new Date(Date.now() + 3_000).toISOString(),
    };
    const created = await admin(a, 'POST', '/api/admin/blog-posts', scheduled);
    expect(created.status).toBe(201);
    for (const way of ways()) expect((await get(way.url, '/blog')).text, way.name).not.toContain(scheduled.slug);
    // Nobody touches anything: each container's timer republishes its own pages, and purges the CDN.
    await visibleEverywhere('/blog', (r) => r.text.includes(scheduled.slug), 'scheduled post live');
    await visibleEverywhere('/rss.xml', (r) => r.text.includes(scheduled.slug), 'scheduled post live');
    expect((await admin(b, 'DELETE', `/api/admin/blog-posts/${String(created.body!.id)}`)).status).toBe(204);
  });

  it('component hiding (through A): the calculator leaves every page and its page answers 404, everywhere', async () => {
    const pages = ['/', '/about', '/practice-areas/estate-planning', '/probate-calculator'];
    await warm(pages);
    expect((await get(varnish.url, '/about')).text).toContain('href="/probate-calculator"');
    expect((await admin(a, 'PUT', '/api/admin/component-visibility/probate_calculator', { isVisible: false })).status).toBe(200);
    for (const path of pages.slice(0, 3)) await visibleEverywhere(path, (r) => r.status === 200 && !r.text.includes('probate-calculator'), 'calculator hidden');
    await visibleEverywhere('/probate-calculator', (r) => r.status === 404 && r.text.includes('The Probate Calculator Is Unavailable'), 'calculator hidden');
    expect((await admin(a, 'PUT', '/api/admin/component-visibility/probate_calculator', { isVisible: true })).status).toBe(200);
    for (const path of pages.slice(0, 3)) await visibleEverywhere(path, (r) => r.text.includes('href="/probate-calculator"'), 'calculator shown');
    await visibleEverywhere('/probate-calculator', (r) => r.status === 200 && r.text.includes('data-component="probate_calculator"'), 'calculator shown');
  });
});

describe('what one container allows, all allow', () => {
  it('the contact limit of 5 a minute holds across two containers', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${(i % 2 ? b : a).url}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          firstName: 'Lim',
          lastName: `It${i}`,
          email: `limit${i}@example.com`,
          phone: '',
          practiceArea: 'other',
          message: 'Please call me about my case.',
        }),
      });
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });
});

describe('a container that missed changes serves them', () => {
  it('one whose change listener was cut hears, on reconnecting, what changed meanwhile', async () => {
    await warm(['/']);
    const admin_ = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await admin_.connect();
    const { rowCount } = await admin_.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where application_name like 'content-bus %' and datname = current_database()",
    );
    await admin_.end();
    expect(rowCount).toBe(2); // both containers' listeners
    const created = await admin(a, 'POST', '/api/admin/testimonials', {
      clientName: 'Reconnect R.',
      content: 'Heard after the reconnect.',
      practiceArea: 'trust-administration',
      isPublished: true,
    });
    expect(created.status).toBe(201);
    await visibleEverywhere('/', (r) => r.text.includes('Heard after the reconnect.'), 'after a reconnect');
  });

  it('one restarted while a change happened serves the change', async () => {
    await warm(['/']);
    await stopContainer(b);
    const created = await admin(a, 'POST', '/api/admin/testimonials', {
      clientName: 'Restart R.',
      content: 'Made while B was down.',
      practiceArea: 'trust-administration',
      isPublished: true,
    });
    expect(created.status).toBe(201);
    b = await startContainer({ PORT: new URL(b.url).port });
    await visibleEverywhere('/', (r) => r.text.includes('Made while B was down.'), 'after a restart');
  });
});

describe('background work runs once', () => {
  let feeds: FeedServer;
  let c: ServerProcess | undefined;
  afterAll(async () => {
    if (c) await stopContainer(c);
    await feeds?.stop();
  });

  it('a due blog source is fetched once by three containers', async () => {
    feeds = await startFeedServer();
    feeds.addItem({ title: 'Fetched once' });
    // Due at once (never fetched, created long enough ago that its create's own first fetch is not
    // awaited), written straight into the database: every container's first scheduled run after a
    // start sees it. Restarting A and B and starting C makes three runs race.
    const db = await database.open();
    const [source] = await db.db
      .insert(db.t.blogSources)
      .values({ name: 'Once Weekly', url: feeds.url(feedPaths.rss), type: 'rss', isActive: true, createdAt: new Date(Date.now() - 10 * 60_000) })
      .returning();
    await Promise.all([stopContainer(a), stopContainer(b)]);
    [a, b, c] = await Promise.all([startContainer({ PORT: new URL(a.url).port }), startContainer({ PORT: new URL(b.url).port }), startContainer()]);
    await expect.poll(async () => (await db.db.select().from(db.t.externalBlogArticles)).map((r) => r.title), VISIBLE).toContain('Fetched once');
    // Every container's start-up run is over once each has logged its ready line and a moment passed.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(feeds.hits(feedPaths.rss)).toBe(1);
    const [fetched] = await db.db.select().from(db.t.blogSources);
    expect(fetched!.id).toBe(source!.id);
    expect(fetched!.lastError).toBeNull();
    await visibleEverywhere('/external-articles', (r) => r.text.includes('Fetched once'), 'fetched articles');
  });
});
