import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { loadEnv, rateLimitSettings } from '../env.ts';
import {
  addressGroups,
  clientOf,
  createMemoryRateLimitStore,
  defaultRateRules,
  noRateLimits,
  normalizeAddress,
  parseLimits,
  rateLimit,
  trustedProxyList,
  WIDE_BLOCK_FACTOR,
  type Limit,
} from './rate-limit.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const T0 = Date.UTC(2030, 0, 7, 17, 0);
const perMinute = (max: number): Limit => ({ max, windowMs: MINUTE });

/** Takes `n` requests at `now`; the verdicts' allowed flags. */
const takeMany = (store: ReturnType<typeof createMemoryRateLimitStore>, key: string, limits: Limit[], now: number, n: number) =>
  Array.from({ length: n }, () => store.take(key, limits, now).allowed);

describe('createMemoryRateLimitStore (a token bucket per client and limit)', () => {
  it('allows the limit at once, refuses the next with the wait, and refills evenly over the window', () => {
    const store = createMemoryRateLimitStore();
    const limits = [perMinute(5)];
    expect(takeMany(store, 'a', limits, T0, 5)).toEqual([true, true, true, true, true]);
    // 5 a minute: one comes back every 12 seconds.
    expect(store.take('a', limits, T0)).toEqual({ allowed: false, retryAfterMs: 12_000 });
    expect(store.take('a', limits, T0 + 11_998)).toEqual({ allowed: false, retryAfterMs: 2 });
    expect(takeMany(store, 'a', limits, T0 + 12_000, 2)).toEqual([true, false]);
    // A whole window later the bucket is full again.
    expect(takeMany(store, 'a', limits, T0 + 12_000 + MINUTE, 6)).toEqual([true, true, true, true, true, false]);
  });

  it('allows exactly the limit when the window does not divide evenly by it', () => {
    const store = createMemoryRateLimitStore();
    for (const max of [3, 7, 11, 13, 17]) {
      expect(takeMany(store, `n${max}`, [perMinute(max)], T0, max + 1), `${max}/minute`).toEqual([...Array<boolean>(max).fill(true), false]);
      expect(takeMany(store, `n${max}`, [perMinute(max)], T0 + MINUTE, max + 1), `${max}/minute, a minute later`).toEqual([
        ...Array<boolean>(max).fill(true),
        false,
      ]);
    }
  });

  it('counts each client on its own', () => {
    const store = createMemoryRateLimitStore();
    expect(takeMany(store, 'a', [perMinute(2)], T0, 3)).toEqual([true, true, false]);
    expect(takeMany(store, 'b', [perMinute(2)], T0, 2)).toEqual([true, true]);
  });

  it('needs every limit to allow; the wait is the longest; a refused request is not counted', () => {
    const store = createMemoryRateLimitStore();
    const limits = [perMinute(5), { max: 8, windowMs: DAY }];
    expect(takeMany(store, 'a', limits, T0, 5)).toEqual([true, true, true, true, true]);
    expect(takeMany(store, 'a', limits, T0 + MINUTE, 3)).toEqual([true, true, true]);
    // The minute's bucket has room again, the day's has not: wait until one of the 8 a day is back (3 h).
    const refused = store.take('a', limits, T0 + 2 * MINUTE);
    expect(refused).toEqual({ allowed: false, retryAfterMs: 3 * 60 * MINUTE - 2 * MINUTE });
    for (let i = 0; i < 50; i++) store.take('a', limits, T0 + 2 * MINUTE);
    // Fifty refusals later the wait is the same: only allowed requests use the allowance.
    expect(store.take('a', limits, T0 + 2 * MINUTE)).toEqual(refused);
    expect(takeMany(store, 'a', limits, T0 + 3 * 60 * MINUTE, 2)).toEqual([true, false]);
  });

  it('stays bounded with 100,000 distinct clients, forgetting the least recently seen first', () => {
    const store = createMemoryRateLimitStore({ maxKeys: 1000 });
    const limits = [perMinute(1)];
    expect(store.take('steady', limits, T0).allowed).toBe(true);
    for (let i = 0; i < 100_000; i++) {
      store.take(`client-${i}`, limits, T0);
      // A client that keeps knocking stays remembered (and refused) however many others come.
      if (i % 500 === 0) expect(store.take('steady', limits, T0).allowed).toBe(false);
      expect(store.size).toBeLessThanOrEqual(1000);
    }
    expect(store.size).toBe(1000);
    // The first of the many were forgotten: a forgotten client only gets a fresh allowance.
    expect(store.take('client-0', limits, T0).allowed).toBe(true);
    expect(store.take('client-99999', limits, T0).allowed).toBe(false);
  });
});

describe('parseLimits (RATE_LIMIT_<RULE>)', () => {
  it('reads limits per second, minute, hour or day, and off', () => {
    expect(parseLimits('5/minute,30/day')).toEqual([perMinute(5), { max: 30, windowMs: DAY }]);
    expect(parseLimits(' 2 / second ')).toEqual([{ max: 2, windowMs: 1000 }]);
    expect(parseLimits('100/hour')).toEqual([{ max: 100, windowMs: 3_600_000 }]);
    expect(parseLimits('OFF')).toEqual([]);
  });

  it('refuses anything else', () => {
    for (const bad of ['', '5', '0/minute', '5/week', '5/minute;30/day', '-1/day', '5/minute,', 'lots']) expect(parseLimits(bad), bad).toBeNull();
  });
});

describe('rateLimitSettings (api/env.ts)', () => {
  it('gives the defaults with nothing set, and no trusted proxy', () => {
    expect(rateLimitSettings(loadEnv({}))).toEqual({ rules: defaultRateRules, trustedProxies: [] });
  });

  it('takes the operator’s numbers, per rule, and RATE_LIMITS=off', () => {
    const settings = rateLimitSettings(loadEnv({ RATE_LIMIT_CONTACT: '3/minute', RATE_LIMIT_AVAILABILITY: 'off', TRUSTED_PROXIES: '10.0.0.0/8, ::1' }));
    expect(settings.rules).toEqual({ ...defaultRateRules, contact: [perMinute(3)], availability: [] });
    expect(settings.trustedProxies).toEqual(['10.0.0.0/8', '::1']);
    expect(rateLimitSettings(loadEnv({ RATE_LIMITS: 'off' })).rules).toEqual({
      contact: [],
      booking: [],
      calculator: [],
      availability: [],
      signUp: [],
      calendarPush: [],
      invitation: [],
    });
  });

  it('stops on a bad value, naming the variable and how to fix it', () => {
    expect(() => loadEnv({ RATE_LIMIT_BOOKING: '5 per minute' })).toThrow(
      /RATE_LIMIT_BOOKING: must be limits like 5\/minute,30\/day .*for example RATE_LIMIT_BOOKING=/,
    );
    expect(() => loadEnv({ TRUSTED_PROXIES: '10.0.0.0/8,proxy.internal' })).toThrow(
      /TRUSTED_PROXIES: "proxy.internal" is not an IP address .*comma-separated addresses or CIDR/,
    );
    expect(() => loadEnv({ TRUSTED_PROXIES: '10.0.0.0/33' })).toThrow(/TRUSTED_PROXIES: "10.0.0.0\/33" has a bad prefix length/);
  });

  it('takes REDIS_URL (shared counts) as a redis:// or rediss:// URL, unset when empty', () => {
    expect(loadEnv({}).REDIS_URL).toBeUndefined();
    expect(loadEnv({ REDIS_URL: '' }).REDIS_URL).toBeUndefined();
    expect(loadEnv({ REDIS_URL: 'redis://127.0.0.1:6379' }).REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(loadEnv({ REDIS_URL: 'rediss://:secret@cache.internal:6380/2' }).REDIS_URL).toBe('rediss://:secret@cache.internal:6380/2');
    for (const bad of ['127.0.0.1:6379', 'http://cache.internal:6379', 'redis://', 'redis://cache internal']) {
      expect(() => loadEnv({ REDIS_URL: bad }), bad).toThrow(
        /REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL .*for example REDIS_URL=redis:\/\/127.0.0.1:6379/,
      );
    }
  });
});

describe('normalizeAddress', () => {
  it('keeps IPv4 (also IPv4-mapped or with a port) and lower-cases IPv6; refuses the rest', () => {
    expect(normalizeAddress('203.0.113.7')).toEqual({ address: '203.0.113.7', family: 4 });
    expect(normalizeAddress('::ffff:203.0.113.7')).toEqual({ address: '203.0.113.7', family: 4 });
    expect(normalizeAddress(' 203.0.113.7:51234 ')).toEqual({ address: '203.0.113.7', family: 4 });
    expect(normalizeAddress('[2001:DB8::1]:443')).toEqual({ address: '2001:db8::1', family: 6 });
    expect(normalizeAddress('fe80::1%eth0')).toEqual({ address: 'fe80::1', family: 6 });
    for (const bad of ['', 'unknown', 'proxy.internal', '999.1.1.1', '1.2.3', '<script>']) expect(normalizeAddress(bad), bad).toBeNull();
    expect(normalizeAddress(undefined)).toBeNull();
  });
});

describe('clientOf (who is asking)', () => {
  /** An app answering with the client it sees, called as @hono/node-server calls it (c.env.incoming). */
  const ask = async (peer: string | undefined, forwardedFor: string | undefined, trusted: string[] = []) => {
    const list = trusted.length ? trustedProxyList(trusted) : null;
    const app = new Hono().get('/', (c) => c.text(clientOf(c, list)));
    const headers: Record<string, string> = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
    const res = await app.request('/', { headers }, peer === undefined ? undefined : { incoming: { socket: { remoteAddress: peer } } });
    return res.text();
  };

  it('is the socket’s address, whatever X-Forwarded-For says, when no proxy is trusted', async () => {
    expect(await ask('203.0.113.7', undefined)).toBe('203.0.113.7');
    expect(await ask('203.0.113.7', '198.51.100.1')).toBe('203.0.113.7');
    expect(await ask('::ffff:203.0.113.7', undefined)).toBe('203.0.113.7');
  });

  it('believes X-Forwarded-For only from a trusted proxy, read from the right to the first untrusted hop', async () => {
    const proxies = ['10.0.0.0/8'];
    expect(await ask('10.1.2.3', '198.51.100.1', proxies)).toBe('198.51.100.1');
    // The client wrote the left part itself: a spoofed "1.1.1.1" is not believed.
    expect(await ask('10.1.2.3', '1.1.1.1, 198.51.100.1', proxies)).toBe('198.51.100.1');
    // Two proxies of ours in a row.
    expect(await ask('10.1.2.3', '1.1.1.1, 198.51.100.1, 10.9.9.9', proxies)).toBe('198.51.100.1');
    // A caller that is not our proxy cannot name someone else.
    expect(await ask('203.0.113.7', '198.51.100.1', proxies)).toBe('203.0.113.7');
    // No header: the proxy itself; nothing but proxies: the farthest of them.
    expect(await ask('10.1.2.3', undefined, proxies)).toBe('10.1.2.3');
    expect(await ask('10.1.2.3', '10.0.0.5, 10.0.0.6', proxies)).toBe('10.0.0.5');
    // A hop our proxy would never write: the proxy's address stands.
    expect(await ask('10.1.2.3', '1.1.1.1, not-an-address', proxies)).toBe('10.1.2.3');
    expect(await ask('::1', '2001:db8::7', ['::1'])).toBe('2001:db8:0:0::/64');
  });

  it('counts an IPv6 client by its /64 (one subscriber’s block)', async () => {
    expect(await ask('2001:db8:aa:bb:1:2:3:4', undefined)).toBe('2001:db8:aa:bb::/64');
    expect(await ask('2001:db8:aa:bb::99', undefined)).toBe('2001:db8:aa:bb::/64');
    expect(await ask('2001:db8::1', undefined)).toBe('2001:db8:0:0::/64');
    expect(await ask('::1', undefined)).toBe('0:0:0:0::/64');
  });

  it('is "unknown" without a socket (in-process calls), one shared allowance', async () => {
    expect(await ask(undefined, '198.51.100.1', ['10.0.0.0/8'])).toBe('unknown');
  });
});

describe('addressGroups (an IPv6 client by its /64 and its /56)', () => {
  it('puts an IPv6 client in its /64 and the /56 around it; IPv4 and "unknown" in one group', () => {
    expect(addressGroups('2001:db8:aa:bb::/64')).toEqual(['2001:db8:aa:bb::/64', '2001:db8:aa:0::/56']);
    expect(addressGroups('2001:db8:aa:12ff::/64')).toEqual(['2001:db8:aa:12ff::/64', '2001:db8:aa:1200::/56']);
    // The 256 /64s of one /56 are one group there.
    const wide = new Set(Array.from({ length: 256 }, (_, i) => addressGroups(`2001:db8:aa:${(0x3400 + i).toString(16)}::/64`)[1]));
    expect([...wide]).toEqual(['2001:db8:aa:3400::/56']);
    expect(addressGroups('2001:db8:aa:3500::/64')[1]).toBe('2001:db8:aa:3500::/56');
    // A bare address (as in-process callers give it) is grouped the same.
    expect(addressGroups('2001:DB8:aa:12ff:1:2:3:4')).toEqual(['2001:db8:aa:12ff::/64', '2001:db8:aa:1200::/56']);
    expect(addressGroups('0:0:0:0::/64')).toEqual(['0:0:0:0::/64', '0:0:0:0::/56']);
    expect(addressGroups('203.0.113.7')).toEqual(['203.0.113.7']);
    expect(addressGroups('unknown')).toEqual(['unknown']);
  });

  it('limits a client rotating through the /64s of its /56 to WIDE_BLOCK_FACTOR times a /64’s allowance', async () => {
    const max = 2;
    const deps = { rateLimits: { rules: { ...noRateLimits, contact: [perMinute(max)] }, trustedProxies: [] }, clock: { now: () => new Date(T0) } };
    const app = new Hono().post('/', rateLimit(deps, 'contact'), (c) => c.text('ok'));
    const from = async (peer: string) => (await app.request('/', { method: 'POST' }, { incoming: { socket: { remoteAddress: peer } } })).status;
    // One /64: its own limit.
    expect([await from('2001:db8:aa:100::1'), await from('2001:db8:aa:100::2'), await from('2001:db8:aa:100::3')]).toEqual([200, 200, 429]);
    // New /64s of the same /56: each has its own allowance until the /56's is used up.
    const statuses: number[] = [];
    for (let i = 1; i < 2 * WIDE_BLOCK_FACTOR; i++) statuses.push(await from(`2001:db8:aa:1${i.toString(16).padStart(2, '0')}::1`));
    expect(statuses.filter((s) => s === 200)).toHaveLength(max * WIDE_BLOCK_FACTOR - max);
    expect(statuses.at(-1)).toBe(429);
    // Another /56, and IPv4, are not affected.
    expect(await from('2001:db8:aa:200::1')).toBe(200);
    expect(await from('203.0.113.7')).toBe(200);
  });
});
