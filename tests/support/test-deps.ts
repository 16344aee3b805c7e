/**
 * The API's dependencies for tests (no vitest import: a second Node process racing the tests loads it
 * too). `testDeps(database)` is what createApp needs, with test tokens, a silent log and the held mail of its database.
 */
import { createActivityEvents } from '../../api/activity.ts';
import type { AccessTokenVerifier, AdminPrincipal } from '../../api/auth/verifier.ts';
import { randomBytes } from 'node:crypto';
import { createSecretBox } from '../../api/crypto/secret-box.ts';
import { createContentEvents } from '../../api/content-events.ts';
import { createDeliveryQueue } from '../../api/deliveries/deliveries.ts';
import type { Deps, IntegrationSettings } from '../../api/deps.ts';
import { noRateLimits } from '../../api/http/rate-limit.ts';
import { createLogger } from '../../api/logger.ts';
import { createDevOutbox } from '../../api/mail/dev-outbox.ts';
import type { Database } from '../../db/client.ts';

/** Test tokens for the injected verifier (the Cognito verifier has tests of its own). */
export const ADMIN_TOKEN = 'test-admin-token';
export const NON_ADMIN_TOKEN = 'test-user-token';

const principal = (isAdmin: boolean): AdminPrincipal => ({
  sub: isAdmin ? 'admin-sub' : 'user-sub',
  username: isAdmin ? 'admin' : 'someone',
  email: isAdmin ? 'admin@example.com' : 'someone@example.com',
  groups: isAdmin ? ['admin'] : [],
  isAdmin,
});

export const testVerifier: AccessTokenVerifier = {
  async verify(token) {
    if (token === ADMIN_TOKEN) return principal(true);
    if (token === NON_ADMIN_TOKEN) return principal(false);
    return null;
  },
};

/**
 * Integration settings for tests: loopback peers allowed (the tests start them), provider endpoints
 * pointing nowhere until a test sets them.
 */
export const testIntegrations = (overrides: Partial<IntegrationSettings> = {}): IntegrationSettings => ({
  allowPrivateNetworks: true,
  firmNotificationEmail: 'intake@firm.example',
  siteUrl: 'http://localhost:4321',
  sendgridApiBase: 'http://127.0.0.1:9/sendgrid',
  googleCalendarApiBase: 'http://127.0.0.1:9/google',
  googleTokenUrl: 'http://127.0.0.1:9/google-token',
  googleAuthorizeUrl: 'http://127.0.0.1:9/google-authorize',
  googleRevokeUrl: 'http://127.0.0.1:9/google-revoke',
  microsoftGraphApiBase: 'http://127.0.0.1:9/graph',
  microsoftLoginBase: 'http://127.0.0.1:9/login',
  blogSourceRefreshMinutes: 60,
  calendarPollSeconds: 60,
  calendarNotificationBaseUrl: null,
  ...overrides,
});

/**
 * Everything createApp needs, for a test: silent log, test verifier, the held mail of `database`,
 * and no rate limits (tests of other features send many requests from one "client";
 * tests/integration/abuse-limits.integration.test.ts turns them on).
 */
export function testDeps(database: Database, overrides: Partial<Deps> = {}): Deps {
  const clock = overrides.clock ?? { now: () => new Date() };
  const log = overrides.log ?? createLogger({ silent: true });
  return {
    database,
    clock,
    verifier: testVerifier,
    log,
    events: createContentEvents(),
    migration: { awsConfigured: false, awsRegion: null },
    identity: testIdentity,
    activity: createActivityEvents(),
    deliveries: createDeliveryQueue({ database, clock }),
    outbox: createDevOutbox({ database, secrets: overrides.secrets ?? testSecrets, clock, log }),
    integrations: testIntegrations(),
    secrets: testSecrets,
    rateLimits: { rules: noRateLimits, trustedProxies: [] },
    ...overrides,
  };
}

/** One random secrets key per test process, as an install has one. */
export const testSecrets = createSecretBox(randomBytes(32));

export const testIdentity: Deps['identity'] = { userPoolId: 'test-pool', clientId: 'test-client', region: null, embedded: false };
