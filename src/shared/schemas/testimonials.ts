import { z } from 'zod';
import { testimonialPracticeAreas } from '../constants.ts';
import { requiredText } from './fields.ts';

/** POST /api/admin/testimonials (SPEC §7). Defaults: rating 5, published (SPEC §5). */
export const testimonialInput = z.object({
  clientName: requiredText('Client name', 100),
  rating: z
    .number({ error: 'Rating must be a whole number from 1 to 5' })
    .int('Rating must be a whole number from 1 to 5')
    .min(1, 'Rating must be a whole number from 1 to 5')
    .max(5, 'Rating must be a whole number from 1 to 5')
    .default(5),
  content: requiredText('Testimonial', 2000),
  practiceArea: z.enum(testimonialPracticeAreas, { error: 'Please choose a practice area' }),
  isPublished: z.boolean({ error: 'Published must be true or false' }).default(true),
});
export type TestimonialInput = z.input<typeof testimonialInput>;

/** PUT /api/admin/testimonials/{id}: the same fields, or only isPublished for the quick toggle. */
export const testimonialUpdate = z
  .object({
    clientName: testimonialInput.shape.clientName,
    rating: testimonialInput.shape.rating.unwrap(),
    content: testimonialInput.shape.content,
    practiceArea: testimonialInput.shape.practiceArea,
    isPublished: testimonialInput.shape.isPublished.unwrap(),
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'Nothing to update');
