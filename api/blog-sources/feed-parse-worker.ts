/**
 * The worker side of feed-parse-pool.ts: reads answers off the main thread, one message at a time.
 * Parsing is where a hostile feed costs CPU and memory (a page of 100,000 nested elements, sheer
 * size): here the worst it can do is fail its own fetch, while the server keeps answering visitors.
 */
import { parentPort } from 'node:worker_threads';
import { FeedError, parseFeed, parseSourceConfig, type BlogSourceType, type ParsedArticle } from './feed-parsers.ts';

export interface ParseJob {
  type: BlogSourceType;
  body: string;
  /** The address the answer came from: relative links resolve against it. */
  baseUrl: string;
  config: string | null;
  /** ISO time: dates later than a day after it are not publication dates. */
  now: string;
}

export type ParseResult = { ok: true; articles: ParsedArticle[] } | { ok: false; feedError: boolean; message: string };

function run(job: ParseJob): ParseResult {
  try {
    return { ok: true, articles: parseFeed(job.type, job.body, { baseUrl: job.baseUrl, config: parseSourceConfig(job.config), now: new Date(job.now) }) };
  } catch (err) {
    if (err instanceof FeedError) return { ok: false, feedError: true, message: err.message };
    if (err instanceof RangeError) return { ok: false, feedError: true, message: 'The answer is nested too deeply to read' };
    return { ok: false, feedError: false, message: err instanceof Error ? err.message : String(err) };
  }
}

parentPort?.on('message', ({ id, job }: { id: number; job: ParseJob }) => {
  parentPort!.postMessage({ id, result: run(job) });
});
// Loaded (the parsers are heavy to import): from now on a job's deadline runs.
parentPort?.postMessage({ ready: true });
