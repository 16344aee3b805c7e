/**
 * /admin/blog-posts (SPEC §2): every post, newest first, with slug, category, author, Draft/Published
 * badge and date ('Draft' when it has no publishedAt, SPEC §4); New Blog Post and Edit open the
 * post's own page (./BlogPostEditorScreen.tsx, issue 19); View
 * Post (a new tab) for published posts; delete after confirmation (SPEC §5). Empty: 'No blog posts
 * yet' (SPEC §8).
 */
import { ExternalLink, FileText, Pencil, Plus, Trash } from 'lucide-react';
import { useRef, useState } from 'react';
import { api, read } from '../../../lib/api-client.ts';
import { dateLabel, formatFirmDateTime } from '../../../shared/firm-time.ts';
import { categoryLabel } from '../../blog/format.ts';
import AdminPage from '../AdminPage.tsx';
import SamplesNote, { SampleBadge } from '../SamplesNote.tsx';
import { samplesShownText, seededSamplesText, useSampleContent } from '../sample-content.ts';
import { adminQueries, useAdminList, useAdminMutation } from '../admin-api.ts';
import { Button, buttonClass } from '../../ui/button.tsx';
import { Badge, Card } from '../../ui/card.tsx';
import { ConfirmDialog } from '../../ui/dialog.tsx';
import { EmptyState, ListState } from '../../ui/states.tsx';
import { useReturnFocus } from '../../ui/return-focus.ts';
import { blogPostListKeys, type BlogPost } from './blog-post-form.ts';
import PreviewLink from './PreviewLink.tsx';

/** A post's own page (admin-screens.ts adminSubpages). */
const postPage = (id: string) => `/admin/blog-posts/${id}`;

export default function BlogPostsScreen() {
  const list = useAdminList(adminQueries.blogPosts);
  const [deleting, setDeleting] = useState<BlogPost | null>(null);
  const mainAction = useRef<HTMLAnchorElement>(null);
  const focus = useReturnFocus();
  const askDelete = (p: BlogPost) => {
    focus.remember();
    setDeleting(p);
  };
  const closeDelete = () => setDeleting(null);
  // Back to the Delete button, or, its row gone, to New Blog Post.
  const restoreFocus = (event: Event) => focus.restore(event, () => mainAction.current);

  const remove = useAdminMutation({
    mutationFn: (p: BlogPost) => read(api.admin['blog-posts'][':id'].$delete({ param: { id: p.id } })),
    invalidates: blogPostListKeys,
    success: 'Blog post deleted successfully',
    failure: 'Failed to delete blog post',
  });

  const rows = list.data ?? [];
  // A published post dated later is scheduled: on the site from that moment (api/blog-posts/scheduled-publishing.ts).
  const now = Date.now();
  const scheduled = (p: { isPublished: boolean; publishedAt: string | null }) => p.isPublished && !!p.publishedAt && Date.parse(p.publishedAt) > now;
  const waiting = rows.filter(scheduled).length;
  const published = rows.filter((p) => p.isPublished).length - waiting;
  // Issue 19: say plainly when the site shows built-in samples, and which rows the seed wrote.
  const samples = useSampleContent();
  const shownText = list.isSuccess ? samplesShownText('articles', samples, published) : null;
  const seededText = seededSamplesText('articles', rows.filter((row) => row.isSample).length);

  return (
    <AdminPage
      title="Blog Posts"
      description="Articles for the blog. Drafts stay private; published posts appear on the blog and the home page."
      actions={
        <a ref={mainAction} href={postPage('new')} className={buttonClass()}>
          <Plus aria-hidden="true" className="size-4" />
          New Blog Post
        </a>
      }
    >
      <SamplesNote text={shownText} />
      <SamplesNote text={seededText} />
      <ListState
        query={list}
        what="blog posts"
        empty={
          <EmptyState
            icon={FileText}
            title="No blog posts yet"
            description="Write the first article; it stays a draft until you publish it."
            action={
              <a href={postPage('new')} className={buttonClass()}>
                <Plus aria-hidden="true" className="size-4" />
                Create Your First Post
              </a>
            }
          />
        }
      >
        {() => (
          <section aria-labelledby="blog-post-list-title" className="space-y-3">
            <h2 id="blog-post-list-title" className="text-sm text-muted-foreground">
              {rows.length} post{rows.length === 1 ? '' : 's'}: {published} published
              {waiting > 0 && `, ${waiting} scheduled`}, {rows.length - published - waiting} draft{rows.length - published - waiting === 1 ? '' : 's'}
            </h2>
            <ul className="grid gap-3">
              {rows.map((p) => (
                <li key={p.id}>
                  <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between sm:p-5">
                    <div className="min-w-0 space-y-1.5">
                      <div className="flex flex-wrap items-center gap-2">
                        <h3 className="min-w-0 break-words text-base font-semibold">{p.title}</h3>
                        {scheduled(p) ? (
                          <Badge variant="secondary">Scheduled</Badge>
                        ) : (
                          <Badge variant={p.isPublished ? 'success' : 'warning'}>{p.isPublished ? 'Published' : 'Draft'}</Badge>
                        )}
                        {p.isSample && <SampleBadge />}
                      </div>
                      <p className="break-all font-mono text-sm text-muted-foreground">
                        <span className="sr-only">Address: </span>/blog/{p.slug}
                      </p>
                      <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
                        <div className="flex gap-1">
                          <dt className="text-muted-foreground">Category:</dt>
                          <dd>{categoryLabel(p.category)}</dd>
                        </div>
                        <div className="flex gap-1">
                          <dt className="text-muted-foreground">Author:</dt>
                          <dd>{p.author}</dd>
                        </div>
                        <div className="flex gap-1">
                          <dt className="text-muted-foreground">Date:</dt>
                          <dd>{scheduled(p) ? `Goes live ${formatFirmDateTime(p.publishedAt!)}` : (dateLabel(p.publishedAt) ?? 'Draft')}</dd>
                        </div>
                      </dl>
                    </div>
                    <div className="flex shrink-0 flex-wrap gap-2">
                      {p.isPublished && !scheduled(p) && (
                        <a href={`/blog/${p.slug}`} target="_blank" rel="noopener" className={buttonClass('outline', 'sm', 'h-10')}>
                          <ExternalLink aria-hidden="true" className="size-4" />
                          View Post<span className="sr-only"> {p.title} (opens in a new tab)</span>
                        </a>
                      )}
                      {!(p.isPublished && !scheduled(p)) && <PreviewLink post={p} />}
                      <a href={postPage(p.id)} className={buttonClass('outline', 'sm', 'h-10')}>
                        <Pencil aria-hidden="true" className="size-4" />
                        Edit<span className="sr-only"> {p.title}</span>
                      </a>
                      <Button variant="outline" size="sm" className="h-10 text-destructive" onClick={() => askDelete(p)}>
                        <Trash aria-hidden="true" className="size-4" />
                        Delete<span className="sr-only"> {p.title}</span>
                      </Button>
                    </div>
                  </Card>
                </li>
              ))}
            </ul>
          </section>
        )}
      </ListState>

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && closeDelete()}
        title="Delete this blog post?"
        description={deleting ? `“${deleting.title}” will be removed, and /blog/${deleting.slug} will show Article Not Found. This cannot be undone.` : ''}
        pending={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          // A failure (gone already, deleted elsewhere) reloads the list: useAdminMutation does that.
          remove.mutate(deleting, { onSettled: closeDelete });
        }}
        onCloseAutoFocus={restoreFocus}
      />
    </AdminPage>
  );
}
