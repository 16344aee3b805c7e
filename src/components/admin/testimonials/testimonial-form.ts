/**
 * The testimonial form's data (SPEC §3 testimonials, §5 defaults, §7 POST/PUT /api/admin/testimonials):
 * the admin list's row, the form's starting values and its choices. Validation is the payload schema
 * the server uses (src/shared/schemas/testimonials.ts).
 */
import { practiceAreaLabels, testimonialPracticeAreas } from '../../../shared/constants.ts';
import type { adminQueries, Row } from '../admin-api.ts';

/** A row of GET /api/admin/testimonials, as the route answers it (dates as ISO strings). */
export type Testimonial = Row<typeof adminQueries.testimonials>;

export interface TestimonialFormValues {
  clientName: string;
  rating: number;
  content: string;
  /** '' until one is chosen: SPEC gives no default practice area. */
  practiceArea: string;
  isPublished: boolean;
}

export const MAX_RATING = 5;

/** SPEC §5: a new testimonial starts at rating 5, published. An edit starts from the row. */
export function testimonialFormValues(row?: Testimonial | null): TestimonialFormValues {
  if (!row) return { clientName: '', rating: MAX_RATING, content: '', practiceArea: '', isPublished: true };
  const { clientName, rating, content, practiceArea, isPublished } = row;
  return { clientName, rating, content, practiceArea, isPublished };
}

/** SPEC §9: rating choices are 1-5 (best first in the menu). */
export const ratingChoices = [5, 4, 3, 2, 1] as const;

export const ratingText = (rating: number) => `${rating} out of ${MAX_RATING} stars`;

/** SPEC §9 Testimonial practice areas, with their labels. */
export const testimonialPracticeAreaOptions = testimonialPracticeAreas.map((value) => ({ value, label: practiceAreaLabels[value] ?? value }));

export { practiceAreaLabel } from '../../../shared/constants.ts';
