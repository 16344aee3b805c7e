/**
 * The booking modal's plain parts (SPEC §4 Booking modal, §5 Booking form, §8 booking toasts, §9
 * consultation types): what step 1 chooses, what step 2's fields hold, the request body, how a
 * failure is told apart, and the confirmation's wording. The validation (zod) lives in
 * ./booking-form.schema.ts, loaded once the modal is open.
 */
import { ApiError } from '../../lib/api-client.ts';
import { firm, firmAddressLine } from '../../config/firm.ts';
import { bookingMessages } from '../../shared/booking/availability.ts';
import { addToCalendarLinks, bookingReference, manageBookingHref, visitorTimeLabel } from '../../shared/booking/self-service.ts';
import { FIRM_TIME_ZONE, firmInstant, longDateLabel, timeWithZoneLabel, type FirmDate } from '../../shared/firm-time.ts';
import {
  bookingPracticeAreas,
  consultationMinutes,
  consultationTypeLabel,
  consultationTypes,
  practiceAreaLabels,
  type ConsultationType,
} from '../../shared/constants.ts';
import type { AppointmentInput } from '../../shared/schemas/appointments.ts';
import type { BookingFormOutput } from './booking-form.schema.ts';

/** Step 1: nothing is chosen until the visitor chooses it (SPEC §5: Continue waits for all three). */
export interface BookingChoice {
  consultationType: ConsultationType | null;
  date: FirmDate | null;
  /** Firm wall-clock time, '09:00'. */
  time: string | null;
}

export const emptyChoice = (): BookingChoice => ({ consultationType: null, date: null, time: null });

export const canContinue = (choice: BookingChoice): boolean => Boolean(choice.consultationType && choice.date && choice.time);

/**
 * Step 2's fields, plus the two values step 1 decides (set just before validation), so one schema,
 * the API's, checks the whole request.
 */
export interface BookingFormValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  practiceArea: string;
  notes: string;
  consultationType: string;
  scheduledDate: string;
}

export function emptyBookingForm(): BookingFormValues {
  return { firstName: '', lastName: '', email: '', phone: '', practiceArea: '', notes: '', consultationType: '', scheduledDate: '' };
}

/** The fields step 2 shows, in its order (the first invalid one takes the focus). */
export const detailFields = ['firstName', 'lastName', 'email', 'phone', 'practiceArea', 'notes'] as const;
export type DetailField = (typeof detailFields)[number];

/** SPEC §9 with the minutes beside each type: 'Initial Consultation (30 min)'. */
export const consultationTypeOptions = consultationTypes.map((t) => ({ value: t.value, label: `${t.label} (${t.minutes} min)`, minutes: t.minutes }));

export { consultationTypeLabel };

/** SPEC §9 booking practice areas, with readable labels. */
export const bookingPracticeAreaOptions = bookingPracticeAreas.map((value) => ({ value, label: practiceAreaLabels[value] ?? value }));

/** The UTC instant of the chosen firm time (stored in UTC), or '' while date or time is missing. */
export function scheduledDateOf(choice: BookingChoice): string {
  return choice.date && choice.time ? firmInstant(choice.date, choice.time).toISOString() : '';
}

/** The request body of POST /api/appointments (SPEC §7 lists every field); the duration follows the type. */
export function toAppointmentPayload(values: BookingFormOutput): AppointmentInput {
  return {
    firstName: values.firstName,
    lastName: values.lastName,
    email: values.email,
    phone: values.phone,
    consultationType: values.consultationType,
    practiceArea: values.practiceArea,
    notes: values.notes,
    scheduledDate: values.scheduledDate.toISOString(),
    duration: consultationMinutes(values.consultationType),
    status: 'scheduled',
    reminderSent: false,
  };
}

/**
 * SPEC §8's booking messages, titled as its toasts are. The modal says them itself, where the visitor
 * acts next (the confirmation step, the time, the form): a toast over the dialog covered Book
 * Another and Done on a phone and took the first Escape (issue 18; docs/decisions/025).
 */
export const bookingOutcomes = {
  success: { title: 'Consultation Scheduled!', description: "We'll send you a confirmation email with all the details." },
  failure: { title: 'Booking Failed', description: 'Please try again or call us directly at the office phone number.' },
  missing: { title: 'Missing Information', description: 'Please select a date and time for your consultation.' },
} as const;

export type BookingFailure =
  /** The time cannot be had (409 taken, or the server's 400 on scheduledDate: past, weekend...): choose another. */
  | { kind: 'time'; message: string }
  /** The server refused some of step 2's fields. */
  | { kind: 'fields'; fields: [DetailField, string][] }
  | { kind: 'other' };

/** What a failed POST means for the visitor. */
export function bookingFailure(err: unknown): BookingFailure {
  if (!(err instanceof ApiError)) return { kind: 'other' };
  const { error, fields } = err.details;
  if (err.status === 409) return { kind: 'time', message: error || bookingMessages.taken };
  if (err.status === 400 && fields) {
    if (fields.scheduledDate) return { kind: 'time', message: fields.scheduledDate };
    const known = Object.entries(fields).filter((entry): entry is [DetailField, string] => (detailFields as readonly string[]).includes(entry[0]));
    if (known.length) return { kind: 'fields', fields: known };
  }
  return { kind: 'other' };
}

/** Step 3: what was booked, as the server stored it. */
export interface BookedConsultation {
  /** The booking reference to quote (self-service.ts). */
  reference: string;
  type: string;
  date: string;
  time: string;
  /** The same time in the visitor's own zone, when it is not the firm's. */
  localTime: string | null;
  duration: string;
  name: string;
  email: string;
  calendarLinks: { google: string; outlook: string };
  /** The booking's own page, to reschedule or cancel it (self-service). */
  manageHref: string;
}

export function bookedConsultation(
  booked: { id: string; consultationType: string; scheduledDate: string; duration: number; manageToken: string },
  person: { firstName: string; lastName: string; email: string },
  visitorZone: string = Intl.DateTimeFormat().resolvedOptions().timeZone,
): BookedConsultation {
  const start = new Date(booked.scheduledDate);
  const type = consultationTypeLabel(booked.consultationType);
  const reference = bookingReference(booked.id);
  const manageHref = manageBookingHref(booked.manageToken);
  const manageUrl = typeof window === 'undefined' ? manageHref : new URL(manageHref, window.location.origin).href;
  return {
    reference,
    type,
    date: longDateLabel(start),
    time: timeWithZoneLabel(start),
    localTime: visitorTimeLabel(start, visitorZone, FIRM_TIME_ZONE),
    duration: `${booked.duration} minutes`,
    name: `${person.firstName} ${person.lastName}`,
    email: person.email,
    calendarLinks: addToCalendarLinks({
      title: `${type} with ${firm.name}`,
      start,
      minutes: booked.duration,
      location: `${firm.name}, ${firmAddressLine}`,
      details: `Booking reference ${reference}. To reschedule or cancel: ${manageUrl} or call ${firm.phone}.`,
    }),
    manageHref,
  };
}
