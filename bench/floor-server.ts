/**
 * The "floor": the least a server can do for the same answers, a minimal Hono + better-sqlite3
 * process on the site's own SQLite file (read only), with one prepared statement. `npm run bench`
 * starts it beside the site to compare start-up, memory and GET /api/blog-posts.
 *   node bench/floor-server.ts <site.db>   (prints its port)
 */
import { serve } from '@hono/node-server';
import Database from 'better-sqlite3';
import { Hono } from 'hono';

const db = new Database(process.argv[2]!, { readonly: true });
const list = db.prepare(
  `select id, title, slug, excerpt, category, author, published_at as publishedAt, updated_at as updatedAt
   from blog_posts where is_published = 1 order by published_at desc, created_at desc`,
);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const app = new Hono();
app.get('/api/health', (c) => c.json({ status: 'ok' }));
app.get('/api/blog-posts', (c) =>
  c.json(
    (list.all() as { publishedAt: number | null; updatedAt: number }[]).map((p) => ({ ...p, publishedAt: iso(p.publishedAt), updatedAt: iso(p.updatedAt) })),
  ),
);
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => console.log(info.port));
