/**
 * The built-in sample external reviews (SPEC §9: 4 static reviews, each rated 5, filtered by source).
 * Sample content (issue 19, docs/decisions/029): the home page shows them only where the firm has
 * recorded none of its own and SAMPLE_CONTENT allows (src/config/sample-content.ts), i.e. while
 * developing. Invented, so they link to no review page. Written for Cal. RPC 7.1: they describe the
 * client's experience, never a result; the testimonial disclaimer is shown next to them.
 */
import { reviewPlatformValues, type ReviewPlatform } from '../shared/constants.ts';

/** A review as the home page shows it: the firm's record (with its page) or a sample (without). */
export interface ExternalReviewView {
  id: string;
  /** One of the platforms of src/shared/constants.ts. */
  platform: string;
  reviewerName: string;
  rating: number;
  content: string;
  /** The review's page on its platform; null for a sample. */
  reviewUrl: string | null;
  /** 'YYYY-MM-DD', if the firm gave it. */
  reviewedOn: string | null;
}

export const sampleExternalReviews: readonly ExternalReviewView[] = [
  {
    id: 'review-google-1',
    platform: 'google',
    reviewerName: 'Stephanie L.',
    rating: 5,
    content: 'Responsive, patient and clear. They explained my options during my divorce and always returned my calls the same day.',
    reviewUrl: null,
    reviewedOn: null,
  },
  {
    id: 'review-avvo-1',
    platform: 'avvo',
    reviewerName: 'Mark D.',
    rating: 5,
    content: 'Our estate plan was explained step by step, and the fees were clear from the first meeting. We finally feel organized.',
    reviewUrl: null,
    reviewedOn: null,
  },
  {
    id: 'review-yelp-1',
    platform: 'yelp',
    reviewerName: 'Rosa M.',
    rating: 5,
    content: 'Friendly staff and a calm, professional office. They made a stressful custody matter feel manageable.',
    reviewUrl: null,
    reviewedOn: null,
  },
  {
    id: 'review-google-2',
    platform: 'google',
    reviewerName: 'Alan K.',
    rating: 5,
    content: 'As a first-time trustee I had many questions. Every one of them got a thoughtful answer, usually within a day.',
    reviewUrl: null,
    reviewedOn: null,
  },
];

/**
 * What the home page's external-review section shows: the firm's visible reviews (at most `limit`);
 * with none, the samples where they may be shown; otherwise nothing (the section is left out).
 */
export function externalReviewsToShow(firmReviews: readonly ExternalReviewView[], samplesShown: boolean, limit: number): readonly ExternalReviewView[] {
  if (firmReviews.length) return firmReviews.slice(0, limit);
  return samplesShown ? sampleExternalReviews : [];
}

/** The filter's choices (SPEC §9: all, then the sources): only platforms some shown review is on, in the platforms' order. */
export function platformsPresent(reviews: readonly ExternalReviewView[]): ReviewPlatform[] {
  const present = new Set(reviews.map((r) => r.platform));
  return reviewPlatformValues.filter((p) => present.has(p));
}
