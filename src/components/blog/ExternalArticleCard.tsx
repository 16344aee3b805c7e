/**
 * One external news article. A broken image is hidden (SPEC §8): by the onError handler, and on
 * mount for an image that already failed before the island hydrated (its error event came too early).
 */
import { useEffect, useRef, useState } from 'react';
import { dateLabel } from '../../shared/firm-time.ts';
import type { ExternalArticleView } from './external-articles.ts';

function ArticleImage({ src }: { src: string }) {
  const [broken, setBroken] = useState(false);
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0) setBroken(true);
  }, []);
  if (broken) return null;
  return (
    <img
      ref={ref}
      src={src}
      alt=""
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
      width={640}
      height={360}
      onError={() => setBroken(true)}
      className="aspect-video w-full rounded-t-lg bg-muted object-cover"
    />
  );
}

export default function ExternalArticleCard({ article }: { article: ExternalArticleView }) {
  const date = dateLabel(article.publishedAt);
  return (
    <article className="relative flex h-full flex-col rounded-lg border border-border bg-card text-card-foreground shadow-sm transition-shadow focus-within:shadow-md hover:shadow-md">
      {article.imageUrl && <ArticleImage src={article.imageUrl} />}
      <div className="flex flex-1 flex-col p-5">
        <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground">
          <span className="sr-only">Source: </span>
          {article.sourceName}
        </p>
        <h3 className="text-lg font-semibold leading-snug">
          <a
            href={article.url}
            target="_blank"
            rel="noopener noreferrer"
            className="rounded-sm after:absolute after:inset-0 after:content-[''] hover:underline"
          >
            {article.title}
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </h3>
        {article.excerpt && <p className="mt-2 flex-1 text-sm text-muted-foreground">{article.excerpt}</p>}
        {(article.author || date) && (
          <p className="mt-4 text-xs text-muted-foreground">
            {article.author && <span>{article.author}</span>}
            {article.author && date && <span aria-hidden="true"> · </span>}
            {date && <time dateTime={article.publishedAt ?? undefined}>{date}</time>}
          </p>
        )}
      </div>
    </article>
  );
}
