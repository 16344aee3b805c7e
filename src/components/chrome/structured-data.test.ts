import { describe, expect, it } from 'vitest';
import { breadcrumbJsonLd } from './structured-data.ts';

const site = new URL('https://www.example-firm.com');
const names = (path: string, name = 'A Page') => breadcrumbJsonLd(path, name, site)?.itemListElement.map((c) => `${c.position} ${c.name} ${c.item}`);

describe('breadcrumbJsonLd', () => {
  it('gives each page its trail from Home, by the navigation names, with absolute URLs', () => {
    expect(names('/about')).toEqual(['1 Home https://www.example-firm.com/', '2 About https://www.example-firm.com/about']);
    expect(names('/practice-areas/family-law/')).toEqual([
      '1 Home https://www.example-firm.com/',
      '2 Practice Areas https://www.example-firm.com/practice-areas',
      '3 Family Law https://www.example-firm.com/practice-areas/family-law',
    ]);
    // An article sits under News, named by its title; a later page of the list too (no page at /blog/page).
    expect(names('/blog/living-trusts', 'Living Trusts in California')).toEqual([
      '1 Home https://www.example-firm.com/',
      '2 News https://www.example-firm.com/blog',
      '3 Living Trusts in California https://www.example-firm.com/blog/living-trusts',
    ]);
    expect(names('/blog/page/2', 'News, page 2')).toHaveLength(3);
    expect(breadcrumbJsonLd('/privacy', 'x', site)).toMatchObject({ '@context': 'https://schema.org', '@type': 'BreadcrumbList' });
  });

  it('has none for the home page', () => {
    expect(breadcrumbJsonLd('/', 'Home', site)).toBeNull();
  });
});
