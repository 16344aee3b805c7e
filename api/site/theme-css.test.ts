import { describe, expect, it } from 'vitest';
import { findThemeTemplate } from '../../src/shared/theme-templates.ts';
import { themeStylesheet } from './theme-css.ts';

describe('themeStylesheet', () => {
  it('sets the light palette on :root and each variant the theme defines on its own class', () => {
    const blue = findThemeTemplate('professional-blue')!.cssVariables;
    const css = themeStylesheet(JSON.stringify(blue));
    const [light, dark, warm, rest] = css.split('\n');
    expect(light).toMatch(/^:root\{color-scheme:light;--site-theme-variants:light dark warm;--radius:0\.5rem;--background:0 0% 100%;--foreground:/);
    expect(dark).toMatch(/^:root\.dark\{color-scheme:dark;--background:222 47% 8%;/);
    expect(dark).toContain(`--primary:${blue.dark!.primary}`);
    expect(warm).toMatch(/^:root\.warm\{color-scheme:light;--background:38 45% 95%;/);
    expect(rest).toBe('');
    expect(css).not.toContain('display:none');
  });

  it('offers only light for a theme without variants, and a dark theme is dark for the browser too', () => {
    const navy = findThemeTemplate('midnight-navy')!.cssVariables;
    const css = themeStylesheet(JSON.stringify(navy));
    expect(css).toMatch(/^:root\{color-scheme:dark;--site-theme-variants:light;/);
    expect(css).not.toContain(':root.');
    expect(css.trim().split('\n')).toHaveLength(1);
  });

  it('writes only the colours a variant sets (the rest are the light ones), with its own colour scheme', () => {
    const css = themeStylesheet(JSON.stringify({ background: '0 0% 100%', primary: '217 71% 30%', dark: { primary: '213 90% 70%' } }));
    expect(css).toBe(
      ':root{color-scheme:light;--site-theme-variants:light dark;--background:0 0% 100%;--primary:217 71% 30%}\n:root.dark{color-scheme:light;--primary:213 90% 70%}\n',
    );
  });

  it('cannot be made to carry other CSS by a stored theme', () => {
    const css = themeStylesheet(
      JSON.stringify({
        background: '0 0% 100%;} body{display:none',
        primary: 'red',
        foreground: '0 0% 9%',
        'x;}': '1',
        radius: '1rem;}*{',
        dark: { background: '0 0% 0%}body{', 'y}{': '1', ring: '0 0% 50%' },
        warm: 'not a palette',
        'dark}{': { primary: '0 0% 0%' },
      }),
    );
    expect(css).toBe(':root{--site-theme-variants:light dark;--foreground:0 0% 9%}\n:root.dark{--ring:0 0% 50%}\n');
    expect(css).not.toMatch(/body|\*\{|red/);
  });

  it('is valid with nothing to say: light only', () => {
    expect(themeStylesheet('not json')).toBe(':root{--site-theme-variants:light}\n');
    expect(themeStylesheet('[1,2]')).toBe(':root{--site-theme-variants:light}\n');
  });
});
