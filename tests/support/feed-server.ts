/**
 * A local blog-source peer for tests: one list of items, served in every shape a blog
 * source can take (RSS 2.0, RSS 1.0, Atom, JSON lists, JSON Feed, HTML pages), plus the feeds that
 * misbehave (broken, slow, huge, redirecting into the private network). Tests change the items
 * between fetches (addItem, updateItem, reset) and count the requests (hits).
 *
 *   const feeds = await startFeedServer();           // or { port: E2E_FAKES_PORT }
 *   await ctx().admin('POST', '/api/admin/blog-sources', { name: 'News', url: feeds.url(feedPaths.rss) });
 *   feeds.addItem({ title: 'Fresh news' });
 *   await feeds.stop();
 *
 * Beside other fakes on one server: `const site = createFeedSite({ prefix: '/feeds-fake' })`, and in
 * its request listener `if (site.handle(req, res)) return;` (absolute links follow the request's Host).
 * No vitest import: the Playwright specs start it too.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface FeedItem {
  id: string;
  title: string;
  /** A path on this server ('/posts/x', written relative into the HTML pages and the JSON list, absolute elsewhere) or any URL, written as it is. */
  link: string;
  /** Inline HTML. */
  summary: string;
  /** HTML, hostile parts included. */
  content: string;
  author: string | null;
  publishedAt: Date | null;
  /** A path on this server or any URL; null for none. */
  image: string | null;
}

export const feedPaths = {
  rss: '/feeds/rss.xml',
  atom: '/feeds/atom.xml',
  rdf: '/feeds/rdf.xml',
  jsonFeed: '/feeds/feed.json',
  /** A top-level array; relative urls; ids. */
  jsonList: '/api/list.json',
  /** { status, articles: [...] } in NewsAPI's shape: absolute urls, no ids. */
  jsonWrapped: '/api/wrapped.json',
  /** A shape only `customApiConfig` can read. */
  jsonCustom: '/api/custom.json',
  /** The JSON list, only with the header `x-api-key: FEED_API_KEY`. */
  jsonProtected: '/api/protected.json',
  /** <article> elements, relative links, script in the page. */
  html: '/blog',
  /** Markup only `customScraperConfig` can read. */
  htmlCustom: '/blog-custom',
  /** No <article>: h2 links. */
  htmlHeadings: '/blog-headings',
  brokenXml: '/broken/invalid.xml',
  errorPage: '/broken/error-page',
  status500: '/broken/500',
  notJson: '/broken/not-json',
  /** Accepts the connection and never answers. */
  never: '/slow/never',
  /** Answers at once, then a byte every 50 ms, for ever. */
  drip: '/slow/drip',
  /** More than HUGE_BYTES of a valid-looking feed. */
  huge: '/huge.xml',
  /** 20 KB on the wire, 64 MB unpacked. */
  gzipBomb: '/gzip-bomb.xml',
  /** An HTML page nested 90,000 elements deep (about 450 KB): slow for any HTML parser. */
  deepHtml: '/hostile/deep.html',
  /** 302 to the cloud metadata address. */
  redirectPrivate: '/redirect/private',
  /** 302 to the RSS feed. */
  redirectRss: '/redirect/rss',
} as const;

export const FEED_API_KEY = 'feed-server-api-key-0f1e2d3c4b5a';
export const HUGE_BYTES = 3 * 1024 * 1024;

export const customApiConfig = {
  itemsPath: 'payload.stories',
  fields: { id: 'storyId', title: 'headline', url: 'permalink', excerpt: 'blurb', author: 'byline', publishedAt: 'when', imageUrl: 'picture.src' },
};

export const customScraperConfig = {
  selectors: { item: '.post-card', title: '.post-title', link: 'a.post-link', excerpt: '.teaser', date: '.when', image: '.thumb', author: '.by' },
};

/** What every sample item's content carries that must never be stored. */
export const hostileContent =
  '<script>alert("xss")</script><img src="https://cdn.example.com/x.jpg" onerror="alert(1)"><a href="javascript:alert(2)">bad link</a><iframe src="https://evil.example.com/"></iframe><p onclick="steal()" style="color:red">Styled</p><style>body{display:none}</style>';

export function sampleItems(): FeedItem[] {
  return [
    {
      id: 'estate-2025',
      title: 'Estate planning checklist for 2025',
      link: '/posts/estate-planning-2025',
      summary: 'What to <b>review</b> this   year.',
      content: `<p>Intro with <strong>bold</strong> and a <a href="/relative/page">relative link</a>.</p>${hostileContent}`,
      author: 'Jane Counsel',
      publishedAt: new Date('2025-03-01T16:00:00Z'),
      image: '/images/estate.jpg',
    },
    {
      id: 'probate-basics',
      title: 'Probate basics & timelines',
      link: '/posts/probate-basics',
      summary: 'How long probate takes in California.',
      content: '<p>Probate takes time.</p><img src="/images/probate.png" alt="Court">',
      author: 'Sam Probate',
      publishedAt: new Date('2025-02-01T10:00:00Z'),
      image: null,
    },
    {
      id: 'trust-vs-will',
      title: 'Trust vs. will',
      link: '/posts/trust-vs-will',
      summary: 'Which one fits your family.',
      content: '<p>It depends.</p>',
      author: null,
      publishedAt: new Date('2025-01-01T08:00:00Z'),
      image: null,
    },
  ];
}

export interface FeedSite {
  /** Answers a request under the prefix (true), or leaves it to the caller (false). */
  handle(req: http.IncomingMessage, res: http.ServerResponse): boolean;
  /** Newest first; every format renders these. */
  items: FeedItem[];
  /** Adds an item as the newest (dated a day after the newest unless given) and returns it. */
  addItem(item: Partial<FeedItem> & { title: string }): FeedItem;
  updateItem(id: string, changes: Partial<Omit<FeedItem, 'id'>>): void;
  /** Back to the sample items, hit counts cleared. */
  reset(): void;
  /** Requests received for a path (query ignored). */
  hits(path: string): number;
}

export interface FeedServer extends FeedSite {
  port: number;
  origin: string;
  /** origin + prefix + path. */
  url(path: string): string;
  stop(): Promise<void>;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const cdata = (s: string) => `<![CDATA[${s.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function send(res: http.ServerResponse, status: number, type: string, body: string | Buffer) {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

export function createFeedSite(options: { prefix?: string } = {}): FeedSite {
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  let items = sampleItems();
  const hits = new Map<string, number>();
  /** The requested origin plus the prefix, set per request from its Host header. */
  let origin = '';
  /** A day after the newest dated item: new items are the newest without reading any clock. */
  const newestDate = () => new Date(Math.max(...items.map((i) => i.publishedAt?.getTime() ?? 0), Date.UTC(2025, 0, 1)) + 24 * 60 * 60 * 1000);
  const abs = (link: string) => (link.startsWith('/') ? `${origin}${link}` : link);
  /** A site path as the pages write it: relative, under the prefix. */
  const local = (link: string) => (link.startsWith('/') ? `${prefix}${link}` : link);

  const rss = () =>
    `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">
<channel><title>Feed server news</title><link>${origin}/</link><description>Test feed</description>
${items
  .map(
    (i) => `<item>
  <title>${esc(i.title)}</title>
  <link>${esc(abs(i.link))}</link>
  <guid isPermaLink="false">${esc(i.id)}</guid>
  ${i.publishedAt ? `<pubDate>${i.publishedAt.toUTCString()}</pubDate>` : ''}
  ${i.author ? `<dc:creator>${esc(i.author)}</dc:creator>` : ''}
  <description>${cdata(i.summary)}</description>
  <content:encoded>${cdata(i.content)}</content:encoded>
  ${i.image ? `<media:content url="${esc(abs(i.image))}" medium="image" type="image/jpeg"/>` : ''}
</item>`,
  )
  .join('\n')}
</channel></rss>`;

  const atom = () =>
    `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<title>Feed server news</title><id>urn:feed-server</id><updated>2025-03-01T00:00:00Z</updated>
${items
  .map(
    (i) => `<entry>
  <id>tag:feed-server,2025:${esc(i.id)}</id>
  <title type="html">${esc(i.title)}</title>
  <link rel="alternate" type="text/html" href="${esc(abs(i.link))}"/>
  ${i.image ? `<link rel="enclosure" type="image/jpeg" href="${esc(abs(i.image))}"/>` : ''}
  ${i.publishedAt ? `<published>${i.publishedAt.toISOString()}</published><updated>${i.publishedAt.toISOString()}</updated>` : ''}
  ${i.author ? `<author><name>${esc(i.author)}</name></author>` : ''}
  <summary type="html">${esc(i.summary)}</summary>
  <content type="html">${esc(i.content)}</content>
</entry>`,
  )
  .join('\n')}
</feed>`;

  const rdf = () =>
    `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel rdf:about="${origin}/"><title>Feed server news</title><link>${origin}/</link><description>Test feed</description></channel>
${items
  .map(
    (i) => `<item rdf:about="${esc(abs(i.link))}">
  <title>${esc(i.title)}</title>
  <link>${esc(abs(i.link))}</link>
  <description>${esc(i.summary)}</description>
  <content:encoded>${cdata(i.content)}</content:encoded>
  ${i.publishedAt ? `<dc:date>${i.publishedAt.toISOString()}</dc:date>` : ''}
  ${i.author ? `<dc:creator>${esc(i.author)}</dc:creator>` : ''}
</item>`,
  )
  .join('\n')}
</rdf:RDF>`;

  const jsonFeed = () => ({
    version: 'https://jsonfeed.org/version/1.1',
    title: 'Feed server news',
    home_page_url: `${origin}/`,
    feed_url: `${origin}${feedPaths.jsonFeed}`,
    items: items.map((i) => ({
      id: i.id,
      url: abs(i.link),
      title: i.title,
      content_html: i.content,
      summary: i.summary.replace(/<[^>]+>/g, ''),
      ...(i.image ? { image: abs(i.image) } : {}),
      ...(i.publishedAt ? { date_published: i.publishedAt.toISOString() } : {}),
      ...(i.author ? { authors: [{ name: i.author }] } : {}),
    })),
  });

  const jsonList = () =>
    items.map((i) => ({
      id: i.id,
      title: i.title,
      url: local(i.link),
      summary: i.summary,
      content: i.content,
      author: i.author ? { name: i.author } : null,
      published_at: i.publishedAt?.toISOString() ?? null,
      image_url: i.image ? local(i.image) : null,
    }));

  const jsonWrapped = () => ({
    status: 'ok',
    totalResults: items.length,
    articles: items.map((i) => ({
      source: { id: null, name: 'Feed server' },
      author: i.author,
      title: i.title,
      description: i.summary,
      url: abs(i.link),
      urlToImage: i.image ? abs(i.image) : null,
      publishedAt: i.publishedAt?.toISOString() ?? null,
      content: i.content,
    })),
  });

  const jsonCustom = () => ({
    meta: { count: items.length },
    payload: {
      stories: items.map((i) => ({
        storyId: `story-${i.id}`,
        headline: i.title,
        permalink: abs(i.link),
        blurb: i.summary,
        byline: i.author,
        when: i.publishedAt ? Math.floor(i.publishedAt.getTime() / 1000) : null,
        picture: i.image ? { src: local(i.image) } : null,
      })),
    },
  });

  const page = (body: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>Firm news</title><meta property="og:image" content="${prefix}/images/og.png"><script>window.evil = true;</script></head>
<body><nav><a href="${prefix}/about">About us</a> <a href="javascript:void(0)">Menu</a></nav>
<main>${body}</main>
<footer><a href="${prefix}/privacy">Privacy</a></footer></body></html>`;

  const html = () =>
    page(
      items
        .map(
          (i) => `<article class="post">
  <h2><a href="${esc(local(i.link))}">${esc(i.title)}</a></h2>
  ${i.publishedAt ? `<time datetime="${i.publishedAt.toISOString()}">${i.publishedAt.toDateString()}</time>` : ''}
  <p class="summary">${i.summary}</p>
  ${i.author ? `<span class="author">${esc(i.author)}</span>` : ''}
  ${i.image ? `<img src="${esc(local(i.image))}" alt="" onerror="alert(1)">` : ''}
</article>`,
        )
        .join('\n'),
    );

  const htmlCustom = () =>
    page(
      `<div class="listing">${items
        .map(
          (i) => `<div class="post-card" id="${slug(i.id)}">
  <a class="post-link" href="${esc(local(i.link))}"><span class="post-title">${esc(i.title)}</span></a>
  <div class="teaser">${i.summary}</div>
  ${i.publishedAt ? `<span class="when" data-date="${i.publishedAt.toISOString()}">${i.publishedAt.toDateString()}</span>` : ''}
  ${i.image ? `<img class="thumb" data-src="${esc(local(i.image))}" alt="">` : ''}
  ${i.author ? `<span class="by">${esc(i.author)}</span>` : ''}
</div>`,
        )
        .join('\n')}</div>`,
    );

  const htmlHeadings = () =>
    page(
      items
        .map(
          (i) => `<h2><a href="${esc(local(i.link))}">${esc(i.title)}</a></h2>
<p>${i.summary}</p>
${i.publishedAt ? `<time datetime="${i.publishedAt.toISOString()}">${i.publishedAt.toDateString()}</time>` : ''}`,
        )
        .join('\n'),
    );

  const gzipBomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, ' '));
  const deepHtml = `<!doctype html><html><body>${'<div>'.repeat(90_000)}<article><h2><a href="/posts/deep">Deep</a></h2></article></body></html>`;

  const handle = (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    const fullPath = new URL(req.url ?? '/', 'http://feed-server').pathname;
    if (prefix && fullPath !== prefix && !fullPath.startsWith(`${prefix}/`)) return false;
    const path = fullPath.slice(prefix.length);
    if (!prefix && !Object.values(feedPaths).includes(path as never)) return false;
    origin = `http://${req.headers.host ?? 'localhost'}${prefix}`;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    route(path, req, res);
    return true;
  };

  const route = (path: string, req: http.IncomingMessage, res: http.ServerResponse) => {
    switch (path) {
      case feedPaths.rss:
        return send(res, 200, 'application/rss+xml; charset=utf-8', rss());
      case feedPaths.atom:
        return send(res, 200, 'application/atom+xml; charset=utf-8', atom());
      case feedPaths.rdf:
        return send(res, 200, 'application/rdf+xml', rdf());
      case feedPaths.jsonFeed:
        return send(res, 200, 'application/feed+json', JSON.stringify(jsonFeed()));
      case feedPaths.jsonList:
        return send(res, 200, 'application/json', JSON.stringify(jsonList()));
      case feedPaths.jsonWrapped:
        return send(res, 200, 'application/json', JSON.stringify(jsonWrapped()));
      case feedPaths.jsonCustom:
        return send(res, 200, 'application/json', JSON.stringify(jsonCustom()));
      case feedPaths.jsonProtected:
        if (req.headers['x-api-key'] !== FEED_API_KEY) return send(res, 401, 'application/json', '{"error":"missing or wrong api key"}');
        return send(res, 200, 'application/json', JSON.stringify(jsonList()));
      case feedPaths.html:
        return send(res, 200, 'text/html; charset=utf-8', html());
      case feedPaths.htmlCustom:
        return send(res, 200, 'text/html; charset=utf-8', htmlCustom());
      case feedPaths.htmlHeadings:
        return send(res, 200, 'text/html; charset=utf-8', htmlHeadings());
      case feedPaths.brokenXml:
        return send(
          res,
          200,
          'application/rss+xml',
          '<?xml version="1.0"?><rss version="2.0"><channel><title>Half a feed</title><item><title>Cut off</title></channel>',
        );
      case feedPaths.errorPage:
        return send(
          res,
          200,
          'text/html',
          '<!DOCTYPE html><html><head><title>Service Unavailable</title></head><body><h1>Oops</h1><p>Something broke<br></body></html>',
        );
      case feedPaths.status500:
        return send(res, 500, 'text/plain', 'Internal Server Error');
      case feedPaths.notJson:
        return send(res, 200, 'application/json', '{"articles": [ this is not json');
      case feedPaths.never:
        return; // the connection stays open, silent
      case feedPaths.drip: {
        res.writeHead(200, { 'content-type': 'application/rss+xml' });
        res.write('<?xml version="1.0"?><rss version="2.0"><channel>');
        const timer = setInterval(() => res.write(' '), 50);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case feedPaths.huge: {
        res.writeHead(200, { 'content-type': 'application/rss+xml' });
        res.write('<?xml version="1.0"?><rss version="2.0"><channel><title>Huge</title>');
        const chunk = `<item><title>${'x'.repeat(1000)}</title><link>${origin}/huge</link></item>`;
        let sent = 0;
        const more = () => {
          while (sent < HUGE_BYTES + 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          res.end('</channel></rss>');
        };
        res.on('error', () => {});
        return more();
      }
      case feedPaths.gzipBomb:
        res.writeHead(200, { 'content-type': 'application/rss+xml', 'content-encoding': 'gzip', 'content-length': String(gzipBomb.length) });
        return res.end(gzipBomb);
      case feedPaths.deepHtml:
        return send(res, 200, 'text/html; charset=utf-8', deepHtml);
      case feedPaths.redirectPrivate:
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        return res.end();
      case feedPaths.redirectRss:
        res.writeHead(302, { location: `${prefix}${feedPaths.rss}` });
        return res.end();
      default:
        return send(res, 404, 'text/plain', 'Not found');
    }
  };

  return {
    handle,
    get items() {
      return items;
    },
    addItem(item) {
      const full: FeedItem = {
        id: item.id ?? slug(item.title),
        link: item.link ?? `/posts/${slug(item.title)}`,
        summary: item.summary ?? `About ${esc(item.title)}.`,
        content: item.content ?? `<p>${esc(item.title)}</p>`,
        author: item.author ?? null,
        publishedAt: item.publishedAt === undefined ? newestDate() : item.publishedAt,
        image: item.image ?? null,
        title: item.title,
      };
      items = [full, ...items];
      return full;
    },
    updateItem(id, changes) {
      items = items.map((i) => (i.id === id ? { ...i, ...changes } : i));
    },
    reset() {
      items = sampleItems();
      hits.clear();
    },
    hits: (path) => hits.get(path) ?? 0,
  };
}

/** A feed site on its own port (0: any free one), on 127.0.0.1 unless told. */
export async function startFeedServer(options: { port?: number; host?: string; prefix?: string } = {}): Promise<FeedServer> {
  const site = createFeedSite({ prefix: options.prefix });
  const server = http.createServer((req, res) => {
    if (!site.handle(req, res)) send(res, 404, 'text/plain', 'Not found');
  });
  const host = options.host ?? '127.0.0.1';
  server.listen(options.port ?? 0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  return Object.assign(site, {
    port,
    origin,
    url: (path: string) => `${origin}${prefix}${path}`,
    async stop() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  });
}
