/**
 * schema.org data for search engines (JSON-LD through BaseLayout's `jsonLd` prop), built from the
 * firm's facts so that it always matches what the page shows. Each object `satisfies` its type in
 * schema-dts (Google's typings of the schema.org vocabulary), so a misspelt type or property, or a
 * value of the wrong kind, fails `npm run typecheck`.
 */
import type { BlogPosting, BreadcrumbList, LegalService, Person, PostalAddress, WithContext } from 'schema-dts';
import { firm } from '../../config/firm.ts';
import type { AttorneyProfile } from '../../content/attorneys.ts';

const postalAddress: PostalAddress = {
  '@type': 'PostalAddress',
  streetAddress: firm.address.street,
  addressLocality: firm.address.city,
  addressRegion: firm.address.region,
  postalCode: firm.address.postalCode,
  addressCountry: firm.address.country,
};

/** The firm's stable identifier in the graph, so people and pages can point at it. */
export const firmId = (site: URL | undefined) => new URL('/#firm', site).href;

/** The firm as a LegalService (schema.org's type for law firms; `Attorney` is its deprecated alias). */
export function legalServiceJsonLd(site: URL | undefined) {
  return {
    '@context': 'https://schema.org',
    '@type': 'LegalService',
    '@id': firmId(site),
    name: firm.name,
    legalName: firm.legalName,
    url: new URL('/', site).href,
    telephone: firm.phoneHref.replace(/^tel:/, ''),
    email: firm.email,
    address: postalAddress,
    // SPEC §9 hours; Saturday is by appointment only, so it is not an opening hour.
    openingHours: 'Mo-Fr 08:00-18:00',
    openingHoursSpecification: [
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
        opens: '08:00',
        closes: '18:00',
      },
    ],
    areaServed: { '@type': 'AdministrativeArea', name: 'San Diego County' },
    knowsAbout: ['Family law', 'Estate planning', 'Trust administration', 'Probate'],
  } satisfies WithContext<LegalService>;
}

/**
 * One attorney. schema.org's `Attorney` type is a business (a LocalBusiness subtype, deprecated in
 * favour of LegalService), so a lawyer is a Person whose occupation is Attorney and who works for
 * the firm. No aggregateRating: self-declared review scores are not eligible structured data.
 */
export function attorneyJsonLd(attorney: AttorneyProfile, site: URL | undefined) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Person',
    '@id': new URL(`/attorneys#${attorney.slug}`, site).href,
    name: attorney.name,
    jobTitle: attorney.title,
    hasOccupation: { '@type': 'Occupation', name: 'Attorney' },
    url: new URL(`/attorneys#${attorney.slug}`, site).href,
    worksFor: { '@type': 'LegalService', '@id': firmId(site), name: firm.name },
    alumniOf: attorney.education.map((e) => ({ '@type': 'CollegeOrUniversity', name: e.school })),
    knowsAbout: attorney.specialties,
    workLocation: { '@type': 'Place', address: postalAddress },
  } satisfies WithContext<Person>;
}

/** Names of the pages a breadcrumb passes through (the navigation's own labels). */
const crumbNames: Record<string, string> = {
  '/about': 'About',
  '/attorneys': 'Attorneys',
  '/practice-areas': 'Practice Areas',
  '/practice-areas/family-law': 'Family Law',
  '/practice-areas/estate-planning': 'Estate Planning',
  '/probate-calculator': 'Probate Calculator',
  '/blog': 'News',
  '/external-articles': 'News From Around the Web',
  '/contact': 'Contact',
  '/privacy': 'Privacy Policy',
  '/terms': 'Terms of Service',
};

/**
 * The page's place in the site as a schema.org BreadcrumbList: Home, each section its path passes
 * through, then the page itself: by its navigation name, or else `name` (an article's title). Blog
 * pages sit under News (/blog/page/2 included). Null for the home page, which has no trail.
 */
export function breadcrumbJsonLd(pathname: string, name: string, site: URL | undefined) {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return null;
  const parts = path.split('/').filter(Boolean);
  const trail: { name: string; path: string }[] = [{ name: 'Home', path: '/' }];
  // The sections above the page, by their navigation names; one without a page of its own (/blog/page) is passed by.
  for (let i = 1; i < parts.length; i++) {
    const prefix = `/${parts.slice(0, i).join('/')}`;
    if (crumbNames[prefix]) trail.push({ name: crumbNames[prefix], path: prefix });
  }
  trail.push({ name: crumbNames[path] ?? name, path });
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((crumb, i) => ({ '@type': 'ListItem', position: i + 1, name: crumb.name, item: new URL(crumb.path, site).href })),
  } satisfies WithContext<BreadcrumbList>;
}

/** An article: the firm as publisher, and as author when it wrote it (else the person named). */
export function blogPostingJsonLd(
  article: {
    title: string;
    /** The post's SEO description, or its excerpt. */
    description: string;
    publishedAt: string | null;
    updatedAt: string | null;
    author: string;
    section: string;
    /** Its featured image, or its link-preview card (absolute). */
    image?: string | undefined;
  },
  url: string,
  site: URL | undefined,
) {
  const organization = { '@type': 'Organization', name: firm.name, url: new URL('/', site).href } as const;
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: article.title,
    description: article.description,
    ...(article.image ? { image: article.image } : {}),
    ...(article.publishedAt ? { datePublished: article.publishedAt } : {}),
    ...(article.updatedAt ? { dateModified: article.updatedAt } : {}),
    author: article.author === firm.name ? organization : { '@type': 'Person', name: article.author },
    publisher: organization,
    articleSection: article.section,
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    url,
  } satisfies WithContext<BlogPosting>;
}
