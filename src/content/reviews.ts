/**
 * The external-review section of the home page (SPEC §9): 4 static reviews, each rated 5, filtered
 * by source (all, Google Reviews, Avvo, Yelp). Written for Cal. RPC 7.1: they describe the client's
 * experience, never a result; the testimonial disclaimer is shown next to them.
 */
export const reviewSources = ['Google Reviews', 'Avvo', 'Yelp'] as const;
export type ReviewSource = (typeof reviewSources)[number];

export interface ExternalReview {
  id: string;
  source: ReviewSource;
  reviewer: string;
  rating: number;
  text: string;
}

export const externalReviews: readonly ExternalReview[] = [
  {
    id: 'review-google-1',
    source: 'Google Reviews',
    reviewer: 'Stephanie L.',
    rating: 5,
    text: 'Responsive, patient and clear. They explained my options during my divorce and always returned my calls the same day.',
  },
  {
    id: 'review-avvo-1',
    source: 'Avvo',
    reviewer: 'Mark D.',
    rating: 5,
    text: 'Our estate plan was explained step by step, and the fees were clear from the first meeting. We finally feel organized.',
  },
  {
    id: 'review-yelp-1',
    source: 'Yelp',
    reviewer: 'Rosa M.',
    rating: 5,
    text: 'Friendly staff and a calm, professional office. They made a stressful custody matter feel manageable.',
  },
  {
    id: 'review-google-2',
    source: 'Google Reviews',
    reviewer: 'Alan K.',
    rating: 5,
    text: 'As a first-time trustee I had many questions. Every one of them got a thoughtful answer, usually within a day.',
  },
];
