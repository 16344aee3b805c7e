import { z } from 'zod';
import { isFirmDate } from '../firm-time.ts';
import { appointmentStatuses, bookingPracticeAreas, consultationTypeValues } from '../constants.ts';
import { email, optionalText, phone, requiredText } from './fields.ts';
import { honeypotField } from './honeypot.ts';

/**
 * The consultation's start (SPEC §3: a date, or a string converted to a date). A string must be an
 * ISO 8601 date-time with its offset ("2030-05-06T17:30:00.000Z", what JSON makes of a Date, or
 * "...T10:30:00-07:00"): without one the instant would depend on the server's time zone, and
 * `new Date()` alone also accepts "5" (year 2001) and rolls "02-30" over into March.
 */
const isoDateTime = z.iso.datetime({ offset: true });
const scheduledDate = z.union([z.string(), z.date()], { error: 'Date and time is required' }).transform((value, ctx) => {
  const text = typeof value === 'string' ? value.trim() : null;
  if (text === '') {
    ctx.addIssue({ code: 'custom', message: 'Date and time is required' });
    return z.NEVER;
  }
  if (text !== null && !isoDateTime.safeParse(text).success) {
    ctx.addIssue({ code: 'custom', message: 'Date and time must be an ISO 8601 date-time with a time zone offset' });
    return z.NEVER;
  }
  const date = text === null ? (value as Date) : new Date(text);
  if (Number.isNaN(date.getTime())) {
    ctx.addIssue({ code: 'custom', message: 'Date and time must be a valid date' });
    return z.NEVER;
  }
  return date;
});

/**
 * POST /api/appointments (SPEC §7). The public may only create a scheduled appointment with no
 * reminder sent; the duration follows the consultation type and is set by the server.
 */
export const appointmentInput = z.object({
  firstName: requiredText('First name', 100),
  lastName: requiredText('Last name', 100),
  email,
  phone,
  consultationType: z.enum(consultationTypeValues, { error: 'Please choose a consultation type' }),
  practiceArea: z.enum(bookingPracticeAreas, { error: 'Please choose a practice area' }),
  notes: optionalText('Notes', 2000),
  scheduledDate,
  // SPEC §9: the server sets the duration from the consultation type, so whatever is sent is ignored
  // (and never the reason a booking fails).
  duration: z.number().optional().catch(undefined),
  status: z.literal('scheduled', { error: 'A new appointment is always scheduled' }).default('scheduled'),
  reminderSent: z.literal(false, { error: 'A new appointment has no reminder sent' }).default(false),
  // Empty from a person; a bot's booking is answered 201 and takes no slot.
  website: honeypotField,
});
/** What a booking holds (the honeypot is the form's trap, not part of the booking). */
export type AppointmentInput = Omit<z.input<typeof appointmentInput>, 'website'>;

/** PUT /api/admin/appointments/{id}. */
export const appointmentStatusUpdate = z.object({
  status: z.enum(appointmentStatuses, { error: 'Status must be scheduled, confirmed, cancelled or completed' }),
  /** Issue 19: with a cancellation, why (told to the visitor in the cancellation e-mail). */
  reason: optionalText('Reason', 500),
});

/**
 * GET /api/appointments/availability?date=YYYY-MM-DD&consultationType=…. The date is a day
 * in the firm's zone and must exist ('2030-02-30' does not); the type decides how long a free stretch
 * must be, and defaults to the initial consultation.
 */
export const availabilityQuery = z.object({
  date: z
    .string({ error: 'Please choose a date' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Date must be written YYYY-MM-DD')
    .refine(isFirmDate, 'Date must be a real calendar date'),
  consultationType: z.enum(consultationTypeValues, { error: 'Please choose a consultation type' }).default('initial'),
});
export type AvailabilityQuery = z.input<typeof availabilityQuery>;

/** POST /api/appointments/manage/reschedule (self-service, issue 18): the new start. */
export const rescheduleInput = z.object({ scheduledDate });

/** GET /api/appointments/manage/availability?date=YYYY-MM-DD: the type is the booking's own. */
export const manageAvailabilityQuery = availabilityQuery.pick({ date: true });
