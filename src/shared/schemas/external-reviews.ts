import { z } from 'zod';
import { reviewPlatformValues } from '../constants.ts';
import { isFirmDate } from '../firm-time.ts';
import { httpsUrl, requiredText } from './fields.ts';

const ratingMessage = 'Rating must be a whole number from 1 to 5';

/** The review's date as the platform shows it ('YYYY-MM-DD'); blank or missing: not given. */
const reviewedOn = z
  .string({ error: 'Date of the review must be a date' })
  .trim()
  .nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || (isFirmDate(v) && v >= '1990-01-01'), 'Date of the review must be a real date (YYYY-MM-DD), 1990 or later');

/**
 * POST /api/admin/external-reviews (issue 19: reviews the firm records from the platforms it is
 * reviewed on, instead of invented ones): who wrote it, where (SPEC §2's five platforms), the rating
 * and text as written there, and the review's own page, where a visitor can read it. Shown on the
 * home page while visible.
 */
export const externalReviewInput = z.object({
  reviewerName: requiredText('Reviewer name', 100),
  platform: z.enum(reviewPlatformValues, { error: 'Please choose the platform the review is on' }),
  rating: z.number({ error: ratingMessage }).int(ratingMessage).min(1, ratingMessage).max(5, ratingMessage),
  content: requiredText('Review text', 2000),
  reviewUrl: httpsUrl('Review page URL'),
  reviewedOn,
  isVisible: z.boolean({ error: 'Visible must be true or false' }).default(true),
});
export type ExternalReviewInput = z.input<typeof externalReviewInput>;

/** PUT /api/admin/external-reviews/{id}: any of the fields, or only isVisible to hide or show it. */
export const externalReviewUpdate = z
  .object({ ...externalReviewInput.shape, isVisible: externalReviewInput.shape.isVisible.unwrap() })
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'Nothing to update');
