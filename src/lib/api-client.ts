/**
 * The one typed client for islands, the admin SPA and the tests (SPEC §7 Generic request behaviour):
 * credentials always included; a non-OK response throws an Error whose text is
 * "status: body-or-statusText". Admin calls carry the identity service's access token as a Bearer
 * header (ARCHITECTURE: no cookie sessions, so no CSRF surface).
 */
import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { type ClientResponse, hc, type InferResponseType } from 'hono/client';
import type { SuccessStatusCode } from 'hono/utils/http-status';
import type { ApiRoutes } from './api-routes.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly body: string;
  constructor(status: number, body: string) {
    super(`${status}: ${body}`);
    this.status = status;
    this.body = body;
  }

  /** The server's `{ error, fields, code }`, when the body is one. */
  get details(): { error?: string; fields?: Record<string, string>; code?: string } {
    try {
      return JSON.parse(this.body) as { error?: string; fields?: Record<string, string>; code?: string };
    } catch {
      return {};
    }
  }
}

type TokenProvider = () => Promise<string | null>;
let accessToken: TokenProvider = async () => null;

/** The identity layer registers how to get the current access token. */
export function setAccessTokenProvider(provider: TokenProvider) {
  accessToken = provider;
}

export async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = (await res.text()) || res.statusText;
    throw new ApiError(res.status, text);
  }
}

/** The admin token, on admin paths only: public calls never carry it. */
async function headersFor(path: string): Promise<Record<string, string>> {
  const headers: Record<string, string> = {};
  if (path.startsWith('/api/admin')) {
    const token = await accessToken();
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  return headers;
}

/**
 * The fetch behind the typed client: credentials always included, the admin token on admin paths,
 * and a non-OK answer thrown as an ApiError, so a call's result is always the route's success body.
 * A call's own headers go along (the public POSTs' Idempotency-Key, a SubmissionKey's, so a retry
 * cannot store the submission twice).
 */
async function apiFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const path = new URL(input instanceof Request ? input.url : String(input), 'http://site').pathname;
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(await headersFor(path))) headers.set(name, value);
  const res = await fetchThroughOutages(() => fetch(input, { ...init, headers, credentials: 'include' }), {
    repeatable: !init.method || ['GET', 'HEAD'].includes(init.method.toUpperCase()) || headers.has('Idempotency-Key'),
  });
  await throwIfResNotOk(res);
  return res;
}

/** How often, at most, a request is sent again through a moment's outage. */
const OUTAGE_RETRIES = 2;

/**
 * A 503 with a short Retry-After is the server saying "the database was away for a moment, send it
 * again" (api/http/errors.ts): a request that is safe to send twice (a read, or a submission with its
 * Idempotency-Key, which the server stores once) is sent again after the wait, so the visitor sees
 * their booking go through instead of an error. Anything else is answered as it came.
 */
export async function fetchThroughOutages(
  send: () => Promise<Response>,
  { repeatable, sleep = wait }: { repeatable: boolean; sleep?: (ms: number) => Promise<void> },
) {
  let res = await send();
  for (let tries = 0; repeatable && tries < OUTAGE_RETRIES && res.status === 503; tries++) {
    const retryAfter = res.headers.get('Retry-After');
    const seconds = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : Number.NaN;
    if (!(seconds <= 5)) break;
    await res.body?.cancel();
    await sleep(seconds * 1000);
    res = await send();
  }
  return res;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The typed client of the API (Hono's `hc`, typed by api/app.ts's `ApiRoutes`): islands, admin
 * screens and tests call routes by name (`api.admin.testimonials[':id'].$put(...)`), so a request or
 * response field the server renames fails `npm run typecheck` where it is sent or read.
 * `origin`: '' in the browser (same origin); a test gives the server's.
 */
export function apiClient(origin = '', fetchImpl: typeof fetch = apiFetch) {
  return hc<ApiRoutes>(`${origin}/`, { fetch: fetchImpl }).api;
}

export const api = apiClient();

/** The success body of a typed call (`read(api.testimonials.$get())`); undefined for a 204. */
export async function read<T, S extends number>(call: Promise<ClientResponse<T, S, 'json'>>): Promise<T>;
export async function read<S extends number>(call: Promise<ClientResponse<unknown, S, string>>): Promise<undefined>;
export async function read(call: Promise<ClientResponse<unknown, number, string>>): Promise<unknown> {
  const res = await call;
  return res.status === 204 ? undefined : res.json();
}

/** The success body type of a typed route (`ApiData<typeof api.testimonials.$get>`). */
export type ApiData<Route> = InferResponseType<Route, SuccessStatusCode>;

/**
 * A form's Idempotency-Key (docs/decisions/016): one per submission. Sending the same body again (the
 * visitor retries after an error or a lost answer) reuses the key, so the server answers the first
 * request's answer instead of storing the submission twice; a changed body (the visitor edited the
 * form) gets a new key, and so does the next submission after `succeeded()`.
 */
export interface SubmissionKey {
  /** The key for this body. */
  for(body: unknown): string;
  /** The submission was stored: the next one is a new submission. */
  succeeded(): void;
}

export function submissionKey(): SubmissionKey {
  let current: { body: string; key: string } | null = null;
  return {
    for(body) {
      const text = JSON.stringify(body);
      if (current?.body !== text) current = { body: text, key: randomKey() };
      return current.key;
    },
    succeeded() {
      current = null;
    },
  };
}

/**
 * A random UUID (v4). crypto.randomUUID exists only in secure contexts (HTTPS, localhost); the site
 * may be opened over plain http on an intranet, where getRandomValues still works.
 */
export function randomKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/** The default query: the key's parts joined with slashes is the path; a 401 can yield null. */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey }) => {
    const path = queryKey.map(String).join('/');
    const res = await fetch(path, { headers: await headersFor(path), credentials: 'include' });
    if (on401 === 'returnNull' && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/** SPEC §7 data-fetch defaults: no retry, no refetch on focus, never stale, no interval, 5-minute cache. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        gcTime: 5 * 60 * 1000,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
