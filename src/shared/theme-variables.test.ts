import { describe, expect, it } from 'vitest';
import { colourScheme, contrastRatio, definedVariants, hexToHsl, hslToHex, isHslTriplet, isRadius, themePalettes } from './theme-variables.ts';

describe('hex and HSL triplets (the colour pickers)', () => {
  it('converts known colours both ways', () => {
    expect(hslToHex('0 0% 100%')).toBe('#ffffff');
    expect(hslToHex('0 0% 0%')).toBe('#000000');
    expect(hslToHex('0 100% 50%')).toBe('#ff0000');
    expect(hslToHex('240 100% 50%')).toBe('#0000ff');
    expect(hslToHex('120 100% 25%')).toBe('#008000');
    expect(hexToHsl('#ffffff')).toBe('0 0% 100%');
    expect(hexToHsl('#FF0000')).toBe('0 100% 50%');
    expect(hexToHsl('#008000')).toBe('120 100% 25.1%');
    expect(hexToHsl('#1e3a8a')).toBe('224.4 64.3% 32.9%');
    expect(hexToHsl('abc')).toBe(hexToHsl('#aabbcc'));
  });

  it('gives back the same hex for every colour a picker can send (a sample of the cube)', () => {
    for (let r = 0; r < 256; r += 15)
      for (let g = 0; g < 256; g += 17)
        for (let b = 0; b < 256; b += 13) {
          const hex = `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
          const hsl = hexToHsl(hex)!;
          expect(isHslTriplet(hsl), `${hex} -> ${hsl}`).toBe(true);
          expect(hslToHex(hsl), `${hex} -> ${hsl}`).toBe(hex);
        }
  });

  it('refuses what is not a colour', () => {
    for (const bad of ['', '#12345', '#gggggg', 'red', '#1234567', 'url(x)']) expect(hexToHsl(bad), bad).toBeUndefined();
    for (const bad of ['', 'red', '361 50% 50%', '0 101% 50%', 'hsl(0 0% 0%)']) expect(hslToHex(bad), bad).toBeUndefined();
  });
});

describe('contrast (the editor warns under 4.5:1)', () => {
  it('matches the WCAG reference values', () => {
    expect(contrastRatio('0 0% 0%', '0 0% 100%')).toBeCloseTo(21, 5);
    expect(contrastRatio(hexToHsl('#767676')!, '0 0% 100%')).toBeCloseTo(4.54, 2);
    expect(contrastRatio(hexToHsl('#777777')!, '0 0% 100%')).toBeLessThan(4.5);
  });

  it('says which colour scheme a background asks of the browser', () => {
    expect(colourScheme('0 0% 100%')).toBe('light');
    expect(colourScheme('222 47% 9%')).toBe('dark');
    expect(colourScheme(undefined)).toBeUndefined();
    expect(colourScheme('red')).toBeUndefined();
  });
});

describe('themePalettes (what /theme.css and the preview wear)', () => {
  it('splits the light palette, the radius and the variants', () => {
    const palettes = themePalettes({ background: '0 0% 100%', radius: '0.5rem', dark: { background: '0 0% 5%' }, warm: {} });
    expect(palettes).toEqual({ light: { background: '0 0% 100%' }, radius: '0.5rem', dark: { background: '0 0% 5%' } });
    expect(definedVariants(palettes)).toEqual(['light', 'dark']);
  });

  it('keeps only known colours with plain values, whatever it is given', () => {
    expect(themePalettes({ background: '0 0% 100%;}', card: 5, 'x;}': '1', radius: '2rem', dark: 'x', warm: [{ background: '0 0% 0%' }] })).toEqual({
      light: {},
    });
    for (const odd of [null, undefined, 'text', 42, ['a']]) expect(themePalettes(odd)).toEqual({ light: {} });
  });

  it('checks values as the schema does', () => {
    expect(isHslTriplet('222.2 47.4% 11.2%')).toBe(true);
    expect(isHslTriplet(' 222 47% 11%')).toBe(false);
    expect(isRadius('0.125rem')).toBe(true);
    expect(isRadius('0.9rem')).toBe(false);
    expect(isRadius('.5rem')).toBe(true);
  });
});
