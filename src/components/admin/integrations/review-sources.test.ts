import { describe, expect, it } from 'vitest';
import {
  addReviewUrl,
  canRemoveReviewUrl,
  defaultReviewSources,
  enabledCount,
  removeReviewUrl,
  reviewPlatforms,
  setPlatformEnabled,
  updateReviewUrl,
} from './review-sources.ts';

describe('SPEC §2 Review Platforms (local only)', () => {
  it('has five platforms; Google, Avvo and Yelp enabled, Facebook and Martindale-Hubbell disabled; one sample URL each', () => {
    expect(reviewPlatforms.map((p) => p.label)).toEqual(['Google', 'Avvo', 'Yelp', 'Facebook', 'Martindale-Hubbell']);
    const sources = defaultReviewSources();
    expect(reviewPlatforms.map((p) => sources[p.key].enabled)).toEqual([true, true, true, false, false]);
    for (const p of reviewPlatforms) {
      expect(sources[p.key].urls).toHaveLength(1);
      expect(sources[p.key].urls[0]!.name).not.toBe('');
      expect(sources[p.key].urls[0]!.url).toMatch(/^https:\/\//);
    }
    expect(enabledCount(sources)).toBe(3);
  });

  it('enables and disables a platform without touching the others', () => {
    const sources = setPlatformEnabled(setPlatformEnabled(defaultReviewSources(), 'facebook', true), 'google', false);
    expect(sources.facebook.enabled).toBe(true);
    expect(sources.google.enabled).toBe(false);
    expect(sources.avvo.enabled).toBe(true);
  });

  it('adds, edits and removes URLs; the last URL of a platform cannot be removed', () => {
    const start = defaultReviewSources();
    expect(canRemoveReviewUrl(start.yelp)).toBe(false);
    expect(removeReviewUrl(start, 'yelp', 'yelp-1')).toBe(start);

    let sources = addReviewUrl(start, 'yelp', 'new-1');
    expect(sources.yelp.urls.map((u) => u.id)).toEqual(['yelp-1', 'new-1']);
    expect(canRemoveReviewUrl(sources.yelp)).toBe(true);
    sources = updateReviewUrl(sources, 'yelp', 'new-1', { name: 'Second location' });
    sources = updateReviewUrl(sources, 'yelp', 'new-1', { url: 'https://www.yelp.com/biz/second' });
    expect(sources.yelp.urls[1]).toEqual({ id: 'new-1', name: 'Second location', url: 'https://www.yelp.com/biz/second' });

    sources = removeReviewUrl(sources, 'yelp', 'yelp-1');
    expect(sources.yelp.urls.map((u) => u.id)).toEqual(['new-1']);
    expect(canRemoveReviewUrl(sources.yelp)).toBe(false);
    // The defaults were not changed underneath.
    expect(start.yelp.urls).toHaveLength(1);
    expect(defaultReviewSources().yelp.urls[0]!.id).toBe('yelp-1');
  });
});
