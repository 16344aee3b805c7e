import { z } from 'zod';
import { extraVariants, isColourKey, isHslTriplet, isRadius, type ExtraVariant } from '../theme-variables.ts';
import { isSlug } from '../slug.ts';
import { requiredText } from './fields.ts';

/** Without these a palette is not a theme: the page, its text and its buttons. */
const requiredColours = ['background', 'foreground', 'primary', 'primary-foreground'] as const;
const variantNames: Record<ExtraVariant, string> = { dark: 'Dark', warm: 'Warm' };

/**
 * Theme variables (SPEC §3; decision 031): the light palette and the radius at the top level, and
 * optionally a `dark` and a `warm` palette (objects of colours; the radius is shared). Every key a
 * known variable, every colour an HSL triplet ("222.2 47.4% 11.2%", nothing that could break out of
 * CSS), each palette with its required colours. A variant's unset colours are the light ones.
 */
export const themeVariables = z.record(z.string(), z.unknown()).superRefine((vars, ctx) => {
  const colours = (palette: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(palette)) {
      if (!isColourKey(key)) ctx.addIssue({ code: 'custom', message: `Unknown theme variable "${(prefix + key).slice(0, 40)}"`, path: [prefix + key] });
      else if (!isHslTriplet(value))
        ctx.addIssue({ code: 'custom', message: `${prefix}${key} must be an HSL triplet such as "222 47% 11%"`, path: [prefix + key] });
    }
  };
  const light: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(vars)) {
    if (key === 'radius') {
      if (!isRadius(value)) ctx.addIssue({ code: 'custom', message: 'radius must be between 0.125rem and 0.875rem', path: [key] });
    } else if ((extraVariants as readonly string[]).includes(key)) {
      const name = variantNames[key as ExtraVariant];
      if (!value || typeof value !== 'object' || Array.isArray(value)) {
        ctx.addIssue({ code: 'custom', message: `${key} must be an object of colours (the ${name} variant)`, path: [key] });
        continue;
      }
      const palette = value as Record<string, unknown>;
      colours(palette, `${key}.`);
      for (const required of requiredColours) {
        if (!(required in palette))
          ctx.addIssue({ code: 'custom', message: `${key}.${required} is required in the ${name} variant`, path: [`${key}.${required}`] });
      }
    } else light[key] = value;
  }
  colours(light, '');
  for (const key of requiredColours) {
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
  cssVariables: z.union([z.record(z.string(), z.unknown()), z.string().max(10_000)]),
});
export type ThemeFile = z.output<typeof themeFile>;
