/**
 * A blog source as the main thread knows it: its kinds, the article a fetch yields, its config and the
 * error a fetch reports. The parsing itself (api/blog-sources/feed-parsers.ts, with cheerio and the
 * XML parser) runs in the feed-parse worker, so the server does not load it at start.
 */
import type { blogSourceTypes } from '../../src/shared/constants.ts';

export type BlogSourceType = (typeof blogSourceTypes)[number];

export interface ParsedArticle {
  title: string;
  url: string;
  excerpt: string | null;
  content: string | null;
  author: string | null;
  publishedAt: Date | null;
  imageUrl: string | null;
  externalId: string | null;
}

/** Something wrong with what the source answered; the message is shown to the admin as the source's error. */
export class FeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedError';
  }
}

/** At most this many articles are taken from one fetch (newest first). */
export const MAX_ARTICLES_PER_FETCH = 50;
// ---------------------------------------------------------------------------------------------
// Config

const articleFields = ['id', 'title', 'url', 'excerpt', 'content', 'author', 'publishedAt', 'imageUrl'] as const;
export type ArticleField = (typeof articleFields)[number];
const selectorNames = ['item', 'title', 'link', 'excerpt', 'content', 'date', 'image', 'author'] as const;
export type SelectorName = (typeof selectorNames)[number];

export interface SourceConfig {
  headers: Record<string, string>;
  itemsPath: string | null;
  fields: Partial<Record<ArticleField, string>>;
  selectors: Partial<Record<SelectorName, string>>;
}

export const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
export const nonEmpty = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** The config's known keys; unknown keys and values of the wrong kind are ignored. */
export function parseSourceConfig(config: string | null): SourceConfig {
  const result: SourceConfig = { headers: {}, itemsPath: null, fields: {}, selectors: {} };
  if (!config) return result;
  let raw: unknown;
  try {
    raw = JSON.parse(config);
  } catch {
    throw new FeedError('The source config is not valid JSON');
  }
  if (!isRecord(raw)) return result;
  if (isRecord(raw.headers)) {
    for (const [name, value] of Object.entries(raw.headers)) {
      if (/^[!#$%&'*+.^`|~\w-]+$/.test(name) && (typeof value === 'string' || typeof value === 'number') && !/[\r\n\0]/.test(String(value)))
        result.headers[name.toLowerCase()] = String(value);
    }
  }
  const apiKey = nonEmpty(raw.apiKey) ?? nonEmpty(raw.api_key);
  if (apiKey && !/[\r\n\0]/.test(apiKey)) {
    const header = nonEmpty(raw.apiKeyHeader);
    result.headers[(header && /^[!#$%&'*+.^`|~\w-]+$/.test(header) ? header : 'x-api-key').toLowerCase()] ??= apiKey;
  }
  result.itemsPath = nonEmpty(raw.itemsPath);
  if (isRecord(raw.fields)) for (const f of articleFields) if (nonEmpty(raw.fields[f])) result.fields[f] = nonEmpty(raw.fields[f])!;
  if (isRecord(raw.selectors)) for (const s of selectorNames) if (nonEmpty(raw.selectors[s])) result.selectors[s] = nonEmpty(raw.selectors[s])!;
  return result;
}

// ---------------------------------------------------------------------------------------------
// Decoding the answer

/** The body as text: the content-type's charset, else the XML declaration's or the HTML meta's, else UTF-8. */
export function decodeBody(body: Buffer, contentType: string | undefined): string {
  const head = body.subarray(0, 1024).toString('latin1');
  const charset =
    /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType ?? '')?.[1] ??
    /^\s*<\?xml[^>]*encoding\s*=\s*["']([\w.:-]+)["']/i.exec(head)?.[1] ??
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
  if (charset) {
    try {
      return new TextDecoder(charset).decode(body);
    } catch {
      /* unknown charset: UTF-8 */
    }
  }
  return new TextDecoder('utf-8').decode(body);
}
