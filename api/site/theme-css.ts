/**
 * /theme.css: the admin's active site theme (its variables, for light mode; dark and warm keep their
 * own palettes), as one small stylesheet every public page links. Prerendered pages thus follow the
 * admin's choice without a rebuild. Regenerated on change. (Hidden components are not hidden here but
 * cut from the HTML: visible-pages.ts.)
 */
import { themeColorKeys } from '../../src/shared/theme-templates.ts';

const safeValue = /^[0-9.\s%a-z-]+$/i;

export function themeStylesheet(cssVariables: string): string {
  let vars: Record<string, string> = {};
  try {
    vars = JSON.parse(cssVariables) as Record<string, string>;
  } catch {
    vars = {};
  }
  // Only known variables with plain values: a stored theme can never inject other CSS.
  const declarations = [...themeColorKeys, 'radius']
    .filter((key) => typeof vars[key] === 'string' && safeValue.test(vars[key]!))
    .map((key) => `--${key}:${vars[key]}`);
  return declarations.length ? `:root{${declarations.join(';')}}\n` : '\n';
}
