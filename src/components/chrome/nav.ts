/**
 * SPEC §2 shared chrome: the site's navigation, one list for the header, the mobile menu and the
 * footer. Browser-safe (the mobile menu island imports it).
 */
import type { ComponentKey } from '../../shared/constants.ts';

export interface NavLink {
  href: string;
  label: string;
  /** The site component the link leads to: gone while an admin hides it (Hideable.astro). */
  component?: ComponentKey;
}

export const mainNav: readonly NavLink[] = [
  { href: '/', label: 'Home' },
  { href: '/about', label: 'About' },
  { href: '/attorneys', label: 'Attorneys' },
  { href: '/practice-areas', label: 'Practice Areas' },
  { href: '/probate-calculator', label: 'Calculator', component: 'probate_calculator' },
  { href: '/blog', label: 'News' },
  { href: '/contact', label: 'Contact' },
];

export const practiceAreaNav: readonly NavLink[] = [
  { href: '/practice-areas/family-law', label: 'Family Law' },
  { href: '/practice-areas/estate-planning', label: 'Estate Planning' },
  { href: '/practice-areas#trust-administration', label: 'Trust Administration' },
  { href: '/probate-calculator', label: 'Probate Calculator', component: 'probate_calculator' },
];

/** Section prefixes that belong to a link without sharing its path (SPEC §2: external articles are News). */
const sectionAliases: Record<string, string> = { '/external-articles': '/blog' };

/**
 * How a link of `mainNav` relates to the page at `pathname`: 'page' for the page itself (Home only
 * exactly), 'true' for its section (/practice-areas/family-law is under Practice Areas, /blog/a-post
 * under News), undefined otherwise. The value is used as aria-current.
 */
export function navCurrent(href: string, pathname: string): 'page' | 'true' | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === href) return 'page';
  if (href === '/') return undefined;
  const sectionOf = (p: string) => Object.entries(sectionAliases).find(([prefix]) => p === prefix || p.startsWith(`${prefix}/`))?.[1];
  if (path.startsWith(`${href}/`) || sectionOf(path) === href) return 'true';
  return undefined;
}
