import { describe, expect, it } from 'vitest';
import { externalReviewsToShow, platformsPresent, sampleExternalReviews, type ExternalReviewView } from './reviews.ts';

const firmReview = (id: string, platform: string): ExternalReviewView => ({
  id,
  platform,
  reviewerName: `Reviewer ${id}`,
  rating: 5,
  content: 'Helpful.',
  reviewUrl: `https://example.com/${id}`,
  reviewedOn: null,
});

describe("the home page's external reviews (docs/decisions/029)", () => {
  it("shows the firm's own, at most the limit, never mixed with samples", () => {
    const own = [firmReview('a', 'yelp'), firmReview('b', 'google'), firmReview('c', 'avvo')];
    expect(externalReviewsToShow(own, true, 2)).toEqual(own.slice(0, 2));
    expect(externalReviewsToShow(own, false, 12)).toEqual(own);
  });

  it('falls back on the samples only where they may be shown; otherwise shows nothing', () => {
    expect(externalReviewsToShow([], true, 12)).toBe(sampleExternalReviews);
    expect(externalReviewsToShow([], false, 12)).toEqual([]);
  });

  it('samples link to no review page (they are invented); SPEC §9: four, each rated 5, on Google, Avvo and Yelp', () => {
    expect(sampleExternalReviews).toHaveLength(4);
    for (const r of sampleExternalReviews) expect([r.rating, r.reviewUrl]).toEqual([5, null]);
    expect(platformsPresent(sampleExternalReviews)).toEqual(['google', 'avvo', 'yelp']);
  });

  it("the filter lists only the platforms present, in the platforms' order", () => {
    expect(platformsPresent([firmReview('a', 'martindale'), firmReview('b', 'yelp'), firmReview('c', 'yelp')])).toEqual(['yelp', 'martindale']);
    expect(platformsPresent([])).toEqual([]);
  });
});
