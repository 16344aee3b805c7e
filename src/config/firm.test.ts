import { describe, expect, it } from 'vitest';
import { firm, MAX_TITLE_LENGTH, titleWithFirm } from './firm.ts';

describe('titleWithFirm', () => {
  it('names the firm after the title while both fit in a search result, and leaves it out past that', () => {
    expect(titleWithFirm('Legal News')).toBe(`Legal News | ${firm.name}`);
    const fits = 'x'.repeat(MAX_TITLE_LENGTH - ` | ${firm.name}`.length);
    expect(titleWithFirm(fits)).toBe(`${fits} | ${firm.name}`);
    expect(titleWithFirm(`${fits}y`)).toBe(`${fits}y`);
  });
});
