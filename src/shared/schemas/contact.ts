import { z } from 'zod';
import { contactPracticeAreas } from '../constants.ts';
import { email, phone, requiredText } from './fields.ts';
import { honeypotField } from './honeypot.ts';

/**
 * POST /api/contact (SPEC §7, §5 Contact form). Every field is bounded: a message of 5,000
 * characters is a long letter, and the whole body stays far below the API's 64 KB limit.
 */
export const contactInput = z.object({
  firstName: requiredText('First name', 100),
  lastName: requiredText('Last name', 100),
  email,
  phone,
  practiceArea: z.enum(contactPracticeAreas, { error: 'Please choose a practice area' }),
  message: requiredText('Message', 5000),
  // Empty from a person; a bot's message is answered 201 and kept nowhere.
  website: honeypotField,
});
/** What a message holds (the honeypot is the form's trap, not part of the message). */
export type ContactInput = Omit<z.input<typeof contactInput>, 'website'>;
