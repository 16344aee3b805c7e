import { describe, expect, it } from 'vitest';
import { parseInWorker } from './feed-parse-pool.ts';
import { FeedError } from './feed-parsers.ts';
import type { ParseJob } from './feed-parse-worker.ts';

const now = '2025-06-01T12:00:00.000Z';
const rss = (title: string) =>
  `<rss version="2.0"><channel><item><title>${title}</title><link>https://news.example.com/${encodeURIComponent(title)}</link><pubDate>Sat, 01 Mar 2025 16:00:00 GMT</pubDate></item></channel></rss>`;
const job = (body: string, type: ParseJob['type'] = 'rss'): ParseJob => ({ type, body, baseUrl: 'https://news.example.com/', config: null, now });
/** parse5 and css-select are quadratic in nesting depth: seconds of CPU for a few hundred KB. */
const deepPage = `<html><body>${'<div>'.repeat(90_000)}<article><h2><a href="/deep">Deep</a></h2></article></body></html>`;

describe('parseInWorker', () => {
  it('parses in a worker thread, dates and all', async () => {
    const [article] = await parseInWorker(job(rss('Hello')), 10_000);
    expect(article).toMatchObject({ title: 'Hello', url: 'https://news.example.com/Hello', externalId: null });
    expect(article!.publishedAt).toEqual(new Date('2025-03-01T16:00:00Z'));
  });

  it("passes the feed's problems on as FeedErrors", async () => {
    await expect(parseInWorker(job('<rss><channel><item></rss>'), 10_000)).rejects.toThrow(FeedError);
    await expect(parseInWorker(job('not json', 'api'), 10_000)).rejects.toThrow('The API did not answer with JSON');
  });

  it('gives up on a job past its deadline, alone: the jobs queued behind it get a fresh worker', async () => {
    const results = await Promise.allSettled([
      parseInWorker(job(rss('Before')), 10_000),
      parseInWorker(job(deepPage, 'scraper'), 1_000),
      parseInWorker(job(rss('After')), 10_000),
      parseInWorker(job(rss('Last')), 10_000),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const late = (results[1] as PromiseRejectedResult).reason;
    expect(late).toBeInstanceOf(FeedError);
    expect(late.message).toBe('Reading the answer took longer than 1 s');
    expect((results[2] as PromiseFulfilledResult<{ title: string }[]>).value.map((a) => a.title)).toEqual(['After']);
    expect((results[3] as PromiseFulfilledResult<{ title: string }[]>).value.map((a) => a.title)).toEqual(['Last']);
  });
});
