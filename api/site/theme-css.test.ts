import { describe, expect, it } from 'vitest';
import { findThemeTemplate } from '../../src/shared/theme-templates.ts';
import { themeStylesheet } from './theme-css.ts';

describe('themeStylesheet', () => {
  it('sets the active theme variables and hides hidden components', () => {
    const vars = JSON.stringify(findThemeTemplate('professional-blue')!.cssVariables);
    const css = themeStylesheet(vars, [
      { componentKey: 'probate_calculator', isVisible: false },
      { componentKey: 'testimonials', isVisible: true },
      { componentKey: 'newsletter_signup', isVisible: false },
    ]);
    expect(css).toMatch(/^:root\{--background:[^;]+;--foreground:/);
    expect(css).toContain('--radius:');
    expect(css).toContain('[data-component="probate_calculator"],[data-component="newsletter_signup"]{display:none!important}');
    expect(css).not.toContain('testimonials');
  });

  it('cannot be made to carry other CSS by a stored theme or key', () => {
    const css = themeStylesheet(JSON.stringify({ background: '0 0% 100%;} body{display:none', primary: 'red', 'x;}': '1' }), [
      { componentKey: 'a"]{}*{display:none', isVisible: false },
    ]);
    expect(css).not.toContain('body');
    expect(css).not.toContain('*{');
    expect(css).toContain(':root{--primary:red}');
  });

  it('is empty but valid with nothing to say', () => {
    expect(themeStylesheet('not json', [])).toBe('\n');
  });
});
