/**
 * The honeypot of the public forms (docs/decisions/013-abuse-limits.md): one more text field
 * in the contact form, the booking modal's details step and the calculator's save, which no person
 * sees, reaches by Tab or hears from a screen reader, but which a script filling in every input fills.
 * The API answers a request with it filled exactly like a success and keeps nothing.
 *
 * No zod here: the islands import the name without loading their validation early.
 */
export const HONEYPOT_FIELD = 'website';

/** The field's value as the request sends it; `{}` (nothing sent) while it is empty, as a person leaves it. */
export function honeypotValue(value: string | null | undefined): { [HONEYPOT_FIELD]?: string } {
  return value ? { [HONEYPOT_FIELD]: value } : {};
}
