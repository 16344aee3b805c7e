import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import { themeInput } from '../../../shared/schemas/themes.ts';
import { findThemeTemplate, themeCategories, themeTemplates } from '../../../shared/theme-templates.ts';
import {
  colourSwatches,
  contrastWarnings,
  filterTemplates,
  GALLERY_SWATCHES,
  lightVariables,
  LIST_SWATCHES,
  missingVariables,
  variableProblems,
  variantColours,
  variantsOf,
  withoutVariant,
  withVariable,
  withVariant,
} from './theme-checks.ts';
import { formatVariables, installFailureMessage, parseThemeFile, parseVariables, templateInstallBody, TEMPLATE_NOT_FOUND, themeExport } from './theme-file.ts';

const blue = findThemeTemplate('professional-blue')!;
const stored = (patch: Record<string, unknown> = {}) => ({
  name: 'professional-blue',
  displayName: 'Professional Blue',
  description: blue.description,
  cssVariables: JSON.stringify(blue.cssVariables),
  ...patch,
});

describe('theme export (SPEC §9)', () => {
  it('is a file named after the theme holding displayName, description and cssVariables', () => {
    const { fileName, contents } = themeExport(stored());
    expect(fileName).toBe('professional-blue.json');
    expect(JSON.parse(contents)).toEqual({ displayName: 'Professional Blue', description: blue.description, cssVariables: blue.cssVariables });
  });

  it('keeps the stored text when it is not a variables object', () => {
    expect(JSON.parse(themeExport(stored({ cssVariables: 'not json' })).contents).cssVariables).toBe('not json');
  });
});

describe('theme import (SPEC §4)', () => {
  it('reads an exported file back: fields copied, name derived from the display name', () => {
    const file = themeExport(stored({ displayName: 'Harbor Blue  Night!', description: 'Calm.' })).contents;
    const draft = parseThemeFile(file)!;
    expect(draft).toMatchObject({ name: 'harbor-blue-night', displayName: 'Harbor Blue  Night!', description: 'Calm.' });
    expect(JSON.parse(draft.cssVariables)).toEqual(blue.cssVariables);
    // What the dialog then sends is valid as it is.
    expect(themeInput.safeParse({ ...draft }).success).toBe(true);
  });

  it('accepts cssVariables given as JSON text and a missing description', () => {
    const draft = parseThemeFile(JSON.stringify({ displayName: 'Text Vars', cssVariables: JSON.stringify(blue.cssVariables) }))!;
    expect(draft.description).toBe('');
    expect(JSON.parse(draft.cssVariables)).toEqual(blue.cssVariables);
  });

  it('refuses what is not JSON or not a theme file', () => {
    const bad = [
      '',
      '{ displayName: "x" ',
      'null',
      '[]',
      '"a string"',
      JSON.stringify({ description: 'no display name', cssVariables: blue.cssVariables }),
      JSON.stringify({ displayName: '   ', cssVariables: blue.cssVariables }),
      JSON.stringify({ displayName: 'No vars' }),
      JSON.stringify({ displayName: 'Vars a list', cssVariables: ['0 0% 100%'] }),
      JSON.stringify({ displayName: 'Vars numbers', cssVariables: { radius: 0.5 } }),
      JSON.stringify({ displayName: 'Vars text not an object', cssVariables: '[1,2]' }),
      JSON.stringify({ displayName: 'Vars text not JSON', cssVariables: '{oops' }),
      JSON.stringify({ displayName: 7, cssVariables: blue.cssVariables }),
    ];
    for (const text of bad) expect(parseThemeFile(text), text).toBeNull();
  });

  it('leaves the variables themselves to the dialog, which lists every problem', () => {
    const draft = parseThemeFile(JSON.stringify({ displayName: 'Odd', cssVariables: { ...blue.cssVariables, primary: 'red', 'font-family': 'Arial' } }))!;
    expect(draft).not.toBeNull();
    expect(variableProblems(draft.cssVariables)).toEqual(['primary must be an HSL triplet such as "222 47% 11%"', 'Unknown theme variable "font-family"']);
  });
});

describe('variable checks', () => {
  it('accepts every template and explains each kind of problem', () => {
    for (const t of themeTemplates) expect(variableProblems(JSON.stringify(t.cssVariables)), t.name).toEqual([]);
    expect(variableProblems('')).toEqual(['Theme variables are required']);
    expect(variableProblems('{')).toEqual(['Theme variables must be valid JSON']);
    expect(variableProblems('[]')).toEqual(['Theme variables must be a JSON object of "name": "value" pairs']);
    expect(variableProblems(JSON.stringify({ background: '0 0% 100%', radius: '2rem' }))).toEqual([
      'radius must be between 0.125rem and 0.875rem',
      'foreground is required',
      'primary is required',
      'primary-foreground is required',
    ]);
  });

  it('names the SPEC §3 variables left unset and the pairs below WCAG AA', () => {
    expect(missingVariables(blue.cssVariables)).toEqual([]);
    expect(missingVariables({ background: '0 0% 100%' })).toContain('radius');
    expect(contrastWarnings(lightVariables(blue.cssVariables))).toEqual([]);
    const warnings = contrastWarnings({ ...lightVariables(blue.cssVariables), foreground: '0 0% 70%' });
    expect(warnings.map((w) => `${w.text}/${w.surface}`)).toEqual(['foreground/background']);
    expect(warnings[0]!.ratio).toBeLessThan(4.5);
  });
});

describe('variants (decision 031)', () => {
  const light = { background: '0 0% 100%', foreground: '222 47% 11%', primary: '217 71% 30%', 'primary-foreground': '0 0% 100%' };

  it('checks each variant as strictly as the light colours, and names what is wrong where', () => {
    expect(variableProblems(JSON.stringify({ ...light, dark: { ...light, background: '0 0% 5%' } }))).toEqual([]);
    expect(variableProblems(JSON.stringify({ ...light, dark: { background: 'black', 'font-family': 'x' } }))).toEqual([
      'dark.background must be an HSL triplet such as "222 47% 11%"',
      'Unknown theme variable "dark.font-family"',
      'dark.foreground is required in the Dark variant',
      'dark.primary is required in the Dark variant',
      'dark.primary-foreground is required in the Dark variant',
    ]);
    expect(variableProblems(JSON.stringify({ ...light, warm: '0 0% 100%' }))).toEqual(['warm must be an object of colours (the Warm variant)']);
    expect(variableProblems(JSON.stringify({ ...light, dark: { ...light, radius: '0.5rem' } }))).toEqual(['Unknown theme variable "dark.radius"']);
  });

  it('a variant shows its own colours over the light ones, and warns of its own low contrast', () => {
    const variables = { ...light, radius: '0.5rem', dark: { background: '0 0% 5%', foreground: '0 0% 20%' } };
    expect(variantsOf(variables)).toEqual(['light', 'dark']);
    expect(variantColours(variables, 'dark')).toMatchObject({ background: '0 0% 5%', foreground: '0 0% 20%', primary: '217 71% 30%' });
    expect(variantColours(variables, 'warm')).toEqual(lightVariables(variables));
    expect(contrastWarnings(variantColours(variables, 'dark')).map((w) => `${w.text}/${w.surface}`)).toEqual(['foreground/background', 'primary/background']);
  });

  it('the editor sets a colour of a variant in the JSON, adds and removes variants, keeping the stored order', () => {
    const text = formatVariables({ ...light, radius: '0.5rem' });
    const withDark = withVariant(text, 'dark');
    const dark = parseVariables(withDark)!.dark as Record<string, string>;
    // Lightness turned over: white becomes black, dark text light.
    expect(dark).toEqual({ background: '0 0% 0%', foreground: '222 47% 89%', primary: '217 71% 70%', 'primary-foreground': '0 0% 0%' });
    expect(variableProblems(withDark)).toEqual([]);
    const edited = withVariable(withDark, 'dark', 'background', '222 47% 8%');
    expect(Object.keys(parseVariables(edited)!)).toEqual([...Object.keys(light), 'radius', 'dark']);
    expect((parseVariables(edited)!.dark as Record<string, string>).background).toBe('222 47% 8%');
    expect(parseVariables(withVariable(edited, 'light', 'ring', '217 71% 40%'))!).toMatchObject({ ring: '217 71% 40%' });
    expect(Object.keys(parseVariables(withVariable(edited, 'light', 'ring', '217 71% 40%'))!).at(-1)).toBe('dark');
    expect(parseVariables(withVariable(edited, 'light', 'radius', ''))!).not.toHaveProperty('radius');
    expect(parseVariables(withVariant(edited, 'warm'))!.warm).toEqual(light);
    expect(parseVariables(withoutVariant(edited, 'dark'))).toEqual({ ...light, radius: '0.5rem' });
    // Text that is not a variables object is left for the admin to fix in the JSON.
    expect(withVariable('{ "background":', 'light', 'primary', '0 0% 0%')).toBe('{ "background":');
  });

  it('imports and exports a theme with variants, and shows only the light colours as swatches', () => {
    const file = JSON.stringify({ displayName: 'Blue', description: '', cssVariables: blue.cssVariables });
    expect(JSON.parse(parseThemeFile(file)!.cssVariables)).toEqual(blue.cssVariables);
    expect(parseThemeFile(JSON.stringify({ displayName: 'Odd', cssVariables: { ...light, dark: { background: 5 } } }))).toBeNull();
    expect(colourSwatches(blue.cssVariables, 40).map((s) => s.name)).not.toContain('dark');
  });
});

describe('previews (SPEC §9)', () => {
  it('shows the first 4 colour variables in the gallery and 6 in the list, by name, never the radius', () => {
    const gallery = colourSwatches(blue.cssVariables, GALLERY_SWATCHES);
    expect(gallery.map((s) => s.name)).toEqual(['background', 'foreground', 'card', 'card-foreground']);
    expect(gallery[0]).toEqual({ name: 'background', value: '0 0% 100%', css: 'hsl(0 0% 100%)' });
    expect(colourSwatches(blue.cssVariables, LIST_SWATCHES)).toHaveLength(6);
    expect(colourSwatches({ radius: '0.5rem', primary: 'red' }, 4)).toEqual([{ name: 'primary', value: 'red', css: undefined }]);
  });
});

describe('gallery filter', () => {
  it('has 15 templates in the 9 categories', () => {
    expect(themeTemplates).toHaveLength(15);
    expect(new Set(themeTemplates.map((t) => t.category))).toEqual(new Set(themeCategories));
  });

  it('searches display name, name and description, case-insensitively, within a category', () => {
    expect(filterTemplates(themeTemplates, '', 'all')).toHaveLength(15);
    expect(filterTemplates(themeTemplates, 'TEAL', 'all').map((t) => t.name)).toEqual(['modern-teal']);
    expect(filterTemplates(themeTemplates, '', 'Dark').map((t) => t.category)).toEqual(['Dark', 'Dark']);
    expect(filterTemplates(themeTemplates, 'teal', 'Dark')).toEqual([]);
    const byDescription = blue.description.split(' ').slice(0, 2).join(' ');
    expect(filterTemplates(themeTemplates, byDescription, 'all').map((t) => t.name)).toContain('professional-blue');
  });
});

describe('template install (SPEC §4 Theme records, §5)', () => {
  it('sends the template as an inactive, non-default theme valid for POST /api/admin/themes', () => {
    const body = templateInstallBody('modern-teal');
    expect(body).toMatchObject({ name: 'modern-teal', isActive: false, isDefault: false });
    expect(themeInput.safeParse(body).success).toBe(true);
  });

  it("gives 'Template not found' for a missing template, here or on the server", () => {
    expect(() => templateInstallBody('no-such-template')).toThrow(TEMPLATE_NOT_FOUND);
    expect(installFailureMessage(new Error(TEMPLATE_NOT_FOUND))).toBe('Template not found');
    expect(installFailureMessage(new ApiError(404, '{"error":"Not found"}'))).toBe('Template not found');
    expect(installFailureMessage(new ApiError(409, '{"error":"taken"}'))).toBe('Failed to install theme template');
  });
});
