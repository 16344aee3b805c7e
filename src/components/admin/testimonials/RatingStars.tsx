/** A 1-5 rating as stars and in words ("5 out of 5 stars"): filled and outlined stars differ in shape, not only colour. */
import { Star } from 'lucide-react';
import { MAX_RATING, ratingText } from './testimonial-form.ts';

export default function RatingStars({ rating }: { rating: number }) {
  return (
    <span className="inline-flex items-center gap-2">
      <span aria-hidden="true" className="flex text-primary">
        {Array.from({ length: MAX_RATING }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed row of stars, never reordered
          <Star key={i} className="size-4" fill={i < rating ? 'currentColor' : 'none'} strokeWidth={1.75} />
        ))}
      </span>
      <span className="text-sm text-muted-foreground">{ratingText(rating)}</span>
    </span>
  );
}
