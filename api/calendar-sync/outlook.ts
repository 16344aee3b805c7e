/**
 * Outlook / Microsoft 365 (issue 7 item 3): an app-only token from the Microsoft identity platform
 * (client credentials at deps.integrations.microsoftLoginBase/{tenant_id}/oauth2/v2.0/token, scope
 * https://graph.microsoft.com/.default), then Microsoft Graph under
 * deps.integrations.microsoftGraphApiBase: create, update and delete one event per appointment in
 * the firm's mailbox. The app needs the Calendars.ReadWrite application permission, granted by an
 * administrator of the tenant.
 *
 * Config (SPEC §3 template plus the mailbox, which app-only access must name):
 *   { "client_id", "client_secret", "tenant_id", "user_email": "calendar@firm.example" }
 */
import { firmWallClock } from '../../src/shared/firm-time.ts';
import type { Deps } from '../deps.ts';
import { endOf, eventDescription, eventTitle, startOf, type AppointmentSnapshot } from './calendar-event.ts';
import type { CalendarSetting } from './calendar-sync.repository.ts';
import { credentialsKey, jsonEventsApi, oauthJsonApi, readConfig, requireKey, type CalendarApi, type TokenCache } from './provider.ts';

const LABEL = 'Outlook';
export const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';
/** Graph takes a wall-clock time plus a Windows zone name; this one follows California's daylight saving. */
export const GRAPH_FIRM_TIME_ZONE = 'Pacific Standard Time';

function eventResource(a: AppointmentSnapshot) {
  return {
    subject: eventTitle(a),
    body: { contentType: 'text', content: eventDescription(a) },
    start: { dateTime: firmWallClock(startOf(a)), timeZone: GRAPH_FIRM_TIME_ZONE },
    end: { dateTime: firmWallClock(endOf(a)), timeZone: GRAPH_FIRM_TIME_ZONE },
    // A booking the firm has not confirmed yet shows as tentative.
    showAs: a.status === 'scheduled' ? 'tentative' : 'busy',
  };
}

export function outlookCalendar(deps: Deps, tokens: TokenCache) {
  return {
    forSetting(setting: CalendarSetting): CalendarApi {
      const config = readConfig(setting, LABEL);
      const clientId = requireKey(config, 'client_id', LABEL, 'the application (client) id');
      const clientSecret = requireKey(config, 'client_secret', LABEL, 'a client secret of that application');
      const tenantId = requireKey(config, 'tenant_id', LABEL, 'the directory (tenant) id');
      const mailbox = requireKey(config, 'user_email', LABEL, 'the address of the mailbox whose calendar receives the appointments');
      const tokenUrl = `${deps.integrations.microsoftLoginBase.replace(/\/+$/, '')}/${encodeURIComponent(tenantId)}/oauth2/v2.0/token`;
      const key = credentialsKey('outlook', tokenUrl, clientId, clientSecret);

      const call = oauthJsonApi(deps, tokens, {
        tokenUrl,
        form: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, scope: GRAPH_SCOPE },
        label: 'Microsoft',
        key,
      });
      const eventsUrl = `${deps.integrations.microsoftGraphApiBase.replace(/\/+$/, '')}/users/${encodeURIComponent(mailbox)}/events`;

      return jsonEventsApi(call, {
        label: LABEL,
        eventsUrl,
        resource: eventResource,
        // transactionId: Graph's own guard against a retried POST creating the event twice.
        createBody: (a, idempotencyKey) => ({ body: { ...eventResource(a), transactionId: idempotencyKey } }),
        createVerb: 'create',
        missing: { what: `mailbox "${mailbox}" in this tenant`, configKey: 'user_email' },
      });
    },
  };
}
