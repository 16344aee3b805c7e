/**
 * The external-review section of the home page (SPEC §2, §9; docs/decisions/029): the firm's reviews
 * on other sites, each linking to its page there, or while developing the built-in samples, with a
 * source filter (all, then each platform a shown review is on). Rendered to HTML first; the island
 * only filters.
 */
import { useState } from 'react';
import { platformsPresent, type ExternalReviewView } from '../../content/reviews.ts';
import { calendarDateLabel } from '../../shared/firm-time.ts';
import { reviewPlatformLabel, reviewPlatforms } from '../../shared/constants.ts';
import StarRating from './StarRating.tsx';

const filterLabel = (platform: string) => reviewPlatforms.find((p) => p.value === platform)?.filterLabel ?? platform;

export default function ExternalReviews({ reviews }: { reviews: readonly ExternalReviewView[] }) {
  const [filter, setFilter] = useState<string>('all');
  const filters = [{ value: 'all', label: 'All' }, ...platformsPresent(reviews).map((p) => ({ value: p, label: filterLabel(p) }))];
  const visible = filter === 'all' ? reviews : reviews.filter((r) => r.platform === filter);

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
          <li
            key={review.id}
            className="flex flex-col rounded-lg border border-border bg-card text-card-foreground p-5 shadow-sm"
            data-testid="external-review"
          >
            <figure className="flex flex-1 flex-col">
              <StarRating rating={review.rating} />
              <blockquote className="mt-3 flex-1 text-sm" cite={review.reviewUrl ?? undefined}>
                <p className="whitespace-pre-line break-words">“{review.content}”</p>
              </blockquote>
              <figcaption className="mt-4 text-sm">
                <span className="font-semibold">{review.reviewerName}</span>
                <span className="text-muted-foreground">{` on ${reviewPlatformLabel(review.platform)}`}</span>
                {review.reviewedOn && (
                  <span className="text-muted-foreground">
                    , <time dateTime={review.reviewedOn}>{calendarDateLabel(review.reviewedOn)}</time>
                  </span>
                )}
              </figcaption>
              {review.reviewUrl && (
                <a
                  href={review.reviewUrl}
                  target="_blank"
                  rel="noopener noreferrer nofollow"
                  className="mt-3 inline-flex min-h-11 items-center self-start text-sm font-medium text-primary underline underline-offset-4"
                >
                  {`Read on ${reviewPlatformLabel(review.platform)}`}
                  <span className="sr-only">{`: the review by ${review.reviewerName} (opens in a new tab)`}</span>
                </a>
              )}
            </figure>
          </li>
        ))}
      </ul>
    </div>
  );
}
