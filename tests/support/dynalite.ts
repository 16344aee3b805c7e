/**
 * Real DynamoDB API peers for the migration's tests, no vitest import (Playwright specs and
 * benches may use it too):
 * - `startDynalite`: dynalite (a DynamoDB implementation from npm) on loopback. With `path` it keeps
 *   its data on disk, so `stop()` then `start()` is a restart on the same port with the same data,
 *   like a DynamoDB endpoint that went away and came back. It counts BatchWriteItem calls and items,
 *   and can run something after the n-th one (stop itself midway through a migration).
 * - `startDynamoProxy`: a pass-through HTTP proxy in front of it that can answer BatchWriteItem with
 *   UnprocessedItems (writing only part of the batch, as DynamoDB does under load) and can hold
 *   requests unanswered (a stalled peer).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';

type DynaliteOptions = { createTableMs?: number; deleteTableMs?: number; updateTableMs?: number; path?: string };
const dynalite = createRequire(import.meta.url)('dynalite') as (options: DynaliteOptions) => Server;

export interface RunningDynalite {
  endpoint: string;
  port: number;
  /** BatchWriteItem calls answered, and the put requests they carried, since the start (or `resetCounts`). */
  counts: { batchWrites: number; items: number };
  resetCounts(): void;
  /** Runs `action` once the n-th BatchWriteItem call from now has been answered. */
  afterBatchWrites(n: number, action: () => void): void;
  /** Closes the server and drops every connection (clients see resets, then refusals). */
  stop(): Promise<void>;
  /** Listens again on the same port (same data when started with `path`). */
  start(): Promise<void>;
}

const target = (req: IncomingMessage) => String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';

export async function startDynalite(options: { port?: number; path?: string } = {}): Promise<RunningDynalite> {
  let server: Server | null = null;
  let port = options.port ?? 0;
  const counts = { batchWrites: 0, items: 0 };
  let trigger: { at: number; action: () => void } | null = null;

  const listen = async () => {
    const s = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, ...(options.path ? { path: options.path } : {}) });
    // Watches the calls dynalite answers (another listener on the same stream, not a wrapper).
    s.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      if (target(req) !== 'BatchWriteItem') return;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      res.once('finish', () => {
        counts.batchWrites++;
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString()) as { RequestItems: Record<string, unknown[]> };
          for (const list of Object.values(body.RequestItems)) counts.items += list.length;
        } catch {
          /* not ours to judge */
        }
        if (trigger && counts.batchWrites >= trigger.at) {
          const { action } = trigger;
          trigger = null;
          action();
        }
      });
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    port = (s.address() as AddressInfo).port;
    server = s;
  };
  await listen();

  return {
    get endpoint() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    counts,
    resetCounts() {
      counts.batchWrites = 0;
      counts.items = 0;
    },
    afterBatchWrites(n, action) {
      trigger = { at: counts.batchWrites + n, action };
    },
    async stop() {
      const s = server;
      server = null;
      if (!s) return;
      await new Promise<void>((resolve) => {
        s.close(() => resolve());
        s.closeAllConnections();
      });
    },
    async start() {
      if (!server) await listen();
    },
  };
}

export interface DynamoProxy {
  endpoint: string;
  /**
   * The next `n` BatchWriteItem calls write only the first half of their items (rounded down) and
   * answer the rest as UnprocessedItems ('all': write nothing, everything comes back unprocessed).
   */
  leaveUnprocessed(n: number, share?: 'half' | 'all'): void;
  /** BatchWriteItem calls answered with UnprocessedItems so far. */
  unprocessedAnswers: number;
  /** Every BatchWriteItem call that reached the proxy. */
  batchWrites: number;
  /** Holds requests unanswered until `release()` (a stalled peer); held ones then go through. */
  hold(): void;
  /** Requests held now (read in full, not yet forwarded). */
  heldRequests: number;
  release(): void;
  close(): Promise<void>;
}

/** A pass-through proxy to `upstream` (a dynalite endpoint). */
export async function startDynamoProxy(upstream: string): Promise<DynamoProxy> {
  let unprocessedLeft = 0;
  let share: 'half' | 'all' = 'half';
  let held: (() => void)[] | null = null;
  const state = { unprocessedAnswers: 0, batchWrites: 0 };

  const forward = async (req: IncomingMessage, body: string) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name)) headers[name] = value;
    }
    const res = await fetch(upstream + (req.url ?? '/'), { method: req.method, headers, body: req.method === 'POST' ? body : undefined });
    return { status: res.status, contentType: res.headers.get('content-type') ?? 'application/x-amz-json-1.0', text: await res.text() };
  };

  const answer = (res: ServerResponse, status: number, contentType: string, text: string) => {
    const bytes = Buffer.from(text);
    res.writeHead(status, { 'content-type': contentType, 'content-length': bytes.length, 'x-amz-crc32': String(crc32(bytes)), 'x-amzn-requestid': 'proxy' });
    res.end(bytes);
  };

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks).toString();
    if (held) await new Promise<void>((resolve) => held!.push(resolve));
    try {
      if (target(req) === 'BatchWriteItem') state.batchWrites++;
      if (target(req) === 'BatchWriteItem' && unprocessedLeft > 0) {
        unprocessedLeft--;
        const request = JSON.parse(body) as { RequestItems: Record<string, unknown[]> };
        const written: Record<string, unknown[]> = {};
        const unprocessed: Record<string, unknown[]> = {};
        for (const [table, list] of Object.entries(request.RequestItems)) {
          const half = share === 'all' ? 0 : Math.floor(list.length / 2);
          written[table] = list.slice(0, half);
          if (list.length > half) unprocessed[table] = list.slice(half);
        }
        // 'all', or a single item 'halved' to none: DynamoDB writes nothing and returns it all (an empty
        // list sent on upstream would be refused as invalid, a failure the real service never gives).
        if (share === 'all' || Object.values(written).every((list) => list.length === 0)) {
          state.unprocessedAnswers++;
          return answer(res, 200, 'application/x-amz-json-1.0', JSON.stringify({ UnprocessedItems: unprocessed }));
        }
        body = JSON.stringify({ ...request, RequestItems: written });
        const upstreamAnswer = await forward(req, body);
        if (upstreamAnswer.status !== 200) return answer(res, upstreamAnswer.status, upstreamAnswer.contentType, upstreamAnswer.text);
        state.unprocessedAnswers++;
        const out = JSON.parse(upstreamAnswer.text) as { UnprocessedItems?: Record<string, unknown[]> };
        for (const [table, list] of Object.entries(out.UnprocessedItems ?? {})) unprocessed[table] = [...list, ...(unprocessed[table] ?? [])];
        return answer(res, 200, upstreamAnswer.contentType, JSON.stringify({ ...out, UnprocessedItems: unprocessed }));
      }
      const passed = await forward(req, body);
      answer(res, passed.status, passed.contentType, passed.text);
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  const release = () => {
    const waiting = held ?? [];
    held = null;
    for (const go of waiting) go();
  };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    leaveUnprocessed(n, how = 'half') {
      unprocessedLeft = n;
      share = how;
    },
    get unprocessedAnswers() {
      return state.unprocessedAnswers;
    },
    get batchWrites() {
      return state.batchWrites;
    },
    hold() {
      held ??= [];
    },
    get heldRequests() {
      return held?.length ?? 0;
    },
    release,
    async close() {
      release();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
