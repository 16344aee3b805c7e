/**
 * The booking form's validation: the payload schema of POST /api/appointments itself (one source of
 * validation). Loaded by the modal once it is open (zod is the bulk of this JavaScript), so opening
 * the modal does not wait for it.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { appointmentInput } from '../../shared/schemas/appointments.ts';
import type { BookingFormValues } from './booking-form.ts';

export type BookingFormOutput = z.output<typeof appointmentInput>;

// The schema's input says what a valid request holds; the fields hold what a visitor typed so far.
export const bookingFormResolver = zodResolver(appointmentInput) as unknown as Resolver<BookingFormValues, unknown, BookingFormOutput>;
