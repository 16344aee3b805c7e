import { describe, it, expect } from 'vitest';
import {
  contrastRatio,
  defaultThemeName,
  findThemeTemplate,
  parseHsl,
  themeCategories,
  themeColorKeys,
  themeTemplates,
  type FullPalette,
  type ThemeColorKey,
  type ThemeTemplate,
} from './theme-templates.ts';
import { extraVariants } from './theme-variables.ts';

/** A template's palettes: its light one, then each variant it defines. */
const palettesOf = (t: ThemeTemplate): [string, FullPalette][] => [
  ['light', t.cssVariables],
  ...extraVariants.flatMap((v) => (t.cssVariables[v] ? [[v, t.cssVariables[v]] as [string, FullPalette]] : [])),
];

/*
 * Reference WCAG 2.x contrast computation, written independently of the module's helper (classic
 * hue-to-RGB formulation) so that a bug in one is caught by the other.
 */
const HSL_TRIPLET = /^(\d{1,3}(?:\.\d+)?) (\d{1,3}(?:\.\d+)?)% (\d{1,3}(?:\.\d+)?)%$/;

function refParse(value: string): [number, number, number] {
  const m = HSL_TRIPLET.exec(value);
  if (!m) throw new Error(`not an HSL triplet: "${value}"`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function hueToChannel(p: number, q: number, t: number): number {
  let x = t;
  if (x < 0) x += 1;
  if (x > 1) x -= 1;
  if (x < 1 / 6) return p + (q - p) * 6 * x;
  if (x < 1 / 2) return q;
  if (x < 2 / 3) return p + (q - p) * (2 / 3 - x) * 6;
  return p;
}

function refRgb(value: string): [number, number, number] {
  const [h, s100, l100] = refParse(value);
  const hue = (h % 360) / 360;
  const s = s100 / 100;
  const l = l100 / 100;
  if (s === 0) return [l, l, l];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  return [hueToChannel(p, q, hue + 1 / 3), hueToChannel(p, q, hue), hueToChannel(p, q, hue - 1 / 3)];
}

function refLuminance(value: string): number {
  const lin = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const [r, g, b] = refRgb(value).map(lin) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function refContrast(a: string, b: string): number {
  const la = refLuminance(a);
  const lb = refLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** [text/foreground, surface/background, minimum ratio] (WCAG 2.2 AA: 4.5 text, 3.0 focus indicator). */
const contrastPairs: ReadonlyArray<[ThemeColorKey, ThemeColorKey, number]> = [
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
  ['ring', 'background', 3.0],
  // WCAG 1.4.11: the border that identifies a form field, on the page and on the cards that hold the
  // calculator and the contact form.
  ['input', 'background', 3.0],
  ['input', 'card', 3.0],
];

describe('contrast helpers', () => {
  it('matches known WCAG reference values', () => {
    expect(refContrast('0 0% 0%', '0 0% 100%')).toBeCloseTo(21, 5);
    expect(contrastRatio('0 0% 0%', '0 0% 100%')).toBeCloseTo(21, 5);
    expect(contrastRatio('0 0% 100%', '0 0% 100%')).toBeCloseTo(1, 5);
    // #767676 on white is the classic 4.54:1; #777777 is just under 4.5.
    expect(contrastRatio('0 0% 46.2745%', '0 0% 100%')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('0 0% 46.6667%', '0 0% 100%')).toBeLessThan(4.5);
    // Pure red (#ff0000) on white: 4.00:1; pure blue (#0000ff) on white: 8.59:1.
    expect(contrastRatio('0 100% 50%', '0 0% 100%')).toBeCloseTo(4.0, 2);
    expect(contrastRatio('240 100% 50%', '0 0% 100%')).toBeCloseTo(8.59, 2);
  });

  it('module helper agrees with the reference implementation', () => {
    for (const [variant, palette] of themeTemplates.flatMap(palettesOf)) {
      for (const [fg, bg] of contrastPairs) {
        const a = palette[fg];
        const b = palette[bg];
        expect(contrastRatio(a, b), `${variant}: ${fg} on ${bg}`).toBeCloseTo(refContrast(a, b), 6);
      }
    }
  });

  it('parseHsl accepts triplets and rejects anything else', () => {
    expect(parseHsl('222.2 47.4% 11.2%')).toEqual({ h: 222.2, s: 47.4, l: 11.2 });
    expect(parseHsl('hsl(222 47% 11%)')).toBeUndefined();
    expect(parseHsl('#ffffff')).toBeUndefined();
    expect(parseHsl('361 50% 50%')).toBeUndefined();
    expect(parseHsl('0 101% 50%')).toBeUndefined();
    expect(() => contrastRatio('nope', '0 0% 100%')).toThrow();
  });
});

describe('themeTemplates', () => {
  it('has exactly 15 built-in templates', () => {
    expect(themeTemplates).toHaveLength(15);
  });

  it('has unique, URL-friendly names and non-empty display text', () => {
    const names = themeTemplates.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    const displayNames = themeTemplates.map((t) => t.displayName);
    expect(new Set(displayNames).size).toBe(displayNames.length);
    for (const t of themeTemplates) {
      expect(t.name, t.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(t.displayName.trim(), `${t.name} displayName`).not.toBe('');
      expect(t.description.trim(), `${t.name} description`).not.toBe('');
    }
  });

  it('uses only known categories, and every category at least once', () => {
    for (const t of themeTemplates) {
      expect(themeCategories, `${t.name} category`).toContain(t.category);
    }
    const used = new Set(themeTemplates.map((t) => t.category));
    for (const c of themeCategories) {
      expect(used.has(c), `category ${c} unused`).toBe(true);
    }
  });

  it('has every colour key then radius, in themeColorKeys order, then its variants with every colour key', () => {
    for (const t of themeTemplates) {
      const variants = extraVariants.filter((v) => t.cssVariables[v]);
      expect(Object.keys(t.cssVariables), t.name).toEqual([...themeColorKeys, 'radius', ...variants]);
      for (const v of variants) expect(Object.keys(t.cssVariables[v]!), `${t.name} ${v}`).toEqual([...themeColorKeys]);
    }
  });

  it('gives every light template a dark variant, and the Dark ones (dark already) none; Professional Blue keeps the warm one', () => {
    for (const t of themeTemplates) expect(Boolean(t.cssVariables.dark), t.name).toBe(t.category !== 'Dark');
    expect(themeTemplates.filter((t) => t.cssVariables.warm).map((t) => t.name)).toEqual(['professional-blue']);
  });

  it('uses valid HSL triplets (hue 0-360, saturation and lightness 0-100%)', () => {
    for (const t of themeTemplates) {
      for (const [key, value] of palettesOf(t).flatMap(([, palette]) => themeColorKeys.map((k) => [k, palette[k]] as const))) {
        const where = `${t.name}.${key} = "${value}"`;
        expect(value, where).toMatch(HSL_TRIPLET);
        const [h, s, l] = refParse(value);
        expect(h, where).toBeGreaterThanOrEqual(0);
        expect(h, where).toBeLessThanOrEqual(360);
        expect(s, where).toBeLessThanOrEqual(100);
        expect(l, where).toBeLessThanOrEqual(100);
        expect(parseHsl(value), where).toBeDefined();
      }
    }
  });

  it('uses a rem radius between 0.125rem and 0.875rem', () => {
    for (const t of themeTemplates) {
      const radius = t.cssVariables.radius;
      expect(radius, t.name).toMatch(/^\d*\.?\d+rem$/);
      const rem = Number.parseFloat(radius);
      expect(rem, `${t.name} radius ${radius}`).toBeGreaterThanOrEqual(0.125);
      expect(rem, `${t.name} radius ${radius}`).toBeLessThanOrEqual(0.875);
    }
  });

  it('uses system font stacks when typography is given', () => {
    for (const t of themeTemplates) {
      if (!t.typography) continue;
      for (const stack of [t.typography.heading, t.typography.body]) {
        expect(stack, t.name).toMatch(/, (serif|sans-serif|monospace)$/);
        expect(stack, t.name).not.toMatch(/url\(|https?:/);
      }
    }
  });

  it('gives Dark templates and dark variants dark backgrounds and the others light ones', () => {
    for (const t of themeTemplates) {
      for (const [variant, palette] of palettesOf(t)) {
        const bg = refLuminance(palette.background);
        const fg = refLuminance(palette.foreground);
        if (t.category === 'Dark' || variant === 'dark') expect(bg, `${t.name} ${variant} background`).toBeLessThan(fg);
        else expect(bg, `${t.name} ${variant} background`).toBeGreaterThan(fg);
      }
    }
  });

  describe.each(themeTemplates.flatMap((t) => palettesOf(t).map(([variant, palette]) => [`${t.name} (${variant})`, palette] as const)))(
    '%s meets WCAG 2.2 AA contrast',
    (name, palette) => {
      it.each(contrastPairs)('%s on %s >= %d', (fg, bg, min) => {
        const ratio = refContrast(palette[fg], palette[bg]);
        expect(ratio, `${name}: ${fg} (${palette[fg]}) on ${bg} (${palette[bg]}) is ${ratio.toFixed(2)}:1, needs ${min}:1`).toBeGreaterThanOrEqual(min);
      });
    },
  );
});

describe('default theme and lookup', () => {
  it('Professional Blue exists, is Professional, and is the default', () => {
    const pb = themeTemplates.find((t) => t.displayName === 'Professional Blue');
    expect(pb).toBeDefined();
    expect(pb?.category).toBe('Professional');
    expect(defaultThemeName).toBe(pb?.name);
    expect(defaultThemeName).toBe('professional-blue');
  });

  it('findThemeTemplate returns the template by name, undefined otherwise', () => {
    for (const t of themeTemplates) expect(findThemeTemplate(t.name)).toBe(t);
    expect(findThemeTemplate(defaultThemeName)?.displayName).toBe('Professional Blue');
    expect(findThemeTemplate('no-such-theme')).toBeUndefined();
    expect(findThemeTemplate('')).toBeUndefined();
    expect(findThemeTemplate('Professional Blue')).toBeUndefined();
  });
});
