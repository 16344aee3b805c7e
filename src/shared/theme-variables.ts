/**
 * A theme's variables (SPEC §3 Theme variables) and its variants, browser-safe and small: the public
 * pages' preview script (src/components/chrome/theme-preview.ts), /theme.css (api/site/theme-css.ts),
 * the payload schema and the admin's editor all read them from here (decision 031).
 *
 * `cssVariables` holds the theme's light palette and its radius at the top level, as it always has,
 * and may hold a `dark` and a `warm` palette as nested objects of colour variables: the visitor's
 * Light, Dark and Warm choice (SPEC §4 Theme) picks among the variants the firm's theme defines.
 * A variant's unset colours are the theme's light ones; the radius is shared.
 *
 * Colours are shadcn/ui-style HSL triplets without the `hsl()` wrapper ('222.2 47.4% 11.2%'), used in
 * CSS as `hsl(var(--primary))`.
 */

export const themeColorKeys = [
  'background',
  'foreground',
  'card',
  'card-foreground',
  'popover',
  'popover-foreground',
  'primary',
  'primary-foreground',
  'secondary',
  'secondary-foreground',
  'muted',
  'muted-foreground',
  'accent',
  'accent-foreground',
  'destructive',
  'destructive-foreground',
  'border',
  'input',
  'ring',
] as const;
export type ThemeColorKey = (typeof themeColorKeys)[number];

/** The visitor's choices (SPEC §4 Theme): light is the theme's top-level palette, the others nest under their name. */
export const themeVariants = ['light', 'dark', 'warm'] as const;
export type ThemeVariant = (typeof themeVariants)[number];
/** SPEC §2 theme control: the menu's words for each. */
export const themeVariantLabels: Record<ThemeVariant, string> = { light: 'Light', dark: 'Dark', warm: 'Warm' };
/** The variants a theme may add to its light palette, as keys of `cssVariables`. */
export const extraVariants = ['dark', 'warm'] as const;
export type ExtraVariant = (typeof extraVariants)[number];

/** Some or all colours of one variant. */
export type Palette = Partial<Record<ThemeColorKey, string>>;

/** SPEC §3 radius range, in rem. */
export const minRadiusRem = 0.125;
export const maxRadiusRem = 0.875;

/** The custom property /theme.css sets to the variants the active theme defines ("light dark"): the theme menu offers those. */
export const VARIANTS_PROPERTY = '--site-theme-variants';

const hslTriplet = /^\d{1,3}(\.\d+)?\s+\d{1,3}(\.\d+)?%\s+\d{1,3}(\.\d+)?%$/;
const radiusText = /^(0?\.\d+|0|1)rem$/;

/** Parses an HSL triplet such as '222.2 47.4% 11.2%'; undefined if it is not one (or out of range). */
export function parseHsl(value: string): { h: number; s: number; l: number } | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)%\s+(\d+(?:\.\d+)?)%\s*$/.exec(value);
  if (!m) return undefined;
  const h = Number(m[1]);
  const s = Number(m[2]);
  const l = Number(m[3]);
  if (h > 360 || s > 100 || l > 100) return undefined;
  return { h, s, l };
}

/** A colour value as stored: an HSL triplet and nothing else, so it can never break out of CSS. */
export function isHslTriplet(value: unknown): value is string {
  return typeof value === 'string' && hslTriplet.test(value) && parseHsl(value) !== undefined;
}

/** A radius as stored: rem, within SPEC §3's range. */
export function isRadius(value: unknown): value is string {
  if (typeof value !== 'string' || !radiusText.test(value)) return false;
  const rem = Number.parseFloat(value);
  return rem >= minRadiusRem && rem <= maxRadiusRem;
}

export const isColourKey = (key: string): key is ThemeColorKey => (themeColorKeys as readonly string[]).includes(key);

/** HSL -> sRGB channels in 0..1 (CSS Color 4 hsl-to-rgb). */
function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const sat = s / 100;
  const light = l / 100;
  const f = (n: number): number => {
    const k = (n + h / 30) % 12;
    const a = sat * Math.min(light, 1 - light);
    return light - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [f(0), f(8), f(4)];
}

/** WCAG 2.x relative luminance of an HSL triplet. */
export function relativeLuminance(hsl: string): number {
  const parsed = parseHsl(hsl);
  if (!parsed) throw new Error(`Not an HSL triplet: "${hsl}"`);
  const [r, g, b] = hslToRgb(parsed.h, parsed.s, parsed.l).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.x contrast ratio (1..21) between two HSL triplets. */
export function contrastRatio(hslA: string, hslB: string): number {
  const a = relativeLuminance(hslA);
  const b = relativeLuminance(hslB);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** '#1e3a8a' for an HSL triplet (what `<input type="color">` takes); undefined if it is not one. */
export function hslToHex(hsl: string): string | undefined {
  const parsed = parseHsl(hsl);
  if (!parsed) return undefined;
  return `#${hslToRgb(parsed.h, parsed.s, parsed.l)
    .map((c) =>
      Math.round(c * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** The HSL triplet of '#1e3a8a' (or '#abc'), to one decimal place, so it converts back to the same hex; undefined if it is not a hex colour. */
export function hexToHsl(hex: string): string | undefined {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return undefined;
  const digits = m[1]!.length === 3 ? [...m[1]!].map((d) => d + d).join('') : m[1]!;
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(digits.slice(i, i + 2), 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  let h = 0;
  let s = 0;
  if (d > 0) {
    s = d / (1 - Math.abs(2 * l - 1));
    if (max === r) h = ((g - b) / d) % 6;
    else if (max === g) h = (b - r) / d + 2;
    else h = (r - g) / d + 4;
    h *= 60;
    if (h < 0) h += 360;
  }
  const one = (n: number) => String(Math.round(n * 10) / 10);
  return `${one(h % 360)} ${one(Math.min(100, s * 100))}% ${one(l * 100)}%`;
}

/** A theme's variables as the site wears them: only known colours with valid values, per variant. */
export interface ThemePalettes {
  light: Palette;
  radius?: string;
  dark?: Palette;
  warm?: Palette;
}

function paletteOf(value: unknown): Palette {
  const palette: Palette = {};
  if (!value || typeof value !== 'object' || Array.isArray(value)) return palette;
  const record = value as Record<string, unknown>;
  for (const key of themeColorKeys) if (isHslTriplet(record[key])) palette[key] = record[key];
  return palette;
}

/**
 * The palettes of a theme's variables (the parsed `cssVariables` object, or anything else: a stored
 * row written around the API, a message from another window). Unknown keys and values that are not
 * plain colours are dropped; a variant counts when it sets at least one colour.
 */
export function themePalettes(variables: unknown): ThemePalettes {
  const record = variables && typeof variables === 'object' && !Array.isArray(variables) ? (variables as Record<string, unknown>) : {};
  const palettes: ThemePalettes = { light: paletteOf(record) };
  if (isRadius(record.radius)) palettes.radius = record.radius;
  for (const variant of extraVariants) {
    const palette = paletteOf(record[variant]);
    if (Object.keys(palette).length) palettes[variant] = palette;
  }
  return palettes;
}

/** The variants a theme defines, light first. */
export function definedVariants(palettes: ThemePalettes): ThemeVariant[] {
  return themeVariants.filter((v) => v === 'light' || palettes[v]);
}

/** Light or dark for the browser's own controls and scrollbars, from the variant's background; undefined when it has none. */
export function colourScheme(background: string | undefined): 'light' | 'dark' | undefined {
  if (!background || !parseHsl(background)) return undefined;
  return relativeLuminance(background) < 0.18 ? 'dark' : 'light';
}

/**
 * The stylesheet of a theme's palettes: `:root{…}` for light (with the radius and the list of
 * variants the theme menu offers), `:root.dark{…}` and `:root.warm{…}` for the variants it defines.
 * Built only from themePalettes' output, so only known names with plain values are ever written.
 */
export function paletteStylesheet(palettes: ThemePalettes): string {
  const block = (selector: string, palette: Palette, extra: string[], background: string | undefined) => {
    const scheme = colourScheme(background);
    const declarations = [
      ...(scheme ? [`color-scheme:${scheme}`] : []),
      ...extra,
      ...themeColorKeys.filter((key) => palette[key]).map((key) => `--${key}:${palette[key]}`),
    ];
    return `${selector}{${declarations.join(';')}}\n`;
  };
  let css = block(
    ':root',
    palettes.light,
    [`${VARIANTS_PROPERTY}:${definedVariants(palettes).join(' ')}`, ...(palettes.radius ? [`--radius:${palettes.radius}`] : [])],
    palettes.light.background,
  );
  for (const variant of extraVariants) {
    const palette = palettes[variant];
    if (palette) css += block(`:root.${variant}`, palette, [], palette.background ?? palettes.light.background);
  }
  return css;
}

/**
 * The admin's live preview (decision 031): the admin screen embeds the real home page in a
 * same-origin frame, which says it is ready; the admin then sends the variables to wear and the
 * variant to show. Nothing is stored and nothing else changes.
 */
export const PREVIEW_READY = 'theme-preview-ready';
export const PREVIEW_SHOW = 'theme-preview-show';
export interface PreviewMessage {
  type: typeof PREVIEW_SHOW;
  /** The theme's `cssVariables` object (checked again by the frame: themePalettes). */
  variables: unknown;
  variant: ThemeVariant;
}
