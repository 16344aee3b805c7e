import { z } from 'zod';
import { appointmentStatuses, bookingPracticeAreas, consultationTypeValues } from '../constants.ts';
import { dateInput, email, optionalText, phone, requiredText } from './fields.ts';

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
  scheduledDate: dateInput('Date and time'),
  duration: z.number().int().positive().optional(),
  status: z.literal('scheduled', { error: 'A new appointment is always scheduled' }).default('scheduled'),
  reminderSent: z.literal(false, { error: 'A new appointment has no reminder sent' }).default(false),
});
export type AppointmentInput = z.input<typeof appointmentInput>;

/** PUT /api/admin/appointments/{id}. */
export const appointmentStatusUpdate = z.object({
  status: z.enum(appointmentStatuses, { error: 'Status must be scheduled, confirmed, cancelled or completed' }),
});
