/**
 * One internal article in a list (home page, /blog). A React component so the /blog island and the
 * static home page share one markup; on the home page it renders to HTML with no JavaScript.
 */
import { dateLabel } from '../../shared/firm-time.ts';
import type { PublicBlogPostSummary } from '../../shared/public-api.ts';
import { categoryLabel } from './format.ts';

export type PostCardPost = Pick<PublicBlogPostSummary, 'id' | 'title' | 'slug' | 'excerpt' | 'category' | 'author' | 'publishedAt'>;

export default function PostCard({ post }: { post: PostCardPost }) {
  const date = dateLabel(post.publishedAt);
  return (
    <article className="relative flex h-full flex-col rounded-lg border border-border bg-card text-card-foreground p-5 shadow-sm transition-shadow focus-within:shadow-md hover:shadow-md">
      <p className="mb-3">
        <span className="inline-block rounded-full border border-primary px-2.5 py-0.5 text-xs font-semibold text-primary">
          <span className="sr-only">Category: </span>
          {categoryLabel(post.category)}
        </span>
      </p>
      <h3 className="text-lg font-semibold leading-snug">
        {/* The whole card is clickable; the title link is the one accessible link. */}
        <a href={`/blog/${post.slug}`} className="rounded-sm after:absolute after:inset-0 after:content-[''] hover:underline">
          {post.title}
        </a>
      </h3>
      <p className="mt-2 flex-1 text-sm text-muted-foreground">{post.excerpt}</p>
      <p className="mt-4 text-xs text-muted-foreground">
        <span>{post.author}</span>
        <span aria-hidden="true"> · </span>
        {date ? <time dateTime={post.publishedAt ?? undefined}>{date}</time> : <span>Draft</span>}
      </p>
    </article>
  );
}
