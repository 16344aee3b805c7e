import { describe, expect, it } from 'vitest';
import { findThemeTemplate } from '../../src/shared/theme-templates.ts';
import { themeStylesheet } from './theme-css.ts';

describe('themeStylesheet', () => {
  it('sets the active theme variables', () => {
    const vars = JSON.stringify(findThemeTemplate('professional-blue')!.cssVariables);
    const css = themeStylesheet(vars);
    expect(css).toMatch(/^:root\{--background:[^;]+;--foreground:/);
    expect(css).toContain('--radius:');
    expect(css).not.toContain('display:none');
  });

  it('cannot be made to carry other CSS by a stored theme', () => {
    const css = themeStylesheet(JSON.stringify({ background: '0 0% 100%;} body{display:none', primary: 'red', 'x;}': '1' }));
    expect(css).not.toContain('body');
    expect(css).not.toContain('*{');
    expect(css).toContain(':root{--primary:red}');
  });

  it('is empty but valid with nothing to say', () => {
    expect(themeStylesheet('not json')).toBe('\n');
  });
});
