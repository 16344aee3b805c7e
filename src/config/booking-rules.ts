/**
 * The firm's booking rules (src/shared/booking/rules.ts): the defaults, SPEC §9's 13 weekday slots
 * with the noon hour closed, closed on the federal and California court holidays, two hours' notice,
 * a year ahead. Declared here with the firm's other facts until the admin edits them (issue 19).
 * Safe for the browser: the booking modal judges days with the same rules as the server.
 */
import { type BookingRules, defaultBookingRules } from '../shared/booking/rules.ts';

export const bookingRules: BookingRules = defaultBookingRules;
