/**
 * Parses feeds in a worker thread (feed-parse-worker.ts), one job at a time, each with a deadline:
 * a job that overruns it, or runs out of the worker's heap, fails alone (its source gets the
 * error) and the worker is replaced for the jobs behind it. The worker is started on demand and
 * stopped when idle; it never keeps the process alive.
 */
import { Worker } from 'node:worker_threads';
import { FeedError, type ParsedArticle } from './feed-source.ts';
import type { ParseJob, ParseResult } from './feed-parse-worker.ts';

const WORKER_URL = new URL('./feed-parse-worker.ts', import.meta.url);
/** Heap for one parse: a 2 MB answer needs a few tens of MB. */
const WORKER_HEAP_MB = 192;
const IDLE_MS = 30_000;

interface Queued {
  id: number;
  job: ParseJob;
  timeoutMs: number;
  resolve(articles: ParsedArticle[]): void;
  reject(err: Error): void;
}

let worker: Worker | null = null;
/** The worker has loaded the parsers: deadlines do not count its start-up. */
let ready = false;
let current: (Queued & { timer: NodeJS.Timeout | null }) | null = null;
const queue: Queued[] = [];
let nextId = 1;
let idleTimer: NodeJS.Timeout | null = null;

function stopWorker() {
  const w = worker;
  worker = null;
  ready = false;
  if (w) void w.terminate();
}

function startWorker(): Worker {
  const w = new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  w.unref();
  w.on('message', (message: { ready: true } | { id: number; result: ParseResult }) => {
    if (worker !== w) return;
    if ('ready' in message) {
      ready = true;
      armDeadline();
      return;
    }
    const { id, result } = message;
    if (!current || current.id !== id) return;
    const job = finishCurrent();
    if (result.ok) job.resolve(result.articles);
    else job.reject(result.feedError ? new FeedError(result.message) : new Error(result.message));
    pump();
  });
  const lost = (err: Error) => {
    if (worker !== w) return; // already replaced (a deadline passed)
    worker = null;
    ready = false;
    if (current) {
      const job = finishCurrent();
      const outOfMemory = (err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
      job.reject(outOfMemory ? new FeedError('Reading the answer needed too much memory') : err);
    }
    pump();
  };
  w.on('error', lost);
  w.on('exit', (code) => lost(new Error(`The feed parser stopped unexpectedly (exit code ${code})`)));
  return w;
}

function finishCurrent() {
  const job = current!;
  if (job.timer) clearTimeout(job.timer);
  current = null;
  return job;
}

function pump() {
  if (current) return;
  const job = queue.shift();
  if (!job) {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(stopWorker, IDLE_MS);
    idleTimer.unref();
    return;
  }
  if (idleTimer) clearTimeout(idleTimer);
  worker ??= startWorker();
  current = { ...job, timer: null };
  worker.postMessage({ id: job.id, job: job.job });
  armDeadline();
}

/** Starts the current job's deadline once the worker is ready for it. */
function armDeadline() {
  if (!current || current.timer || !ready) return;
  current.timer = setTimeout(() => {
    const late = finishCurrent();
    stopWorker(); // it may be stuck in the job: the next one gets a fresh worker
    late.reject(new FeedError(`Reading the answer took longer than ${Math.round(late.timeoutMs / 100) / 10} s`));
    pump();
  }, current.timeoutMs);
}

/** The articles of one answer, parsed off the main thread within `timeoutMs` of its turn. */
export function parseInWorker(job: ParseJob, timeoutMs: number): Promise<ParsedArticle[]> {
  return new Promise((resolve, reject) => {
    queue.push({ id: nextId++, job, timeoutMs, resolve, reject });
    pump();
  });
}
