import { describe, expect, it } from 'vitest';
import { articleCardPng, CARD_HEIGHT, CARD_WIDTH } from './og-card.ts';

const size = (png: Buffer) => [png.readUInt32BE(16), png.readUInt32BE(20)];

describe('articleCardPng', () => {
  it('draws a 1200 x 630 PNG per article: another title or date, another card', async () => {
    const card = { title: 'Trust Administration in California', category: 'Trust Administration', date: 'March 4, 2026' };
    const png = await articleCardPng(card);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(size(png)).toEqual([CARD_WIDTH, CARD_HEIGHT]);
    expect((await articleCardPng(card)).equals(png)).toBe(true);
    expect((await articleCardPng({ ...card, title: 'Another title' })).equals(png)).toBe(false);
    expect((await articleCardPng({ ...card, date: null })).equals(png)).toBe(false);
  });

  it('fits a title of any length on the card', async () => {
    for (const title of ['A', 'x'.repeat(500), 'Ünïcödé & <markup> "quotes" — 日本語']) {
      expect(size(await articleCardPng({ title, category: 'Probate', date: null }))).toEqual([CARD_WIDTH, CARD_HEIGHT]);
    }
  });
});
