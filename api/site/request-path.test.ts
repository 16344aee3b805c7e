import { describe, expect, it } from 'vitest';
import { pathnameOf } from './request-path.ts';

/** What the WHATWG URL parser makes of a request target: the rule pathnameOf must keep. */
const parsed = (target: string) => URL.parse(target, 'http://site')?.pathname ?? null;

describe('pathnameOf', () => {
  it('gives what the URL parser gives, for plain paths and for every kind it hands to the parser', () => {
    const targets = [
      '/',
      '/about',
      '/blog/',
      '/blog/page/2',
      '/_astro/index.B1x-9_~a.js',
      '/favicon.ico',
      '/sitemap-0.xml',
      '/blog/some-article?utm=1',
      '/a/./b',
      '/a/../b',
      '/a/%2e%2e/b',
      '/a//b',
      '/a\\b',
      '/ä',
      '/a/b..c',
      '/a/.hidden',
      '/a/b.',
      '/a#x',
      '/a;b',
      '/a b',
      '/A/B',
      '/..',
      '/.',
      '/a/..',
    ];
    for (const target of targets) expect(pathnameOf(target), target).toBe(parsed(target));
  });

  it('is null where no URL can be made of the target, and "/" for none', () => {
    expect(pathnameOf('//')).toBe(parsed('//'));
    expect(pathnameOf('/\\')).toBe(parsed('/\\'));
    expect(pathnameOf(undefined)).toBe('/');
  });

  it('answers a long hostile target (no backtracking blow-up: a test timeout would say so)', () => {
    const hostile = `/${'a'.repeat(50_000)}!`;
    expect(pathnameOf(hostile)).toBe(parsed(hostile));
    const dotted = `/${'a.'.repeat(25_000)}/`;
    expect(pathnameOf(dotted)).toBe(parsed(dotted));
  });
});
