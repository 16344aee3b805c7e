/** Field builders shared by every payload schema, so messages and bounds read the same everywhere. */
import { z } from 'zod';

export const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/** Optional text: blank or missing becomes null (SPEC §3 "null if blank"). */
export const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

export const email = z
  .string({ error: 'Email is required' })
  .trim()
  .max(254, 'Email must be at most 254 characters')
  .pipe(z.email('Please enter a valid email address'));

export const optionalEmail = z
  .string()
  .trim()
  .nullish()
  .transform((v) => (v ? v : null))
  .pipe(z.email('Please enter a valid email address').max(254, 'Email must be at most 254 characters').nullable());

export const phone = z
  .string({ error: 'Phone must be text' })
  .trim()
  .max(40, 'Phone must be at most 40 characters')
  .regex(/^[0-9+().\-\s]*(?:(?:ext\.?|x)\s*\d+)?$/i, 'Please enter a valid phone number')
  .nullish()
  .transform((v) => (v ? v : null));

export const httpUrl = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(2048, `${label} must be at most 2048 characters`)
    .refine((v) => /^https?:\/\//i.test(v) && URL.canParse(v), `${label} must be a valid http(s) URL`);

export const optionalHttpUrl = (label: string) =>
  z
    .string()
    .trim()
    .max(2048, `${label} must be at most 2048 characters`)
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || (/^https?:\/\//i.test(v) && URL.canParse(v)), `${label} must be a valid http(s) URL`);

/** A date given as an ISO string or a Date (SPEC §3: "a date or a string converted to a date"). */
export const dateInput = (label: string) =>
  z.union([z.string().trim().min(1, `${label} is required`), z.date()], { error: `${label} is required` }).transform((v, ctx) => {
    const d = v instanceof Date ? v : new Date(v);
    if (Number.isNaN(d.getTime())) {
      ctx.addIssue({ code: 'custom', message: `${label} must be a valid date` });
      return z.NEVER;
    }
    return d;
  });

/**
 * Money: decimal with up to 12 digits and 2 places (SPEC §3), as a string, never a float.
 * Normalised to two places ("1200" -> "1200.00") so both dialects store and return the same text.
 */
export const money = (label: string) =>
  z
    .union([z.string(), z.number()], { error: `${label} is required` })
    .transform((v) => String(v).trim())
    // Thousands separators only where they belong ("1,250,000"), never "1,2,3".
    .refine((v) => /^(\d+|\d{1,3}(,\d{3})+)(\.\d{1,2})?$/.test(v), `${label} must be an amount with at most 2 decimals`)
    .transform((v) => v.replace(/,/g, ''))
    .refine((v) => /^\d{1,10}(\.\d{1,2})?$/.test(v), `${label} must be at most 9,999,999,999.99`)
    .transform(normalizeMoney);

export function normalizeMoney(v: string): string {
  const [whole = '0', frac = ''] = v.split('.');
  return `${BigInt(whole).toString()}.${(frac + '00').slice(0, 2)}`;
}

/** JSON text holding an object (configs, theme variables). */
export const jsonObjectText = (label: string, max = 20_000) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine((v) => {
      try {
        const parsed: unknown = JSON.parse(v);
        return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
      } catch {
        return false;
      }
    }, `${label} must be a JSON object`);

export const idParam = z.object({ id: z.string().min(1).max(64) });
