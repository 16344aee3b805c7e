import { describe, expect, it } from 'vitest';
import { externalReviewInput } from '../../../shared/schemas/external-reviews.ts';
import { externalReviewFormValues, reviewCountText, reviewPlatformOptions, type ExternalReview } from './external-review-form.ts';

const row: ExternalReview = {
  id: 'r1',
  reviewerName: 'Ana P.',
  platform: 'avvo',
  rating: 4,
  content: 'Helpful.',
  reviewUrl: 'https://www.avvo.com/review/1',
  reviewedOn: null,
  isVisible: false,
  createdAt: '2026-01-02T03:04:05.000Z',
  updatedAt: '2026-01-02T03:04:05.000Z',
};

describe('external review form', () => {
  it('starts a new review empty, rated 5 and visible; the schema then asks for every required field', () => {
    const values = externalReviewFormValues();
    expect(values).toEqual({ reviewerName: '', platform: '', rating: 5, content: '', reviewUrl: '', reviewedOn: '', isVisible: true });
    const result = externalReviewInput.safeParse(values);
    expect(result.success).toBe(false);
    expect([...new Set(result.error?.issues.map((i) => i.path[0]))].sort()).toEqual(['content', 'platform', 'reviewUrl', 'reviewerName']);
  });

  it('starts an edit from the row, without its id or dates; no date is an empty date field, sent as null', () => {
    const values = externalReviewFormValues(row);
    expect(values).toEqual({
      reviewerName: 'Ana P.',
      platform: 'avvo',
      rating: 4,
      content: 'Helpful.',
      reviewUrl: 'https://www.avvo.com/review/1',
      reviewedOn: '',
      isVisible: false,
    });
    expect(externalReviewInput.parse(values)).toMatchObject({ reviewedOn: null, isVisible: false });
  });

  it("offers SPEC's five review platforms and counts what the home page shows", () => {
    expect(reviewPlatformOptions.map((o) => o.label)).toEqual(['Google', 'Avvo', 'Yelp', 'Facebook', 'Martindale-Hubbell']);
    expect(reviewCountText([row])).toBe('1 review, 0 visible on the home page');
    expect(reviewCountText([row, { ...row, id: 'r2', isVisible: true }])).toBe('2 reviews, 1 visible on the home page');
  });
});
