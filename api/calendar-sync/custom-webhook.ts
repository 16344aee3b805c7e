/**
 * The custom calendar integration: each booking, change, cancellation and deletion
 * is POSTed as a JSON event to the integration's webhook URL, signed with its API key.
 *
 *   POST <webhookUrl>
 *   Content-Type: application/json
 *   X-Firm-Event: appointment.created | appointment.updated | appointment.cancelled | appointment.deleted
 *   X-Firm-Delivery: <delivery id>        the same on every retry of one event: dedupe on it
 *   X-Firm-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(apiKey, `${t}.${raw body}`)>
 *
 *   { "id": "<delivery id>", "type": "appointment.created", "occurredAt": "<ISO 8601>",
 *     "previousStatus": null | "<status before a change>",
 *     "appointment": { "id", "firstName", "lastName", "email", "phone", "consultationType",
 *       "practiceArea", "notes", "scheduledDate", "endDate", "duration", "timeZone", "status" } }
 *
 * A receiver recomputes the HMAC over the raw body it received, compares in constant time, and
 * rejects old timestamps. Any 2xx is success; anything else, or no answer, is retried with backoff.
 */
import { createHmac } from 'node:crypto';
import { FIRM_TIME_ZONE } from '../../src/shared/firm-time.ts';
import { PermanentDeliveryError, type Delivery, type DeliveryOutcome } from '../deliveries/deliveries.ts';
import type { Deps } from '../deps.ts';
import { endOf, type CalendarAction, type CalendarPayload } from './calendar-event.ts';
import type { CalendarSetting } from './calendar-sync.repository.ts';
import { outbound, type OutboundDeps } from './rest-calendar.ts';

export const SIGNATURE_HEADER = 'X-Firm-Signature';
export const DELIVERY_HEADER = 'X-Firm-Delivery';
export const EVENT_HEADER = 'X-Firm-Event';

export type WebhookEventType = 'appointment.created' | 'appointment.updated' | 'appointment.cancelled' | 'appointment.deleted';

const eventTypes: Record<CalendarAction, WebhookEventType> = {
  create: 'appointment.created',
  update: 'appointment.updated',
  cancel: 'appointment.cancelled',
  delete: 'appointment.deleted',
};

/** `t=<seconds>,v1=<hex>`: the same scheme as Calendly's and Stripe's, so receivers know it. */
export function signWebhook(secret: string, timestampSeconds: number, rawBody: string): string {
  const v1 = createHmac('sha256', secret).update(`${timestampSeconds}.${rawBody}`).digest('hex');
  return `t=${timestampSeconds},v1=${v1}`;
}

export function webhookBody(delivery: Pick<Delivery, 'id'>, payload: CalendarPayload) {
  const a = payload.appointment;
  return {
    id: delivery.id,
    type: eventTypes[payload.action],
    occurredAt: payload.occurredAt,
    previousStatus: payload.previousStatus,
    appointment: {
      id: a.id,
      firstName: a.firstName,
      lastName: a.lastName,
      email: a.email,
      phone: a.phone,
      consultationType: a.consultationType,
      practiceArea: a.practiceArea,
      notes: a.notes,
      scheduledDate: a.scheduledDate,
      endDate: endOf(a).toISOString(),
      duration: a.duration,
      timeZone: FIRM_TIME_ZONE,
      status: a.status,
    },
  };
}

export async function sendCustomWebhook(
  deps: OutboundDeps & Pick<Deps, 'clock'>,
  setting: CalendarSetting,
  delivery: Delivery,
  payload: CalendarPayload,
): Promise<DeliveryOutcome> {
  // Required when the integration is created (calendarSettingInput); older rows may lack them.
  if (!setting.webhookUrl)
    throw new PermanentDeliveryError('The custom calendar integration has no webhook URL; add a new custom integration with one and activate it.');
  if (!setting.apiKey)
    throw new PermanentDeliveryError(
      'The custom calendar integration has no API key to sign its webhooks with; add a new custom integration with one and activate it.',
    );
  const body = webhookBody(delivery, payload);
  const raw = JSON.stringify(body);
  const res = await outbound(deps, setting.webhookUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [EVENT_HEADER]: body.type,
      [DELIVERY_HEADER]: delivery.id,
      [SIGNATURE_HEADER]: signWebhook(setting.apiKey, Math.floor(deps.clock.now().getTime() / 1000), raw),
    },
    body: raw,
    maxBytes: 64 * 1024,
    // A redirect would carry the signed event somewhere the admin did not configure.
    maxRedirects: 0,
  });
  // Only the status: the receiver's answer is not ours to keep (it may echo the personal data).
  if (!res.ok) throw new Error(`The webhook answered HTTP ${res.status}`);
  return { status: 'sent' };
}
