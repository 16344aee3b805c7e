import { describe, expect, it } from 'vitest';
import { builtForAnotherOrigin } from './site.ts';

describe('builtForAnotherOrigin', () => {
  const page = (href: string) => `<html><head><link rel="canonical" href="${href}"></head></html>`;

  it('says when the build named another origin than SITE_URL, and how to mend it', () => {
    expect(builtForAnotherOrigin(page('http://localhost:4321/about'), 'https://www.example-firm.com')).toBe(
      'the site was built for http://localhost:4321 but SITE_URL is https://www.example-firm.com: canonical URLs, link previews, the feed and the sitemap name http://localhost:4321; run npm run build with SITE_URL=https://www.example-firm.com',
    );
  });

  it('is quiet when they agree (paths and a trailing slash aside), or when the page names none', () => {
    expect(builtForAnotherOrigin(page('https://www.example-firm.com/about'), 'https://www.example-firm.com/')).toBeNull();
    expect(builtForAnotherOrigin('<html></html>', 'https://www.example-firm.com')).toBeNull();
  });
});
