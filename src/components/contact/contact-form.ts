/**
 * The contact form's plain parts (SPEC §5 Contact form, §9 contact list): values, practice-area
 * options, the ?service= preselection and the request body. The validation (zod) lives in
 * ./contact-form.schema.ts, which the island loads once a visitor starts filling the form in.
 */
import { contactPracticeAreas, practiceAreaLabels } from '../../shared/constants.ts';
import type { ContactInput } from '../../shared/schemas/contact.ts';
import type { ContactFormOutput } from './contact-form.schema.ts';

/** What the fields hold: text, and a practice area still '' until one is chosen. */
export interface ContactFormValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  practiceArea: string;
  message: string;
  consent: boolean;
}

export type ContactPracticeArea = (typeof contactPracticeAreas)[number];

/** SPEC §9 contact list, with readable labels. */
export const practiceAreaOptions = contactPracticeAreas.map((value) => ({ value, label: practiceAreaLabels[value] ?? value }));

/** `?service=estate-planning` preselects that practice area; unknown values are ignored. */
export function serviceFromQuery(search: string): ContactPracticeArea | null {
  const service = new URLSearchParams(search).get('service');
  return (contactPracticeAreas as readonly string[]).includes(service ?? '') ? (service as ContactPracticeArea) : null;
}

export function emptyContactForm(practiceArea: ContactPracticeArea | null = null): ContactFormValues {
  return { firstName: '', lastName: '', email: '', phone: '', practiceArea: practiceArea ?? '', message: '', consent: false };
}

/** The request body: the consent is the form's, not the API's. */
export function toContactPayload({ consent: _consent, ...payload }: ContactFormOutput): ContactInput {
  return payload;
}

/** Field messages the API sent back with a 400 (`{ error, fields }`), for the fields the form has. */
export function fieldErrorsFrom(fields: Record<string, string> | undefined): [keyof ContactFormValues, string][] {
  if (!fields) return [];
  const known = Object.keys(emptyContactForm()) as (keyof ContactFormValues)[];
  return Object.entries(fields).filter((entry): entry is [keyof ContactFormValues, string] => known.includes(entry[0] as keyof ContactFormValues));
}
