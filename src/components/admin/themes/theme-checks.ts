/**
 * What the Themes screen shows about a theme's variables (SPEC §3 Theme variables): every problem
 * with them at once (the shared schema decides what is valid, as on the server), the SPEC §3
 * variables left unset, contrast below WCAG AA per variant, the colour previews of the gallery and
 * list (SPEC §9: first 4 colour variables, 6 in the list), the gallery's search and category filter,
 * and the editor's changes to the variables' JSON (a colour of one variant, a variant added or
 * removed: decision 031).
 */
import { themeVariables } from '../../../shared/schemas/themes.ts';
import { themeContrastPairs, type ThemeCategory, type ThemeTemplate } from '../../../shared/theme-templates.ts';
import {
  contrastRatio,
  extraVariants,
  parseHsl,
  themeColorKeys,
  themeVariants,
  type ExtraVariant,
  type ThemeColorKey,
  type ThemeVariant,
} from '../../../shared/theme-variables.ts';
import { formatVariables, parseVariables, type VariablesObject } from './theme-file.ts';

/** SPEC §9: colour previews per card. */
export const GALLERY_SWATCHES = 4;
export const LIST_SWATCHES = 6;

export const allVariableNames: readonly string[] = [...themeColorKeys, 'radius'];

/** Every reason the JSON text is not a valid set of theme variables; empty when it is. */
export function variableProblems(text: string): string[] {
  if (!text.trim()) return ['Theme variables are required'];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return ['Theme variables must be valid JSON'];
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return ['Theme variables must be a JSON object of "name": "value" pairs'];
  const result = themeVariables.safeParse(parsed);
  return result.success ? [] : [...new Set(result.error.issues.map((issue) => issue.message))];
}

/** SPEC §3 variables the theme leaves unset: the site keeps its own value for those. */
export function missingVariables(variables: VariablesObject): string[] {
  return allVariableNames.filter((name) => !(name in variables));
}

/** The light colours (and radius) of a variables object: its text values. */
export function lightVariables(variables: VariablesObject): Record<string, string> {
  return Object.fromEntries(Object.entries(variables).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** The variants a variables object defines, light first. */
export function variantsOf(variables: VariablesObject): ThemeVariant[] {
  return themeVariants.filter((v) => v === 'light' || typeof variables[v] === 'object');
}

/** The colours a variant shows: its own over the light ones (a variant's unset colours are the light ones). */
export function variantColours(variables: VariablesObject, variant: ThemeVariant): Record<string, string> {
  const light = lightVariables(variables);
  const own = variant === 'light' ? undefined : variables[variant];
  return typeof own === 'object' ? { ...light, ...own } : light;
}

export interface ContrastWarning {
  text: string;
  surface: string;
  ratio: number;
  minimum: number;
}

/** Pairs below their WCAG 2.2 AA minimum (only pairs whose both colours are set and valid), of one palette. */
export function contrastWarnings(variables: Record<string, string>): ContrastWarning[] {
  const warnings: ContrastWarning[] = [];
  for (const [text, surface, minimum] of themeContrastPairs) {
    const a = variables[text];
    const b = variables[surface];
    if (!a || !b || !parseHsl(a) || !parseHsl(b)) continue;
    const ratio = contrastRatio(a, b);
    if (ratio < minimum) warnings.push({ text, surface, ratio: Math.floor(ratio * 100) / 100, minimum });
  }
  return warnings;
}

export interface Swatch {
  name: string;
  value: string;
  /** A CSS colour, or undefined when the value is not a valid HSL triplet (nothing is painted). */
  css: string | undefined;
}

/** The first `count` colour variables in the theme's own order (SPEC §9), with their names (light colours: variants are not listed). */
export function colourSwatches(variables: VariablesObject, count: number): Swatch[] {
  return Object.entries(lightVariables(variables))
    .filter(([name]) => name !== 'radius')
    .slice(0, count)
    .map(([name, value]) => ({ name, value, css: cssColour(value) }));
}

export function cssColour(value: string | undefined): string | undefined {
  return value && parseHsl(value) ? `hsl(${value.trim()})` : undefined;
}

/** The variables of a stored theme (an empty set when the stored text is not an object). */
export function storedVariables(cssVariables: string): VariablesObject {
  return parseVariables(cssVariables) ?? {};
}

// ---------------------------------------------------------------------------------------------
// The editor's changes to the variables' JSON text. Each takes the text and gives the new text; the
// text stays the one value of the form, so the pickers, the JSON and the import and export agree.

/** The order the editor writes: the light colours, radius, anything else the admin typed, then the variants. */
function ordered(variables: VariablesObject): VariablesObject {
  const known = [...themeColorKeys, 'radius'] as string[];
  const out: VariablesObject = {};
  for (const key of known) if (key in variables) out[key] = variables[key]!;
  for (const [key, value] of Object.entries(variables)) if (!known.includes(key) && !(extraVariants as readonly string[]).includes(key)) out[key] = value;
  for (const variant of extraVariants) if (variant in variables) out[variant] = variables[variant]!;
  return out;
}

/** Sets one colour (or the radius, for light) of one variant; '' unsets it. The text unchanged when it is not a variables object. */
export function withVariable(text: string, variant: ThemeVariant, key: ThemeColorKey | 'radius', value: string): string {
  const variables = parseVariables(text);
  if (!variables) return text;
  const next: VariablesObject = { ...variables };
  if (variant === 'light') {
    if (value === '') delete next[key];
    else next[key] = value;
  } else {
    const own = typeof next[variant] === 'object' ? { ...(next[variant] as Record<string, string>) } : {};
    if (value === '') delete own[key];
    else own[key] = value;
    next[variant] = own;
  }
  return formatVariables(ordered(next));
}

/**
 * Adds a variant, starting from the light colours: for dark, each with its lightness turned over
 * (a light background becomes a dark one, dark text light), which keeps most pairs' contrast; for
 * warm, as they are. The admin then adjusts it; the contrast warnings say what still needs work.
 */
export function withVariant(text: string, variant: ExtraVariant): string {
  const variables = parseVariables(text);
  if (!variables) return text;
  const light = lightVariables(variables);
  const colours: Record<string, string> = {};
  for (const key of themeColorKeys) {
    const hsl = light[key] ? parseHsl(light[key]) : undefined;
    if (!hsl) continue;
    colours[key] = variant === 'dark' ? `${hsl.h} ${hsl.s}% ${Math.round((100 - hsl.l) * 10) / 10}%` : light[key]!;
  }
  return formatVariables(ordered({ ...variables, [variant]: colours }));
}

/** Removes a variant: visitors are then no longer offered it. */
export function withoutVariant(text: string, variant: ExtraVariant): string {
  const variables = parseVariables(text);
  if (!variables) return text;
  const { [variant]: _removed, ...rest } = variables;
  return formatVariables(ordered(rest));
}

export type CategoryFilter = ThemeCategory | 'all';

/** The gallery's search (display name, name or description) and category filter. */
export function filterTemplates(templates: readonly ThemeTemplate[], search: string, category: CategoryFilter): ThemeTemplate[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return templates.filter((template) => {
    if (category !== 'all' && template.category !== category) return false;
    const haystack = `${template.displayName} ${template.name} ${template.description}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}
