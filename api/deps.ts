/**
 * What the API needs from the outside world, passed to createApp (STYLE §2): the database, a clock
 * (so time rules are testable), the access-token verifier, a logger, content-change events and the
 * operator settings a feature reads, the activity events, the delivery queue, the
 * development outbox and the integration settings. Tests build their own; api/server.ts builds the real ones.
 */
import type { Database } from '../db/client.ts';
import type { ActivityEvents } from './activity.ts';
import type { Clock } from './clock.ts';
import type { AdminDirectory } from './admins/admin-directory.ts';
import type { AccessTokenVerifier } from './auth/verifier.ts';
import type { SecretBox } from './crypto/secret-box.ts';
import type { EmbeddedIdentity } from './identity/embedded-identity.ts';
import type { ContentEvents } from './content-events.ts';
import type { DeliveryQueue } from './deliveries/deliveries.ts';
import type { Logger } from './logger.ts';
import type { DevOutbox } from './mail/dev-outbox.ts';
import type { RateLimitSettings } from './http/rate-limit.ts';
import type { MigrationTuning } from './migration/migration-tuning.ts';

export interface MigrationSettings {
  awsRegion: string | null;
  /** Credentials or a custom endpoint are present. */
  awsConfigured: boolean;
  /** The DynamoDB table the migration writes (api/env.ts); unset means 'firm-site'. */
  tableName?: string;
  /** A custom endpoint (dynalite, DynamoDB Local) instead of AWS. */
  endpoint?: string;
  /** Explicit keys; unset: the SDK's own chain (a profile, a container or web-identity role). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Batch concurrency, retry bounds, page sizes (tests and the operator command tune them). */
  tuning?: Partial<MigrationTuning>;
}

/** What the integrations need from the operator (api/env.ts reads it). */
export interface IntegrationSettings {
  /** Let outbound requests reach loopback and private addresses (tests, an intranet); off in production. */
  allowPrivateNetworks: boolean;
  /** Where the firm's notifications of bookings and messages go. */
  firmNotificationEmail: string;
  /** The public origin, for links in e-mails. */
  siteUrl: string;
  sendgridApiBase: string;
  googleCalendarApiBase: string;
  googleTokenUrl: string;
  /** Google's consent page (Connect with Google). */
  googleAuthorizeUrl: string;
  /** Google's token revocation endpoint (Disconnect). */
  googleRevokeUrl: string;
  microsoftGraphApiBase: string;
  microsoftLoginBase: string;
  blogSourceRefreshMinutes: number;
  /** Seconds between reads of the active calendar's changes when no push channel is open. */
  calendarPollSeconds: number;
  /**
   * The origin Google and Microsoft post change notifications to, when it is not SITE_URL (a tunnel,
   * a test's fake); null: SITE_URL, and only when it is https and not loopback (otherwise polling only).
   */
  calendarNotificationBaseUrl: string | null;
}

/** The user pool the admin portal signs in against (public values only). */
export interface IdentityInfo {
  userPoolId: string;
  clientId: string;
  region: string | null;
  /** True for the embedded identity service (served through /api/identity/cognito), false for a real pool. */
  embedded: boolean;
}

export interface Deps {
  database: Database;
  clock: Clock;
  verifier: AccessTokenVerifier;
  log: Logger;
  events: ContentEvents;
  migration: MigrationSettings;
  identity: IdentityInfo;
  /** The embedded identity service behind the gateway (docs/decisions/014); unset with a real pool. */
  embeddedIdentity?: EmbeddedIdentity | null;
  /**
   * The user pool's admin group, for the Admins screen (api/admins): the embedded service's or a real
   * Cognito pool's (api/identity/identity.ts makes it). Unset: the screen's calls answer 503.
   */
  adminDirectory?: AdminDirectory | null;
  /** Bookings and messages, announced to mail and calendar sync after they are stored. */
  activity: ActivityEvents;
  /** Outbound work (mail, calendar events), delivered and retried by the runner. */
  deliveries: DeliveryQueue;
  /** Mail with nowhere else to go. */
  outbox: DevOutbox;
  integrations: IntegrationSettings;
  /** Seals secrets the database must hold (integration keys and passwords) with the install's key. */
  secrets: SecretBox;
  /**
   * Per-client limits of the public calls (api/http/rate-limit.ts): the operator's
   * (RATE_LIMIT_*, TRUSTED_PROXIES, read by api/server.ts); tests give their own (off unless a test turns them on).
   */
  rateLimits: RateLimitSettings;
  /**
   * True once a SIGTERM's shutdown has begun (api/server.ts): /api/health answers 503 so the load
   * balancer stops sending requests here while they are still served. Unset: never.
   */
  draining?: () => boolean;
}
