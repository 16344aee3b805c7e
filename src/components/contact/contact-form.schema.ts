/**
 * The contact form's validation: the payload schema of POST /api/contact (one source of validation)
 * plus the privacy-policy consent, which only the form asks for. Loaded on demand by the island
 * (zod is the bulk of its JavaScript), so the page's first load stays small.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import { z } from 'zod';
import { contactInput } from '../../shared/schemas/contact.ts';
import type { ContactFormValues } from './contact-form.ts';

export const CONSENT_REQUIRED = 'Please agree to the privacy policy to send your message';

export const contactFormSchema = contactInput.extend({
  consent: z.literal(true, { error: CONSENT_REQUIRED }),
});
export type ContactFormOutput = z.output<typeof contactFormSchema>;

// The schema's input type says what a valid form holds (a chosen practice area, consent true); the
// fields hold what a visitor may have typed so far.
export const contactFormResolver = zodResolver(contactFormSchema) as unknown as Resolver<ContactFormValues, unknown, ContactFormOutput>;
