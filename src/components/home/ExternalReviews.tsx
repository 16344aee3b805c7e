/**
 * The external-review section of the home page (SPEC §2, §9): 4 static reviews, each rated 5, with a
 * source filter (all, Google Reviews, Avvo, Yelp). Rendered to HTML first; the island only filters.
 */
import { useState } from 'react';
import { externalReviews, reviewSources, type ReviewSource } from '../../content/reviews.ts';
import StarRating from './StarRating.tsx';

type Filter = 'all' | ReviewSource;
const filters: { value: Filter; label: string }[] = [{ value: 'all', label: 'All' }, ...reviewSources.map((s) => ({ value: s, label: s }))];

export default function ExternalReviews() {
  const [filter, setFilter] = useState<Filter>('all');
  const visible = filter === 'all' ? externalReviews : externalReviews.filter((r) => r.source === filter);

  return (
    <div>
      <div role="group" aria-label="Filter reviews by source" className="flex flex-wrap gap-2">
        {filters.map((f) => {
          const active = filter === f.value;
          return (
            <button
              key={f.value}
              type="button"
              aria-pressed={active}
              onClick={() => setFilter(f.value)}
              className={`inline-flex min-h-11 items-center gap-1.5 rounded-full border px-4 text-sm font-medium transition-colors ${
                active ? 'border-primary bg-primary text-primary-foreground' : 'border-input bg-background text-foreground hover:border-primary'
              }`}
            >
              {/* The chosen filter is marked by a check too, not by colour alone. */}
              {active && (
                <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2.5">
                  <path d="M5 12.5l4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
                </svg>
              )}
              {f.label}
            </button>
          );
        })}
      </div>
      <p className="sr-only" role="status" aria-live="polite">
        {`${visible.length} ${visible.length === 1 ? 'review' : 'reviews'} shown`}
      </p>
      <ul className="mt-6 grid gap-6 sm:grid-cols-2">
        {visible.map((review) => (
          <li key={review.id} className="flex flex-col rounded-lg border border-border bg-card text-card-foreground p-5 shadow-sm">
            <figure className="flex flex-1 flex-col">
              <StarRating rating={review.rating} />
              <blockquote className="mt-3 flex-1 text-sm">
                <p>“{review.text}”</p>
              </blockquote>
              <figcaption className="mt-4 text-sm">
                <span className="font-semibold">{review.reviewer}</span>
                <span className="text-muted-foreground"> on {review.source}</span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </div>
  );
}
