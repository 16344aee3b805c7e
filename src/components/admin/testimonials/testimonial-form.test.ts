import { describe, expect, it } from 'vitest';
import { testimonialInput } from '../../../shared/schemas/testimonials.ts';
import { ratingChoices, ratingText, testimonialFormValues, testimonialPracticeAreaOptions, type Testimonial } from './testimonial-form.ts';

describe('testimonial form', () => {
  it('starts a new testimonial at rating 5, published, with no practice area chosen (SPEC §5)', () => {
    expect(testimonialFormValues()).toEqual({ clientName: '', rating: 5, content: '', practiceArea: '', isPublished: true });
  });

  it('starts an edit from the row, without its id or dates', () => {
    const row: Testimonial = {
      id: 't1',
      clientName: 'Ana P.',
      rating: 3,
      content: 'Helpful.',
      practiceArea: 'custody',
      isPublished: false,
      createdAt: '2026-01-02T03:04:05.000Z',
      updatedAt: '2026-01-02T03:04:05.000Z',
      isSample: true,
    };
    expect(testimonialFormValues(row)).toEqual({ clientName: 'Ana P.', rating: 3, content: 'Helpful.', practiceArea: 'custody', isPublished: false });
  });

  it('asks for a practice area before a new form can be sent', () => {
    const result = testimonialInput.safeParse({ ...testimonialFormValues(), clientName: 'A', content: 'B' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['practiceArea']);
  });

  it('offers ratings 1 to 5 and the six testimonial practice areas of SPEC §9, labelled', () => {
    expect([...ratingChoices].sort()).toEqual([1, 2, 3, 4, 5]);
    expect(ratingText(5)).toBe('5 out of 5 stars');
    expect(ratingText(1)).toBe('1 out of 5 stars');
    expect(testimonialPracticeAreaOptions).toEqual([
      { value: 'divorce', label: 'Divorce' },
      { value: 'estate-planning', label: 'Estate Planning' },
      { value: 'custody', label: 'Custody' },
      { value: 'trust-administration', label: 'Trust Administration' },
      { value: 'family-law', label: 'Family Law' },
      { value: 'other', label: 'Other' },
    ]);
  });
});
