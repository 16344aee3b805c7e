/**
 * The environment, validated at start (STYLE §4). A bad value stops the server with a message that
 * names the variable and says how to fix it. Every variable is listed, with a comment, in .env.example.
 */
import { z } from 'zod';
import type { CdnPurgeSettings } from './cdn/cdn-purge.ts';
import { firm } from '../src/config/firm.ts';
import { sampleContentShown } from '../src/config/sample-content.ts';
import type { IntegrationSettings, MigrationSettings } from './deps.ts';
import {
  defaultRateRules,
  noRateLimits,
  parseLimits,
  rateRules,
  trustedProxyList,
  type Limit,
  type RateLimitSettings,
  type RateRule,
  type RateRules,
} from './http/rate-limit.ts';

/** "a, b,c" to ['a', 'b', 'c']; unset or empty: []. */
const commaList = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean),
  );

const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** "5/minute,30/day" or "off"; unset: the default of api/http/rate-limit.ts. */
const rateLimit = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return undefined;
    const limits = parseLimits(v);
    if (!limits) ctx.addIssue({ code: 'custom', message: 'must be limits like 5/minute,30/day (second, minute, hour or day), or off' });
    return limits ?? undefined;
  });

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(4321),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATABASE_URL: z
      .string()
      .optional()
      .transform((v) => v || undefined)
      .refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), 'must be a postgres:// or postgresql:// URL, or unset to use the embedded SQLite file'),
    SQLITE_PATH: z.string().min(1).default('data/site.db'),
    SITE_URL: z.url().default('http://localhost:4321'),
    // Whether a fresh database gets the sample testimonials and posts: unset, as SAMPLE_CONTENT says
    // (on while developing, off in production), so a production install is never seeded with
    // invented clients (issue 19). Resolved below.
    SEED_SAMPLE_CONTENT: z.enum(['true', 'false']).optional(),
    // Whether the public pages may stand in built-in samples for what the firm has none of
    // (src/config/sample-content.ts reads it at render time): unset, on except in production.
    SAMPLE_CONTENT: z.enum(['true', 'false']).optional(),
    // Identity: a Cognito user pool. Unset: the embedded identity service (docs/decisions/014), which a
    // production start (NODE_ENV=production or a non-loopback HOST) refuses unless IDENTITY_EMBEDDED=true.
    COGNITO_REGION: z.string().optional(),
    COGNITO_USER_POOL_ID: z.string().optional(),
    COGNITO_CLIENT_ID: z.string().optional(),
    ADMIN_EMAILS: z.string().default(''),
    IDENTITY_EMBEDDED: flag,
    // Whether every admin of the embedded identity service must sign in with TOTP (set up at the next
    // sign-in). Unset: required in production, optional elsewhere. Resolved below.
    ADMIN_MFA: z.enum(['required', 'optional']).optional(),
    // Secrets at rest (identity signing keys, integration secrets): 32 bytes, base64 or hex. Unset: a key
    // generated on first start into SECRETS_KEY_FILE (0600). Required in production with DATABASE_URL.
    SECRETS_KEY: z.string().optional(),
    SECRETS_KEY_PREVIOUS: commaList,
    SECRETS_KEY_FILE: z.string().min(1).default('data/secrets.key'),
    // Where versions before decision 042 kept held mail as files: imported into the database (sealed)
    // at start, then deleted. Nothing is written there any more.
    OUTBOX_DIR: z.string().min(1).default('data/outbox'),
    // DynamoDB migration target.
    AWS_REGION: z.string().optional(),
    AWS_ACCESS_KEY_ID: z.string().optional(),
    AWS_SECRET_ACCESS_KEY: z.string().optional(),
    DYNAMODB_ENDPOINT: z.url().optional(),
    // The table the migration writes (unset: firm-site), temporary keys, and credentials the
    // SDK finds by itself (a named profile; a container or web-identity role the platform provides).
    DYNAMODB_TABLE: z
      .string()
      .optional()
      .transform((v) => v || undefined)
      .refine((v) => v === undefined || /^[A-Za-z0-9_.-]{3,255}$/.test(v), 'must be 3 to 255 letters, digits, underscores, hyphens or dots'),
    AWS_SESSION_TOKEN: z.string().optional(),
    AWS_PROFILE: z.string().optional(),
    AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: z.string().optional(),
    AWS_CONTAINER_CREDENTIALS_FULL_URI: z.string().optional(),
    AWS_WEB_IDENTITY_TOKEN_FILE: z.string().optional(),
    // Integrations: where firm notifications go, and the providers' endpoints (overridable
    // for tests and sovereign clouds). Private and loopback addresses are refused unless allowed.
    FIRM_NOTIFICATION_EMAIL: z.email().optional(),
    INTEGRATIONS_ALLOW_PRIVATE_NETWORKS: flag,
    SENDGRID_API_BASE: z.url().default('https://api.sendgrid.com'),
    GOOGLE_CALENDAR_API_BASE: z.url().default('https://www.googleapis.com/calendar/v3'),
    GOOGLE_OAUTH_TOKEN_URL: z.url().default('https://oauth2.googleapis.com/token'),
    // Connect with Google (issue 20): where the admin consents, and where Disconnect revokes the grant.
    GOOGLE_OAUTH_AUTHORIZE_URL: z.url().default('https://accounts.google.com/o/oauth2/v2/auth'),
    GOOGLE_OAUTH_REVOKE_URL: z.url().default('https://oauth2.googleapis.com/revoke'),
    MICROSOFT_GRAPH_API_BASE: z.url().default('https://graph.microsoft.com/v1.0'),
    MICROSOFT_LOGIN_BASE: z.url().default('https://login.microsoftonline.com'),
    BLOG_SOURCE_REFRESH_MINUTES: z.coerce.number().int().min(1).max(1440).default(60),
    // Reading the firm's calendar changes back (docs/decisions/037): seconds between polls when no
    // push channel is open, and the public origin Google and Microsoft post notifications to when it
    // is not SITE_URL (a tunnel in development, a fake in tests; unset: SITE_URL when it is https).
    CALENDAR_POLL_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    CALENDAR_NOTIFICATION_BASE_URL: z.url().optional(),
    LOG_QUIET: flag,
    // SIGTERM: how long the server keeps serving, health answering 503, before it stops taking
    // connections (docs/decisions/016). Unset: 5000 in production, 0 elsewhere.
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).optional(),
    // Per-client (docs/decisions/013) limits of the public calls, and the proxies whose
    // X-Forwarded-For names the client (unset: none; the socket's address is the client).
    RATE_LIMITS: z.enum(['on', 'off']).default('on'),
    RATE_LIMIT_CONTACT: rateLimit,
    RATE_LIMIT_BOOKING: rateLimit,
    RATE_LIMIT_CALCULATOR: rateLimit,
    RATE_LIMIT_AVAILABILITY: rateLimit,
    RATE_LIMIT_SIGN_UP: rateLimit,
    RATE_LIMIT_CALENDAR_PUSH: rateLimit,
    RATE_LIMIT_INVITATION: rateLimit,
    // Where the limits are counted with several API containers. Set: Redis; unset: PostgreSQL
    // when DATABASE_URL is set, else this process's memory (api/http/shared-rate-limits.ts).
    REDIS_URL: z
      .string()
      .optional()
      .transform((v) => v || undefined)
      .refine((v) => v === undefined || (/^rediss?:\/\/[^/]/.test(v) && URL.canParse(v)), 'must be a redis:// or rediss:// URL'),
    TRUSTED_PROXIES: commaList.superRefine((entries, ctx) => {
      try {
        trustedProxyList(entries);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    }),
    // The CDN in front, purged by what each change touched (api/cdn/cdn-purge.ts).
    CDN_PURGE: z.enum(['none', 'varnish', 'fastly', 'cloudflare', 'cloudfront']).default('none'),
    CDN_PURGE_URLS: commaList.refine(
      (urls) => urls.every((u) => /^https?:\/\//.test(u) && URL.canParse(u)),
      'must be comma-separated http:// or https:// URLs',
    ),
    FASTLY_SERVICE_ID: z.string().optional(),
    FASTLY_API_TOKEN: z.string().optional(),
    FASTLY_API_BASE: z.url().default('https://api.fastly.com'),
    CLOUDFLARE_ZONE_ID: z.string().optional(),
    CLOUDFLARE_API_TOKEN: z.string().optional(),
    CLOUDFLARE_API_BASE: z.url().default('https://api.cloudflare.com/client/v4'),
    CLOUDFRONT_DISTRIBUTION_ID: z.string().optional(),
    CLOUDFRONT_ENDPOINT: z.url().optional(),
  })
  .superRefine((env, ctx) => {
    const needs: Record<string, (keyof typeof env)[]> = {
      varnish: ['CDN_PURGE_URLS'],
      fastly: ['FASTLY_SERVICE_ID', 'FASTLY_API_TOKEN'],
      cloudflare: ['CLOUDFLARE_ZONE_ID', 'CLOUDFLARE_API_TOKEN'],
      cloudfront: ['CLOUDFRONT_DISTRIBUTION_ID', 'AWS_REGION'],
    };
    for (const name of needs[env.CDN_PURGE] ?? []) {
      const value = env[name];
      if (!value || (Array.isArray(value) && !value.length))
        ctx.addIssue({ code: 'custom', path: [name], message: `is required with CDN_PURGE=${env.CDN_PURGE}` });
    }
    const cognito = Boolean(env.COGNITO_USER_POOL_ID);
    if (isPublicStart(env) && !cognito && !env.IDENTITY_EMBEDDED) {
      ctx.addIssue({
        code: 'custom',
        path: ['IDENTITY_EMBEDDED'],
        message: `a production start (NODE_ENV=${env.NODE_ENV}, HOST=${env.HOST}) needs a Cognito user pool (COGNITO_REGION, COGNITO_USER_POOL_ID, COGNITO_CLIENT_ID); the embedded identity service runs there only when IDENTITY_EMBEDDED=true says so`,
      });
    }
    // Every canonical URL, Open Graph URL, the feed and the sitemap are built from SITE_URL: unset in
    // production they would all point search engines and link previews at http://localhost:4321.
    if (env.NODE_ENV === 'production' && loopbackHosts.has(new URL(env.SITE_URL).hostname.replace(/^\[|\]$/g, ''))) {
      ctx.addIssue({
        code: 'custom',
        path: ['SITE_URL'],
        message: `is required in production (it is ${env.SITE_URL}): the public origin every canonical URL, the feed and the sitemap name, for example https://www.example-firm.com; build the site with the same SITE_URL`,
      });
    }
    if (env.NODE_ENV === 'production' && env.DATABASE_URL && !env.SECRETS_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['SECRETS_KEY'],
        message: 'is required in production with DATABASE_URL: every container sharing the database must seal and open secrets with the same key',
      });
    }
    const pool = [env.COGNITO_REGION, env.COGNITO_USER_POOL_ID, env.COGNITO_CLIENT_ID];
    if (pool.some(Boolean) && !pool.every(Boolean)) {
      for (const name of ['COGNITO_REGION', 'COGNITO_USER_POOL_ID', 'COGNITO_CLIENT_ID'] as const) {
        if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when a Cognito user pool is configured' });
      }
    }
  });

/** The environment as read, SEED_SAMPLE_CONTENT resolved to a yes or no, ADMIN_MFA to its value. */
export type Env = Omit<z.output<typeof envSchema>, 'SEED_SAMPLE_CONTENT' | 'ADMIN_MFA'> & {
  SEED_SAMPLE_CONTENT: boolean;
  ADMIN_MFA: 'required' | 'optional';
};

/** SEED_SAMPLE_CONTENT, or where unset what SAMPLE_CONTENT allows (src/config/sample-content.ts); ADMIN_MFA, or where unset required in production. */
function resolveSeedSamples(env: z.output<typeof envSchema>): Env {
  const seed = env.SEED_SAMPLE_CONTENT;
  return {
    ...env,
    SEED_SAMPLE_CONTENT: seed ? seed === 'true' : sampleContentShown({ NODE_ENV: env.NODE_ENV, SAMPLE_CONTENT: env.SAMPLE_CONTENT }),
    ADMIN_MFA: env.ADMIN_MFA ?? (env.NODE_ENV === 'production' ? 'required' : 'optional'),
  };
}

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '::1']);

/** A start that may face the internet: production, or listening beyond loopback. */
export function isPublicStart(env: Pick<Env, 'NODE_ENV' | 'HOST'>): boolean {
  return env.NODE_ENV === 'production' || !loopbackHosts.has(env.HOST);
}

const hints: Record<string, string> = {
  PORT: 'set PORT to a number from 1 to 65535, or unset it for 4321',
  DATABASE_URL: 'for example DATABASE_URL=postgres://postgres@127.0.0.1:5432/firm',
  NODE_ENV: 'use development, production or test',
  DYNAMODB_ENDPOINT: 'for example DYNAMODB_ENDPOINT=http://127.0.0.1:8000, or unset it to use AWS',
  DYNAMODB_TABLE: 'for example DYNAMODB_TABLE=firm-site, or unset it for firm-site',
  SEED_SAMPLE_CONTENT: 'use true or false',
  SAMPLE_CONTENT: 'use true or false, or leave it unset',
  SITE_URL: 'the public origin, for example https://www.example-firm.com',
  FIRM_NOTIFICATION_EMAIL: 'the address that receives booking and contact notifications, for example intake@example-firm.com',
  INTEGRATIONS_ALLOW_PRIVATE_NETWORKS: 'true only for tests or a trusted intranet; unset in production',
  BLOG_SOURCE_REFRESH_MINUTES: 'minutes between feed fetches, from 1 to 1440',
  CALENDAR_POLL_SECONDS: "seconds between reads of the calendar's changes, from 1 to 3600",
  CALENDAR_NOTIFICATION_BASE_URL: 'an absolute URL such as https://firm.example.com, or unset it to use SITE_URL',
  RATE_LIMITS: 'on, or off only for load tests on a private machine',
  RATE_LIMIT_CONTACT: 'for example RATE_LIMIT_CONTACT=5/minute,30/day, or unset it for the default',
  RATE_LIMIT_BOOKING: 'for example RATE_LIMIT_BOOKING=5/minute,20/day, or unset it for the default',
  RATE_LIMIT_CALCULATOR: 'for example RATE_LIMIT_CALCULATOR=20/minute,200/day, or unset it for the default',
  RATE_LIMIT_AVAILABILITY: 'for example RATE_LIMIT_AVAILABILITY=120/minute, or unset it for the default',
  RATE_LIMIT_SIGN_UP: 'for example RATE_LIMIT_SIGN_UP=5/hour,20/day, or unset it for the default',
  RATE_LIMIT_CALENDAR_PUSH: 'for example RATE_LIMIT_CALENDAR_PUSH=300/minute, or unset it for the default',
  RATE_LIMIT_INVITATION: 'for example RATE_LIMIT_INVITATION=10/hour,30/day, or unset it for the default',
  REDIS_URL:
    'for example REDIS_URL=redis://127.0.0.1:6379 (rediss:// for TLS, redis://:password@host:6379 with a password), or unset it to count the limits in PostgreSQL (DATABASE_URL) or in memory',
  TRUSTED_PROXIES:
    'comma-separated addresses or CIDR ranges of your own load balancers, for example 10.0.0.0/8; unset when nothing sits in front of the server',
  CDN_PURGE: 'none, varnish, fastly, cloudflare or cloudfront (README "Where users outgrow one machine")',
  CDN_PURGE_URLS: 'the Varnish addresses to send PURGE to, for example CDN_PURGE_URLS=http://10.0.0.5:80,http://10.0.0.6:80',
  FASTLY_SERVICE_ID: 'the service id from the Fastly console',
  FASTLY_API_TOKEN: 'an API token with the purge_select scope',
  CLOUDFLARE_ZONE_ID: "the zone id from the domain's Overview page",
  CLOUDFLARE_API_TOKEN: 'an API token with the Zone Cache Purge permission',
  CLOUDFRONT_DISTRIBUTION_ID: 'for example E2QWRUHEXAMPLE (credentials from the AWS SDK chain; AWS_REGION set)',
  SHUTDOWN_GRACE_MS: 'whole milliseconds from 0 to 120000, for example SHUTDOWN_GRACE_MS=5000, or unset it for 5000 in production and 0 elsewhere',
  ADMIN_MFA: 'required (every admin signs in with an authenticator app) or optional, or unset for required in production',
  IDENTITY_EMBEDDED: 'configure a Cognito user pool (README "Admin sign-in"), or set IDENTITY_EMBEDDED=true to run the embedded identity service on purpose',
  SECRETS_KEY: 'generate one with `openssl rand -base64 32` and give every container the same value',
  SECRETS_KEY_PREVIOUS: 'comma-separated earlier values of SECRETS_KEY, each 32 bytes in base64 or hex',
  COGNITO_REGION: 'set COGNITO_REGION, COGNITO_USER_POOL_ID and COGNITO_CLIENT_ID together, or none of them for the embedded identity service',
  COGNITO_USER_POOL_ID: 'for example us-west-2_AbCdEf123',
  COGNITO_CLIENT_ID: 'the app client id (no client secret; USER_PASSWORD_AUTH or USER_SRP_AUTH enabled)',
};

export class EnvError extends Error {}

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  // A variable set to nothing (`FIRM_NOTIFICATION_EMAIL=`, as .env.example lists them) means unset.
  const given = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const result = envSchema.safeParse(given);
  if (result.success) return resolveSeedSamples(result.data);
  const lines = result.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? '?');
    return `  ${name}: ${issue.message}${hints[name] ? ` (${hints[name]})` : ''}`;
  });
  throw new EnvError(`The environment is not valid; fix these variables (see .env.example):\n${lines.join('\n')}`);
}

export function integrationSettings(env: Env): IntegrationSettings {
  return {
    allowPrivateNetworks: env.INTEGRATIONS_ALLOW_PRIVATE_NETWORKS,
    firmNotificationEmail: env.FIRM_NOTIFICATION_EMAIL ?? firm.email,
    siteUrl: env.SITE_URL,
    sendgridApiBase: env.SENDGRID_API_BASE,
    googleCalendarApiBase: env.GOOGLE_CALENDAR_API_BASE,
    googleTokenUrl: env.GOOGLE_OAUTH_TOKEN_URL,
    googleAuthorizeUrl: env.GOOGLE_OAUTH_AUTHORIZE_URL,
    googleRevokeUrl: env.GOOGLE_OAUTH_REVOKE_URL,
    microsoftGraphApiBase: env.MICROSOFT_GRAPH_API_BASE,
    microsoftLoginBase: env.MICROSOFT_LOGIN_BASE,
    blogSourceRefreshMinutes: env.BLOG_SOURCE_REFRESH_MINUTES,
    calendarPollSeconds: env.CALENDAR_POLL_SECONDS,
    calendarNotificationBaseUrl: env.CALENDAR_NOTIFICATION_BASE_URL ?? null,
  };
}

/** How the CDN in front is purged (api/cdn/cdn-purge.ts). */
export function cdnPurgeSettings(env: Env): CdnPurgeSettings {
  switch (env.CDN_PURGE) {
    case 'none':
      return { kind: 'none' };
    case 'varnish':
      return { kind: 'varnish', urls: env.CDN_PURGE_URLS };
    case 'fastly':
      return { kind: 'fastly', serviceId: env.FASTLY_SERVICE_ID!, token: env.FASTLY_API_TOKEN!, apiBase: env.FASTLY_API_BASE.replace(/\/+$/, '') };
    case 'cloudflare':
      return { kind: 'cloudflare', zoneId: env.CLOUDFLARE_ZONE_ID!, token: env.CLOUDFLARE_API_TOKEN!, apiBase: env.CLOUDFLARE_API_BASE.replace(/\/+$/, '') };
    case 'cloudfront':
      return {
        kind: 'cloudfront',
        distributionId: env.CLOUDFRONT_DISTRIBUTION_ID!,
        region: env.AWS_REGION!,
        endpoint: env.CLOUDFRONT_ENDPOINT,
        credentials:
          env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
            ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, sessionToken: env.AWS_SESSION_TOKEN || undefined }
            : undefined,
      };
  }
}

/** The public calls' limits (api/http/rate-limit.ts), the defaults where a variable is unset. */
export function rateLimitSettings(env: Env): RateLimitSettings {
  const given: Record<RateRule, Limit[] | undefined> = {
    contact: env.RATE_LIMIT_CONTACT,
    booking: env.RATE_LIMIT_BOOKING,
    calculator: env.RATE_LIMIT_CALCULATOR,
    availability: env.RATE_LIMIT_AVAILABILITY,
    signUp: env.RATE_LIMIT_SIGN_UP,
    calendarPush: env.RATE_LIMIT_CALENDAR_PUSH,
    invitation: env.RATE_LIMIT_INVITATION,
  };
  const pick = (rule: RateRule) => (env.RATE_LIMITS === 'off' ? noRateLimits[rule] : (given[rule] ?? defaultRateRules[rule]));
  const rules = Object.fromEntries(rateRules.map((rule) => [rule, pick(rule)])) as RateRules;
  return { rules, trustedProxies: env.TRUSTED_PROXIES };
}

/**
 * Where the migration writes. Configured (SPEC §2 status card) = a region plus either
 * credentials (keys, a profile, or a role the platform provides) or a custom endpoint (dynalite,
 * DynamoDB Local).
 * Unset values stay undefined: api/migration applies the defaults (table firm-site).
 */
export function migrationSettings(env: Env): MigrationSettings {
  const keys =
    env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, sessionToken: env.AWS_SESSION_TOKEN || undefined }
      : undefined;
  const ambient = Boolean(
    env.AWS_PROFILE || env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI || env.AWS_CONTAINER_CREDENTIALS_FULL_URI || env.AWS_WEB_IDENTITY_TOKEN_FILE,
  );
  return {
    awsRegion: env.AWS_REGION ?? null,
    awsConfigured: Boolean(env.AWS_REGION && (keys || ambient || env.DYNAMODB_ENDPOINT)),
    tableName: env.DYNAMODB_TABLE,
    endpoint: env.DYNAMODB_ENDPOINT,
    credentials: keys,
  };
}
