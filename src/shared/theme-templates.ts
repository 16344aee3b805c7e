/**
 * Built-in theme templates (SPEC §3). Browser-safe: the public site, the admin theme editor, the API
 * and the seed all read them from here.
 *
 * Colour values are shadcn/ui-style HSL triplets without the `hsl()` wrapper ('222.2 47.4% 11.2%'),
 * used in CSS as `hsl(var(--primary))`. The key order of `cssVariables` follows `themeColorKeys`, with
 * `radius` last. Every template meets WCAG 2.2 AA contrast for its text pairs (4.5:1) and its focus ring
 * (3:1); `theme-templates.test.ts` checks this with `contrastRatio` below.
 */

export const themeCategories = ['Professional', 'Premium', 'Warm', 'Nature', 'Elegant', 'Modern', 'Dark', 'Traditional', 'Minimal'] as const;
export type ThemeCategory = (typeof themeCategories)[number];

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

export type ThemeVariables = Record<ThemeColorKey, string> & { radius: string };

export interface ThemeTemplate {
  /** URL-friendly identifier: lowercase words joined by hyphens, unique. */
  name: string;
  displayName: string;
  description: string;
  category: ThemeCategory;
  /** System font stacks only (nothing to download). */
  typography?: { heading: string; body: string };
  cssVariables: ThemeVariables;
}

/** SPEC §3 radius range, in rem. */
export const minRadiusRem = 0.125;
export const maxRadiusRem = 0.875;

const serifStack = 'Georgia, Cambria, "Times New Roman", Times, serif';
const bookSerifStack = '"Iowan Old Style", "Palatino Linotype", Palatino, "Book Antiqua", Georgia, serif';
const sansStack = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const humanistStack = 'Optima, Candara, "Gill Sans", "Segoe UI", "Trebuchet MS", sans-serif';

export const themeTemplates: readonly ThemeTemplate[] = [
  {
    name: 'professional-blue',
    displayName: 'Professional Blue',
    description: 'Deep navy on crisp white: the calm, trustworthy default for the firm.',
    category: 'Professional',
    typography: { heading: serifStack, body: sansStack },
    cssVariables: {
      background: '0 0% 100%',
      foreground: '222 47% 11%',
      card: '0 0% 100%',
      'card-foreground': '222 47% 11%',
      popover: '0 0% 100%',
      'popover-foreground': '222 47% 11%',
      primary: '217 71% 30%',
      'primary-foreground': '0 0% 100%',
      secondary: '214 32% 94%',
      'secondary-foreground': '222 47% 16%',
      muted: '210 40% 96%',
      'muted-foreground': '215 19% 38%',
      accent: '213 60% 93%',
      'accent-foreground': '217 71% 24%',
      destructive: '0 72% 42%',
      'destructive-foreground': '0 0% 100%',
      border: '214 32% 88%',
      input: '214 32% 60%',
      ring: '217 71% 40%',
      radius: '0.5rem',
    },
  },
  {
    name: 'corporate-slate',
    displayName: 'Corporate Slate',
    description: 'Cool slate greys with a steel-blue primary for a restrained corporate look.',
    category: 'Professional',
    typography: { heading: sansStack, body: sansStack },
    cssVariables: {
      background: '210 20% 98%',
      foreground: '215 28% 14%',
      card: '0 0% 100%',
      'card-foreground': '215 28% 14%',
      popover: '0 0% 100%',
      'popover-foreground': '215 28% 14%',
      primary: '210 35% 32%',
      'primary-foreground': '0 0% 100%',
      secondary: '214 20% 92%',
      'secondary-foreground': '215 28% 18%',
      muted: '214 20% 94%',
      'muted-foreground': '215 16% 36%',
      accent: '205 35% 91%',
      'accent-foreground': '210 40% 22%',
      destructive: '0 70% 42%',
      'destructive-foreground': '0 0% 100%',
      border: '214 18% 86%',
      input: '214 18% 58%',
      ring: '210 40% 42%',
      radius: '0.375rem',
    },
  },
  {
    name: 'executive-navy-gold',
    displayName: 'Executive Navy & Gold',
    description: 'Rich navy with burnished gold accents for a distinguished, premium feel.',
    category: 'Premium',
    typography: { heading: serifStack, body: sansStack },
    cssVariables: {
      background: '40 33% 98%',
      foreground: '224 50% 12%',
      card: '0 0% 100%',
      'card-foreground': '224 50% 12%',
      popover: '0 0% 100%',
      'popover-foreground': '224 50% 12%',
      primary: '224 56% 22%',
      'primary-foreground': '42 60% 94%',
      secondary: '42 45% 90%',
      'secondary-foreground': '35 60% 20%',
      muted: '40 25% 94%',
      'muted-foreground': '224 15% 38%',
      accent: '42 70% 86%',
      'accent-foreground': '32 70% 20%',
      destructive: '0 70% 40%',
      'destructive-foreground': '0 0% 100%',
      border: '40 20% 86%',
      input: '40 20% 52%',
      ring: '38 70% 34%',
      radius: '0.25rem',
    },
  },
  {
    name: 'platinum-charcoal',
    displayName: 'Platinum & Charcoal',
    description: 'Polished platinum surfaces with a charcoal primary and a champagne accent.',
    category: 'Premium',
    typography: { heading: bookSerifStack, body: sansStack },
    cssVariables: {
      background: '220 14% 97%',
      foreground: '220 15% 10%',
      card: '0 0% 100%',
      'card-foreground': '220 15% 10%',
      popover: '0 0% 100%',
      'popover-foreground': '220 15% 10%',
      primary: '220 13% 20%',
      'primary-foreground': '40 30% 96%',
      secondary: '40 30% 90%',
      'secondary-foreground': '220 15% 16%',
      muted: '220 12% 93%',
      'muted-foreground': '220 9% 37%',
      accent: '40 45% 88%',
      'accent-foreground': '35 45% 20%',
      destructive: '0 68% 42%',
      'destructive-foreground': '0 0% 100%',
      border: '220 12% 86%',
      input: '220 12% 57%',
      ring: '220 13% 36%',
      radius: '0.625rem',
    },
  },
  {
    name: 'warm-sandstone',
    displayName: 'Warm Sandstone',
    description: 'Soft sandstone neutrals and a coffee-brown primary: approachable and reassuring.',
    category: 'Warm',
    typography: { heading: serifStack, body: humanistStack },
    cssVariables: {
      background: '36 38% 97%',
      foreground: '25 30% 13%',
      card: '36 40% 99%',
      'card-foreground': '25 30% 13%',
      popover: '36 40% 99%',
      'popover-foreground': '25 30% 13%',
      primary: '25 45% 28%',
      'primary-foreground': '36 40% 97%',
      secondary: '34 35% 90%',
      'secondary-foreground': '25 35% 18%',
      muted: '34 30% 93%',
      'muted-foreground': '25 16% 36%',
      accent: '30 55% 89%',
      'accent-foreground': '22 50% 22%',
      destructive: '0 68% 40%',
      'destructive-foreground': '0 0% 100%',
      border: '32 25% 85%',
      input: '32 25% 53%',
      ring: '25 45% 38%',
      radius: '0.75rem',
    },
  },
  {
    name: 'mission-terracotta',
    displayName: 'Mission Terracotta',
    description: 'Terracotta and adobe tones inspired by San Diego mission architecture.',
    category: 'Warm',
    typography: { heading: bookSerifStack, body: sansStack },
    cssVariables: {
      background: '30 33% 98%',
      foreground: '15 25% 12%',
      card: '0 0% 100%',
      'card-foreground': '15 25% 12%',
      popover: '0 0% 100%',
      'popover-foreground': '15 25% 12%',
      primary: '14 62% 33%',
      'primary-foreground': '30 40% 98%',
      secondary: '25 40% 91%',
      'secondary-foreground': '15 40% 18%',
      muted: '25 25% 94%',
      'muted-foreground': '15 14% 36%',
      accent: '20 60% 90%',
      'accent-foreground': '14 60% 24%',
      destructive: '350 70% 38%',
      'destructive-foreground': '0 0% 100%',
      border: '25 22% 86%',
      input: '25 22% 56%',
      ring: '14 60% 40%',
      radius: '0.5rem',
    },
  },
  {
    name: 'coastal-sage',
    displayName: 'Coastal Sage',
    description: 'Muted sage and driftwood, echoing the coastal scrub of Torrey Pines.',
    category: 'Nature',
    typography: { heading: humanistStack, body: sansStack },
    cssVariables: {
      background: '90 14% 97%',
      foreground: '150 20% 11%',
      card: '0 0% 100%',
      'card-foreground': '150 20% 11%',
      popover: '0 0% 100%',
      'popover-foreground': '150 20% 11%',
      primary: '150 30% 26%',
      'primary-foreground': '90 20% 97%',
      secondary: '100 18% 90%',
      'secondary-foreground': '150 25% 16%',
      muted: '95 14% 93%',
      'muted-foreground': '150 10% 34%',
      accent: '140 25% 89%',
      'accent-foreground': '150 35% 18%',
      destructive: '0 68% 40%',
      'destructive-foreground': '0 0% 100%',
      border: '100 12% 85%',
      input: '100 12% 52%',
      ring: '150 30% 34%',
      radius: '0.75rem',
    },
  },
  {
    name: 'evergreen',
    displayName: 'Evergreen',
    description: 'Deep forest green and warm ivory for steady, enduring counsel.',
    category: 'Nature',
    typography: { heading: serifStack, body: sansStack },
    cssVariables: {
      background: '45 30% 98%',
      foreground: '160 30% 10%',
      card: '0 0% 100%',
      'card-foreground': '160 30% 10%',
      popover: '0 0% 100%',
      'popover-foreground': '160 30% 10%',
      primary: '158 55% 20%',
      'primary-foreground': '45 40% 97%',
      secondary: '150 20% 91%',
      'secondary-foreground': '160 35% 14%',
      muted: '45 20% 93%',
      'muted-foreground': '160 10% 33%',
      accent: '152 35% 88%',
      'accent-foreground': '158 55% 16%',
      destructive: '0 70% 40%',
      'destructive-foreground': '0 0% 100%',
      border: '150 12% 85%',
      input: '150 12% 53%',
      ring: '158 50% 30%',
      radius: '0.375rem',
    },
  },
  {
    name: 'elegant-burgundy',
    displayName: 'Elegant Burgundy',
    description: 'Burgundy and blush on ivory: refined, confident and discreet.',
    category: 'Elegant',
    typography: { heading: bookSerifStack, body: serifStack },
    cssVariables: {
      background: '30 25% 98%',
      foreground: '345 25% 12%',
      card: '0 0% 100%',
      'card-foreground': '345 25% 12%',
      popover: '0 0% 100%',
      'popover-foreground': '345 25% 12%',
      primary: '345 55% 28%',
      'primary-foreground': '30 30% 98%',
      secondary: '345 25% 93%',
      'secondary-foreground': '345 40% 20%',
      muted: '30 15% 94%',
      'muted-foreground': '345 10% 36%',
      accent: '350 40% 91%',
      'accent-foreground': '345 55% 22%',
      destructive: '0 72% 38%',
      'destructive-foreground': '0 0% 100%',
      border: '340 12% 87%',
      input: '340 12% 58%',
      ring: '345 50% 36%',
      radius: '0.25rem',
    },
  },
  {
    name: 'twilight-plum',
    displayName: 'Twilight Plum',
    description: 'A graceful deep plum with lavender highlights on soft pearl.',
    category: 'Elegant',
    typography: { heading: serifStack, body: humanistStack },
    cssVariables: {
      background: '270 20% 98%',
      foreground: '270 25% 12%',
      card: '0 0% 100%',
      'card-foreground': '270 25% 12%',
      popover: '0 0% 100%',
      'popover-foreground': '270 25% 12%',
      primary: '275 40% 30%',
      'primary-foreground': '270 30% 98%',
      secondary: '270 22% 93%',
      'secondary-foreground': '275 35% 20%',
      muted: '270 15% 94%',
      'muted-foreground': '270 9% 37%',
      accent: '280 35% 91%',
      'accent-foreground': '275 45% 22%',
      destructive: '0 70% 40%',
      'destructive-foreground': '0 0% 100%',
      border: '270 12% 87%',
      input: '270 12% 59%',
      ring: '275 40% 40%',
      radius: '0.5rem',
    },
  },
  {
    name: 'modern-teal',
    displayName: 'Modern Teal',
    description: 'Clean white space with a confident Pacific teal for a contemporary practice.',
    category: 'Modern',
    typography: { heading: sansStack, body: sansStack },
    cssVariables: {
      background: '0 0% 100%',
      foreground: '200 30% 10%',
      card: '180 20% 99%',
      'card-foreground': '200 30% 10%',
      popover: '0 0% 100%',
      'popover-foreground': '200 30% 10%',
      primary: '186 80% 24%',
      'primary-foreground': '0 0% 100%',
      secondary: '185 30% 93%',
      'secondary-foreground': '195 40% 15%',
      muted: '190 20% 95%',
      'muted-foreground': '195 12% 36%',
      accent: '180 45% 90%',
      'accent-foreground': '186 80% 18%',
      destructive: '0 75% 42%',
      'destructive-foreground': '0 0% 100%',
      border: '190 16% 88%',
      input: '190 16% 55%',
      ring: '186 80% 30%',
      radius: '0.875rem',
    },
  },
  {
    name: 'midnight-navy',
    displayName: 'Midnight Navy',
    description: 'A dark navy theme with soft sky-blue highlights, easy on the eyes at night.',
    category: 'Dark',
    typography: { heading: sansStack, body: sansStack },
    cssVariables: {
      background: '222 47% 9%',
      foreground: '210 40% 96%',
      card: '222 42% 12%',
      'card-foreground': '210 40% 96%',
      popover: '222 42% 12%',
      'popover-foreground': '210 40% 96%',
      primary: '210 90% 72%',
      'primary-foreground': '222 47% 11%',
      secondary: '217 30% 20%',
      'secondary-foreground': '210 40% 96%',
      muted: '217 30% 17%',
      'muted-foreground': '215 20% 70%',
      accent: '217 35% 22%',
      'accent-foreground': '210 40% 96%',
      destructive: '0 75% 68%',
      'destructive-foreground': '0 50% 10%',
      border: '217 28% 22%',
      input: '217 28% 45%',
      ring: '210 90% 65%',
      radius: '0.5rem',
    },
  },
  {
    name: 'charcoal-gold',
    displayName: 'Charcoal & Gold',
    description: 'Near-black charcoal with warm gold highlights for a bold, dark presentation.',
    category: 'Dark',
    typography: { heading: serifStack, body: sansStack },
    cssVariables: {
      background: '30 6% 8%',
      foreground: '40 25% 94%',
      card: '30 6% 11%',
      'card-foreground': '40 25% 94%',
      popover: '30 6% 11%',
      'popover-foreground': '40 25% 94%',
      primary: '42 75% 60%',
      'primary-foreground': '30 10% 8%',
      secondary: '30 6% 18%',
      'secondary-foreground': '40 25% 94%',
      muted: '30 6% 15%',
      'muted-foreground': '40 10% 70%',
      accent: '38 25% 20%',
      'accent-foreground': '42 60% 88%',
      destructive: '0 72% 66%',
      'destructive-foreground': '0 40% 8%',
      border: '30 6% 20%',
      input: '30 6% 42%',
      ring: '42 75% 55%',
      radius: '0.25rem',
    },
  },
  {
    name: 'classic-law-library',
    displayName: 'Classic Law Library',
    description: 'Oxblood leather, parchment and serif type in the tradition of a law library.',
    category: 'Traditional',
    typography: { heading: bookSerifStack, body: serifStack },
    cssVariables: {
      background: '42 40% 96%',
      foreground: '20 25% 12%',
      card: '42 45% 98%',
      'card-foreground': '20 25% 12%',
      popover: '42 45% 98%',
      'popover-foreground': '20 25% 12%',
      primary: '5 55% 28%',
      'primary-foreground': '42 45% 96%',
      secondary: '40 30% 88%',
      'secondary-foreground': '20 30% 16%',
      muted: '40 28% 91%',
      'muted-foreground': '20 14% 34%',
      accent: '150 20% 86%',
      'accent-foreground': '155 40% 16%',
      destructive: '0 72% 38%',
      'destructive-foreground': '0 0% 100%',
      border: '38 25% 82%',
      input: '38 25% 51%',
      ring: '5 55% 36%',
      radius: '0.125rem',
    },
  },
  {
    name: 'minimal-monochrome',
    displayName: 'Minimal Monochrome',
    description: 'Pure black and white with generous space: nothing competes with the content.',
    category: 'Minimal',
    typography: { heading: sansStack, body: sansStack },
    cssVariables: {
      background: '0 0% 100%',
      foreground: '0 0% 9%',
      card: '0 0% 100%',
      'card-foreground': '0 0% 9%',
      popover: '0 0% 100%',
      'popover-foreground': '0 0% 9%',
      primary: '0 0% 9%',
      'primary-foreground': '0 0% 98%',
      secondary: '0 0% 95%',
      'secondary-foreground': '0 0% 9%',
      muted: '0 0% 96%',
      'muted-foreground': '0 0% 38%',
      accent: '0 0% 93%',
      'accent-foreground': '0 0% 9%',
      destructive: '0 72% 42%',
      'destructive-foreground': '0 0% 100%',
      border: '0 0% 90%',
      input: '0 0% 57%',
      ring: '0 0% 40%',
      radius: '0.125rem',
    },
  },
];

export const defaultThemeName = 'professional-blue';

/**
 * The text and indicator pairs a theme must keep readable (WCAG 2.2 AA): [text, surface, minimum
 * ratio]; 4.5 for text, 3 for the focus ring and the border that identifies a form field (1.4.11).
 * The admin's theme editor warns about any pair below its minimum.
 */
export const themeContrastPairs: ReadonlyArray<readonly [ThemeColorKey, ThemeColorKey, number]> = [
  ['foreground', 'background', 4.5],
  ['card-foreground', 'card', 4.5],
  ['popover-foreground', 'popover', 4.5],
  ['primary-foreground', 'primary', 4.5],
  ['secondary-foreground', 'secondary', 4.5],
  ['muted-foreground', 'muted', 4.5],
  ['accent-foreground', 'accent', 4.5],
  ['destructive-foreground', 'destructive', 4.5],
  ['muted-foreground', 'background', 4.5],
  ['primary', 'background', 4.5],
  ['ring', 'background', 3],
  ['input', 'background', 3],
];

export function findThemeTemplate(name: string): ThemeTemplate | undefined {
  return themeTemplates.find((t) => t.name === name);
}

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

/** HSL triplet -> sRGB channels in 0..1 (CSS Color 4 hsl-to-rgb). */
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
