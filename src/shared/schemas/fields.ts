/** Field builders shared by every payload schema, so messages and bounds read the same everywhere. */
import { z } from 'zod';

// No eval (docs/decisions/012) in the browser. zod probes `new Function` once to pick its
// compiled parsers; the site's Content-Security-Policy refuses it, and the browser reports the refusal
// as a violation. The server keeps the compiled parsers.
if (typeof document !== 'undefined') z.config({ jitless: true });

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

/** An address a visitor is sent to (a review page): https only, a real host, no credentials. */
export const httpsUrl = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(2048, `${label} must be at most 2048 characters`)
    .refine((v) => {
      const url = URL.canParse(v) ? new URL(v) : null;
      return !!url && /^https:\/\//i.test(v) && url.hostname.includes('.') && !url.username && !url.password;
    }, `${label} must be an https:// address, e.g. https://www.google.com/maps/...`);

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

/** Configs are a few levels deep; deeper JSON is refused (and withheld when read back: api/crypto/secret-masking.ts). */
export const MAX_JSON_DEPTH = 32;

/** How deeply a parsed JSON value nests (a scalar is 0), without recursion: a "JSON bomb" of 10,000 levels must not exhaust the stack. */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    for (const item of Array.isArray(v) ? v : Object.values(v)) stack.push([item, depth + 1]);
  }
  return deepest;
}

/** JSON text holding an object (configs, theme variables). */
export const jsonObjectText = (label: string, max = 20_000) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .superRefine((v, ctx) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(v);
      } catch {
        parsed = undefined;
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) ctx.addIssue({ code: 'custom', message: `${label} must be a JSON object` });
      else if (jsonDepth(parsed) > MAX_JSON_DEPTH) ctx.addIssue({ code: 'custom', message: `${label} is nested too deeply` });
    });

export const idParam = z.object({ id: z.string().min(1).max(64) });
