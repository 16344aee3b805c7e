/**
 * Purging the CDN in front of the containers when content changes. The adapter is
 * the operator's choice (CDN_PURGE, api/env.ts):
 *   varnish     PURGE to each Varnish with `xkey-purge: <keys>` (deploy/varnish/default.vcl)
 *   fastly      POST /service/{id}/purge with the surrogate keys (Fastly's purge by key)
 *   cloudflare  POST /zones/{zone}/purge_cache with the cache tags (purge by tag)
 *   cloudfront  CreateInvalidation with the paths (CloudFront purges by path only)
 *   none        nothing in front: nothing to purge
 * Every container purges after it has applied a change itself (its stored pages re-rendered), so a
 * CDN that fetched a page from a container still behind is purged again by that container once it
 * is not. And each purge is sent again `settleMs` later (the changes of that time in one purge): a
 * fetch the CDN started before a purge and stores after it is not removed by it (a CDN purges what
 * it holds, not what it is fetching), so a page fetched from a container a millisecond before it
 * stored the new one would otherwise stay a day (`npm run bench` caught it: 2 in 180 publishes).
 * A purge that fails is retried with backoff; one that keeps failing is recorded in the shared
 * database (api/cdn/cdn-purges.repository.ts) and sent again by whichever container claims it, every
 * few seconds with a back-off of at most RECORDED_RETRY_MAX_MS, until the CDN confirms: a change made
 * while the CDN's purge API was down shows within a minute of it coming back, not after a day.
 */
import type { ContentChange } from '../content-events.ts';
import type { Logger } from '../logger.ts';
import type { Clock } from '../clock.ts';
import { changeKeys, changePaths, keyToken } from './cache-policy.ts';
import type { CdnPurgesRepository } from './cdn-purges.repository.ts';

/** How often each container looks for recorded purges that are due, and the longest back-off between two tries of one. */
export const RECORDED_RETRY_POLL_MS = 5_000;
export const RECORDED_RETRY_MAX_MS = 30_000;

export type CdnPurgeSettings =
  | { kind: 'none' }
  | { kind: 'varnish'; urls: string[] }
  | { kind: 'fastly'; serviceId: string; token: string; apiBase: string }
  | { kind: 'cloudflare'; zoneId: string; token: string; apiBase: string }
  | {
      kind: 'cloudfront';
      distributionId: string;
      region: string;
      /** A custom endpoint (tests); unset: AWS. */
      endpoint?: string;
      credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
    };

export interface CdnPurger {
  readonly kind: CdnPurgeSettings['kind'];
  /** Purges what a change touched; resolves when done or given up (never rejects). */
  purge(change: ContentChange): Promise<void>;
  /** Purges keys (and, for CloudFront, paths) directly: `static` at start, `site` from the command line. */
  purgeKeys(keys: string[], paths: string[]): Promise<void>;
  /** Sends the recorded purges that are due (the timer's job; tests call it). */
  retryRecorded(): Promise<void>;
  /** Sends the purges still waiting for their second time now, and stops retrying recorded ones (a shutdown). */
  stop(): Promise<void>;
}

export interface PurgeOptions {
  log: Logger;
  /** How long after a change's purge it is sent again (see above). */
  settleMs?: number;
  /** Waits between attempts; the number of entries is the number of retries. */
  retryDelaysMs?: number[];
  timeoutMs?: number;
  /** Where purges that gave up wait to be sent again (the shared database); unset: they are only logged. */
  store?: CdnPurgesRepository;
  clock?: Clock;
  /** Retry recorded purges on a timer (default true; tests call retryRecorded themselves). */
  schedule?: boolean;
}

/** Fastly takes at most 256 keys a request; Cloudflare 30 tags; CloudFront 3000 paths. */
const FASTLY_BATCH = 256;
const CLOUDFLARE_BATCH = 30;

class PurgeError extends Error {}

const chunks = <T>(list: T[], size: number): T[][] => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

async function expectOk(res: Response, what: string) {
  if (res.ok) return;
  const text = (await res.text().catch(() => '')).slice(0, 200);
  throw new PurgeError(`${what} answered HTTP ${res.status}${text ? `: ${text}` : ''}`);
}

type Send = (keys: string[], paths: string[]) => Promise<void>;

function sender(settings: Exclude<CdnPurgeSettings, { kind: 'none' }>, timeoutMs: number): Send {
  const signal = () => AbortSignal.timeout(timeoutMs);
  switch (settings.kind) {
    case 'varnish':
      return async (keys) => {
        await Promise.all(
          settings.urls.map(async (url) =>
            expectOk(await fetch(url, { method: 'PURGE', headers: { 'xkey-purge': keys.join(' ') }, signal: signal() }), `Varnish at ${new URL(url).host}`),
          ),
        );
      };
    case 'fastly':
      return async (keys) => {
        for (const batch of chunks(keys, FASTLY_BATCH)) {
          const res = await fetch(`${settings.apiBase}/service/${encodeURIComponent(settings.serviceId)}/purge`, {
            method: 'POST',
            headers: { 'fastly-key': settings.token, 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify({ surrogate_keys: batch }),
            signal: signal(),
          });
          await expectOk(res, 'Fastly');
        }
      };
    case 'cloudflare':
      return async (keys) => {
        for (const batch of chunks(keys, CLOUDFLARE_BATCH)) {
          const res = await fetch(`${settings.apiBase}/zones/${encodeURIComponent(settings.zoneId)}/purge_cache`, {
            method: 'POST',
            headers: { authorization: `Bearer ${settings.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ tags: batch }),
            signal: signal(),
          });
          await expectOk(res, 'Cloudflare');
          const answer = (await res.json().catch(() => null)) as { success?: boolean; errors?: { message?: string }[] } | null;
          if (!answer?.success) throw new PurgeError(`Cloudflare refused the purge: ${answer?.errors?.map((e) => e.message).join('; ') || 'no reason given'}`);
        }
      };
    case 'cloudfront': {
      // The AWS SDK is loaded at the first purge, not at every start.
      let client: import('@aws-sdk/client-cloudfront').CloudFrontClient | null = null;
      return async (_keys, paths) => {
        const { CloudFrontClient, CreateInvalidationCommand } = await import('@aws-sdk/client-cloudfront');
        client ??= new CloudFrontClient({ region: settings.region, endpoint: settings.endpoint, credentials: settings.credentials, maxAttempts: 1 });
        await client.send(
          new CreateInvalidationCommand({
            DistributionId: settings.distributionId,
            InvalidationBatch: { CallerReference: `firm-${Date.now()}-${crypto.randomUUID()}`, Paths: { Quantity: paths.length, Items: paths } },
          }),
          { abortSignal: signal() },
        );
      };
    }
  }
}

export function createCdnPurger(
  settings: CdnPurgeSettings,
  { log, settleMs = 2_000, retryDelaysMs = [500, 2_000, 8_000], timeoutMs = 10_000, store, clock = { now: () => new Date() }, schedule = true }: PurgeOptions,
): CdnPurger {
  if (settings.kind === 'none') return { kind: 'none', purge: async () => {}, purgeKeys: async () => {}, retryRecorded: async () => {}, stop: async () => {} };
  const send = sender(settings, timeoutMs);
  const backoff = (attempts: number) => Math.min(RECORDED_RETRY_POLL_MS * 2 ** Math.max(0, attempts - 1), RECORDED_RETRY_MAX_MS);
  const purgeKeys = async (keys: string[], paths: string[]) => {
    const tokens = [...new Set(keys.map(keyToken))];
    for (let attempt = 0; ; attempt++) {
      try {
        await send(tokens, paths);
        log.info('cdn purged', { cdn: settings.kind, keys: tokens.length, paths: paths.length });
        return;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        if (attempt >= retryDelaysMs.length) {
          if (!store) {
            log.error('cdn purge failed: the CDN may show the old content until it expires', { cdn: settings.kind, keys: tokens, err: message });
            return;
          }
          try {
            const at = clock.now();
            await store.record({ keys: tokens, paths, error: message, at, nextAttemptAt: new Date(at.getTime() + backoff(1)) });
            log.error('cdn purge failed: recorded, and sent again until the CDN confirms it', { cdn: settings.kind, keys: tokens, err: message });
          } catch (recordErr) {
            log.error('cdn purge failed and could not be recorded: the CDN may show the old content until it expires', {
              cdn: settings.kind,
              keys: tokens,
              err: message,
              recordErr: recordErr instanceof Error ? recordErr.message : String(recordErr),
            });
          }
          return;
        }
        log.warn('cdn purge failed: retrying', { cdn: settings.kind, attempt: attempt + 1, err: message });
        await new Promise((resolve) => setTimeout(resolve, retryDelaysMs[attempt]));
      }
    }
  };
  // The second purges: what changed within one settle time goes out together.
  const again = { keys: new Set<string>(), paths: new Set<string>(), timer: null as NodeJS.Timeout | null };
  const sendAgain = () => {
    if (again.timer) clearTimeout(again.timer);
    again.timer = null;
    const keys = [...again.keys];
    const paths = [...again.paths];
    again.keys.clear();
    again.paths.clear();
    return keys.length ? purgeKeys(keys, paths) : Promise.resolve();
  };
  let retrying: Promise<void> | null = null;
  const retryRecorded = () =>
    (retrying ??= (async () => {
      if (!store) return;
      const now = clock.now();
      for (const purge of await store.claimDue(now, new Date(now.getTime() + timeoutMs * 2), 20)) {
        try {
          await send(purge.keys, purge.paths);
          await store.done(purge.id);
          log.info('cdn purged: a recorded purge went through', { cdn: settings.kind, keys: purge.keys.length, attempts: purge.attempts + 1 });
        } catch (err) {
          const attempts = purge.attempts + 1;
          await store.failed(purge.id, err instanceof Error ? err.message : String(err), attempts, new Date(clock.now().getTime() + backoff(attempts)));
        }
      }
    })()
      .catch((err: unknown) => log.error('cdn purge retry failed', { err: err instanceof Error ? err.message : String(err) }))
      .finally(() => {
        retrying = null;
      }));
  const timer = store && schedule ? setInterval(() => void retryRecorded(), RECORDED_RETRY_POLL_MS) : null;
  timer?.unref();
  return {
    kind: settings.kind,
    purgeKeys,
    retryRecorded,
    purge(change) {
      const keys = changeKeys(change);
      const paths = changePaths(change);
      for (const key of keys) again.keys.add(key);
      for (const path of paths) again.paths.add(path);
      if (!again.timer) {
        again.timer = setTimeout(() => void sendAgain(), settleMs);
        again.timer.unref();
      }
      return purgeKeys(keys, paths);
    },
    async stop() {
      if (timer) clearInterval(timer);
      await sendAgain();
      await retrying;
    },
  };
}
