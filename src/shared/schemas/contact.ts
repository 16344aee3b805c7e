import { z } from 'zod';
import { contactPracticeAreas } from '../constants.ts';
import { email, phone, requiredText } from './fields.ts';

/** POST /api/contact (SPEC §7, §5 Contact form). */
export const contactInput = z.object({
  firstName: requiredText('First name', 100),
  lastName: requiredText('Last name', 100),
  email,
  phone,
  practiceArea: z.enum(contactPracticeAreas, { error: 'Please choose a practice area' }),
  message: requiredText('Message', 5000),
});
export type ContactInput = z.input<typeof contactInput>;
