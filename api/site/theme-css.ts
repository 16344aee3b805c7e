/**
 * /theme.css: the admin's active site theme (its variables, for light mode; dark and warm keep their
 * own palettes) and the components an admin hid, as one small stylesheet every public page links.
 * Prerendered pages thus follow the admin's choices without a rebuild. Regenerated on change.
 */
import { themeColorKeys } from '../../src/shared/theme-templates.ts';
import type { ComponentVisibility } from '../../src/shared/public-api.ts';

const safeValue = /^[0-9.\s%a-z-]+$/i;
const safeKey = /^[a-z][a-z0-9_]*$/;

export function themeStylesheet(cssVariables: string, visibility: ComponentVisibility[]): string {
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
  const hidden = visibility.filter((v) => !v.isVisible && safeKey.test(v.componentKey)).map((v) => `[data-component="${v.componentKey}"]`);
  return [declarations.length ? `:root{${declarations.join(';')}}` : '', hidden.length ? `${hidden.join(',')}{display:none!important}` : '']
    .filter(Boolean)
    .join('\n')
    .concat('\n');
}
