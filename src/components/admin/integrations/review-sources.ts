/**
 * Review Platforms (SPEC §2, §3 "Review source (local only)"): per platform an enabled flag and a
 * list of labelled review page URLs, held in the page only; nothing is sent. Defaults: Google, Avvo
 * and Yelp enabled, Facebook and Martindale-Hubbell disabled, one sample URL each. A URL can be
 * removed only while its platform has more than one.
 */
import { firm } from '../../../config/firm.ts';
import { reviewPlatforms as platforms, type ReviewPlatform } from '../../../shared/constants.ts';

/** The five platforms (the one list, src/shared/constants.ts), keyed as the local sources are. */
export const reviewPlatforms = platforms.map(({ value, label }) => ({ key: value, label }));

export type ReviewPlatformKey = ReviewPlatform;

/** SPEC §2: the static display shows these three as Active, whatever the local settings say. */
export const connectedPlatforms = ['Google', 'Avvo', 'Yelp'] as const;
/** SPEC §9: review auto-refresh is shown as every 24 hours (display only). */
export const AUTO_REFRESH_TEXT = 'every 24 hours';

export interface ReviewUrl {
  id: string;
  name: string;
  url: string;
}

export interface ReviewSource {
  enabled: boolean;
  urls: ReviewUrl[];
}

export type ReviewSources = Record<ReviewPlatformKey, ReviewSource>;

const slug = firm.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const query = encodeURIComponent(`${firm.name} ${firm.address.city}`);

/** SPEC §2 defaults: one sample URL per platform, the first three enabled. */
export function defaultReviewSources(): ReviewSources {
  return {
    google: { enabled: true, urls: [{ id: 'google-1', name: 'Google Business Profile', url: `https://www.google.com/maps/search/?api=1&query=${query}` }] },
    avvo: { enabled: true, urls: [{ id: 'avvo-1', name: 'Avvo firm profile', url: `https://www.avvo.com/search/lawyer_search?q=${query}` }] },
    yelp: { enabled: true, urls: [{ id: 'yelp-1', name: 'Yelp business page', url: `https://www.yelp.com/biz/${slug}-san-diego` }] },
    facebook: { enabled: false, urls: [{ id: 'facebook-1', name: 'Facebook reviews', url: `https://www.facebook.com/${slug}/reviews` }] },
    martindale: { enabled: false, urls: [{ id: 'martindale-1', name: 'Martindale-Hubbell profile', url: `https://www.martindale.com/organization/${slug}/` }] },
  };
}

export function setPlatformEnabled(sources: ReviewSources, key: ReviewPlatformKey, enabled: boolean): ReviewSources {
  return { ...sources, [key]: { ...sources[key], enabled } };
}

/** Adds an empty, labelled entry at the end; returns the new entry's id too (the form focuses it). */
export function addReviewUrl(sources: ReviewSources, key: ReviewPlatformKey, id: string): ReviewSources {
  const source = sources[key];
  return { ...sources, [key]: { ...source, urls: [...source.urls, { id, name: '', url: '' }] } };
}

export function updateReviewUrl(sources: ReviewSources, key: ReviewPlatformKey, id: string, change: Partial<Pick<ReviewUrl, 'name' | 'url'>>): ReviewSources {
  const source = sources[key];
  return { ...sources, [key]: { ...source, urls: source.urls.map((u) => (u.id === id ? { ...u, ...change } : u)) } };
}

/** SPEC §2: remove is offered only when a platform has more than one URL. */
export const canRemoveReviewUrl = (source: ReviewSource) => source.urls.length > 1;

/** Removes the entry, unless it is the platform's last one (then nothing changes). */
export function removeReviewUrl(sources: ReviewSources, key: ReviewPlatformKey, id: string): ReviewSources {
  const source = sources[key];
  if (!canRemoveReviewUrl(source)) return sources;
  return { ...sources, [key]: { ...source, urls: source.urls.filter((u) => u.id !== id) } };
}

export const enabledCount = (sources: ReviewSources) => reviewPlatforms.filter((p) => sources[p.key].enabled).length;
