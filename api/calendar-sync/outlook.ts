/**
 * Outlook / Microsoft 365: an app-only token from the Microsoft identity platform
 * (client credentials at deps.integrations.microsoftLoginBase/{tenant_id}/oauth2/v2.0/token, scope
 * https://graph.microsoft.com/.default), then Microsoft Graph under
 * deps.integrations.microsoftGraphApiBase: create, update and delete one event per appointment in
 * the firm's mailbox. The app needs the Calendars.ReadWrite application permission, granted by an
 * administrator of the tenant.
 *
 * Config (SPEC §3 template plus the mailbox, which app-only access must name):
 *   { "client_id", "client_secret", "tenant_id", "user_email": "calendar@firm.example" }
 * or, once an admin has connected it (Connect with Microsoft 365, delegated access to their own calendar):
 *   { "client_id", "client_secret", "tenant_id", "refresh_token", "calendar_id"? }
 */
import { firmWallClock } from '../../src/shared/firm-time.ts';
import { endOf, eventDescription, eventTitle, startOf, type AppointmentSnapshot } from './calendar-event.ts';
import type { RestCalendarProvider } from './rest-calendar.ts';

export const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';
/** What Connect with Microsoft 365 asks the signed-in user for (delegated access, with a refresh token). */
export const GRAPH_DELEGATED_SCOPE = 'offline_access https://graph.microsoft.com/Calendars.ReadWrite';
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

/** Outlook through the REST calendar adapter (rest-calendar.ts). */
export const outlookCalendar: RestCalendarProvider = {
  label: 'Outlook',
  connect(config, integrations) {
    const clientId = config.required('client_id', 'the application (client) id');
    const clientSecret = config.required('client_secret', 'a client secret of that application');
    const tenantId = config.required('tenant_id', 'the directory (tenant) id');
    const tokenUrl = `${integrations.microsoftLoginBase.replace(/\/+$/, '')}/${encodeURIComponent(tenantId)}/oauth2/v2.0/token`;
    const graph = integrations.microsoftGraphApiBase.replace(/\/+$/, '');
    const calendarId = config.optional('calendar_id');
    // Connected through Connect with Microsoft 365: the signed-in user's own calendar, with their
    // refresh token (delegated). Otherwise app-only access to the mailbox the config names.
    const refreshToken = config.optional('refresh_token');
    const mailbox = refreshToken ? null : config.required('user_email', 'the address of the mailbox whose calendar receives the appointments');
    const root = mailbox ? `${graph}/users/${encodeURIComponent(mailbox)}` : `${graph}/me`;
    const grant: { tokenUrl: string; form: Record<string, string>; label: string; cacheKey: string[] } = refreshToken
      ? {
          tokenUrl,
          form: { grant_type: 'refresh_token', client_id: clientId, client_secret: clientSecret, refresh_token: refreshToken, scope: GRAPH_DELEGATED_SCOPE },
          label: 'Microsoft',
          cacheKey: ['outlook', tokenUrl, clientId, clientSecret, refreshToken],
        }
      : {
          tokenUrl,
          form: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, scope: GRAPH_SCOPE },
          label: 'Microsoft',
          cacheKey: ['outlook', tokenUrl, clientId, clientSecret],
        };
    return {
      grant,
      root,
      calendarId,
      eventsUrl: calendarId ? `${root}/calendars/${encodeURIComponent(calendarId)}/events` : `${root}/events`,
      // An event's id is unique in the mailbox: found in whichever calendar it was made (one picked before this one, too).
      eventUrl: (eventId) => `${root}/events/${encodeURIComponent(eventId)}`,
      missing: mailbox
        ? { what: `mailbox "${mailbox}" in this tenant`, configKey: 'user_email' }
        : { what: 'calendar for the connected account', configKey: 'calendar_id' },
    };
  },
  resource: eventResource,
  // transactionId: Graph's own guard against a retried POST creating the event twice.
  createBody: (a, idempotencyKey) => ({ body: { ...eventResource(a), transactionId: idempotencyKey } }),
  createVerb: 'create',
};
