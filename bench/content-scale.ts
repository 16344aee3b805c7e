/**
 * Years of content: the site with 1,000 and 5,000 published posts (seeded before it starts). For
 * each: the size of /blog, the feed and the sitemap; publish to visible on /blog, the feed and the
 * sitemap; and a static page's latency under a light load (10 connections) with no publish and while
 * five posts are published one after the other, in the same run (the reference is the same page
 * without a publish); then resident memory. Goals (issue: fast with years of content): visible
 * within 1 s, the other page's p99 under 50 ms meanwhile, memory under 250 MB.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../db/client.ts';
import { adminToken } from './identity.ts';
import { load, type LoadResult } from './load.ts';
import { ADMIN_DOMAIN, rssMb, siteFiles, siteStore, startSite } from './site.ts';

export interface ContentScaleResult {
  posts: number;
  coldStartMs: number;
  bytes: Record<string, number>;
  /** ms from the admin's call returning until /blog, /rss.xml and /sitemap.xml all show the post. */
  publishToVisibleMs: number[];
  quiet: LoadResult;
  publishing: LoadResult;
  rssMb: number;
}

const PUBLISHES = 5;
const paragraph =
  'California probate can take a year or more. A living trust lets a family avoid it, keep the estate private and name who manages it if the maker cannot. ';

async function seed(dir: string, count: number) {
  const database = await openDatabase({ sqlitePath: siteFiles(dir).SQLITE_PATH });
  const categories = ['estate-planning', 'family-law', 'divorce', 'probate'];
  const start = Date.UTC(2012, 0, 1);
  for (let from = 0; from < count; from += 500) {
    const rows = Array.from({ length: Math.min(500, count - from) }, (_, k) => {
      const i = from + k;
      return {
        title: `Guide ${i}: what a San Diego family should know about ${categories[i % 4]}`,
        slug: `guide-${i}`,
        excerpt: paragraph.slice(0, 180),
        content: `<h2>Part one</h2>${`<p>${paragraph.repeat(4)}</p>`.repeat(5)}`,
        category: categories[i % 4]!,
        isPublished: true,
        publishedAt: new Date(start + i * 86_400_000),
      };
    });
    await database.db.insert(database.t.blogPosts).values(rows);
  }
  await database.close();
}

async function publish(origin: string, token: string, title: string): Promise<{ id: string; slug: string }> {
  const res = await fetch(`${origin}/api/admin/blog-posts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title, excerpt: 'Measured.', content: '<p>Measured.</p>', category: 'probate', isPublished: true }),
  });
  if (res.status !== 201) throw new Error(`publish answered ${res.status}`);
  return (await res.json()) as { id: string; slug: string };
}

/** Time until every listed page shows the new post. */
async function untilVisible(origin: string, slug: string, since: number): Promise<number> {
  const pages = ['/blog', '/rss.xml', '/sitemap.xml'];
  const waiting = new Set(pages);
  while (waiting.size) {
    for (const path of [...waiting]) if ((await (await fetch(origin + path)).text()).includes(`/blog/${slug}`)) waiting.delete(path);
    if (performance.now() - since > 60_000) throw new Error(`not visible after 60 s on ${[...waiting].join(', ')}`);
  }
  return Math.round(performance.now() - since);
}

export async function contentScaleBench(count: number): Promise<ContentScaleResult> {
  const dir = mkdtempSync(join(tmpdir(), `firm-bench-${count}-`));
  try {
    await seed(dir, count);
    const { child, origin, coldStartMs } = await startSite(dir);
    try {
      const bytes: Record<string, number> = {};
      for (const path of ['/', '/blog', '/blog/page/2', '/rss.xml', '/sitemap.xml', '/blog/guide-7', '/about'])
        bytes[path] = (await (await fetch(origin + path, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer()).byteLength;
      const token = await adminToken(origin, siteStore(dir), ADMIN_DOMAIN);
      const options = { connections: 10, seconds: 6 };
      const quiet = await load(`/about, ${count} posts, no publish`, `${origin}/about`, options);
      const times: number[] = [];
      const publishing = load(`/about, ${count} posts, ${PUBLISHES} publishes`, `${origin}/about`, options);
      for (let i = 0; i < PUBLISHES; i++) {
        const post = await publish(origin, token, `Scale ${count} publish ${i} ${Date.now()}`);
        times.push(await untilVisible(origin, post.slug, performance.now()));
      }
      const during = await publishing;
      return { posts: count, coldStartMs, bytes, publishToVisibleMs: times, quiet, publishing: during, rssMb: rssMb(child.pid!) };
    } finally {
      child.kill('SIGTERM');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function contentScaleMarkdown(results: ContentScaleResult[]): string[] {
  const lines = [
    '## Years of content',
    '',
    'The site seeded with N published posts before it starts. Publish to visible: from the admin call returning until /blog, /rss.xml and /sitemap.xml all show the post (goal under 1,000 ms). /about at 10 connections with no publish and while five posts are published (goal p99 under 50 ms meanwhile). Memory after (goal under 250 MB).',
    '',
    '| posts | cold start ms | /blog KB | /rss.xml KB | /sitemap.xml KB | publish to visible ms (median, max) | /about p99 / max ms, no publish | /about p99 / max ms, publishing | RSS MB |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const kb = (n: number | undefined) => Math.round((n ?? 0) / 1024);
  for (const r of results) {
    const sorted = [...r.publishToVisibleMs].sort((a, b) => a - b);
    lines.push(
      `| ${r.posts} | ${r.coldStartMs} | ${kb(r.bytes['/blog'])} | ${kb(r.bytes['/rss.xml'])} | ${kb(r.bytes['/sitemap.xml'])} | ${sorted[Math.floor(sorted.length / 2)]}, ${sorted.at(-1)} | ${r.quiet.p99} / ${r.quiet.max} | ${r.publishing.p99} / ${r.publishing.max} | ${r.rssMb} |`,
    );
  }
  return lines;
}
