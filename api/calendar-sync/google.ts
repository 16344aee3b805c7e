/**
 * Google Calendar: an access token from the refresh token in the integration's
 * config (OAuth 2.0 refresh grant at deps.integrations.googleTokenUrl), then Calendar API v3 under
 * deps.integrations.googleCalendarApiBase: insert, patch and delete one event per appointment.
 *
 * Config (SPEC §3 template plus the refresh token the server needs to act without a browser):
 *   { "client_id", "client_secret", "redirect_uri", "calendar_id": "primary", "refresh_token" }
 */
import { FIRM_TIME_ZONE } from '../../src/shared/firm-time.ts';
import { endOf, eventDescription, eventTitle, startOf, type AppointmentSnapshot } from './calendar-event.ts';
import type { RestCalendarProvider } from './rest-calendar.ts';

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

/** Google Calendar through the REST calendar adapter (rest-calendar.ts). */
export const googleCalendar: RestCalendarProvider = {
  label: 'Google Calendar',
  connect(config, integrations) {
    const clientId = config.required('client_id', 'the OAuth client id');
    const clientSecret = config.required('client_secret', 'the OAuth client secret');
    const refreshToken = config.required(
      'refresh_token',
      'a refresh token granted to this client with the https://www.googleapis.com/auth/calendar.events scope',
    );
    const calendarId = config.optional('calendar_id') ?? 'primary';
    const root = integrations.googleCalendarApiBase.replace(/\/+$/, '');
    return {
      root,
      calendarId,
      grant: {
        tokenUrl: integrations.googleTokenUrl,
        form: { grant_type: 'refresh_token', client_id: clientId, client_secret: clientSecret, refresh_token: refreshToken },
        label: 'Google',
        cacheKey: ['google', integrations.googleTokenUrl, clientId, clientSecret, refreshToken],
      },
      eventsUrl: `${root}/calendars/${encodeURIComponent(calendarId)}/events`,
      // Event ids are per calendar: an event made before another calendar was picked is in its own.
      eventUrl: (eventId, calendarOfEvent) => `${root}/calendars/${encodeURIComponent(calendarOfEvent ?? calendarId)}/events/${encodeURIComponent(eventId)}`,
      missing: { what: `calendar "${calendarId}" for these credentials`, configKey: 'calendar_id' },
    };
  },
  resource: eventResource,
  createBody: (a, idempotencyKey) => {
    const id = googleEventId(idempotencyKey);
    return { body: { ...(id ? { id } : {}), ...eventResource(a) }, ownId: id };
  },
  createVerb: 'insert',
};
