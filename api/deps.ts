/**
 * What the API needs from the outside world, passed to createApp (STYLE §2): the database, a clock
 * (so time rules are testable), the access-token verifier, a logger, content-change events and the
 * operator settings a feature reads. Tests build their own; api/server.ts builds the real ones.
 */
import type { Database } from '../db/client.ts';
import type { AccessTokenVerifier } from './auth/verifier.ts';
import type { ContentEvents } from './content-events.ts';
import type { Logger } from './logger.ts';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface MigrationSettings {
  awsRegion: string | null;
  /** Credentials or a custom endpoint are present. */
  awsConfigured: boolean;
}

/** The user pool the admin portal signs in against (public values only). */
export interface IdentityInfo {
  userPoolId: string;
  clientId: string;
  region: string | null;
  /** The embedded identity service's loopback endpoint; null for a real Cognito pool. */
  localEndpoint: string | null;
}

export interface Deps {
  database: Database;
  clock: Clock;
  verifier: AccessTokenVerifier;
  log: Logger;
  events: ContentEvents;
  migration: MigrationSettings;
  identity: IdentityInfo;
}
