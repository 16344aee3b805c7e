/**
 * What a refresh of a connected account's token tells the site (issue 20), recorded for every user
 * of the REST calendar adapter (deliveries, busy times, changes): a refresh answered invalid_grant
 * (the user revoked the app's access, the grant expired, a password reset ended it) marks the
 * connection as needing reconnecting, with the time and the provider's reason, so the Calendar card
 * says so; a new refresh token in the answer (Microsoft rotates them) replaces the stored one, sealed.
 */
import { calendarSettingsRepository } from '../calendar-settings/calendar-settings.repository.ts';
import { openConfig, UnreadableSecretError } from '../crypto/sealed-config.ts';
import type { Deps } from '../deps.ts';
import { calendarConnectRepository } from './calendar-connect.repository.ts';
import { changeConnectedConfig, configText, parseConfigObject } from './connected-config.ts';

export interface GrantEvents {
  /** The provider refused `refreshToken` with invalid_grant: `reason` is its explanation. */
  refused(integrationId: string, refreshToken: string, reason: string): Promise<void>;
  /** The provider answered a refresh with a new refresh token. */
  rotated(integrationId: string, previous: string, next: string): Promise<void>;
}

export function grantEvents(deps: Pick<Deps, 'database' | 'secrets' | 'clock'>): GrantEvents {
  const connections = calendarConnectRepository(deps.database);
  const settings = calendarSettingsRepository(deps.database);
  /** The refresh token the integration holds now (an admin may have reconnected since it was read). */
  const storedToken = async (integrationId: string) => {
    const row = await settings.findById(integrationId);
    if (!row) return null;
    try {
      return configText(parseConfigObject(openConfig(deps.secrets, row.config, { table: 'calendar-settings', id: integrationId })), 'refresh_token');
    } catch (err) {
      if (err instanceof UnreadableSecretError) return null;
      throw err;
    }
  };
  return {
    async refused(integrationId, refreshToken, reason) {
      // A token replaced by a new connection meanwhile says nothing about the new one.
      if ((await storedToken(integrationId)) !== refreshToken) return;
      await connections.markNeedsReconnect(integrationId, reason.replace(/\s+/g, ' ').trim().slice(0, 300) || 'invalid_grant', deps.clock.now());
    },
    async rotated(integrationId, previous, next) {
      // Only over the token it replaces: a reconnect or disconnect meanwhile wins.
      await changeConnectedConfig(deps, integrationId, (config) =>
        configText(config, 'refresh_token') === previous ? { ...config, refresh_token: next } : null,
      );
    },
  };
}
