import { describe, expect, it } from 'vitest';
import { isSlug, slugify } from './slug.ts';

describe('slugify (SPEC §5)', () => {
  it.each([
    ['Hello World', 'hello-world'],
    ['UPPER lower MiXeD', 'upper-lower-mixed'],
    ["Probate vs. Trust: What's Best?", 'probate-vs-trust-whats-best'],
    ['2025 Tax Changes for Estates', '2025-tax-changes-for-estates'],
    ['under_score & ampersand', 'underscore-ampersand'],
    ['a/b\\c|d', 'abcd'],
  ])('lowercases and strips all but letters, digits, spaces and hyphens: %j -> %j', (input, slug) => {
    expect(slugify(input)).toBe(slug);
  });

  it.each([
    ['many    spaces', 'many-spaces'],
    ['tab\tand\nnewline\r\nand\u00a0nbsp', 'tab-and-newline-and-nbsp'],
    ['a -- b', 'a-b'],
    ['a---b', 'a-b'],
    ['a - - b', 'a-b'],
    ['symbols !! between', 'symbols-between'],
  ])('turns whitespace runs into one hyphen and collapses repeated hyphens: %j -> %j', (input, slug) => {
    expect(slugify(input)).toBe(slug);
  });

  it.each([
    ['  leading and trailing  ', 'leading-and-trailing'],
    ['-leading-hyphen', 'leading-hyphen'],
    ['trailing hyphen-', 'trailing-hyphen'],
    ['---both---', 'both'],
    ['?? Question first', 'question-first'],
    ['Ends with a question?', 'ends-with-a-question'],
  ])('never starts or ends with a hyphen: %j -> %j', (input, slug) => {
    expect(slugify(input)).toBe(slug);
  });

  it.each([
    ['Café Résumé', 'cafe-resume'],
    ['Crème Brûlée', 'creme-brulee'],
    ['São Paulo Niño', 'sao-paulo-nino'],
    ['Straße', 'strasse'],
    ['Ægir Ørsted Łódź', 'aegir-orsted-lodz'],
    ['İstanbul', 'istanbul'],
    ['ﬁne print １２３', 'fine-print-123'],
    ['日本語 Guide', 'guide'],
    ['Развод в Калифорнии', ''],
    ['🏠 Home 🏡 Sweet', 'home-sweet'],
  ])('folds accented Latin letters to ASCII and strips letters with no ASCII form: %j -> %j', (input, slug) => {
    expect(slugify(input)).toBe(slug);
  });

  it('gives an empty slug when nothing is left', () => {
    for (const input of ['', '   ', '---', '!!! ???', '日本語']) expect(slugify(input), input).toBe('');
  });

  it('always gives a valid slug (or empty), and is idempotent', () => {
    for (const input of ['Hello World', '  --Mixed__Case!! 42--', 'Café  --  Résumé', 'a\u00a0b', 'x'.repeat(50) + ' y', 'ÀÉÎÕÜ ß']) {
      const slug = slugify(input);
      expect(slug === '' || isSlug(slug), `${input} -> ${slug}`).toBe(true);
      expect(slugify(slug)).toBe(slug);
    }
  });
});

describe('isSlug', () => {
  it('accepts lowercase letters and digits joined by single hyphens', () => {
    for (const slug of ['a', 'hello', 'hello-world', 'a1-2b-c3', '2025', 'probate-vs-trust']) expect(isSlug(slug), slug).toBe(true);
  });

  it('rejects anything else', () => {
    for (const slug of ['', '-', '-a', 'a-', 'a--b', 'Hello', 'a b', 'a_b', 'a/b', 'a.b', 'café', ' a', 'a\n']) {
      expect(isSlug(slug), JSON.stringify(slug)).toBe(false);
    }
  });
});
