/**
 * Calendar sync. The listener hears bookings, status changes and deletions and
 * queues one calendar delivery per integration that should hear of it; the handler delivers it
 * through the integration's provider, re-read at send time:
 *   custom   a signed JSON webhook per change (custom-webhook.ts)
 *   google   one event per appointment, created, updated and deleted (google.ts)
 *   outlook  the same through Microsoft Graph (outlook.ts)
 *   calendly inbound only (calendly.ts): nothing is sent, the delivery is recorded as skipped
 * A cancelled appointment removes its event (the custom webhook hears 'appointment.cancelled').
 * Creates and updates go only to the integration active when they happened, and are skipped if it
 * was deactivated before they went out; removals go to every integration that holds an event for
 * the appointment, active or not, so switching provider leaves no stale consultations behind.
 */
import type { ActivityListener, ActivityPlanner, AppointmentRow } from '../activity.ts';
import { appointmentsService } from '../appointments/appointments.service.ts';
import { PermanentDeliveryError, type Delivery, type DeliveryHandler, type DeliveryOutcome } from '../deliveries/deliveries.ts';
import type { Deps } from '../deps.ts';
import { UnreadableSecretError } from '../crypto/sealed-config.ts';
import { purposeOf, readPayload, snapshot, type CalendarAction, type CalendarPayload } from './calendar-event.ts';
import { activeCalendarDeliveryWrite, calendarSyncRepository, openSecrets, type CalendarSetting } from './calendar-sync.repository.ts';
import { CALENDLY_INBOUND_ONLY } from './calendly.ts';
import { sendCustomWebhook } from './custom-webhook.ts';
import { googleCalendar } from './google.ts';
import { outlookCalendar } from './outlook.ts';
import { restCalendar, tokenCacheFor, type CalendarApi } from './rest-calendar.ts';

const providerLabels: Record<string, string> = { custom: 'custom webhook', google: 'Google Calendar', outlook: 'Outlook', calendly: 'Calendly' };
const labelOf = (setting: CalendarSetting) => providerLabels[setting.provider] ?? setting.provider;

/** Where a delivery goes, for the delivery log (masked there): the webhook URL, or the provider and calendar. */
function recipientOf(setting: CalendarSetting): string {
  if (setting.provider === 'custom') return setting.webhookUrl ?? 'custom webhook (no URL)';
  let config: Record<string, unknown> = {};
  try {
    config = JSON.parse(setting.config) as Record<string, unknown>;
  } catch {
    /* the handler reports a bad config */
  }
  const where = setting.provider === 'google' ? (config.calendar_id ?? 'primary') : setting.provider === 'outlook' ? config.user_email : null;
  return typeof where === 'string' && where ? `${labelOf(setting)}: ${where}` : labelOf(setting);
}

const removes = (action: CalendarAction) => action === 'cancel' || action === 'delete';
const removedBy = (purpose: string) => purpose === purposeOf('cancel') || purpose === purposeOf('delete');

/**
 * Plans a booking's calendar event, to commit with it (decision 022): one delivery for the
 * integration active at the commit, if any (a Calendly booking too: Calendly's delivery is recorded
 * as skipped, inbound only). One event per appointment and integration (the dedupeKey), also when
 * api/activity-recovery.ts plans a booking again.
 */
export function calendarPlanner(deps: Pick<Deps, 'database' | 'clock'>): ActivityPlanner {
  return (activity) => {
    if (activity.type !== 'appointment-booked') return [];
    const { appointment } = activity;
    const payload: CalendarPayload = { action: 'create', occurredAt: deps.clock.now().toISOString(), previousStatus: null, appointment: snapshot(appointment) };
    const purpose = purposeOf('create');
    return [
      activeCalendarDeliveryWrite(
        deps.database,
        { channel: 'calendar', purpose, appointmentId: appointment.id, payload, dedupePrefix: `${purpose}:${appointment.id}:` },
        deps.clock.now(),
      ),
    ];
  };
}

/** Hears status changes and deletions (an admin's, or Calendly's cancellation) and queues the calendar's update or removal. */
export function calendarListener(deps: Pick<Deps, 'database' | 'clock' | 'deliveries'>): ActivityListener {
  const repo = calendarSyncRepository(deps.database);
  const enqueue = async (setting: CalendarSetting, appointment: AppointmentRow, action: CalendarAction, previousStatus: string | null) => {
    const payload: CalendarPayload = { action, occurredAt: deps.clock.now().toISOString(), previousStatus, appointment: snapshot(appointment) };
    // Updates and removals may legitimately repeat: no dedupeKey.
    await deps.deliveries.enqueue({
      channel: 'calendar',
      purpose: purposeOf(action),
      appointmentId: appointment.id,
      integrationId: setting.id,
      recipient: recipientOf(setting),
      payload,
    });
  };
  return async (activity) => {
    if (activity.type !== 'appointment-changed' && activity.type !== 'appointment-deleted') return;
    const action: CalendarAction = activity.type === 'appointment-deleted' ? 'delete' : activity.appointment.status === 'cancelled' ? 'cancel' : 'update';
    const previousStatus = activity.type === 'appointment-changed' ? activity.previousStatus : null;
    const targets = new Map<string, CalendarSetting>();
    const active = await repo.activeSetting();
    if (active) targets.set(active.id, active);
    if (removes(action))
      for (const setting of await repo.settingsThatSent(activity.appointment.id)) if (setting.provider !== 'calendly') targets.set(setting.id, setting);
    for (const setting of targets.values()) await enqueue(setting, activity.appointment, action, previousStatus);
  };
}

export function calendarHandler(deps: Pick<Deps, 'database' | 'clock' | 'activity' | 'events' | 'integrations' | 'secrets' | 'log'>): DeliveryHandler {
  const repo = calendarSyncRepository(deps.database);
  const appointments = appointmentsService(deps);
  // Access tokens live in this process's memory only, until shortly before they expire.
  const tokens = tokenCacheFor(deps);
  const google = restCalendar(deps, tokens, googleCalendar);
  const outlook = restCalendar(deps, tokens, outlookCalendar);

  /** Google and Outlook: one event per appointment, found again through the delivery log. */
  async function syncEvent(api: CalendarApi, setting: CalendarSetting, delivery: Delivery, payload: CalendarPayload): Promise<DeliveryOutcome> {
    const appointmentId = payload.appointment.id;
    const known = await repo.lastEventRef(appointmentId, setting.id);
    if (removes(payload.action)) {
      if (!known) return { status: 'skipped', reason: `No ${api.label} event was created for this appointment.` };
      if (removedBy(known.purpose)) return { status: 'skipped', reason: `The ${api.label} event was already removed.` };
      await api.remove(known.eventId, known.calendarId);
      return { status: 'sent', externalRef: known.eventId, externalCalendar: known.calendarId ?? api.calendarId };
    }
    // A create or an update sends the appointment as it is now: an older change retried late must
    // not overwrite a newer one.
    const current = await appointments.findById(appointmentId);
    if (!current) return { status: 'skipped', reason: 'The appointment was deleted before its event was sent.' };
    if (current.status === 'cancelled') return { status: 'skipped', reason: 'The appointment was cancelled before its event was sent.' };
    const appointment = snapshot(current);
    if (known && !removedBy(known.purpose)) {
      if (await api.update(known.eventId, appointment, known.calendarId))
        return { status: 'sent', externalRef: known.eventId, externalCalendar: known.calendarId ?? api.calendarId };
      return { status: 'skipped', reason: `The ${api.label} event no longer exists (it was deleted there); it is not recreated.` };
    }
    // No event in this calendar yet (a create, or an update after the integration changed): make it.
    const eventId = await api.create(appointment, delivery.id);
    await appointments.recordProviderEvent(current, eventId);
    return { status: 'sent', externalRef: eventId, externalCalendar: api.calendarId };
  }

  /** Its secrets opened for this delivery; one that does not open fails it at once, nothing is sent. */
  function opened(setting: CalendarSetting): CalendarSetting {
    try {
      return openSecrets(deps.secrets, setting);
    } catch (err) {
      if (err instanceof UnreadableSecretError) throw new PermanentDeliveryError(`The ${labelOf(setting)} integration cannot be used: ${err.message}`);
      throw err;
    }
  }

  return async (delivery, raw) => {
    const payload = readPayload(raw);
    const setting = delivery.integrationId ? await repo.settingById(delivery.integrationId) : null;
    if (!setting) return { status: 'skipped', reason: 'The calendar integration this change was meant for no longer exists.' };
    // A booking's event was queued naming the provider only (activeCalendarDeliveryWrite): the log gets the calendar.
    return { ...(await deliver(setting, delivery, payload)), recipient: recipientOf(setting) };
  };

  async function deliver(setting: CalendarSetting, delivery: Delivery, payload: CalendarPayload): Promise<DeliveryOutcome> {
    if (setting.provider === 'calendly') return { status: 'skipped', reason: CALENDLY_INBOUND_ONLY };
    if (!setting.isActive && !removes(payload.action)) {
      return {
        status: 'skipped',
        reason: `The ${labelOf(setting)} integration is no longer the active one; only the active integration receives new and changed appointments.`,
      };
    }
    if (setting.provider === 'custom') return sendCustomWebhook(deps, opened(setting), delivery, payload);
    if (setting.provider === 'google') return syncEvent(google.forSetting(opened(setting)), setting, delivery, payload);
    if (setting.provider === 'outlook') return syncEvent(outlook.forSetting(opened(setting)), setting, delivery, payload);
    return { status: 'skipped', reason: `Unknown calendar provider "${setting.provider}".` };
  }
}
