/**
 * What the Themes screen shows about a theme's variables (SPEC §3 Theme variables): every problem
 * with them at once (the shared schema decides what is valid, as on the server), the SPEC §3
 * variables left unset, contrast below WCAG AA, the colour previews of the gallery and list (SPEC §9:
 * first 4 colour variables, 6 in the list), and the gallery's search and category filter.
 */
import { themeVariables } from '../../../shared/schemas/themes.ts';
import { contrastRatio, parseHsl, themeColorKeys, themeContrastPairs, type ThemeCategory, type ThemeTemplate } from '../../../shared/theme-templates.ts';
import { parseVariables } from './theme-file.ts';

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
export function missingVariables(variables: Record<string, string>): string[] {
  return allVariableNames.filter((name) => !(name in variables));
}

export interface ContrastWarning {
  text: string;
  surface: string;
  ratio: number;
  minimum: number;
}

/** Pairs below their WCAG 2.2 AA minimum (only pairs whose both colours are set and valid). */
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

/** The first `count` colour variables in the theme's own order (SPEC §9), with their names. */
export function colourSwatches(variables: Record<string, string>, count: number): Swatch[] {
  return Object.entries(variables)
    .filter(([name]) => name !== 'radius')
    .slice(0, count)
    .map(([name, value]) => ({ name, value, css: cssColour(value) }));
}

export function cssColour(value: string | undefined): string | undefined {
  return value && parseHsl(value) ? `hsl(${value.trim()})` : undefined;
}

/** The variables of a stored theme (an empty set when the stored text is not an object). */
export function storedVariables(cssVariables: string): Record<string, string> {
  return parseVariables(cssVariables) ?? {};
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
