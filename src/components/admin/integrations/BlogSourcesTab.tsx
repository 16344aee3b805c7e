/**
 * Blog Sources (SPEC §2, §4 Blog source, §7, §8): Add Blog Source opens the dialog; each source shows
 * its name, type in upper case, 'Shows N articles', the url, an Active or Inactive badge and Delete
 * (after confirmation); also when it was last fetched, the last error, the articles stored and a
 * Fetch now button. A source created here is fetched by the server at once: the list is reloaded
 * every 2 s until that first fetch shows (30 s at most). Empty: 'No Blog Sources'.
 */
import { useQuery } from '@tanstack/react-query';
import { CircleAlert, CloudDownload, Plus, Rss, Trash2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { api, read } from '../../../lib/api-client.ts';
import { useAdminMutation } from '../admin-api.ts';
import { Button } from '../../ui/button.tsx';
import { Badge, Card } from '../../ui/card.tsx';
import { ConfirmDialog } from '../../ui/dialog.tsx';
import { formatFirmDateTime } from '../../../shared/firm-time.ts';
import { useReturnFocus } from '../../ui/return-focus.ts';
import { EmptyState, ListState } from '../../ui/states.tsx';
import BlogSourceDialog, { blogSourceListKeys } from './BlogSourceDialog.tsx';
import {
  articlesText,
  blogSourceTypeText,
  fetchOutcomeToast,
  firstFetchPollInterval,
  integrationQueries,
  storedArticlesText,
  type BlogSource,
  type BlogSourcePayload,
} from './integrations.ts';
import SectionHeader from './SectionHeader.tsx';

const sourceParam = (id: string) => ({ param: { id: encodeURIComponent(id) } });

export default function BlogSourcesTab() {
  // Sources created on this page, by when (browser clock): watched until their first fetch shows.
  const watched = useRef(new Map<string, number>());
  const list = useQuery({
    ...integrationQueries.blogSources,
    refetchInterval: (query) => firstFetchPollInterval(query.state.data, watched.current, Date.now()),
  });
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<BlogSource | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const deleteFocus = useReturnFocus();

  const create = async (payload: BlogSourcePayload) => {
    const row = await read(api.admin['blog-sources'].$post({ json: payload }));
    // Before the list is reloaded, so that reload already knows to keep polling.
    watched.current.set(row.id, Date.now());
    return row;
  };

  const remove = useAdminMutation<BlogSource>({
    mutationFn: (source) => read(api.admin['blog-sources'][':id'].$delete(sourceParam(source.id))),
    invalidates: blogSourceListKeys,
    success: 'Blog source deleted successfully',
    failure: 'Failed to delete blog source',
  });

  // The answer is the source after the attempt: a feed that could not be read is not a failed call,
  // but the admin is told so (and the card shows the reason).
  const fetchNow = useAdminMutation<BlogSource, BlogSource>({
    mutationFn: (source) => read(api.admin['blog-sources'][':id'].fetch.$post(sourceParam(source.id))),
    invalidates: blogSourceListKeys,
    success: (result, source) => fetchOutcomeToast(source.name, result),
    failure: 'Failed to fetch blog source',
  });

  return (
    <section aria-labelledby="blog-sources-title" className="space-y-4">
      <SectionHeader
        id="blog-sources-title"
        title="Blog Sources"
        description="External news feeds: their newest articles appear on the blog page and under External Articles."
        action={
          <BlogSourceDialog
            open={adding}
            onOpenChange={setAdding}
            create={create}
            trigger={
              <Button ref={addButton}>
                <Plus aria-hidden="true" className="size-4" />
                Add Blog Source
              </Button>
            }
          />
        }
      />
      <ListState
        query={list}
        what="blog sources"
        empty={
          <EmptyState icon={Rss} title="No Blog Sources" description="Add an RSS or Atom feed, a JSON API or a web page to show its articles on the website." />
        }
      >
        {(sources) => (
          <ul className="grid gap-4 lg:grid-cols-2" aria-label="Blog sources">
            {sources.map((source) => (
              <SourceCard
                key={source.id}
                source={source}
                fetching={fetchNow.isPending && fetchNow.variables?.id === source.id}
                onFetch={() => fetchNow.mutate(source)}
                onDelete={(opener) => {
                  deleteFocus.remember(opener);
                  setDeleting(source);
                }}
              />
            ))}
          </ul>
        )}
      </ListState>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this blog source?"
        description={deleting ? `${deleting.name} and the articles fetched from it will be removed from the website. This cannot be undone.` : ''}
        confirmLabel="Delete Blog Source"
        pending={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting, { onSettled: () => setDeleting(null) });
        }}
        // The deleted source's button is gone: the focus goes to Add Blog Source.
        onCloseAutoFocus={(event) => deleteFocus.restore(event, () => addButton.current)}
      />
    </section>
  );
}

function SourceCard({
  source,
  fetching,
  onFetch,
  onDelete,
}: {
  source: BlogSource;
  fetching: boolean;
  onFetch: () => void;
  onDelete: (opener: HTMLElement) => void;
}) {
  return (
    <li>
      <Card className="flex h-full flex-col gap-3 p-4 sm:p-5" data-testid="blog-source" data-source-id={source.id}>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h3 className="min-w-0 break-words text-base font-semibold">{source.name}</h3>
          <div className="flex flex-wrap gap-2">
            <Badge variant="outline">{blogSourceTypeText(source.type)}</Badge>
            <Badge variant={source.isActive ? 'success' : 'secondary'}>{source.isActive ? 'Active' : 'Inactive'}</Badge>
          </div>
        </div>
        <p className="min-w-0 break-all text-sm">{source.url}</p>
        <p className="text-sm font-medium">{articlesText(source.displayLimit)}</p>
        <p className="text-sm text-muted-foreground" data-testid="last-fetched">
          {source.lastFetched ? (
            <>
              Last fetched <time dateTime={source.lastFetched}>{formatFirmDateTime(source.lastFetched)}</time>
            </>
          ) : (
            'Never fetched'
          )}
          {typeof source.articleCount === 'number' && <> · {storedArticlesText(source.articleCount)}</>}
        </p>
        {source.lastError && (
          <p className="flex items-start gap-2 rounded-md border border-destructive p-2 text-sm" data-testid="last-error">
            <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive" />
            <span className="min-w-0 break-words">
              <span className="font-semibold">Last fetch failed:</span> {source.lastError}
            </span>
          </p>
        )}
        <div className="mt-auto flex flex-wrap gap-2 border-t border-border pt-3">
          <Button variant="outline" size="sm" className="h-10" disabled={fetching} aria-busy={fetching || undefined} onClick={onFetch}>
            <CloudDownload aria-hidden="true" className="size-4" />
            {fetching ? 'Fetching...' : 'Fetch now'}
            <span className="sr-only"> {source.name}</span>
          </Button>
          <Button variant="outline" size="sm" className="h-10 text-destructive" onClick={(e) => onDelete(e.currentTarget)}>
            <Trash2 aria-hidden="true" className="size-4" />
            Delete<span className="sr-only"> {source.name}</span>
          </Button>
        </div>
      </Card>
    </li>
  );
}
