/**
 * Theme files (SPEC §4 Theme import, §9 Theme export) and what the Themes screen sends: pure
 * functions, unit-tested beside this file.
 */
import { ApiError } from '../../../lib/api-client.ts';
import { themeFile, type ThemeInput } from '../../../shared/schemas/themes.ts';
import { slugify } from '../../../shared/slug.ts';
import { findThemeTemplate } from '../../../shared/theme-templates.ts';
import type { adminQueries, Row } from '../admin-api.ts';

/** A theme_settings row as GET /api/admin/themes lists it (SPEC §3); cssVariables is the JSON text of the variables object. */
export type AdminTheme = Row<typeof adminQueries.themes>;

/** What the create-custom-theme dialog edits; cssVariables is the JSON text the admin sees. */
export interface ThemeDraft {
  name: string;
  displayName: string;
  description: string;
  cssVariables: string;
}

/** SPEC §5 messages. */
export const INVALID_THEME_FILE = 'Invalid theme file format';
export const TEMPLATE_NOT_FOUND = 'Template not found';

/** A theme file is a few hundred bytes; anything far larger is not one. */
export const MAX_THEME_FILE_BYTES = 100_000;

/**
 * A theme's variables as JSON holds them: the light colours and the radius as text, and each variant
 * (`dark`, `warm`) as an object of colours (decision 031).
 */
export type VariablesObject = Record<string, string | Record<string, string>>;

/** Variables as the admin edits them: one per line, in their stored order. */
export const formatVariables = (variables: VariablesObject) => JSON.stringify(variables, null, 2);

const isTextRecord = (value: unknown): value is Record<string, string> =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value) && Object.values(value as object).every((v) => typeof v === 'string');

/** The variables object of a stored theme or a file, or null when the text is not one (texts, and variants of texts). */
export function parseVariables(text: string): VariablesObject | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  return variablesObject(parsed);
}

/** `value` as a variables object, or null when it is not one. */
export function variablesObject(value: unknown): VariablesObject | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const entries = Object.entries(value);
  return entries.every(([, v]) => typeof v === 'string' || isTextRecord(v)) ? (Object.fromEntries(entries) as VariablesObject) : null;
}

/**
 * SPEC §4 Theme import: the file must be valid JSON of the export's shape (displayName, description,
 * cssVariables); these are copied into the form and the name is derived from the display name. Null
 * means 'Invalid theme file format'. The variables' values are checked in the dialog, where the
 * admin reviews the theme before saving.
 */
export function parseThemeFile(text: string): ThemeDraft | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const file = themeFile.safeParse(json);
  if (!file.success) return null;
  const variables = typeof file.data.cssVariables === 'string' ? parseVariables(file.data.cssVariables) : variablesObject(file.data.cssVariables);
  if (!variables) return null;
  return {
    name: slugify(file.data.displayName),
    displayName: file.data.displayName,
    description: file.data.description.trim(),
    cssVariables: formatVariables(variables),
  };
}

/** SPEC §9 Theme export: a file named after the theme holding displayName, description and cssVariables. */
export function themeExport(theme: Pick<AdminTheme, 'name' | 'displayName' | 'description' | 'cssVariables'>): { fileName: string; contents: string } {
  const variables = parseVariables(theme.cssVariables);
  const contents = JSON.stringify({ displayName: theme.displayName, description: theme.description, cssVariables: variables ?? theme.cssVariables }, null, 2);
  return { fileName: `${slugify(theme.name) || 'theme'}.json`, contents: `${contents}\n` };
}

/** Starts a download of the export file in the browser. */
export function downloadThemeFile(fileName: string, contents: string) {
  const url = URL.createObjectURL(new Blob([contents], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: the download reads the blob after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** POST /api/admin/themes for a template's Install (SPEC §4 Theme records: installed inactive). */
export function templateInstallBody(templateName: string): ThemeInput {
  const template = findThemeTemplate(templateName);
  if (!template) throw new Error(TEMPLATE_NOT_FOUND);
  return {
    name: template.name,
    displayName: template.displayName,
    description: template.description,
    cssVariables: JSON.stringify(template.cssVariables),
    isActive: false,
    isDefault: false,
  };
}

/** SPEC §5: a template that is missing (here, or on the server: 404) gives 'Template not found'. */
export function installFailureMessage(error: Error): string {
  if (error.message === TEMPLATE_NOT_FOUND || (error instanceof ApiError && error.status === 404)) return TEMPLATE_NOT_FOUND;
  return 'Failed to install theme template';
}
