/**
 * The external review form's data (docs/decisions/029; POST/PUT /api/admin/external-reviews): the
 * admin list's row, the form's starting values and its choices. Validation is the payload schema the
 * server uses (src/shared/schemas/external-reviews.ts).
 */
import { reviewPlatforms } from '../../../shared/constants.ts';
import type { adminQueries, Row } from '../admin-api.ts';

/** A row of GET /api/admin/external-reviews, as the route answers it (dates as ISO strings). */
export type ExternalReview = Row<typeof adminQueries.externalReviews>;

export interface ExternalReviewFormValues {
  reviewerName: string;
  /** '' until one is chosen. */
  platform: string;
  rating: number;
  content: string;
  reviewUrl: string;
  /** 'YYYY-MM-DD' (a date input's value), or '' when not given. */
  reviewedOn: string;
  isVisible: boolean;
}

/** A new review starts empty, rated 5 and visible; an edit starts from the row. */
export function externalReviewFormValues(row?: ExternalReview | null): ExternalReviewFormValues {
  if (!row) return { reviewerName: '', platform: '', rating: 5, content: '', reviewUrl: '', reviewedOn: '', isVisible: true };
  const { reviewerName, platform, rating, content, reviewUrl, reviewedOn, isVisible } = row;
  return { reviewerName, platform, rating, content, reviewUrl, reviewedOn: reviewedOn ?? '', isVisible };
}

export const reviewPlatformOptions = reviewPlatforms.map(({ value, label }) => ({ value, label }));

/** How many reviews the home page shows (the visible ones). */
export const visibleCount = (rows: readonly ExternalReview[]) => rows.filter((r) => r.isVisible).length;

/** 'Visible on the home page' / 'Hidden': what a review's badge and toggle say. */
export const visibilityText = (isVisible: boolean) => (isVisible ? 'Visible' : 'Hidden');

/** The list's heading: '3 reviews, 2 visible on the home page'. */
export function reviewCountText(rows: readonly ExternalReview[]): string {
  return `${rows.length} review${rows.length === 1 ? '' : 's'}, ${visibleCount(rows)} visible on the home page`;
}
