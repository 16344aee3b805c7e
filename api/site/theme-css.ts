/**
 * /theme.css: the admin's active site theme as one small stylesheet every public page links, so
 * prerendered pages follow the admin's choice without a rebuild; regenerated on change. It holds the
 * theme's light palette on `:root` and each variant the theme defines on `:root.dark` / `:root.warm`,
 * so the visitor's Light, Dark and Warm choice picks among the firm theme's own palettes, and
 * `--site-theme-variants` tells the theme menu which to offer (decision 031). (Hidden components are
 * not hidden here but cut from the HTML: visible-pages.ts.)
 */
import { paletteStylesheet, themePalettes } from '../../src/shared/theme-variables.ts';

export function themeStylesheet(cssVariables: string): string {
  let vars: unknown = {};
  try {
    vars = JSON.parse(cssVariables);
  } catch {
    vars = {};
  }
  // Only known variables with plain values (themePalettes): a stored theme can never inject other CSS.
  return paletteStylesheet(themePalettes(vars));
}
