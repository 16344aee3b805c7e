import { describe, expect, it } from 'vitest';
import {
  decodeBody,
  FeedError,
  httpUrl,
  MAX_ARTICLES_PER_FETCH,
  parseDate,
  parseFeed,
  parseSourceConfig,
  plainText,
  sanitizeFeedHtml,
  type BlogSourceType,
} from './feed-parsers.ts';

const now = new Date('2025-06-01T12:00:00Z');
const base = 'https://news.example.com/feed/';
const parse = (type: BlogSourceType, body: string, config: string | null = null) =>
  parseFeed(type, body, { baseUrl: base, config: parseSourceConfig(config), now });
const rss = (items: string, extra = '') =>
  `<?xml version="1.0"?>${extra}<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>T</title>${items}</channel></rss>`;

describe('parseDate', () => {
  it('reads RFC 822 dates (RSS), with or without a zone (none means GMT)', () => {
    const cases: [string, string][] = [
      ['Sat, 01 Mar 2025 16:00:00 GMT', '2025-03-01T16:00:00.000Z'],
      ['Sat, 01 Mar 2025 16:00:00 +0100', '2025-03-01T15:00:00.000Z'],
      ['Sat, 1 Mar 2025 08:00:00 PST', '2025-03-01T16:00:00.000Z'],
      ['01 Mar 2025 16:00 GMT', '2025-03-01T16:00:00.000Z'],
      ['Sat, 01 Mar 25 16:00:00 GMT', '2025-03-01T16:00:00.000Z'],
      ['Sat, 01 Mar 2025 16:00:00', '2025-03-01T16:00:00.000Z'],
      ['Sat, 01 Mar 2025 16:00:00 CEST', '2025-03-01T16:00:00.000Z'],
      ['01 March 2025', '2025-03-01T00:00:00.000Z'],
    ];
    for (const [text, iso] of cases) expect(parseDate(text, now)?.toISOString(), text).toBe(iso);
  });

  it('reads ISO 8601 (Atom, JSON; no zone means UTC), epoch seconds and milliseconds, and "March 1, 2025"', () => {
    const cases: [unknown, string][] = [
      ['2025-03-01T16:00:00Z', '2025-03-01T16:00:00.000Z'],
      ['2025-03-01T16:00:00.250Z', '2025-03-01T16:00:00.250Z'],
      ['2025-03-01T08:00:00-08:00', '2025-03-01T16:00:00.000Z'],
      ['2025-03-01T17:00:00+0100', '2025-03-01T16:00:00.000Z'],
      ['2025-03-01T16:00:00', '2025-03-01T16:00:00.000Z'],
      ['2025-03-01 16:00', '2025-03-01T16:00:00.000Z'],
      ['2025-03-01', '2025-03-01T00:00:00.000Z'],
      [1740844800, '2025-03-01T16:00:00.000Z'],
      [1740844800000, '2025-03-01T16:00:00.000Z'],
      ['1740844800', '2025-03-01T16:00:00.000Z'],
      ['March 1, 2025', '2025-03-01T00:00:00.000Z'],
      ['Mar 1st, 2025', '2025-03-01T00:00:00.000Z'],
    ];
    for (const [value, iso] of cases) expect(parseDate(value, now)?.toISOString(), String(value)).toBe(iso);
  });

  it('gives null for what is not a date, placeholders, and dates more than a day ahead', () => {
    for (const value of [
      '',
      '1',
      'yesterday',
      'soon',
      '2025-13-45',
      '2025-02-30T10:00:00Z',
      'Sat, 99 Foo 2025',
      '0',
      0,
      '1970-01-01T00:00:00Z',
      '2025-06-03T12:00:00Z',
      'x'.repeat(200),
      null,
      undefined,
      {},
      Number.NaN,
    ]) {
      expect(parseDate(value, now), String(value)).toBeNull();
    }
    expect(parseDate('2025-06-02T11:00:00Z', now)?.toISOString()).toBe('2025-06-02T11:00:00.000Z');
  });
});

describe('httpUrl', () => {
  it('resolves relative links and keeps only absolute http(s) ones', () => {
    expect(httpUrl('/posts/a', base)).toBe('https://news.example.com/posts/a');
    expect(httpUrl('b?x=1#y', base)).toBe('https://news.example.com/feed/b?x=1#y');
    expect(httpUrl('//cdn.example.com/i.png', base)).toBe('https://cdn.example.com/i.png');
    expect(httpUrl('  http://news.example.com/a  ', base)).toBe('http://news.example.com/a');
    expect(httpUrl('https://user:secret@news.example.com/a', base)).toBe('https://news.example.com/a');
    for (const bad of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'data:text/html,<script>',
      'mailto:a@example.com',
      'ftp://example.com/a',
      'file:///etc/passwd',
      'vbscript:x',
      'http://',
      `https://example.com/${'a'.repeat(3000)}`,
      '',
    ]) {
      expect(httpUrl(bad, base), bad).toBeNull();
    }
    expect(httpUrl('/relative-without-base')).toBeNull();
    expect(httpUrl(42, base)).toBeNull();
  });
});

describe('plainText and sanitizeFeedHtml', () => {
  it('turns HTML into plain text: entities decoded, script and style gone, whitespace collapsed', () => {
    expect(plainText('<p>Tom &amp; Jerry&#8217;s</p><p>second\u0000 para</p><script>alert(1)</script><style>p{}</style>', 500)).toBe(
      'Tom & Jerry’s second para',
    );
    expect(plainText('  plain \n\t text  ', 500)).toBe('plain text');
    expect(plainText('<b></b>', 500)).toBeNull();
    expect(plainText(null, 500)).toBeNull();
  });

  it('cuts long text at a word, with an ellipsis', () => {
    const text = plainText(`<p>${'word '.repeat(200)}</p>`, 500)!;
    expect(text.length).toBeLessThanOrEqual(500);
    expect(text.endsWith('word…')).toBe(true);
    expect(plainText('😀'.repeat(300), 11)).toBe(`${'😀'.repeat(5)}…`);
  });

  it('keeps formatting, makes links absolute and safe, and removes everything that runs', () => {
    const html = sanitizeFeedHtml(
      '<h1>Big</h1><p onclick="x()" style="color:red">Hi <a href="/a" onmouseover="x()">there</a> <a href="javascript:alert(1)">js</a> <a href="mailto:a@example.com">mail</a></p>' +
        '<script>alert(1)</script><style>*{}</style><iframe src="https://evil.example.com"></iframe><form action="/x"><input name="q"></form>' +
        '<img src="/i.png" onerror="alert(1)"><img src="http://insecure.example.com/i.png"><svg onload="alert(1)"><circle/></svg><object data="x"></object>',
      'https://news.example.com/posts/1',
    )!;
    expect(html).toBe(
      '<h2>Big</h2><p>Hi <a href="https://news.example.com/a" rel="noopener noreferrer nofollow" target="_blank">there</a> <a rel="noopener noreferrer nofollow" target="_blank">js</a> <a href="mailto:a@example.com" rel="noopener noreferrer nofollow" target="_blank">mail</a></p><img src="https://news.example.com/i.png" />',
    );
    expect(sanitizeFeedHtml('<script>alert(1)</script><style>p{}</style>', base)).toBeNull();
    expect(sanitizeFeedHtml('', base)).toBeNull();
  });
});

describe('parseSourceConfig', () => {
  it('reads headers, an API key, itemsPath, fields and selectors, and ignores the rest', () => {
    const config = parseSourceConfig(
      JSON.stringify({
        headers: { Authorization: 'Bearer abc', 'X-Count': 5, 'Bad Header': 'x', 'X-Split': 'a\r\nInjected: 1', 'X-Obj': { a: 1 } },
        api_key: 'k-123',
        itemsPath: 'data.posts',
        fields: { title: 'headline', nope: 'x', url: 42 },
        selectors: { item: '.card', link: 'a.more' },
        category: 'law',
      }),
    );
    expect(config).toEqual({
      headers: { authorization: 'Bearer abc', 'x-count': '5', 'x-api-key': 'k-123' },
      itemsPath: 'data.posts',
      fields: { title: 'headline' },
      selectors: { item: '.card', link: 'a.more' },
    });
    expect(parseSourceConfig(JSON.stringify({ apiKey: 'k', apiKeyHeader: 'Api-Key' })).headers).toEqual({ 'api-key': 'k' });
    expect(parseSourceConfig(null)).toEqual({ headers: {}, itemsPath: null, fields: {}, selectors: {} });
    expect(() => parseSourceConfig('{nope')).toThrow(FeedError);
  });
});

describe('decodeBody', () => {
  const latin1 = (s: string) => Buffer.from(s, 'latin1');
  it('decodes with the content-type charset, else the XML declaration, else the HTML meta, else UTF-8', () => {
    expect(decodeBody(latin1('<?xml version="1.0" encoding="ISO-8859-1"?><t>Café</t>'), 'application/rss+xml')).toBe(
      '<?xml version="1.0" encoding="ISO-8859-1"?><t>Café</t>',
    );
    expect(decodeBody(latin1('<html><head><meta charset="windows-1252"></head>Café</html>'), 'text/html')).toContain('Café');
    expect(decodeBody(Buffer.from('<t>Café</t>'), 'text/xml; charset=utf-8')).toBe('<t>Café</t>');
    expect(decodeBody(Buffer.from('Café'), undefined)).toBe('Café');
    expect(decodeBody(Buffer.from('Café'), 'text/plain; charset=no-such-charset')).toBe('Café');
  });
});

describe('parseFeed: rss', () => {
  it('never expands DOCTYPE entities (billion laughs), and strips NUL characters', () => {
    const lol =
      '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>';
    const [article] = parse('rss', rss('<item><title>Bomb &lol3; here\u0000</title><link>https://news.example.com/a</link></item>', lol));
    expect(article!.title).not.toContain('lollol');
    expect(article!.title).not.toContain('\u0000');
  });

  it('uses a permalink guid as the link, the name of an "email (Name)" author, and drops items without a link', () => {
    const articles = parse(
      'rss',
      rss(`
        <item><title>Guid link</title><guid>https://news.example.com/g</guid><author>editor@example.com (Ed Itor)</author></item>
        <item><title>Not a permalink</title><guid isPermaLink="false">abc-1</guid></item>
        <item><title>Relative</title><link>/rel</link><guid isPermaLink="false">r-1</guid></item>
        <item><title><![CDATA[CDATA <b>title</b> &amp; more]]></title><link>https://news.example.com/c</link></item>`),
    );
    expect(articles.map((a) => [a.title, a.url, a.externalId, a.author])).toEqual([
      ['Guid link', 'https://news.example.com/g', 'https://news.example.com/g', 'Ed Itor'],
      ['Relative', 'https://news.example.com/rel', 'r-1', null],
      ['CDATA title & more', 'https://news.example.com/c', null, null],
    ]);
  });

  it('stores one article per guid and per link, at most the 50 newest of a long feed', () => {
    const items = Array.from(
      { length: 120 },
      (_, i) =>
        `<item><title>N${i}</title><link>https://news.example.com/${i}</link><guid>g${i}</guid><pubDate>${new Date(Date.UTC(2025, 0, 1) + i * 3600_000).toUTCString()}</pubDate></item>`,
    ).join('');
    const dupes =
      '<item><title>Dupe guid</title><link>https://news.example.com/other</link><guid>g5</guid></item><item><title>Dupe link</title><link>https://news.example.com/7</link></item>';
    const articles = parse('rss', rss(items + dupes));
    expect(articles).toHaveLength(MAX_ARTICLES_PER_FETCH);
    expect(articles[0]!.title).toBe('N119');
    expect(articles.at(-1)!.title).toBe('N70');
    expect(articles.map((a) => a.title)).not.toContain('Dupe guid');
  });

  it('reads Atom text constructs: xhtml content, html titles, and text titles taken literally', () => {
    const [entry] = parse(
      'rss',
      `<feed xmlns="http://www.w3.org/2005/Atom"><entry>
        <id>urn:1</id><title type="text">Use &lt;b&gt; for bold</title>
        <link rel="self" href="https://news.example.com/self"/><link href="https://news.example.com/e1"/>
        <updated>2025-01-02T03:04:05Z</updated><author><name>A</name></author><author><name>B</name></author>
        <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Hello <em>you</em></p><script>x()</script></div></content>
      </entry></feed>`,
    );
    expect(entry).toMatchObject({
      title: 'Use <b> for bold',
      url: 'https://news.example.com/e1',
      author: 'A, B',
      externalId: 'urn:1',
      excerpt: 'Hello you',
      content: '<p>Hello <em>you</em></p>',
    });
    expect(entry!.publishedAt?.toISOString()).toBe('2025-01-02T03:04:05.000Z');
  });

  it('says what is wrong with what is not a feed', () => {
    expect(() => parse('rss', '<rss><channel><item></rss>')).toThrow(/^The feed is not valid XML/);
    expect(() => parse('rss', '<html><body><p>Hi</p></body></html>')).toThrow('This is not an RSS or Atom feed (the document is <html>)');
    expect(() => parse('rss', '{"items": []}')).toThrow(FeedError);
    expect(parse('rss', rss(''))).toEqual([]);
  });
});

describe('parseFeed: api', () => {
  it("reads WordPress's REST shape (rendered fields, date_gmt without a zone)", () => {
    const [post] = parse(
      'api',
      JSON.stringify([
        {
          id: 7,
          date: '2025-03-01T08:00:00',
          date_gmt: '2025-03-01T16:00:00',
          link: 'https://news.example.com/p/7',
          title: { rendered: 'Trusts &#038; you' },
          excerpt: { rendered: '<p>Short.</p>' },
          content: { rendered: '<p>Long <script>x</script></p>' },
          authors: [{ name: 'W' }],
        },
      ]),
    );
    expect(post).toEqual({
      title: 'Trusts & you',
      url: 'https://news.example.com/p/7',
      excerpt: 'Short.',
      content: '<p>Long </p>',
      author: 'W',
      publishedAt: new Date('2025-03-01T16:00:00Z'),
      imageUrl: null,
      externalId: '7',
    });
  });

  it('follows itemsPath and field paths, own properties only', () => {
    const body = JSON.stringify({ res: { list: [{ t: 'A', u: '/a', meta: { when: 1740844800 } }] } });
    expect(parse('api', body, JSON.stringify({ itemsPath: 'res.list', fields: { title: 't', url: 'u', publishedAt: 'meta.when' } }))).toMatchObject([
      { title: 'A', url: 'https://news.example.com/a', publishedAt: new Date('2025-03-01T16:00:00Z') },
    ]);
    expect(() => parse('api', body, JSON.stringify({ itemsPath: '__proto__' }))).toThrow(FeedError);
    expect(() => parse('api', body, JSON.stringify({ itemsPath: 'res.constructor' }))).toThrow(FeedError);
    expect(() => parse('api', body)).toThrow(/itemsPath/);
    expect(parse('api', JSON.stringify({ data: { posts: [{ title: 'Nested', url: 'https://x.example.com/n' }] } })).map((a) => a.title)).toEqual(['Nested']);
  });
});

describe('parseFeed: scraper', () => {
  it('resolves links against <base href>, falls back to og:image for a single article, and reports a bad selector', () => {
    const page =
      '<html><head><base href="https://cdn.example.com/blog/"><meta property="og:image" content="og.png"></head><body><article><h2><a href="post-1">One</a></h2></article></body></html>';
    expect(parse('scraper', page)).toMatchObject([
      { title: 'One', url: 'https://cdn.example.com/blog/post-1', imageUrl: 'https://cdn.example.com/blog/og.png' },
    ]);
    expect(() => parse('scraper', page, JSON.stringify({ selectors: { title: 'h2[[' } }))).toThrow('The scraper\'s "title" selector is not valid CSS: h2[[');
    expect(parse('scraper', '<html><body><p>No articles here</p></body></html>')).toEqual([]);
  });
});
