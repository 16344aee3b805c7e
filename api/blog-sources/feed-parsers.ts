/**
 * What a blog source answers, turned into articles. Three kinds of source (SPEC §3
 * blog_sources.type): `rss` (RSS 2.0, RSS 1.0/RDF and Atom), `api` (a JSON list, JSON Feed 1.1
 * included) and `scraper` (an HTML page read with CSS selectors). Everything a feed says is
 * untrusted: links must be absolute http(s) (javascript: and the like are dropped), text is plain
 * and bounded, content HTML goes through a strict allowlist, dates that cannot be read become null.
 *
 * The optional source config (JSON object text, SPEC §3) may hold:
 *   all types  "headers":   { "Name": "value" } sent with the request (e.g. "Authorization")
 *              "apiKey" (or "api_key") sent in the header named by "apiKeyHeader" (default X-API-Key)
 *   api        "itemsPath": dot path to the list ("data.posts"; default: the answer itself when it is
 *                           a list, else the first list under items, articles, data, posts, results,
 *                           entries, stories or news, one level deep)
 *              "fields":    dot paths per article field: { "id", "title", "url", "excerpt",
 *                           "content", "author", "publishedAt", "imageUrl" } (defaults: common names)
 *   scraper    "selectors": CSS selectors { "item" (default "article"; without article elements
 *                           every h1-h3 link is an item), and inside an item "title", "link",
 *                           "excerpt", "content", "date", "image", "author" }
 * Secrets in it (apiKey, Authorization...) are masked by every GET like any config.
 */
import * as cheerio from 'cheerio';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { sanitizeArticleHtml } from '../http/sanitize-html.ts';
import {
  type ArticleField,
  type BlogSourceType,
  FeedError,
  isRecord,
  MAX_ARTICLES_PER_FETCH,
  nonEmpty,
  type ParsedArticle,
  type SelectorName,
  type SourceConfig,
} from './feed-source.ts';

// What the worker and the tests take from here with the parsers.
export { type BlogSourceType, decodeBody, FeedError, MAX_ARTICLES_PER_FETCH, type ParsedArticle, parseSourceConfig } from './feed-source.ts';

/** Items looked at in one answer; a feed of a million entries is read no further. */
const MAX_ITEMS_SCANNED = 1000;
export const MAX_EXCERPT = 500;
const MAX_TITLE = 300;
const MAX_AUTHOR = 200;
const MAX_URL = 2048;
const MAX_EXTERNAL_ID = 500;
/** Article HTML kept per article (before sanitising): enough for any real post. */
const MAX_CONTENT_INPUT = 100_000;

// ---------------------------------------------------------------------------------------------
// Text, URLs, dates, HTML

/** NUL and other control characters (PostgreSQL refuses NUL in text) and lone surrogates go. */
function clean(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '');
}

const collapse = (text: string) => clean(text).replace(/\s+/g, ' ').trim();

/** Cut at a word boundary, with an ellipsis, never splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const blockTags =
  'address, article, aside, blockquote, br, dd, div, dl, dt, figcaption, figure, footer, h1, h2, h3, h4, h5, h6, header, hr, li, main, nav, ol, p, pre, section, table, td, th, tr, ul';

/** HTML (or text that may hold entities) as plain text: no tags, no script, whitespace collapsed. */
export function plainText(html: string | null | undefined, max: number): string | null {
  if (!html) return null;
  const source = html.length > MAX_CONTENT_INPUT * 3 ? html.slice(0, MAX_CONTENT_INPUT * 3) : html;
  let text: string;
  if (!/[<&]/.test(source)) text = collapse(source);
  else {
    const $ = cheerio.load(source, null, false);
    $('script, style, noscript, template, iframe, object, embed, svg, math, head, title').remove();
    $(blockTags).after(' ');
    text = collapse($.root().text());
  }
  return text ? truncate(text, max) : null;
}

/** An absolute http(s) URL, resolved against `base`; anything else (javascript:, data:, mailto:...) is null. */
export function httpUrl(raw: unknown, base?: string | null): string | null {
  if (typeof raw !== 'string') return null;
  const trimmed = clean(raw).trim();
  if (!trimmed || trimmed.length > MAX_URL) return null;
  let url: URL;
  try {
    url = base ? new URL(trimmed, base) : new URL(trimmed);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname) return null;
  // Credentials in a link are never for the public (https://user:password@host/...).
  url.username = '';
  url.password = '';
  return url.href.length > MAX_URL ? null : url.href;
}

/**
 * Article HTML from a feed: the site's one article policy (api/http/sanitize-html.ts), as HTML another
 * site published: links and images made absolute against the article's address, links opening
 * safely in a new tab. Null when nothing is left to read or see.
 */
export function sanitizeFeedHtml(html: string | null | undefined, base: string): string | null {
  if (!html) return null;
  const out = sanitizeArticleHtml(html.length > MAX_CONTENT_INPUT ? html.slice(0, MAX_CONTENT_INPUT) : html, {
    resolveExternalUrl: (address) => httpUrl(address, base),
  });
  const trimmed = clean(out).trim();
  // Markup with nothing left to read or see (it was all script) is no content.
  return trimmed && (plainText(trimmed, 10) !== null || trimmed.includes('<img')) ? trimmed : null;
}

/** The first image of some HTML, as an absolute http(s) URL. */
function firstImage(html: string | null | undefined, base: string): string | null {
  if (!html || !/<img/i.test(html)) return null;
  const $ = cheerio.load(html.length > MAX_CONTENT_INPUT ? html.slice(0, MAX_CONTENT_INPUT) : html, null, false);
  for (const img of $('img').toArray()) {
    const src = httpUrl($(img).attr('src') ?? $(img).attr('data-src'), base);
    if (src) return src;
  }
  return null;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Before this a "date" is a placeholder (0, 1970) rather than when something was published. */
const EARLIEST = Date.UTC(1990, 0, 1);

/**
 * A publication date: RFC 822 (RSS), ISO 8601 (Atom, JSON; no zone means UTC, as WordPress's
 * date_gmt), epoch seconds or milliseconds, "January 5, 2025". Anything else, or a date more than a
 * day ahead of `now` (it would sit on top of the list for ever), is null.
 */
export function parseDate(value: unknown, now: Date): Date | null {
  let ms = Number.NaN;
  if (typeof value === 'number') ms = value > 1e11 ? value : value * 1000;
  else if (typeof value === 'string') {
    const s = collapse(value);
    if (!s || s.length > 80) return null;
    let m: RegExpExecArray | null;
    if (/^\d{10}(\d{3})?$/.test(s)) ms = Number(s) * (s.length === 10 ? 1000 : 1);
    else if ((m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i.exec(s))) {
      const [, date, time, zone] = m;
      // JavaScript rolls 2025-02-30 over into March: a day the month does not have is no date.
      const [y, mo, d] = date!.split('-').map(Number) as [number, number, number];
      if (new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d || mo < 1 || mo > 12) return null;
      if (!time) ms = Date.parse(`${date}T00:00:00Z`);
      else {
        const z = !zone ? 'Z' : /^z$/i.test(zone) ? 'Z' : zone.length === 3 ? `${zone}:00` : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
        ms = Date.parse(`${date}T${time.replace(',', '.')}${z}`);
      }
    } else if (/^(?:[a-z]{3,9}\.?,?\s+)?\d{1,2}\s+[a-z]{3,9}\.?,?\s+\d{2,4}(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?(?:\s+[a-z]{1,5}|\s*[+-]\d{4})?$/i.test(s)) {
      // No zone means GMT (JavaScript would take the server's own zone).
      const hasZone = /(?:\s[a-z]{1,5}|[+-]\d{4})$/i.test(s);
      ms = Date.parse(hasZone ? s : `${s} GMT`);
      // A zone JavaScript does not know (CEST, AEST...): the time is still better than nothing.
      if (Number.isNaN(ms) && hasZone) ms = Date.parse(s.replace(/\s+[a-z]{1,5}$/i, ' GMT'));
    } else if (/^[a-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}$/i.test(s)) {
      ms = Date.parse(`${s.replace(/(\d)(st|nd|rd|th)/i, '$1').replace('.', '')} UTC`);
    }
  }
  if (!Number.isFinite(ms) || ms < EARLIEST || ms > now.getTime() + DAY_MS) return null;
  return new Date(ms);
}

// ---------------------------------------------------------------------------------------------
// From raw items to articles

/** What a parser found for one item, before it is checked and cleaned. */
interface RawItem {
  title?: string | null;
  /** Whether `title` is HTML (Atom type="html", RSS) or plain text. */
  titleIsText?: boolean;
  url?: string | null;
  excerptHtml?: string | null;
  contentHtml?: string | null;
  author?: string | null;
  date?: unknown;
  image?: string | null;
  id?: string | null;
}

interface ParseContext {
  /** The address the answer came from (after redirects): relative links resolve against it. */
  baseUrl: string;
  config: SourceConfig;
  now: Date;
}

/**
 * Checked and cleaned articles, newest first (undated ones after, in the feed's order), one per
 * externalId and per url, at most MAX_ARTICLES_PER_FETCH.
 */
function toArticles(raw: RawItem[], ctx: ParseContext): ParsedArticle[] {
  const seenIds = new Set<string>();
  const seenUrls = new Set<string>();
  const candidates: { raw: RawItem; url: string; id: string | null; date: Date | null; order: number }[] = [];
  for (const [order, item] of raw.slice(0, MAX_ITEMS_SCANNED).entries()) {
    const url = httpUrl(item.url, ctx.baseUrl);
    if (!url) continue; // no address a reader could follow (none, relative to nothing, javascript:...)
    const id = item.id ? truncate(collapse(item.id), MAX_EXTERNAL_ID) || null : null;
    if ((id && seenIds.has(id)) || seenUrls.has(url)) continue;
    if (id) seenIds.add(id);
    seenUrls.add(url);
    candidates.push({ raw: item, url, id, date: parseDate(item.date, ctx.now), order });
  }
  candidates.sort((a, b) => (a.date && b.date ? b.date.getTime() - a.date.getTime() : a.date ? -1 : b.date ? 1 : 0) || a.order - b.order);
  const articles: ParsedArticle[] = [];
  for (const c of candidates) {
    if (articles.length >= MAX_ARTICLES_PER_FETCH) break;
    const { raw: item, url } = c;
    const content = sanitizeFeedHtml(item.contentHtml, url);
    const excerpt = plainText(item.excerptHtml, MAX_EXCERPT) ?? plainText(item.contentHtml, MAX_EXCERPT);
    const title =
      (item.titleIsText ? (item.title ? truncate(collapse(item.title), MAX_TITLE) || null : null) : plainText(item.title, MAX_TITLE)) ??
      (excerpt ? truncate(excerpt, 120) : null);
    if (!title) continue;
    articles.push({
      title,
      url,
      excerpt,
      content,
      author: plainText(item.author, MAX_AUTHOR),
      publishedAt: c.date,
      imageUrl: httpUrl(item.image, url) ?? firstImage(item.contentHtml, url) ?? firstImage(item.excerptHtml, url),
      externalId: c.id,
    });
  }
  return articles;
}

export function parseFeed(type: BlogSourceType, body: string, ctx: ParseContext): ParsedArticle[] {
  const raw = type === 'rss' ? parseXmlFeed(body) : type === 'api' ? parseJsonList(body, ctx.config) : parseHtmlPage(body, ctx);
  return toArticles(raw, ctx);
}

// ---------------------------------------------------------------------------------------------
// RSS 2.0, RSS 1.0 (RDF) and Atom

const asArray = <T>(v: T | T[] | undefined | null): T[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
type XmlNode = Record<string, unknown>;

/** The text of an element parsed by fast-xml-parser: a string, or the #text of one with attributes. */
function xmlText(node: unknown): string | null {
  if (typeof node === 'string') return node;
  if (typeof node === 'number') return String(node);
  if (Array.isArray(node)) return xmlText(node[0]);
  if (isRecord(node) && (typeof node['#text'] === 'string' || typeof node['#text'] === 'number')) return String(node['#text']);
  return null;
}
const attr = (node: unknown, name: string): string | null => (isRecord(node) && typeof node[`@_${name}`] === 'string' ? (node[`@_${name}`] as string) : null);

const xmlEntities: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** XML text kept raw (Atom's stop nodes): CDATA unwrapped, the XML entities decoded. */
function decodeXmlText(raw: string): string {
  return raw
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>)/)
    .map((part) =>
      part.startsWith('<![CDATA[')
        ? part.slice(9, -3)
        : part.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) => {
            if (e[0] === '#') {
              const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
              return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
            }
            return xmlEntities[e.toLowerCase()] ?? whole;
          }),
    )
    .join('');
}

/** An Atom text construct (title, summary, content) as HTML, or as text when `type` says text. */
function atomText(node: unknown): { value: string | null; isText: boolean } {
  const raw = xmlText(node) ?? (typeof node === 'string' ? node : null);
  if (raw === null) return { value: null, isText: true };
  const type = (attr(node, 'type') ?? 'text').toLowerCase();
  if (type === 'xhtml') return { value: raw, isText: false };
  const decoded = decodeXmlText(raw);
  return type === 'html' || type === 'text/html' ? { value: decoded, isText: false } : { value: decoded, isText: true };
}

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: true,
  // Atom text constructs may be XHTML: kept raw, decoded by atomText.
  stopNodes: ['feed.entry.title', 'feed.entry.summary', 'feed.entry.content'],
});

/** An image from enclosures and Media RSS (media:content, media:thumbnail, media:group), if any. */
function mediaImage(item: XmlNode): string | null {
  const isImage = (n: unknown) => {
    const type = attr(n, 'type');
    const medium = attr(n, 'medium');
    const url = attr(n, 'url') ?? attr(n, 'href') ?? '';
    return medium === 'image' || (type ? type.startsWith('image/') : /\.(jpe?g|png|gif|webp|avif)(\?|$)/i.test(url));
  };
  for (const group of [item, ...asArray(item['media:group'] as XmlNode | XmlNode[])]) {
    if (!isRecord(group)) continue;
    for (const c of asArray(group['media:content'])) if (isImage(c) && attr(c, 'url')) return attr(c, 'url');
    for (const t of asArray(group['media:thumbnail'])) if (attr(t, 'url')) return attr(t, 'url');
  }
  for (const e of asArray(item.enclosure)) if (isImage(e) && attr(e, 'url')) return attr(e, 'url');
  for (const l of asArray(item.link)) if (attr(l, 'rel') === 'enclosure' && isImage(l)) return attr(l, 'href');
  const itunes = attr(item['itunes:image'], 'href');
  if (itunes) return itunes;
  return null;
}

/** RSS author is "email (Name)" by the spec: the name is enough. */
function rssAuthor(item: XmlNode): string | null {
  const text = xmlText(item.author) ?? xmlText(item['dc:creator']);
  if (!text) return null;
  const named = /^[^\s@]+@[^\s(]+\s*\(([^()]+)\)$/.exec(text.trim().slice(0, 500));
  return named ? named[1]! : text;
}

/**
 * No DOCTYPE: its entities are the road to entity-expansion attacks, and feeds never need them.
 * Found with indexOf, not a regular expression: a hostile body must not make this quadratic.
 */
function stripDoctype(xml: string): string {
  const start = xml.search(/<!DOCTYPE/i);
  if (start < 0) return xml;
  const close = xml.indexOf('>', start);
  const bracket = xml.indexOf('[', start);
  let end = close;
  if (bracket >= 0 && bracket < close) {
    const subsetEnd = xml.indexOf(']', bracket);
    end = subsetEnd < 0 ? -1 : xml.indexOf('>', subsetEnd);
  }
  return end < 0 ? xml : xml.slice(0, start) + xml.slice(end + 1);
}

function parseXmlFeed(body: string): RawItem[] {
  const xml = stripDoctype(body.replace(/^\uFEFF/, ''));
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new FeedError(`The feed is not valid XML (line ${valid.err.line}: ${valid.err.msg.slice(0, 120)})`);
  let doc: XmlNode;
  try {
    doc = xmlParser.parse(xml) as XmlNode;
  } catch (err) {
    throw new FeedError(`The feed could not be read as XML: ${(err as Error).message.slice(0, 120)}`);
  }
  if (isRecord(doc.rss) || isRecord(doc['rdf:RDF'])) {
    const root = (isRecord(doc.rss) ? doc.rss : doc['rdf:RDF']) as XmlNode;
    const channel = (isRecord(root.channel) ? root.channel : asArray(root.channel as XmlNode[])[0]) as XmlNode | undefined;
    // RSS 2.0 keeps items in the channel; RSS 1.0 (RDF) next to it.
    const items = [...asArray(channel?.item as XmlNode[]), ...asArray(root.item as XmlNode[])].filter(isRecord);
    return items.map((item) => {
      const guid = xmlText(item.guid);
      const permalink = attr(item.guid, 'isPermaLink');
      const link = xmlText(asArray(item.link as unknown[]).find((l) => xmlText(l)) ?? null);
      const content = xmlText(item['content:encoded']);
      const description = xmlText(item.description) ?? xmlText(item['dc:description']);
      return {
        title: xmlText(item.title) ?? xmlText(item['dc:title']),
        url: link ?? (guid && permalink !== 'false' ? guid : null),
        excerptHtml: description,
        contentHtml: content ?? description,
        author: rssAuthor(item),
        date: xmlText(item.pubDate) ?? xmlText(item['dc:date']) ?? xmlText(item.published) ?? xmlText(item.updated),
        image: mediaImage(item),
        id: guid ?? attr(item, 'rdf:about'),
      };
    });
  }
  if (isRecord(doc.feed)) {
    return asArray(doc.feed.entry as XmlNode[])
      .filter(isRecord)
      .map((entry) => {
        const links = asArray(entry.link as unknown[]);
        const alternate =
          links.find((l) => (attr(l, 'rel') ?? 'alternate') === 'alternate' && (attr(l, 'type') ?? 'text/html').includes('html')) ??
          links.find((l) => (attr(l, 'rel') ?? 'alternate') === 'alternate');
        const title = atomText(entry.title);
        const summary = atomText(entry.summary);
        const content = atomText(entry.content);
        const asHtml = (t: { value: string | null; isText: boolean }) => (t.value === null ? null : t.isText ? escapeHtml(t.value) : t.value);
        const authors = asArray(entry.author as unknown[])
          .map((a) => (isRecord(a) ? xmlText(a.name) : xmlText(a)))
          .filter((n): n is string => Boolean(n));
        return {
          title: title.value,
          titleIsText: title.isText,
          url: attr(alternate, 'href'),
          excerptHtml: asHtml(summary),
          contentHtml: asHtml(content) ?? asHtml(summary),
          author: authors.slice(0, 3).join(', ') || null,
          date: xmlText(entry.published) ?? xmlText(entry.updated) ?? xmlText(entry.issued),
          image: mediaImage(entry),
          id: xmlText(entry.id),
        };
      });
  }
  const root = Object.keys(doc).find((k) => !k.startsWith('?')) ?? 'nothing';
  throw new FeedError(`This is not an RSS or Atom feed (the document is <${root.slice(0, 40)}>)`);
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// ---------------------------------------------------------------------------------------------
// JSON: JSON Feed 1.1 and lists of articles

const forbiddenKeys = new Set(['__proto__', 'prototype', 'constructor']);

/** A value at a dot path ("data.posts", "items.0.url"), own properties only. */
function atPath(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) {
    if (forbiddenKeys.has(key)) return undefined;
    if (Array.isArray(current) && /^\d+$/.test(key)) current = current[Number(key)];
    else if (isRecord(current) && Object.hasOwn(current, key)) current = current[key];
    else return undefined;
  }
  return current;
}

/** A JSON value as text: strings and numbers, WordPress's { rendered }, { name }, { url }..., a list's first. */
function jsonText(value: unknown, depth = 0): string | null {
  if (typeof value === 'string') return value.trim() ? value : null;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (depth > 3) return null;
  if (Array.isArray(value)) {
    for (const v of value) {
      const t = jsonText(v, depth + 1);
      if (t) return t;
    }
    return null;
  }
  if (isRecord(value)) {
    for (const key of ['rendered', 'html', 'text', 'value', '#text', 'name', 'url', 'src', 'href', 'link']) {
      if (Object.hasOwn(value, key)) {
        const t = jsonText(value[key], depth + 1);
        if (t) return t;
      }
    }
  }
  return null;
}

/** Authors: "Name", { name }, [{ name }, ...]: up to three names. */
function jsonAuthors(value: unknown): string | null {
  const names = asArray(value as unknown[])
    .map((a) => (isRecord(a) ? (jsonText(a.name) ?? jsonText(a.display_name) ?? jsonText(a.username)) : jsonText(a)))
    .filter((n): n is string => Boolean(n));
  return names.slice(0, 3).join(', ') || null;
}

const defaultFields: Record<ArticleField, string[]> = {
  id: ['id', 'guid', 'uuid', '_id'],
  title: ['title', 'headline', 'name'],
  url: ['url', 'link', 'permalink', 'href', 'canonical_url', 'web_url', 'external_url'],
  excerpt: ['excerpt', 'summary', 'description', 'abstract', 'snippet', 'teaser', 'subtitle', 'dek'],
  content: ['content_html', 'content', 'body_html', 'body', 'html', 'content_text', 'text'],
  author: ['authors', 'author', 'byline', 'creator', 'author_name'],
  publishedAt: [
    'date_published',
    'published_at',
    'publishedAt',
    'date_gmt',
    'pubDate',
    'published',
    'publish_date',
    'date',
    'created_at',
    'createdAt',
    'date_modified',
    'updated_at',
    'timestamp',
  ],
  imageUrl: [
    'image',
    'image_url',
    'imageUrl',
    'banner_image',
    'thumbnail',
    'thumbnail_url',
    'featured_image',
    'cover_image',
    'urlToImage',
    'og_image',
    'picture',
  ],
};

function jsonField(item: Record<string, unknown>, field: ArticleField, config: SourceConfig): unknown {
  const path = config.fields[field];
  if (path) return atPath(item, path);
  for (const key of defaultFields[field]) {
    if (Object.hasOwn(item, key) && item[key] !== null && item[key] !== undefined && item[key] !== '') return item[key];
  }
  return undefined;
}

const listKeys = ['items', 'articles', 'data', 'posts', 'results', 'entries', 'stories', 'news'];

function findList(doc: unknown, config: SourceConfig): unknown[] {
  if (config.itemsPath) {
    const list = atPath(doc, config.itemsPath);
    if (!Array.isArray(list)) throw new FeedError(`The API's answer has no list at "${config.itemsPath.slice(0, 100)}"`);
    return list;
  }
  if (Array.isArray(doc)) return doc;
  if (isRecord(doc)) {
    for (const key of listKeys) if (Array.isArray(doc[key])) return doc[key] as unknown[];
    for (const key of listKeys) {
      const inner = doc[key];
      if (isRecord(inner)) for (const k of listKeys) if (Array.isArray(inner[k])) return inner[k] as unknown[];
    }
  }
  throw new FeedError(
    'The API did not answer with a list of articles (a JSON array, or one under items, articles, data, posts or results); the config\'s "itemsPath" can name where it is',
  );
}

function parseJsonList(body: string, config: SourceConfig): RawItem[] {
  let doc: unknown;
  try {
    doc = JSON.parse(body.replace(/^\uFEFF/, ''));
  } catch {
    throw new FeedError('The API did not answer with JSON');
  }
  if (
    !config.itemsPath &&
    isRecord(doc) &&
    typeof doc.version === 'string' &&
    doc.version.startsWith('https://jsonfeed.org/version/') &&
    Array.isArray(doc.items)
  ) {
    return doc.items.filter(isRecord).map((item) => ({
      title: jsonText(item.title),
      url: jsonText(item.url) ?? jsonText(item.external_url),
      excerptHtml: jsonText(item.summary) === null ? null : escapeHtml(jsonText(item.summary)!),
      contentHtml: jsonText(item.content_html) ?? (jsonText(item.content_text) === null ? null : escapeHtml(jsonText(item.content_text)!)),
      author: jsonAuthors(item.authors ?? item.author),
      date: item.date_published ?? item.date_modified,
      image: jsonText(item.image) ?? jsonText(item.banner_image),
      id: jsonText(item.id),
    }));
  }
  return findList(doc, config)
    .filter(isRecord)
    .slice(0, MAX_ITEMS_SCANNED)
    .map((item) => {
      const date = jsonField(item, 'publishedAt', config);
      return {
        title: jsonText(jsonField(item, 'title', config)),
        url: jsonText(jsonField(item, 'url', config)),
        excerptHtml: jsonText(jsonField(item, 'excerpt', config)),
        contentHtml: jsonText(jsonField(item, 'content', config)),
        author: jsonAuthors(jsonField(item, 'author', config)),
        date: typeof date === 'number' ? date : jsonText(date),
        image: jsonText(jsonField(item, 'imageUrl', config)),
        id: jsonText(jsonField(item, 'id', config)),
      };
    });
}

// ---------------------------------------------------------------------------------------------
// HTML pages (scraper)

function parseHtmlPage(body: string, ctx: ParseContext): RawItem[] {
  const $ = cheerio.load(body);
  const base = httpUrl($('base[href]').first().attr('href'), ctx.baseUrl) ?? ctx.baseUrl;
  const sel = ctx.config.selectors;
  const select = <T>(what: SelectorName, run: () => T): T => {
    try {
      return run();
    } catch {
      throw new FeedError(`The scraper's "${what}" selector is not valid CSS: ${String(sel[what]).slice(0, 100)}`);
    }
  };
  type Node = ReturnType<typeof $>;
  /** Within an item: the item itself when it matches, else its first descendant that does. */
  const within = (item: Node, selector: string, what: SelectorName): Node => select(what, () => (item.is(selector) ? item : item.find(selector).first()));
  const attrOf = (el: Node, names: string[]) => {
    for (const n of names) {
      const v = el.attr(n);
      if (v?.trim()) return v.trim();
    }
    return null;
  };
  const imageOf = (el: Node) => {
    if (!el.length) return null;
    const img = el.is('img, source, meta, link') ? el : el.find('img').first();
    return attrOf(img, ['src', 'data-src', 'data-lazy-src', 'content', 'href']) ?? attrOf(img, ['srcset', 'data-srcset'])?.split(/[\s,]+/)[0] ?? null;
  };

  let items = select('item', () => $(sel.item ?? 'article').toArray()).map((el) => ({ el: $(el), heading: false }));
  if (!items.length && !sel.item) {
    // No <article> on the page: each heading with a link is an article.
    const headings = [
      ...new Set(
        $('h1 a[href], h2 a[href], h3 a[href]')
          .toArray()
          .map((a) => $(a).closest('h1, h2, h3').get(0)!),
      ),
    ];
    items = headings.map((h) => ({ el: $(h), heading: true }));
  }
  const headingLink = 'h1 a[href], h2 a[href], h3 a[href]';
  const pageImage = $('meta[property="og:image"], meta[name="og:image"], meta[name="twitter:image"]').first().attr('content') ?? null;
  const absolute = (u: string | null | undefined) => (u ? httpUrl(u, base) : null);
  return items.slice(0, MAX_ITEMS_SCANNED).map(({ el, heading }) => {
    // A heading's article is what follows it, up to the next heading.
    const body = heading ? el.nextUntil('h1, h2, h3') : el;
    const first = (selector: string) => (heading ? body.filter(selector).add(body.find(selector)) : el.find(selector)).first();
    let linkEl: Node;
    if (sel.link) linkEl = within(el, sel.link, 'link');
    else if (el.is('a[href]')) linkEl = el;
    else linkEl = el.find(headingLink).length ? el.find(headingLink).first() : el.find('a[href]').first();
    const href = linkEl.attr('href') ?? linkEl.find('a[href]').first().attr('href');
    const titleEl = sel.title ? within(el, sel.title, 'title') : heading ? el : el.find('h1, h2, h3').first();
    const excerptEl = sel.excerpt ? within(el, sel.excerpt, 'excerpt') : first('p');
    const contentEl = sel.content ? within(el, sel.content, 'content') : null;
    const dateEl = sel.date ? within(el, sel.date, 'date') : first('time');
    const imageEl = sel.image ? within(el, sel.image, 'image') : first('img');
    const authorEl = sel.author ? within(el, sel.author, 'author') : first('[rel="author"], .author, .byline');
    return {
      title: titleEl.text() || linkEl.text() || null,
      titleIsText: true,
      url: absolute(href),
      excerptHtml: excerptEl.length ? excerptEl.html() : null,
      contentHtml: contentEl?.length ? contentEl.html() : null,
      author: authorEl.length ? authorEl.text() : null,
      date: dateEl.length ? (attrOf(dateEl, ['datetime', 'content', 'data-date']) ?? dateEl.text()) : null,
      image: absolute(imageOf(imageEl)) ?? (items.length === 1 ? absolute(pageImage) : null),
      id: null,
    };
  });
}
