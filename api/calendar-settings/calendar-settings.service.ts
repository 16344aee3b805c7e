/**
 * Calendar integrations (SPEC §4): created inactive, one active at a time. Their secrets are sealed
 * before they are written and never shown in full (docs/decisions/015).
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { calendarSettingChange, calendarSettingInput } from '../../src/shared/schemas/integrations.ts';
import { openConfig, openField, sealConfig, sealField, writeBackErrors, type SecretOwner } from '../crypto/sealed-config.ts';
import { configKind, maskConfig, maskSecret, maskUrl } from '../crypto/secret-masking.ts';
import type { Deps } from '../deps.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { calendarConfigProblem } from '../calendar-sync/config-check.ts';
import { checkOutboundUrl, OutboundError } from '../http/outbound-fetch.ts';
import { calendarSettingsRepository } from './calendar-settings.repository.ts';
import { calendarConnectRepository } from '../calendar-connect/calendar-connect.repository.ts';
import { configText, parseConfigObject } from '../calendar-connect/connected-config.ts';

type CalendarSettingInput = z.output<typeof calendarSettingInput>;
type CalendarSettingChange = z.output<typeof calendarSettingChange>;

export function calendarSettingsService({ database, integrations, secrets }: Pick<Deps, 'database' | 'integrations' | 'secrets'>) {
  const repo = calendarSettingsRepository(database);
  const connections = calendarConnectRepository(database);
  const owner = (id: string): SecretOwner => ({ table: 'calendar-settings', id });
  type Row = Awaited<ReturnType<typeof repo.create>>;
  // Opened only to show the last 4 characters; a value that does not open shows as the mask alone.
  const safe = (row: Row) => ({
    id: row.id,
    provider: row.provider,
    name: row.name,
    isActive: row.isActive,
    config: maskConfig(openConfig(secrets, row.config, owner(row.id), { lenient: true }), configKind('calendar', row.provider)),
    // A webhook URL may carry a token in its query or user info.
    webhookUrl: maskUrl(row.webhookUrl),
    apiKey: maskSecret(openField(secrets, row.apiKey, owner(row.id), 'apiKey', { lenient: true })),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  });
  /**
   * The server posts a custom integration's events to its webhook URL, so an address the server may
   * not reach (loopback, private network, in production) is refused now rather than failing every
   * delivery later.
   */
  const reachable = (webhookUrl: string | null) => {
    if (!webhookUrl) return;
    try {
      checkOutboundUrl(webhookUrl, integrations.allowPrivateNetworks);
    } catch (err) {
      if (!(err instanceof OutboundError)) throw err;
      throw badRequest('Please check the highlighted fields.', {
        webhookUrl: 'Webhook URL must be a public internet address: the server cannot post to private or loopback networks',
      });
    }
  };
  type Connection = Awaited<ReturnType<typeof connections.connection>>;
  /**
   * Issue 20: a Google or Outlook integration's connection, for its card: whether its config holds a
   * connected account's refresh token, the account and calendar, and whether a refresh was refused
   * (needs reconnecting). null for the other providers.
   */
  const connectionOf = (row: Row, connection: Connection) => {
    if (row.provider !== 'google' && row.provider !== 'outlook') return null;
    const opened = parseConfigObject(openConfig(secrets, row.config, owner(row.id), { lenient: true }));
    return {
      connected: configText(opened, 'refresh_token') !== null,
      accountEmail: connection?.accountEmail ?? null,
      calendarName: connection?.calendarName ?? null,
      connectedAt: connection?.connectedAt ?? null,
      needsReconnect: connection?.needsReconnectAt ? { at: connection.needsReconnectAt, reason: connection.needsReconnectReason ?? '' } : null,
    };
  };
  /** A row as every answer shows it: secrets masked, with its connection (one more read). */
  const withConnection = async (row: Row) => ({ ...safe(row), connection: connectionOf(row, await connections.connection(row.id)) });
  return {
    active: repo.activeProvider,
    async list() {
      const byIntegration = new Map((await connections.listConnections()).map((c) => [c.integrationId, c]));
      return (await repo.listNewestFirst()).map((row) => ({ ...safe(row), connection: connectionOf(row, byIntegration.get(row.id) ?? null) }));
    },

    async create(input: CalendarSettingInput) {
      if (input.provider === 'custom') reachable(input.webhookUrl);
      // Nothing shown masked may come back as the secret (api/crypto/sealed-config.ts).
      const writeBack = writeBackErrors({
        config: ['Configuration', input.config],
        webhookUrl: ['Webhook URL', input.webhookUrl],
        apiKey: ['API key', input.apiKey],
      });
      if (writeBack) throw badRequest('Please check the highlighted fields.', writeBack);
      // The id is chosen here: the secrets are sealed for this row before it is written.
      const id = randomUUID();
      const row = await repo.create({
        ...input,
        id,
        config: sealConfig(secrets, input.config, configKind('calendar', input.provider), owner(id)),
        apiKey: sealField(secrets, input.apiKey, owner(id), 'apiKey'),
      });
      return withConnection(row);
    },

    /**
     * One active at a time. Refused (409, saying what to add) while its configuration lacks what its
     * provider needs to work: syncing would otherwise fail every booking (issue 19).
     */
    async activate(id: string) {
      const found = await repo.findById(id);
      if (!found) throw notFound('Calendar integration not found');
      const config = openConfig(secrets, found.config, owner(id), { lenient: true });
      const problem = config === null ? 'Its configuration cannot be read on this server.' : calendarConfigProblem(found.provider, config, integrations);
      if (problem) throw conflict(`This integration cannot be activated yet. ${problem}`);
      const row = await repo.activate(id);
      if (!row) throw notFound('Calendar integration not found');
      return withConnection(row);
    },

    /**
     * Issue 19: a new configuration, replacing the saved one whole; a blank webhook URL or API key
     * keeps the saved one. While the integration is active, a configuration its provider cannot work
     * with is refused, saying what it lacks (as activating it would be).
     */
    async changeSettings(id: string, input: CalendarSettingChange) {
      const found = await repo.findById(id);
      if (!found) throw notFound('Calendar integration not found');
      const writeBack = writeBackErrors({
        config: ['Configuration', input.config],
        webhookUrl: ['Webhook URL', input.webhookUrl],
        apiKey: ['API key', input.apiKey],
      });
      if (writeBack) throw badRequest('Please check the highlighted fields.', writeBack);
      if (found.provider === 'custom') reachable(input.webhookUrl);
      const problem = found.isActive ? calendarConfigProblem(found.provider, input.config, integrations) : null;
      if (problem) throw badRequest('Please check the highlighted fields.', { config: problem });
      const row = await repo.changeSettings(id, {
        config: sealConfig(secrets, input.config, configKind('calendar', found.provider), owner(id)),
        ...(input.webhookUrl ? { webhookUrl: input.webhookUrl } : {}),
        ...(input.apiKey ? { apiKey: sealField(secrets, input.apiKey, owner(id), 'apiKey') } : {}),
      });
      if (!row) throw notFound('Calendar integration not found');
      return withConnection(row);
    },

    /** Issue 19: a name to tell two of one provider apart (blank: the provider's own). */
    async rename(id: string, name: string | null) {
      const row = await repo.rename(id, name);
      if (!row) throw notFound('Calendar integration not found');
      return withConnection(row);
    },

    /**
     * Stops syncing: no integration is active afterwards. As after activating another, creates and
     * updates queued for it are skipped; removals of events it made still go.
     */
    async deactivate(id: string) {
      const row = await repo.deactivate(id);
      if (!row) throw notFound('Calendar integration not found');
      return withConnection(row);
    },

    /**
     * Deletes the integration and its sealed secrets. Deliveries queued for it are skipped when their
     * turn comes (it no longer exists); events it made in the calendar stay there. One connected to a
     * Google or Microsoft account through Connect is refused: Disconnect first revokes the grant and
     * stops its push channel, which only its token can do (deleted, the grant would stay in the
     * account's list of apps and the channel would post here until it lapsed). A refresh token pasted
     * into the config was granted outside the site, and is the admin's to revoke there.
     */
    async remove(id: string) {
      const row = await repo.findById(id);
      if (row && (row.provider === 'google' || row.provider === 'outlook') && (await connections.connection(id))) {
        const config = parseConfigObject(openConfig(secrets, row.config, owner(id), { lenient: true }));
        if (configText(config, 'refresh_token'))
          throw conflict(`It is connected to a ${row.provider === 'google' ? 'Google' : 'Microsoft 365'} account: Disconnect it first, then delete it.`);
      }
      if (!(await repo.remove(id))) throw notFound('Calendar integration not found');
    },
  };
}
