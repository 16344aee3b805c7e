/**
 * Calendly is inbound only: Calendly tells the site about bookings made on Calendly
 * with signed webhooks, and the site records them as appointments. Nothing is sent to Calendly.
 *
 * POST /api/integrations/calendly/webhook, as Calendly sends it (webhook subscription with a signing
 * key; the key goes in the active Calendly integration's config as "webhook_signing_key"):
 *   Calendly-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(signing key, `${t}.${raw body}`)>
 *   { "event": "invitee.created" | "invitee.canceled", "created_at": "...", "payload": <invitee> }
 * The invitee carries its own URI ("uri"), name / first_name / last_name, email,
 * text_reminder_number, questions_and_answers and scheduled_event { start_time, end_time, name }.
 *
 * The signature is checked over the raw body, in constant time, and a timestamp more than three
 * minutes away from the firm's clock is refused (a replayed webhook): 400 for a missing or malformed
 * header, 401 for a wrong or stale signature, nothing written either way.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { appointmentsService } from '../appointments/appointments.service.ts';
import { consultationTypeLabel } from '../../src/shared/constants.ts';
import { whenLabel } from '../../src/shared/firm-time.ts';
import type { Deps } from '../deps.ts';
import { badRequest, HttpError, notFound, unauthorized } from '../http/errors.ts';
import { textProblem, UNSTORABLE_TEXT } from '../http/validate.ts';
import { UnreadableSecretError } from '../crypto/sealed-config.ts';
import { calendarSyncRepository, openSecrets } from './calendar-sync.repository.ts';
import { recordCalendarNotice } from './calendar-notices.ts';

export const CALENDLY_SIGNATURE_HEADER = 'Calendly-Webhook-Signature';
/** Calendly's own advice: reject signatures older than three minutes. */
export const CALENDLY_TOLERANCE_MS = 3 * 60_000;

export const CALENDLY_INBOUND_ONLY =
  'Calendly is inbound only: bookings made on Calendly come to the site by webhook, and changes made here are not sent to Calendly.';

/** What a Calendly booking becomes here: the type and area a visitor would choose by default. */
const CALENDLY_CONSULTATION_TYPE = 'initial';
const CALENDLY_PRACTICE_AREA = 'other';

/** The parts of the signature header, or null when it is not `t=<digits>,v1=<64 hex>[,v1=...]`. */
export function parseSignatureHeader(header: string | undefined | null): { t: number; v1: string[] } | null {
  if (!header) return null;
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (!/^\d{1,12}$/.test(value)) return null;
      t = Number(value);
    } else if (key === 'v1') {
      if (!/^[0-9a-f]{64}$/i.test(value)) return null;
      v1.push(value.toLowerCase());
    }
  }
  return t !== null && v1.length ? { t, v1 } : null;
}

/** 'ok', or why the webhook is refused. Constant-time comparison of the HMACs. */
export function checkCalendlySignature(
  header: string | undefined | null,
  rawBody: string,
  signingKey: string,
  now: Date,
): 'ok' | 'malformed' | 'stale' | 'mismatch' {
  const parsed = parseSignatureHeader(header);
  if (!parsed) return 'malformed';
  if (Math.abs(now.getTime() - parsed.t * 1000) > CALENDLY_TOLERANCE_MS) return 'stale';
  const expected = createHmac('sha256', signingKey).update(`${parsed.t}.${rawBody}`).digest();
  const matches = parsed.v1.some((candidate) => timingSafeEqual(Buffer.from(candidate, 'hex'), expected));
  return matches ? 'ok' : 'mismatch';
}

/**
 * An instant both databases hold exactly (PostgreSQL refuses year 0 and reads years before
 * 100 back wrongly), and an event of at most a day: its slot claims are one row per 30 minutes,
 * written in one statement, and a year-long "event" would be more rows than a statement may carry.
 */
const isoInstant = z.iso
  .datetime({ offset: true })
  .transform((v) => new Date(v))
  .refine((d) => d.getUTCFullYear() >= 1900 && d.getUTCFullYear() <= 9999, 'must be between the years 1900 and 9999');
const MAX_EVENT_MINUTES = 24 * 60;
const text = z.string().nullish();

const envelope = z.object({ event: z.string().min(1).max(100), payload: z.unknown() });

const invitee = z.object({
  uri: z.string().trim().min(1).max(500),
  email: z.string().trim().max(254).pipe(z.email()),
  name: text,
  first_name: text,
  last_name: text,
  text_reminder_number: text,
  questions_and_answers: z.array(z.object({ question: text, answer: text })).nullish(),
  scheduled_event: z.object({ name: text, start_time: isoInstant, end_time: isoInstant }),
});

const inviteeRef = z.object({ uri: z.string().trim().min(1).max(500) });

type Invitee = z.output<typeof invitee>;

const clip = (value: string, max: number) => (value.length > max ? value.slice(0, max) : value);

/** First and last name: Calendly's own split when the event type collects them, else the full name split at its first space. */
export function inviteeNames(i: Pick<Invitee, 'name' | 'first_name' | 'last_name'>): { firstName: string; lastName: string } {
  const first = i.first_name?.trim();
  const last = i.last_name?.trim();
  if (first || last) return { firstName: clip(first || '', 100), lastName: clip(last || '', 100) };
  const full = (i.name ?? '').trim().replace(/\s+/g, ' ');
  const space = full.indexOf(' ');
  if (space < 0) return { firstName: clip(full, 100), lastName: '' };
  return { firstName: clip(full.slice(0, space), 100), lastName: clip(full.slice(space + 1), 100) };
}

/** The invitee's answers, one per line, under the event's name; at most the 2000 characters a booking's notes hold. */
export function inviteeNotes(i: Pick<Invitee, 'questions_and_answers' | 'scheduled_event'>): string {
  const lines = [`Booked through Calendly${i.scheduled_event.name ? `: ${i.scheduled_event.name.trim()}` : ''}`];
  for (const qa of i.questions_and_answers ?? []) {
    const question = qa.question?.trim();
    const answer = qa.answer?.trim();
    if (question || answer) lines.push(`${question || 'Answer'}: ${answer || '(no answer)'}`);
  }
  return clip(lines.join('\n'), 2000);
}

export type CalendlyOutcome = {
  status: 200 | 201;
  body: { received: true; outcome: 'created' | 'duplicate' | 'cancelled' | 'ignored'; appointmentId: string | null };
};

/** What the webhook uses. */
export type CalendlyDeps = Pick<Deps, 'database' | 'clock' | 'activity' | 'events' | 'secrets' | 'log' | 'integrations'>;

export function calendlyWebhooks(deps: CalendlyDeps) {
  const settings = calendarSyncRepository(deps.database);
  const appointments = appointmentsService(deps);
  const refuse = (err: HttpError, reason: string) => {
    // No personal data: the reason only.
    deps.log.warn('calendly webhook refused', { reason });
    return err;
  };

  /** The active Calendly integration's signing key, and its id (the calendar log names it). */
  async function signingKey(): Promise<{ key: string; integrationId: string }> {
    const setting = await settings.activeSetting();
    if (!setting || setting.provider !== 'calendly')
      throw refuse(notFound('No active Calendly integration accepts webhooks.'), 'no active calendly integration');
    // Opened for this check only (docs/decisions/015). A key that does not open verifies nothing:
    // refused, and the operator is told why (the sender hears only that it cannot be checked now).
    let config: string;
    try {
      config = openSecrets(deps.secrets, setting).config;
    } catch (err) {
      if (!(err instanceof UnreadableSecretError)) throw err;
      deps.log.error('calendly webhook signing key unreadable', { settingId: setting.id, err: err.message });
      throw new HttpError(503, `The Calendly integration's signing key cannot be read on this server, so no webhook can be verified.`);
    }
    let key: unknown;
    try {
      key = (JSON.parse(config) as { webhook_signing_key?: unknown }).webhook_signing_key;
    } catch {
      key = undefined;
    }
    if (typeof key !== 'string' || !key.trim()) {
      throw refuse(
        unauthorized('The Calendly integration has no webhook_signing_key in its configuration, so no webhook can be verified.'),
        'no signing key configured',
      );
    }
    return { key: key.trim(), integrationId: setting.id };
  }

  async function created(i: Invitee, integrationId: string): Promise<CalendlyOutcome> {
    const existing = await appointments.findByExternalEventId(i.uri);
    if (existing) return { status: 200, body: { received: true, outcome: 'duplicate', appointmentId: existing.id } };
    const start = i.scheduled_event.start_time;
    const minutes = Math.round((i.scheduled_event.end_time.getTime() - start.getTime()) / 60_000);
    if (minutes <= 0) throw badRequest('The scheduled event ends before it starts.');
    if (minutes > MAX_EVENT_MINUTES) throw badRequest('The scheduled event is longer than a day.');
    const recorded = await appointments.recordExternalBooking({
      ...inviteeNames(i),
      email: i.email,
      phone: i.text_reminder_number?.trim() ? clip(i.text_reminder_number.trim(), 40) : null,
      consultationType: CALENDLY_CONSULTATION_TYPE,
      practiceArea: CALENDLY_PRACTICE_AREA,
      notes: inviteeNotes(i),
      scheduledDate: start,
      duration: minutes,
      status: 'scheduled',
      reminderSent: false,
      externalEventId: i.uri,
    });
    // Not created: the same webhook, delivered at the same moment, got there first.
    const { row } = recorded;
    if (!recorded.created || !row) return { status: 200, body: { received: true, outcome: 'duplicate', appointmentId: row?.id ?? null } };
    // It already happened on Calendly, so it is kept; the firm must settle the overlap (decision 036).
    for (const other of recorded.overlapping) {
      await recordCalendarNotice(deps, {
        integrationId,
        provider: 'Calendly',
        kind: 'overlap',
        message: `A Calendly booking ("${clip(i.scheduled_event.name?.trim() || 'Calendly event', 80)}", ${whenLabel(row.scheduledDate)}, ${row.duration} minutes) landed on time already booked on the site (${consultationTypeLabel(other.consultationType)}, ${whenLabel(other.scheduledDate)}, ${other.duration} minutes). Both are kept; that time stays blocked until both are settled with the clients.`,
      });
    }
    // Announced as a booking made on the site is: the firm's notification and the other listeners.
    deps.log.info('calendly booking recorded', { appointmentId: row.id });
    return { status: 201, body: { received: true, outcome: 'created', appointmentId: row.id } };
  }

  async function canceled(uri: string): Promise<CalendlyOutcome> {
    const existing = await appointments.findByExternalEventId(uri);
    if (!existing) return { status: 200, body: { received: true, outcome: 'ignored', appointmentId: null } };
    try {
      // The admin's own path: the status changes and the slot claims go in one transaction.
      await appointments.setStatus(existing.id, 'cancelled');
    } catch (err) {
      // Completed already: a cancellation afterwards changes nothing.
      if (err instanceof HttpError && err.status === 409) return { status: 200, body: { received: true, outcome: 'ignored', appointmentId: existing.id } };
      throw err;
    }
    return { status: 200, body: { received: true, outcome: 'cancelled', appointmentId: existing.id } };
  }

  return {
    async receive(rawBody: string, signatureHeader: string | undefined): Promise<CalendlyOutcome> {
      const { key, integrationId } = await signingKey();
      const check = checkCalendlySignature(signatureHeader, rawBody, key, deps.clock.now());
      if (check === 'malformed') throw refuse(badRequest(`Missing or malformed ${CALENDLY_SIGNATURE_HEADER} header.`), check);
      if (check === 'stale') throw refuse(unauthorized('The webhook signature is too old (or from the future); it may be a replay.'), check);
      if (check === 'mismatch') throw refuse(unauthorized('The webhook signature does not match.'), check);

      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        throw badRequest('The webhook body is not JSON.');
      }
      // Names and answers become an appointment; text no database can hold is refused here
      // (a NUL made PostgreSQL fail the insert), as it is on every JSON route (api/http/validate.ts).
      const problem = textProblem(json);
      if (problem)
        throw badRequest(
          problem.kind === 'depth' ? 'Malformed request body: nested too deeply.' : `The webhook body holds text that cannot be stored (${UNSTORABLE_TEXT}).`,
        );
      const outer = envelope.safeParse(json);
      if (!outer.success) throw badRequest('The webhook has no event and payload.');
      if (outer.data.event === 'invitee.created') {
        const parsed = invitee.safeParse(outer.data.payload);
        if (!parsed.success) throw badRequest(`The invitee.created payload is missing ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}.`);
        return created(parsed.data, integrationId);
      }
      if (outer.data.event === 'invitee.canceled') {
        const parsed = inviteeRef.safeParse(outer.data.payload);
        if (!parsed.success) throw badRequest('The invitee.canceled payload has no invitee uri.');
        return canceled(parsed.data.uri);
      }
      // Other subscriptions (routing forms, no-shows) are acknowledged and left alone.
      return { status: 200, body: { received: true, outcome: 'ignored', appointmentId: null } };
    },
  };
}
