/**
 * Per-client rate limits of the public calls (docs/decisions/013-abuse-limits.md).
 *
 * - Each rule (contact, booking, calculator, availability) is one or more limits "N per window", all of
 *   which must allow a request. A limit is a token bucket (kept as GCRA: one number per limit and
 *   client, the time the bucket is full again): N requests at once, then one more every window/N.
 * - The client is the socket's address, or, only when that address is a trusted proxy
 *   (TRUSTED_PROXIES), the nearest untrusted hop of X-Forwarded-For; an IPv6 client counts by its /64,
 *   the block one subscriber gets, and also by its /56 (what many ISPs give one subscriber, so 256 /64s
 *   to rotate through), which allows WIDE_BLOCK_FACTOR times as much: a few subscribers may share one.
 * - The counts live in a store behind a small interface; the default is this process's memory,
 *   bounded to a number of clients (least recently seen dropped first), so an attack from many
 *   addresses cannot grow it. Several API containers share theirs: api/server.ts builds
 *   the store with createRateLimitStore (./shared-rate-limits.ts): Redis with REDIS_URL, else
 *   PostgreSQL with DATABASE_URL, else this memory store (SQLite: one process).
 * - Time is the injected clock (STYLE §2), so the tests move it instead of waiting.
 */
import { BlockList, isIP } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';
import type { Clock } from '../clock.ts';
import { errorBody } from './errors.ts';

export interface Limit {
  readonly max: number;
  readonly windowMs: number;
}

export const rateRules = ['contact', 'booking', 'calculator', 'availability', 'signUp', 'calendarPush', 'invitation'] as const;
export type RateRule = (typeof rateRules)[number];
export type RateRules = Record<RateRule, readonly Limit[]>;

const units = { second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

/**
 * The numbers, in one place (the operator overrides them with RATE_LIMIT_<RULE>, api/env.ts). A person
 * sends one message, books one or two consultations and saves a few estimates; a script sends
 * hundreds. The daily booking cap is also what keeps a few clients from filling the year's ~3,400
 * slots: at 20 a day, that takes 170 client-days.
 */
export const defaultRateRules: RateRules = {
  contact: [
    { max: 5, windowMs: units.minute },
    { max: 30, windowMs: units.day },
  ],
  booking: [
    { max: 5, windowMs: units.minute },
    { max: 20, windowMs: units.day },
  ],
  calculator: [
    { max: 20, windowMs: units.minute },
    { max: 200, windowMs: units.day },
  ],
  // The booking modal's slot list: one read per day looked at (a read, so only a per-minute limit).
  availability: [{ max: 120, windowMs: units.minute }],
  // Admin sign-ups (the identity gateway's SignUp): each hashes a password and mails a code.
  signUp: [
    { max: 5, windowMs: units.hour },
    { max: 20, windowMs: units.day },
  ],
  // Google's and Microsoft's change notifications (api/calendar-sync/calendar-inbound.ts): a busy
  // calendar sends a few a minute from a few addresses; each only asks for a sync, which coalesces.
  calendarPush: [{ max: 300, windowMs: units.minute }],
  // An admin invitation's page (docs/decisions/041): one look-up and an acceptance or two (each hashes
  // a password); the token is 256 bits, so the limit is for the password hashing, not for guessing.
  invitation: [
    { max: 10, windowMs: units.hour },
    { max: 30, windowMs: units.day },
  ],
};

/** No rule limits anything (tests of other features, RATE_LIMITS=off). */
export const noRateLimits: RateRules = { contact: [], booking: [], calculator: [], availability: [], signUp: [], calendarPush: [], invitation: [] };

export interface RateLimitSettings {
  rules: RateRules;
  /** Addresses and CIDR ranges of the proxies in front of the server whose X-Forwarded-For is believed. */
  trustedProxies: readonly string[];
  /** Where the counts live; unset: a bounded in-memory store of this app (api/server.ts gives the shared one). */
  store?: RateLimitStore;
}

export type RateVerdict = { allowed: true } | { allowed: false; retryAfterMs: number };

/**
 * Where the counts live. `take` checks every limit for the key and, only if all allow, counts the
 * request in each (a refused request uses no allowance); a shared store counts atomically, so two
 * containers never both take the last request (./shared-rate-limits.ts).
 */
export interface RateLimitStore {
  take(key: string, limits: readonly Limit[], nowMs: number): RateVerdict | Promise<RateVerdict>;
}

/** Enough for every visitor of a busy day; at about 200 bytes a client, a few megabytes at most. */
export const DEFAULT_MAX_CLIENTS = 20_000;

export interface MemoryRateLimitStore extends RateLimitStore {
  take(key: string, limits: readonly Limit[], nowMs: number): RateVerdict;
  /** Keys (rule and client) held now; never more than maxKeys. */
  readonly size: number;
}

export function createMemoryRateLimitStore({ maxKeys = DEFAULT_MAX_CLIENTS }: { maxKeys?: number } = {}): MemoryRateLimitStore {
  // Per key, per limit: the theoretical arrival time (GCRA), when that bucket is full again. A Map
  // iterates in insertion order and every use re-inserts the key, so the first key is the least
  // recently seen: the one to drop when full. A dropped key only gives its client a fresh allowance.
  const buckets = new Map<string, number[]>();
  const touch = (key: string, value: number[]) => {
    buckets.delete(key);
    buckets.set(key, value);
    while (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value!);
  };
  return {
    get size() {
      return buckets.size;
    },
    take(key, limits, now) {
      const held = buckets.get(key);
      const next: number[] = [];
      let waitMs = 0;
      limits.forEach(({ max, windowMs }, i) => {
        const interval = windowMs / max;
        const full = Math.max(held?.[i] ?? now, now) + interval;
        // Taking one more would put the bucket more than a window behind: refused until it is not.
        // (A millisecond of slack, the clock's own step: 60,000 / 7 added up seven times onto a
        // timestamp is not exactly 60,000 in floating point.)
        if (full - now > windowMs + 1) waitMs = Math.max(waitMs, full - windowMs - now);
        next.push(full);
      });
      if (waitMs > 0) {
        // Still the most recently seen: a client being refused is the last one to forget.
        if (held) touch(key, held);
        return { allowed: false, retryAfterMs: waitMs };
      }
      touch(key, next);
      return { allowed: true };
    },
  };
}

/** "5/minute,30/day" (or "off") to limits; null when the text is not that. */
export function parseLimits(text: string): Limit[] | null {
  const value = text.trim().toLowerCase();
  if (value === 'off') return [];
  const limits: Limit[] = [];
  for (const part of value.split(',')) {
    const match = /^(\d{1,9})\s*\/\s*(second|minute|hour|day)$/.exec(part.trim());
    if (!match || Number(match[1]) < 1) return null;
    limits.push({ max: Number(match[1]), windowMs: units[match[2] as keyof typeof units] });
  }
  return limits;
}

/** TRUSTED_PROXIES entries ("10.0.0.0/8", "127.0.0.1", "fd00::/8") to a matcher; throws on a bad one. */
export function trustedProxyList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.trim().split('/');
    const family = isIP(address);
    if (!family || extra !== undefined) throw new Error(`"${entry}" is not an IP address or CIDR range`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) {
      list.addAddress(address, type);
      continue;
    }
    const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
    if (!(bits >= 0 && bits <= (family === 4 ? 32 : 128))) throw new Error(`"${entry}" has a bad prefix length`);
    list.addSubnet(address, bits, type);
  }
  return list;
}

/** An address, normalised: IPv4 as is (also when IPv4-mapped), IPv6 lower-cased; null if not an address. */
export function normalizeAddress(raw: string | null | undefined): { address: string; family: 4 | 6 } | null {
  if (!raw) return null;
  let address = raw.trim();
  // "[2001:db8::1]:443", "203.0.113.7:51234" (some proxies add the port), "fe80::1%eth0".
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
  address = address.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) address = mapped[1]!;
  const family = isIP(address);
  if (family === 4) return { address, family };
  if (family === 6) return { address: address.toLowerCase(), family };
  return null;
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail counts as two zero groups). */
function ipv6Groups(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part ? part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  return [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right].map((g) => parseInt(g, 16));
}

/** 2001:db8:1:2:3:4:5:6 -> "2001:db8:1:2::/64"; with 56, "2001:db8:1:0::/56" (the fourth group's low byte cleared). */
function ipv6Block(address: string, bits: 64 | 56 = 64): string {
  const all = ipv6Groups(address).slice(0, 4);
  if (bits === 56) all[3] = all[3]! & 0xff00;
  return `${all.map((g) => g.toString(16)).join(':')}::/${bits}`;
}

/**
 * How much more a /56 may do than one of its /64s: a subscriber rotating through the 256 /64s of its
 * /56 gets this many /64s' allowance, not 256; a few neighbours sharing one (some mobile carriers and
 * hosts hand out /64s from a shared /56) still have room.
 */
export const WIDE_BLOCK_FACTOR = 4;

/**
 * The groups a client counts in, narrowest first: an IPv4 address (or "unknown") alone; an IPv6
 * client's /64 and the /56 it lies in. Takes clientOf's answer (or a bare address).
 */
export function addressGroups(client: string): string[] {
  const block = /^([0-9a-f]{1,4}:[0-9a-f]{1,4}:[0-9a-f]{1,4}:[0-9a-f]{1,4})::\/64$/.exec(client);
  if (block) return [client, ipv6Block(`${block[1]}::`, 56)];
  const bare = normalizeAddress(client);
  if (bare?.family === 6) return [ipv6Block(bare.address), ipv6Block(bare.address, 56)];
  return [client];
}

/** A rule's limits as they apply to a /56: WIDE_BLOCK_FACTOR times as many in the same windows. */
export const wideLimits = (limits: readonly Limit[]): Limit[] => limits.map(({ max, windowMs }) => ({ max: max * WIDE_BLOCK_FACTOR, windowMs }));

/** The socket's peer on @hono/node-server (`c.env.incoming`); none for in-process calls (app.request). */
function socketAddress(c: Context): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress;
}

/**
 * Who is asking: the socket's address; behind trusted proxies, X-Forwarded-For read from the right
 * (each proxy appends the address it was called from) up to the first hop that is not a trusted
 * proxy. Everything to the left of that hop was written by the client and could be anything.
 */
export function clientOf(c: Context, trusted: BlockList | null): string {
  let client = normalizeAddress(socketAddress(c));
  if (client && trusted) {
    const hops = (c.req.header('x-forwarded-for') ?? '').split(',').filter((hop) => hop.trim());
    for (let i = hops.length - 1; i >= 0 && trusted.check(client.address, client.family === 4 ? 'ipv4' : 'ipv6'); i--) {
      const hop = normalizeAddress(hops[i]);
      // A hop our own proxy did not write is not believed; the proxy's address stands.
      if (!hop) break;
      client = hop;
    }
  }
  if (!client) return 'unknown';
  return client.family === 4 ? client.address : ipv6Block(client.address);
}

export const TOO_MANY_REQUESTS = 'Too many requests. Please wait a little and try again, or call the office.';

interface Limiter {
  rules: RateRules;
  /** The rule's limits for a /56 (made once per rule). */
  wide(rule: RateRule): Limit[];
  store: RateLimitStore;
  trusted: BlockList | null;
}

// One limiter (and store) per app: the route files of one createApp share it.
const limiters = new WeakMap<object, Limiter>();

function limiterOf(deps: { rateLimits: RateLimitSettings }): Limiter {
  let limiter = limiters.get(deps);
  if (!limiter) {
    const settings = deps.rateLimits;
    const wide = new Map<RateRule, Limit[]>();
    limiter = {
      rules: settings.rules,
      wide: (rule) => wide.get(rule) ?? wide.set(rule, wideLimits(settings.rules[rule])).get(rule)!,
      store: settings.store ?? createMemoryRateLimitStore(),
      trusted: settings.trustedProxies.length ? trustedProxyList(settings.trustedProxies) : null,
    };
    limiters.set(deps, limiter);
  }
  return limiter;
}

/**
 * Middleware for one public route: over the rule's limits, 429 with Retry-After (whole seconds) and
 * the usual error body; nothing after it runs, so nothing is read, stored or sent.
 */
export function rateLimit(deps: { rateLimits: RateLimitSettings; clock: Clock }, rule: RateRule): MiddlewareHandler {
  const limiter = limiterOf(deps);
  return async (c, next) => {
    const limits = limiter.rules[rule];
    if (!limits.length) return next();
    const now = deps.clock.now().getTime();
    // The /64 first: a request it refuses never reaches the /56, so one hammering /64 does not use up
    // its neighbours' shared allowance.
    for (const [i, group] of addressGroups(clientOf(c, limiter.trusted)).entries()) {
      const verdict = await limiter.store.take(`${rule} ${group}`, i === 0 ? limits : limiter.wide(rule), now);
      if (verdict.allowed) continue;
      c.header('Retry-After', String(Math.max(1, Math.ceil(verdict.retryAfterMs / 1000))));
      return errorBody(c, 429, TOO_MANY_REQUESTS);
    }
    return next();
  };
}
