import { z } from 'zod';
import { parseHsl, themeColorKeys } from '../theme-templates.ts';
import { isSlug } from '../slug.ts';
import { requiredText } from './fields.ts';

/**
 * An HSL triplet as the templates use it ("222.2 47.4% 11.2%"): nothing that could break out of CSS.
 * parseHsl adds the ranges (hue up to 360, percentages up to 100).
 */
const hslTriplet = /^\d{1,3}(\.\d+)?\s+\d{1,3}(\.\d+)?%\s+\d{1,3}(\.\d+)?%$/;
const radius = /^(0?\.\d+|0|1)rem$/;

/** Theme variables: every key a known variable with a safe value; colours are HSL triplets. */
export const themeVariables = z.record(z.string(), z.string()).superRefine((vars, ctx) => {
  for (const [key, value] of Object.entries(vars)) {
    if (key === 'radius') {
      const rem = radius.test(value) ? Number.parseFloat(value) : Number.NaN;
      if (!(rem >= 0.125 && rem <= 0.875)) ctx.addIssue({ code: 'custom', message: 'radius must be between 0.125rem and 0.875rem', path: [key] });
    } else if (!(themeColorKeys as readonly string[]).includes(key)) {
      ctx.addIssue({ code: 'custom', message: `Unknown theme variable "${key.slice(0, 40)}"`, path: [key] });
    } else if (!hslTriplet.test(value) || !parseHsl(value)) {
      ctx.addIssue({ code: 'custom', message: `${key} must be an HSL triplet such as "222 47% 11%"`, path: [key] });
    }
  }
  for (const key of ['background', 'foreground', 'primary', 'primary-foreground'] as const) {
    if (!(key in vars)) ctx.addIssue({ code: 'custom', message: `${key} is required`, path: [key] });
  }
});

/** cssVariables travels as a JSON string (SPEC §7) holding the variables object. */
export const cssVariablesText = z
  .string({ error: 'Theme variables are required' })
  .max(10_000, 'Theme variables are too long')
  .transform((text, ctx) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'Theme variables must be valid JSON' });
      return z.NEVER;
    }
    const result = themeVariables.safeParse(parsed);
    if (!result.success) {
      ctx.addIssue({ code: 'custom', message: result.error.issues[0]?.message ?? 'Invalid theme variables' });
      return z.NEVER;
    }
    return JSON.stringify(result.data);
  });

/** POST /api/admin/themes. */
export const themeInput = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(80, 'Name must be at most 80 characters')
    .refine(isSlug, 'Name must be URL-friendly: lowercase letters, digits and hyphens'),
  displayName: requiredText('Display name', 80),
  description: z.string().trim().max(500, 'Description must be at most 500 characters').default(''),
  cssVariables: cssVariablesText,
  isActive: z.boolean().default(false),
  isDefault: z.boolean().default(false),
});
export type ThemeInput = z.input<typeof themeInput>;

/** PUT /api/admin/themes/:id (issue 19): what an installed theme's edit changes. Its name is its identity and stays. */
export const themeUpdateInput = themeInput.pick({ displayName: true, cssVariables: true }).extend({
  // Left out, the description stays as it is (not wiped to '').
  description: z.string().trim().max(500, 'Description must be at most 500 characters').optional(),
});

/**
 * SPEC §4 Theme import / §9 export: the file holds displayName, description and cssVariables (an
 * object of variables, or that object as JSON text). Only the file's shape is checked here; the
 * variables themselves are checked by themeInput in the dialog the admin reviews before saving, where
 * each problem can be shown and fixed instead of refusing the whole file.
 */
export const themeFile = z.object({
  displayName: requiredText('Display name', 80),
  description: z.string().max(500).default(''),
  cssVariables: z.union([z.record(z.string(), z.string()), z.string().max(10_000)]),
});
export type ThemeFile = z.output<typeof themeFile>;
