/**
 * Email that is sent. Bookings, cancellations and contact messages are heard from the
 * activity events (api/activity.ts) and queued as deliveries (api/deliveries); the runner then calls
 * emailHandler, which renders the message and sends it through the active email setting, or holds it
 * in the development outbox when none is configured (status 'held': sent once e-mail is configured). A failure is retried and recorded by the runner;
 * it never reaches the visitor who booked or wrote.
 *
 * What a delivery's payload holds, and why: for the confirmation, the firm's notification and the
 * cancellation, a snapshot of the appointment (or contact submission) as it was when it happened;
 * the text is rendered at send time. The snapshot makes the message say what was booked or
 * cancelled even if the row changes or is deleted before the send (deliveries have no foreign key);
 * rendering late keeps payloads small (no attachments stored in the database) and lets a retry use
 * the current sender settings. A reminder holds only the appointment id: it must reflect the
 * appointment as it is at send time, and is skipped if it was cancelled, completed or deleted.
 * Each delivery has a dedupeKey (`<purpose>:<id>`), so nothing is queued twice for one event.
 */
import { randomUUID } from 'node:crypto';
import { emailProviderLabel } from '../../src/shared/constants.ts';
import { appointmentSnapshot, type ActivityListener, type ActivityPlanner, type AppointmentRow, type ContactSubmissionRow } from '../activity.ts';
import { appointmentsRepository } from '../appointments/appointments.repository.ts';
import { appointmentReminders, bookedExternally, terminalStatuses } from '../appointments/appointments.service.ts';
import { openConfig, UnreadableSecretError } from '../crypto/sealed-config.ts';
import { describeError, PermanentDeliveryError, type DeliveryHandler, type NewDelivery } from '../deliveries/deliveries.ts';
import { contactNotificationKey, contactSubmissionsRepository } from '../contact-submissions/contact-submissions.repository.ts';
import { deliveriesRepository, deliveriesWrite, RELEASED_FROM_HOLD } from '../deliveries/deliveries.repository.ts';
import type { Deps } from '../deps.ts';
import { emailSettingsRepository } from '../email-settings/email-settings.repository.ts';
import { manageToken, manageUrl } from '../appointments/manage-link.ts';
import {
  appointmentCancellation,
  appointmentConfirmed,
  appointmentReminder,
  appointmentRescheduled,
  bookingConfirmation,
  bookingNotification,
  contactNotification,
  escapeHtml,
  testMessage,
  visitorChangeNotification,
  type AppointmentDetails,
  type ContactDetails,
  type OutgoingMail,
} from './mail-messages.ts';
import { senderFor, type EmailSettingRow } from './mail-sender.ts';
import { scanReminders as scan, type ReminderPayload } from './reminders.ts';

export type MailPurpose =
  | 'booking-confirmation'
  | 'booking-notification'
  | 'confirmed'
  | 'cancellation'
  | 'rescheduled'
  | 'visitor-change-notification'
  | 'contact-notification'
  | 'reminder';

/**
 * Payloads by purpose (stored as JSON in the delivery). `external`: booked through an external
 * scheduler (Calendly), which sent the visitor its own invitation.
 */
export type AppointmentMailPayload = { to: string; appointment: AppointmentDetails; external?: boolean; previousDate?: string | null };
export type ContactMailPayload = { to: string; submission: ContactDetails };

export const appointmentDetails: (row: AppointmentRow) => AppointmentDetails = appointmentSnapshot;

function contactDetails(row: ContactSubmissionRow): ContactDetails {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    practiceArea: row.practiceArea,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Plans the e-mails of a booking and of a contact message, to commit with them (decision 022): the
 * visitor's confirmation (not for a booking made through an external scheduler such as Calendly,
 * which confirmed it with its own invitation: a second one would add a second calendar event) and
 * the firm's notification, queued for every booking and message (api/activity-recovery.ts looks for it).
 */
export function mailPlanner(deps: Pick<Deps, 'database' | 'clock' | 'integrations'>): ActivityPlanner {
  const { database, clock, integrations } = deps;
  const forAppointment = (purpose: MailPurpose, to: string, row: AppointmentRow): NewDelivery => ({
    channel: 'email',
    purpose,
    payload: { to, appointment: appointmentDetails(row), external: bookedExternally(row) } satisfies AppointmentMailPayload,
    appointmentId: row.id,
    recipient: to,
    dedupeKey: `${purpose}:${row.id}`,
  });
  return (activity) => {
    if (activity.type === 'appointment-booked') {
      const row = activity.appointment;
      const mails = [
        ...(bookedExternally(row) ? [] : [forAppointment('booking-confirmation', row.email, row)]),
        forAppointment('booking-notification', integrations.firmNotificationEmail, row),
      ];
      return [deliveriesWrite(database, mails, clock.now())];
    }
    const row = activity.submission;
    const to = integrations.firmNotificationEmail;
    const notification: NewDelivery = {
      channel: 'email',
      purpose: 'contact-notification',
      payload: { to, submission: contactDetails(row) } satisfies ContactMailPayload,
      recipient: to,
      dedupeKey: contactNotificationKey(row.id),
    };
    return [deliveriesWrite(database, [notification], clock.now())];
  };
}

/**
 * Hears an appointment confirmed (by the firm), cancelled (by an admin, by its visitor through their
 * booking's page, or through Calendly), deleted while still to come, or moved (by its visitor), and
 * queues the visitor's e-mail about it; and, when the visitor did it, the firm's notice.
 */
export function mailListener(deps: Pick<Deps, 'deliveries' | 'integrations' | 'clock'>): ActivityListener {
  const { deliveries, integrations } = deps;
  const mail = (purpose: MailPurpose, to: string, row: AppointmentRow, dedupeKey: string, previousDate: Date | null = null) =>
    deliveries.enqueue({
      channel: 'email',
      purpose,
      payload: {
        to,
        appointment: appointmentDetails(row),
        external: bookedExternally(row),
        previousDate: previousDate?.toISOString() ?? null,
      } satisfies AppointmentMailPayload,
      appointmentId: row.id,
      recipient: to,
      dedupeKey,
    });
  return async (activity) => {
    // A deleted consultation that was still to come is cancelled for the visitor (the admin's dialog
    // says so); a pending reminder finds the appointment gone and is skipped.
    if (activity.type === 'appointment-deleted') {
      const row = activity.appointment;
      // Not a Calendly booking: it is still booked there, and Calendly tells its invitee (the admin's dialog says to cancel it there).
      if (!terminalStatuses.includes(row.status) && row.scheduledDate > deps.clock.now() && !bookedExternally(row)) {
        await mail('cancellation', row.email, row, `cancellation:${row.id}`);
      }
      return;
    }
    if (activity.type !== 'appointment-changed') return;
    const row = activity.appointment;
    const firm = integrations.firmNotificationEmail;
    // Confirmed by the firm: the visitor hears it, with their calendar's event updated (Calendly
    // bookings are confirmed there).
    if (row.status === 'confirmed' && activity.previousStatus !== 'confirmed' && !bookedExternally(row)) {
      // Per time: confirmed again after the visitor moved it, the new time is confirmed too.
      await mail('confirmed', row.email, row, `confirmed:${row.id}:${row.scheduledDate.toISOString()}`);
      return;
    }
    // SPEC §4: cancelled is terminal, so this happens once per appointment. Also for an external
    // booking (the cancellation may have been made here, where the scheduler does not hear of it),
    // but then without a calendar file (see appointmentCancellation).
    if (row.status === 'cancelled' && activity.previousStatus !== 'cancelled') {
      await mail('cancellation', row.email, row, `cancellation:${row.id}`);
      if (activity.by === 'visitor') await mail('visitor-change-notification', firm, row, `visitor-cancelled:${row.id}`);
      return;
    }
    if (activity.previousDate) {
      const moved = `${row.id}:${row.scheduledDate.toISOString()}`;
      await mail('rescheduled', row.email, row, `rescheduled:${moved}`, activity.previousDate);
      if (activity.by === 'visitor') await mail('visitor-change-notification', firm, row, `visitor-rescheduled:${moved}`, activity.previousDate);
    }
  };
}

/**
 * The active email setting, read at send time (a new save applies to mail already queued), its
 * secrets opened for this send. One that does not open fails the delivery at once: nothing is sent
 * with a wrong password or key.
 */
async function activeEmailSetting({ database, secrets }: Pick<Deps, 'database' | 'secrets'>): Promise<EmailSettingRow | null> {
  const row = await emailSettingsRepository(database).active();
  if (!row) return null;
  try {
    return { provider: row.provider, config: openConfig(secrets, row.config, { table: 'email-settings', id: row.id })! };
  } catch (err) {
    if (err instanceof UnreadableSecretError) throw new PermanentDeliveryError(`The ${row.provider} email configuration cannot be used: ${err.message}`);
    throw err;
  }
}

type Composed = { mail: OutgoingMail } | { skip: string };

type ComposeDeps = Pick<Deps, 'database' | 'clock' | 'integrations' | 'secrets'>;

/**
 * The visitor's own mail about a consultation (its confirmation, a move, a cancellation) is news only
 * before it starts: sent later (held messages sent once e-mail is configured, a long retry) it would
 * only confuse.
 */
const newsBeforeTheStart = new Set(['booking-confirmation', 'confirmed', 'rescheduled', 'cancellation']);

async function compose(deps: ComposeDeps, purpose: string, payload: unknown): Promise<Composed> {
  const now = deps.clock.now();
  if (newsBeforeTheStart.has(purpose) && new Date((payload as AppointmentMailPayload).appointment.scheduledDate) <= now) {
    return { skip: 'The consultation had already started: this message would have been news only before it' };
  }
  const { siteUrl } = deps.integrations;
  // The booking's own page (self-service), except for a booking made through an external scheduler, which is changed there.
  const linkOf = (p: AppointmentMailPayload) => (p.external ? null : manageUrl(siteUrl, manageToken(deps.secrets, p.appointment.id)));
  switch (purpose) {
    case 'booking-confirmation': {
      const p = payload as AppointmentMailPayload;
      return { mail: bookingConfirmation(p.appointment, { now, manageUrl: linkOf(p) }) };
    }
    case 'confirmed': {
      const p = payload as AppointmentMailPayload;
      // Sent late (held, retried), it must still be true: confirmed, at that time.
      const current = await appointmentsRepository(deps.database).findById(p.appointment.id);
      if (!current || current.status !== 'confirmed' || current.scheduledDate.toISOString() !== p.appointment.scheduledDate) {
        return { skip: 'The appointment is no longer confirmed at that time' };
      }
      return { mail: appointmentConfirmed(p.appointment, { now, manageUrl: linkOf(p) }) };
    }
    case 'rescheduled': {
      const p = payload as AppointmentMailPayload;
      return { mail: appointmentRescheduled(p.appointment, { now, previousDate: p.previousDate!, manageUrl: linkOf(p) }) };
    }
    case 'visitor-change-notification': {
      const p = payload as AppointmentMailPayload;
      return { mail: visitorChangeNotification(p.appointment, { to: p.to, siteUrl, previousDate: p.previousDate ?? null }) };
    }
    case 'booking-notification': {
      const p = payload as AppointmentMailPayload;
      return { mail: bookingNotification(p.appointment, { to: p.to, siteUrl }) };
    }
    case 'cancellation': {
      const p = payload as AppointmentMailPayload;
      return { mail: appointmentCancellation(p.appointment, { now, siteUrl, withCalendar: !p.external }) };
    }
    case 'contact-notification': {
      const p = payload as ContactMailPayload;
      // Deleted meanwhile (a privacy request from another container): no copy is made or sent.
      if (!(await contactSubmissionsRepository(deps.database).exists(p.submission.id))) return { skip: 'The message was deleted' };
      return { mail: contactNotification(p.submission, { to: p.to, siteUrl }) };
    }
    case 'reminder': {
      const { appointmentId } = payload as ReminderPayload;
      const found = await appointmentReminders(deps).toSend(appointmentId, now);
      if ('skip' in found) return found;
      const details = appointmentDetails(found.appointment);
      return { mail: appointmentReminder(details, { now, manageUrl: linkOf({ to: details.email, appointment: details }) }) };
    }
    default:
      throw new PermanentDeliveryError(`Unknown e-mail purpose "${purpose}"`);
  }
}

/** Sends one queued e-mail through the active email setting, or into the development outbox. */
export function emailHandler(deps: ComposeDeps & Pick<Deps, 'outbox' | 'log'>): DeliveryHandler {
  return async (delivery, payload) => {
    // Released by Send held messages: its held copy (decision 042) is no longer the message's only
    // trace once this run sends it, skips it, or holds it again (a new copy, the one of now).
    const released = delivery.externalRef === RELEASED_FROM_HOLD;
    const dropHeldCopy = async () => {
      if (released) await deps.outbox.remove({ deliveryIds: [delivery.id] });
    };
    const composed = await compose(deps, delivery.purpose, payload);
    if ('skip' in composed) {
      await dropHeldCopy();
      return { status: 'skipped', reason: composed.skip };
    }
    const { mail } = composed;
    const setting = await activeEmailSetting(deps);
    if (!setting) {
      await dropHeldCopy();
      // Nowhere configured to send: kept where an admin can read it (GET /api/admin/email-outbox),
      // and said once in the server log, without the address or the text.
      const kept = await deps.outbox.deliver({
        to: mail.to.email,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments,
        deliveryId: delivery.id,
      });
      // The delivery deleted while this ran (its message erased on another container): no copy stays.
      if (!(await deliveriesRepository(deps.database).findById(delivery.id))) {
        await deps.outbox.remove({ deliveryIds: [delivery.id] });
        return { status: 'skipped', reason: 'Deleted while it was being held' };
      }
      deps.log.info('e-mail held in the development outbox (no email setting is configured)', {
        deliveryId: delivery.id,
        purpose: delivery.purpose,
        outboxId: kept.id,
      });
      // Held, not sent (issue 19): the log says so, and "Send held messages" sends it once e-mail is configured.
      return { status: 'held', externalRef: 'outbox' };
    }
    const result = await senderFor(setting, deps).send(mail, delivery.id);
    // Sent: a failure here must not fail the delivery (it would be sent again); the sweep deletes the copy in time.
    await dropHeldCopy().catch((err) =>
      deps.log.warn('held mail: the copy of a sent message was not deleted', { deliveryId: delivery.id, err: describeError(err) }),
    );
    return { status: 'sent', externalRef: result.externalRef };
  };
}

/**
 * A plain message sent now through the active email setting, not queued (the identity service's
 * codes: a queue's retries would outlive the code). False when no setting is configured (the caller
 * keeps it in the development outbox); a refusal throws.
 */
export async function sendNow(deps: ComposeDeps, message: { to: string; subject: string; text: string }): Promise<boolean> {
  const setting = await activeEmailSetting(deps);
  if (!setting) return false;
  const html = `<p>${escapeHtml(message.text).replace(/\r?\n/g, '<br>')}</p>`;
  await senderFor(setting, deps).send(
    { to: { email: message.to }, subject: message.subject, text: message.text, html, attachments: [] },
    `now-${randomUUID()}`,
  );
  return true;
}

/** The Email tab's "Send test e-mail": sent now through the active setting, not queued; null when none is configured. A refusal throws, its message naming the problem. */
export async function sendTestEmail(deps: ComposeDeps, to: string): Promise<{ provider: string; externalRef: string | null } | null> {
  const setting = await activeEmailSetting(deps);
  if (!setting) return null;
  const mail = testMessage({ to, provider: emailProviderLabel(setting.provider), now: deps.clock.now(), siteUrl: deps.integrations.siteUrl });
  const { externalRef } = await senderFor(setting, deps).send(mail, `test-${randomUUID()}`);
  return { provider: setting.provider, externalRef };
}

/**
 * "Send held messages": once e-mail is configured, what was held in the development outbox is
 * queued again, in its first order, and sent as it would have been then (each composed at send time:
 * a confirmation of a consultation already past is skipped, a cancelled booking's reminder too).
 * Null when e-mail is still not configured (it would only be held again).
 */
export async function sendHeldEmail(deps: Pick<Deps, 'database' | 'clock' | 'deliveries'>): Promise<number | null> {
  if (!(await emailSettingsRepository(deps.database).activeProvider())) return null;
  const queued = await deliveriesRepository(deps.database).releaseHeld('email', deps.clock.now());
  if (queued.length) deps.deliveries.queued();
  return queued.length;
}

/** Queues the reminders that are due (see reminders.ts for the rules). */
export function scanReminders(deps: Pick<Deps, 'database' | 'clock' | 'deliveries'>): Promise<number> {
  return scan(deps);
}
