/**
 * What each provider needs beyond SPEC §3's template, as the backends (api/calendar-sync, api/mail) read it (kept here so
 * the help text and the e2e spec name the same keys):
 * - Google Calendar (api/calendar-sync/google.ts): a `refresh_token` granted with the
 *   https://www.googleapis.com/auth/calendar.events scope; `calendar_id` defaults to "primary".
 * - Outlook (api/calendar-sync/outlook.ts): `user_email`, the mailbox whose calendar receives the
 *   events; the app needs the Calendars.ReadWrite application permission.
 * - Custom webhook (api/calendar-sync/custom-webhook.ts): each delivery is signed with the API key,
 *   X-Firm-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(apiKey, `${t}.${raw body}`)>; X-Firm-Delivery
 *   is the same on every retry of one event.
 * - Calendly (api/calendar-sync/calendly.ts): inbound only; the webhook to register at Calendly, signed
 *   with `webhook_signing_key` (invitee.created, invitee.canceled).
 */
export const GOOGLE_REFRESH_TOKEN_KEY = 'refresh_token';
export const GOOGLE_CALENDAR_SCOPE = 'https://www.googleapis.com/auth/calendar.events';
export const OUTLOOK_MAILBOX_KEY = 'user_email';
export const OUTLOOK_PERMISSION = 'Calendars.ReadWrite';
export const SIGNATURE_HEADER = 'X-Firm-Signature';
export const DELIVERY_HEADER = 'X-Firm-Delivery';
export const CALENDLY_WEBHOOK_PATH = '/api/integrations/calendly/webhook';
export const CALENDLY_EVENTS = ['invitee.created', 'invitee.canceled'] as const;
