/**
 * What the admin says of sample content (issue 19, docs/decisions/029). The admin page passes, when
 * rendered, how many built-in samples the public site would show where the firm has none of its own,
 * or null when SAMPLE_CONTENT keeps them off (src/config/sample-content.ts, the switch the public
 * pages read). The screens that list testimonials, posts and external reviews then say plainly when
 * the site is showing samples instead of the firm's own.
 */
import { createContext, useContext } from 'react';

export interface SampleCounts {
  testimonials: number;
  articles: number;
  reviews: number;
}

export const SampleContentContext = createContext<SampleCounts | null>(null);

/** The built-in samples the public site may show, or null when they are off. */
export const useSampleContent = () => useContext(SampleContentContext);

export type SampleKind = keyof SampleCounts;

const nouns: Record<SampleKind, [string, string]> = {
  testimonials: ['testimonial', 'testimonials'],
  articles: ['article', 'articles'],
  reviews: ['review', 'reviews'],
};
const why: Record<SampleKind, string> = {
  testimonials: 'none here is published yet',
  articles: 'no post here is published yet',
  reviews: 'none here is visible yet',
};
const where: Record<SampleKind, string> = { testimonials: 'The site', articles: 'The site', reviews: 'The home page' };

/**
 * The note for a screen whose public counterpart shows the built-in samples: with samples on and
 * nothing of the firm's shown (`firmShown` 0), e.g. 'The site is showing 3 built-in sample
 * testimonials because none here is published yet. …'; otherwise null.
 */
export function samplesShownText(kind: SampleKind, counts: SampleCounts | null, firmShown: number): string | null {
  const count = counts?.[kind] ?? 0;
  if (!count || firmShown > 0) return null;
  const noun = nouns[kind][count === 1 ? 0 : 1];
  return `${where[kind]} is showing ${count} built-in sample ${noun} because ${why[kind]}. They are for development and are off in production (SAMPLE_CONTENT).`;
}

/** The note over a list holding rows the seed wrote for development (marked Sample), or null. */
export function seededSamplesText(kind: 'testimonials' | 'articles', samples: number): string | null {
  if (!samples) return null;
  const noun = kind === 'testimonials' ? (samples === 1 ? 'testimonial' : 'testimonials') : samples === 1 ? 'post' : 'posts';
  return `${samples} ${noun} marked Sample ${samples === 1 ? 'was' : 'were'} written by the setup for development, not by clients or the firm. While published, the site shows them like the firm's own: rewrite them or delete them before the site goes live.`;
}
