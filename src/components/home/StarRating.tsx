/**
 * A 1-5 star rating that does not rely on colour alone: filled and outlined stars differ in shape,
 * and the rating is also written out ("5 out of 5 stars" for screen readers, "5/5" on screen).
 */
const STAR = 'M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3 6.1 20.6l1.3-6.6L2.5 9.4l6.6-.8L12 2.5z';

export default function StarRating({ rating, max = 5 }: { rating: number; max?: number }) {
  const value = Math.max(0, Math.min(max, Math.round(rating)));
  return (
    <p className="flex items-center gap-2">
      <span className="sr-only">{`Rated ${value} out of ${max} stars`}</span>
      <span aria-hidden="true" className="flex text-primary">
        {Array.from({ length: max }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed row of stars, never reordered
          // biome-ignore lint/a11y/noSvgWithoutTitle: decorative: the rating is read from the sr-only text, the stars are aria-hidden
          <svg key={i} viewBox="0 0 24 24" className="size-5" fill={i < value ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="1.5">
            <path d={STAR} strokeLinejoin="round" />
          </svg>
        ))}
      </span>
      <span aria-hidden="true" className="text-sm font-semibold">
        {value}/{max}
      </span>
    </p>
  );
}
