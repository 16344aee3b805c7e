/**
 * A draft's preview (/blog-preview#<token>, issue 19 item 2): the post as stored now, laid out as its
 * article page will be, under a banner saying it is not published and until when the link works. The
 * token stays in the fragment; it goes to the API in a header (api/blog-posts/preview-link.ts).
 */
import { LoaderCircle, RotateCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { api, ApiError, type ApiData, read } from '../../lib/api-client.ts';
import { PREVIEW_TOKEN_HEADER } from '../../shared/blog/preview.ts';
import { dateLabel, formatFirmDateTime } from '../../shared/firm-time.ts';
import { buttonClass } from '../ui/button-class.ts';
import { useFragment } from '../ui/use-fragment.ts';
import { categoryLabel } from './format.ts';
import { proseClasses } from './prose.ts';

type Preview = ApiData<(typeof api)['blog-post-preview']['$get']>;
type State = { status: 'loading' } | { status: 'ready'; post: Preview } | { status: 'refused'; message: string } | { status: 'error' };

const NO_LINK = 'This preview link is incomplete. Open the whole link you were sent.';

export default function PostPreview() {
  const token = useFragment();
  const [state, setState] = useState<State>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the trigger to load again
  useEffect(() => {
    if (token === null) return;
    if (!token) {
      setState({ status: 'refused', message: NO_LINK });
      return;
    }
    let current = true;
    read(api['blog-post-preview'].$get({}, { headers: { [PREVIEW_TOKEN_HEADER]: token } })).then(
      (post) => current && setState({ status: 'ready', post }),
      (err: unknown) => {
        if (!current) return;
        const message = err instanceof ApiError && err.status < 500 ? err.details.error : null;
        setState(message ? { status: 'refused', message } : { status: 'error' });
      },
    );
    return () => {
      current = false;
    };
  }, [token, attempt]);

  if (state.status === 'loading')
    return (
      <p role="status" className="flex items-center gap-2 text-muted-foreground">
        <LoaderCircle aria-hidden="true" className="size-5 animate-spin motion-reduce:animate-none" />
        Loading the preview...
      </p>
    );
  if (state.status === 'error')
    return (
      <div role="alert" className="space-y-3 rounded-md border border-destructive p-4">
        <p className="font-medium">The preview could not be loaded. Please check your connection and try again.</p>
        <button type="button" className={buttonClass('outline', 'lg')} onClick={() => setAttempt((n) => n + 1)}>
          <RotateCw aria-hidden="true" className="size-4" />
          Try Again
        </button>
      </div>
    );
  if (state.status === 'refused')
    return (
      <p role="alert" className="rounded-md border border-border bg-muted p-4 font-medium">
        {state.message}
      </p>
    );

  const { post } = state;
  const live = post.isPublished && post.publishedAt && Date.parse(post.publishedAt) <= Date.now();
  const date = post.isPublished ? dateLabel(post.publishedAt) : null;
  return (
    <>
      <p role="status" className="rounded-md border border-amber-700 bg-amber-100 p-3 text-sm text-amber-950">
        <strong>Preview.</strong>{' '}
        {live
          ? 'This post is published; the preview shows it as it is stored now.'
          : post.isPublished
            ? `Scheduled: it goes live ${formatFirmDateTime(post.publishedAt!)}.`
            : 'A draft: not on the site.'}{' '}
        This link works until {formatFirmDateTime(post.expiresAt)}.
      </p>
      <article className="mt-8">
        <header>
          <p>
            <span className="inline-block rounded-full border border-primary px-3 py-0.5 text-sm font-semibold text-primary">
              <span className="sr-only">Category: </span>
              {categoryLabel(post.category)}
            </span>
          </p>
          <h1 className="mt-4 text-3xl font-bold leading-tight sm:text-4xl">{post.title}</h1>
          <p className="mt-4 text-sm text-muted-foreground">
            {date ?? 'Draft'} · By {post.author}
          </p>
        </header>
        {post.featuredImageUrl && (
          <img
            src={post.featuredImageUrl}
            alt={post.featuredImageAlt ?? ''}
            width={1200}
            height={630}
            decoding="async"
            className="mt-8 aspect-[1200/630] h-auto w-full rounded-lg bg-muted object-cover"
          />
        )}
        {/* The content was made safe when it was saved (api/http/sanitize-html.ts), as the article page shows it. */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the API's sanitised article HTML, exactly what /blog/<slug> sets (set:html) */}
        <div className={`mt-8 ${proseClasses}`} dangerouslySetInnerHTML={{ __html: post.content }} />
      </article>
    </>
  );
}
