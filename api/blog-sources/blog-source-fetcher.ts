/**
 * Fetching blog sources: when one is created (in the background), when the admin
 * asks ("Fetch now") and on a schedule (api/composition.ts calls fetchDueSources every
 * minute; a source is due `blogSourceRefreshMinutes` after its last attempt). Every request goes
 * through safeFetch, so a slow, huge or hostile source is cut off (10 s, 2 MB) and private or
 * loopback addresses are refused unless deps.integrations.allowPrivateNetworks; the answer is read
 * in a worker thread within 5 s, so no feed can stall the server's event loop. A fetch never
 * throws: its outcome is the source's lastFetched (the attempt's time) and lastError (null, or a
 * short message with secrets in URLs masked), and one failing source never stops the others.
 * Several servers may run this at once: a due source is claimed by one of them, and articles are
 * stored once (see blog-sources.repository.ts storeArticles).
 */
import type { Deps } from '../deps.ts';

/** What fetching a source uses. */
export type FetchDeps = Pick<Deps, 'database' | 'clock' | 'events' | 'integrations' | 'secrets' | 'log'>;
import { OutboundError, safeFetch } from '../http/outbound-fetch.ts';
import { openConfig, UnreadableSecretError } from '../crypto/sealed-config.ts';
import { maskUrlsInText } from '../crypto/secret-masking.ts';
import { blogSourcesRepository, type BlogSourceRow } from './blog-sources.repository.ts';
import { parseInWorker } from './feed-parse-pool.ts';
import { decodeBody, FeedError, parseSourceConfig, type BlogSourceType } from './feed-source.ts';

export interface FetchLimits {
  /** The whole exchange with the source, redirects included. */
  timeoutMs: number;
  /** The answer, after decompression. */
  maxBytes: number;
  /** Reading the answer (in a worker thread, feed-parse-pool.ts). */
  parseTimeoutMs: number;
}

export const defaultFetchLimits: FetchLimits = { timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024, parseTimeoutMs: 5_000 };

export interface FetchOutcome {
  /** The source after the attempt (lastFetched, lastError). */
  source: BlogSourceRow;
  added: number;
  updated: number;
  error: string | null;
}

/**
 * A new source's first fetch is its create's (fetchInBackground). The schedule leaves it alone this
 * long, well past that fetch's own limits: a claim marks lastFetched when the fetch starts, and the
 * admin's card took that mark for the first fetch's end ("0 articles stored") and stopped waiting.
 * Past it, a first fetch that never happened (its server stopped) is the schedule's.
 */
export const FIRST_FETCH_GRACE_MS = 2 * 60_000;

/** Sources fetched side by side in one scheduled run: a slow one holds up no more than its slot. */
const CONCURRENCY = 4;
/** Sources looked at per scheduled run; the rest are next in line a minute later. */
const MAX_SOURCES_PER_RUN = 100;
const MAX_ERROR_LENGTH = 300;

const accepts: Record<BlogSourceType, string> = {
  rss: 'application/rss+xml, application/atom+xml, application/rdf+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5',
  api: 'application/feed+json, application/json, */*;q=0.5',
  scraper: 'text/html, application/xhtml+xml, */*;q=0.5',
};

/** A short message for the admin (and the log), with any secret in a URL masked. */
function describe(err: unknown): string {
  const message =
    err instanceof OutboundError || err instanceof FeedError ? err.message : `Unexpected error: ${err instanceof Error ? err.message : String(err)}`;
  const masked = maskUrlsInText(message.replace(/\s+/g, ' ').trim())!;
  return masked.length > MAX_ERROR_LENGTH ? `${masked.slice(0, MAX_ERROR_LENGTH - 1)}…` : masked;
}

/** Downloads and parses one source: its articles, or a FeedError / OutboundError. */
async function download(deps: FetchDeps, source: BlogSourceRow, limits: FetchLimits) {
  // Its secrets (headers, API key) opened for this request only; one that does not open fails closed.
  let opened: string | null;
  try {
    opened = openConfig(deps.secrets, source.config, { table: 'blog-sources', id: source.id });
  } catch (err) {
    if (err instanceof UnreadableSecretError) throw new FeedError(`The source config cannot be used: ${err.message}`);
    throw err;
  }
  const config = parseSourceConfig(opened);
  const type = source.type as BlogSourceType;
  const res = await safeFetch(source.url, {
    headers: { accept: accepts[type], ...config.headers },
    timeoutMs: limits.timeoutMs,
    maxBytes: limits.maxBytes,
    allowPrivateNetworks: deps.integrations.allowPrivateNetworks,
  });
  if (!res.ok)
    throw new FeedError(
      `${new URL(res.url).host} answered HTTP ${res.status}${res.status >= 300 && res.status < 400 ? ' (a redirect that was not followed)' : ''}`,
    );
  const body = decodeBody(res.body, res.headers['content-type']);
  // Relative links resolve against where the answer came from, minus what may be secret there (a
  // key in the query, credentials): "#top" or "" must not copy ?apiKey=... into a public link.
  const base = new URL(res.url);
  base.username = '';
  base.password = '';
  base.search = '';
  base.hash = '';
  return parseInWorker({ type, body, baseUrl: base.href, config: opened, now: deps.clock.now().toISOString() }, limits.parseTimeoutMs);
}

/**
 * One attempt at one source. Never throws: a failure becomes the source's lastError. Returns null
 * when the source no longer exists (deleted meanwhile).
 */
async function attempt(deps: FetchDeps, source: BlogSourceRow, startedAt: Date, limits: FetchLimits): Promise<FetchOutcome | null> {
  const repo = blogSourcesRepository(deps.database);
  let added = 0;
  let updated = 0;
  let error: string | null = null;
  try {
    const articles = await download(deps, source, limits);
    const stored = await repo.storeArticles(source.id, articles, deps.clock.now());
    added = stored.added;
    updated = stored.updated;
    // New or changed articles republish the pages that list them (/blog, /external-articles).
    if (stored.added || stored.updated || stored.removed) deps.events.changed({ topic: 'external-articles' });
  } catch (err) {
    error = describe(err);
    const expected = err instanceof OutboundError || err instanceof FeedError;
    // A feed that is down or broken is the feed's problem (warn, ids and the kind of failure only);
    // anything else is ours.
    if (expected) deps.log.warn('blog source fetch failed', { sourceId: source.id, failure: err instanceof OutboundError ? err.failure : 'feed' });
    else deps.log.error('blog source fetch failed', { sourceId: source.id, err: error });
  }
  try {
    const row = await repo.recordResult(source.id, startedAt, error);
    return row ? { source: row, added, updated, error } : null;
  } catch (err) {
    deps.log.error('blog source result not recorded', { sourceId: source.id, err: describe(err) });
    return null;
  }
}

/** Fetches one source now (on creation, "Fetch now"), whether due or not. Null when it does not exist. */
export async function fetchSource(deps: FetchDeps, sourceId: string, limits: FetchLimits = defaultFetchLimits): Promise<FetchOutcome | null> {
  const source = await blogSourcesRepository(deps.database).findById(sourceId);
  if (!source) return null;
  return attempt(deps, source, deps.clock.now(), limits);
}

/**
 * Fetches every active source whose last attempt is older than blogSourceRefreshMinutes (or that
 * was never fetched); returns how many this call fetched. A source another server (or an
 * overlapping run) has just claimed is left to it.
 */
export async function fetchDueSources(deps: FetchDeps, limits: FetchLimits = defaultFetchLimits): Promise<number> {
  const repo = blogSourcesRepository(deps.database);
  const now = deps.clock.now();
  const dueTimes = {
    before: new Date(now.getTime() - deps.integrations.blogSourceRefreshMinutes * 60_000),
    newBefore: new Date(now.getTime() - FIRST_FETCH_GRACE_MS),
  };
  const due = await repo.listDue(dueTimes, MAX_SOURCES_PER_RUN);
  let fetched = 0;
  let next = 0;
  const worker = async () => {
    while (next < due.length) {
      const source = due[next++]!;
      try {
        if (!(await repo.claim(source.id, dueTimes, now))) continue;
      } catch (err) {
        deps.log.error('blog source not claimed', { sourceId: source.id, err: describe(err) });
        continue;
      }
      fetched++;
      await attempt(deps, source, now, limits);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, worker));
  return fetched;
}

const backgroundFetches = new WeakMap<FetchDeps, Set<Promise<unknown>>>();

/**
 * Starts a source's fetch without waiting for it (a new source: the admin gets the 201 at once).
 * Nothing it does can fail the caller or reach the process as an unhandled rejection.
 */
export function fetchInBackground(deps: FetchDeps, sourceId: string): void {
  let running = backgroundFetches.get(deps);
  if (!running) backgroundFetches.set(deps, (running = new Set()));
  const job: Promise<unknown> = fetchSource(deps, sourceId)
    .catch((err) => deps.log.error('blog source background fetch failed', { sourceId, err: describe(err) }))
    .finally(() => running.delete(job));
  running.add(job);
}

/** Resolves when the background fetches started with these deps have finished (tests, shutdown). */
export async function backgroundFetchesSettled(deps: FetchDeps): Promise<void> {
  const running = backgroundFetches.get(deps);
  while (running?.size) await Promise.allSettled([...running]);
}
