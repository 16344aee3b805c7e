/**
 * Google Calendar (issue 7 item 3): an access token from the refresh token in the integration's
 * config (OAuth 2.0 refresh grant at deps.integrations.googleTokenUrl), then Calendar API v3 under
 * deps.integrations.googleCalendarApiBase: insert, patch and delete one event per appointment.
 *
 * Config (SPEC §3 template plus the refresh token the server needs to act without a browser):
 *   { "client_id", "client_secret", "redirect_uri", "calendar_id": "primary", "refresh_token" }
 */
import { PermanentDeliveryError } from '../deliveries/deliveries.ts';
import type { Deps } from '../deps.ts';
import { endOf, eventDescription, eventTitle, FIRM_TIME_ZONE, startOf, type AppointmentSnapshot } from './calendar-event.ts';
import type { CalendarSetting } from './calendar-sync.repository.ts';
import { credentialsKey, oauthJsonApi, optionalKey, providerMessage, readConfig, requireKey, type CalendarApi, type TokenCache } from './provider.ts';

const LABEL = 'Google Calendar';

/**
 * Google lets the client choose the event id (base32hex: 0-9 and a-v, 5 to 1024 characters): the
 * delivery id without its hyphens is one, so an insert retried after a lost answer gets 409 instead
 * of a second event.
 */
export function googleEventId(deliveryId: string): string | null {
  const id = deliveryId.replace(/-/g, '').toLowerCase();
  return /^[0-9a-v]{5,1024}$/.test(id) ? id : null;
}

function eventResource(a: AppointmentSnapshot) {
  return {
    summary: eventTitle(a),
    description: eventDescription(a),
    // The instant in UTC, and the firm's zone for how Google shows and repeats it.
    start: { dateTime: startOf(a).toISOString(), timeZone: FIRM_TIME_ZONE },
    end: { dateTime: endOf(a).toISOString(), timeZone: FIRM_TIME_ZONE },
    // A booking the firm has not confirmed yet is tentative in its calendar.
    status: a.status === 'scheduled' ? 'tentative' : 'confirmed',
    extendedProperties: { private: { appointmentId: a.id } },
  };
}

export function googleCalendar(deps: Deps, tokens: TokenCache) {
  return {
    forSetting(setting: CalendarSetting): CalendarApi {
      const config = readConfig(setting, LABEL);
      const clientId = requireKey(config, 'client_id', LABEL, 'the OAuth client id');
      const clientSecret = requireKey(config, 'client_secret', LABEL, 'the OAuth client secret');
      const refreshToken = requireKey(config, 'refresh_token', LABEL, 'a refresh token granted to this client with the https://www.googleapis.com/auth/calendar.events scope');
      const calendarId = optionalKey(config, 'calendar_id') ?? 'primary';
      const key = credentialsKey('google', deps.integrations.googleTokenUrl, clientId, clientSecret, refreshToken);

      const call = oauthJsonApi(deps, tokens, {
        tokenUrl: deps.integrations.googleTokenUrl,
        form: { grant_type: 'refresh_token', client_id: clientId, client_secret: clientSecret, refresh_token: refreshToken },
        label: 'Google',
        key,
      });
      const eventsUrl = `${deps.integrations.googleCalendarApiBase.replace(/\/+$/, '')}/calendars/${encodeURIComponent(calendarId)}/events`;

      return {
        label: LABEL,
        async create(a, idempotencyKey) {
          const id = googleEventId(idempotencyKey);
          const res = await call('POST', eventsUrl, { ...(id ? { id } : {}), ...eventResource(a) });
          // Our own id already exists: an earlier attempt created it and its answer was lost.
          if (res.status === 409 && id) return id;
          if (res.status === 400) throw new PermanentDeliveryError(`${LABEL} refused the event: ${providerMessage(res)}`);
          if (res.status === 404) throw new PermanentDeliveryError(`${LABEL} has no calendar "${calendarId}" for these credentials: ${providerMessage(res)}. Check calendar_id.`);
          if (!res.ok) throw new Error(`${LABEL} insert failed: ${providerMessage(res)}`);
          const created = res.json<{ id?: unknown }>();
          if (typeof created.id !== 'string' || !created.id) throw new Error(`${LABEL} answered the insert without an event id`);
          return created.id;
        },
        async update(eventId, a) {
          const res = await call('PATCH', `${eventsUrl}/${encodeURIComponent(eventId)}`, eventResource(a));
          if (res.status === 404 || res.status === 410) return false;
          if (res.status === 400) throw new PermanentDeliveryError(`${LABEL} refused the change: ${providerMessage(res)}`);
          if (!res.ok) throw new Error(`${LABEL} update failed: ${providerMessage(res)}`);
          return true;
        },
        async remove(eventId) {
          const res = await call('DELETE', `${eventsUrl}/${encodeURIComponent(eventId)}`);
          // 404: never there or purged; 410: already deleted. Either way the event is gone.
          if (res.ok || res.status === 404 || res.status === 410) return;
          throw new Error(`${LABEL} delete failed: ${providerMessage(res)}`);
        },
      };
    },
  };
}
