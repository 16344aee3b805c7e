/**
 * The firm's reviews on other sites (issue 19, docs/decisions/029), a section of the Review
 * Platforms tab: each as written on its platform, with the address of its page there; add and edit
 * in a dialog, hide or show with one button, delete after confirmation. The home page shows the
 * visible ones, each linking to its page. While there are none and samples are on, a note says the
 * home page shows the built-in samples instead. Empty: 'No reviews yet', with what to do.
 */
import { ExternalLink, Eye, EyeOff, MessageSquareText, Pencil, Plus, Trash } from 'lucide-react';
import { api, read } from '../../../lib/api-client.ts';
import { reviewPlatformLabel } from '../../../shared/constants.ts';
import { calendarDateLabel } from '../../../shared/firm-time.ts';
import { adminQueries, useAdminList, useAdminMutation } from '../admin-api.ts';
import SamplesNote from '../SamplesNote.tsx';
import { samplesShownText, useSampleContent } from '../sample-content.ts';
import RatingStars from '../testimonials/RatingStars.tsx';
import { Button } from '../../ui/button.tsx';
import { Badge, Card } from '../../ui/card.tsx';
import { ConfirmDialog } from '../../ui/dialog.tsx';
import { EmptyState, ListState } from '../../ui/states.tsx';
import { useListEditor } from '../../ui/use-list-editor.ts';
import ExternalReviewDialog, { externalReviewListKeys } from './ExternalReviewDialog.tsx';
import { reviewCountText, visibilityText, visibleCount, type ExternalReview } from './external-review-form.ts';

export default function ExternalReviewsSection() {
  const list = useAdminList(adminQueries.externalReviews);
  const { editor, deleting, mainAction, openNew, openEdit, askDelete, setEditorOpen, closeDelete, restoreFocus } = useListEditor<ExternalReview>();
  const rows = list.data ?? [];
  const samples = useSampleContent();
  const samplesText = list.isSuccess ? samplesShownText('reviews', samples, visibleCount(rows)) : null;

  const toggle = useAdminMutation({
    mutationFn: (r: ExternalReview) => read(api.admin['external-reviews'][':id'].$put({ param: { id: r.id }, json: { isVisible: !r.isVisible } })),
    invalidates: externalReviewListKeys,
    success: 'External review updated successfully',
    failure: 'Failed to update external review',
  });
  const remove = useAdminMutation({
    mutationFn: (r: ExternalReview) => read(api.admin['external-reviews'][':id'].$delete({ param: { id: r.id } })),
    invalidates: externalReviewListKeys,
    success: 'External review deleted successfully',
    failure: 'Failed to delete external review',
  });

  return (
    <section aria-labelledby="external-reviews-title" className="space-y-4 border-t border-border pt-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0 max-w-prose">
          <h3 id="external-reviews-title" className="text-lg font-semibold">
            Reviews on the Website
          </h3>
          <p className="mt-1 text-sm text-muted-foreground">
            Reviews clients wrote about the firm on Google, Avvo, Yelp, Facebook or Martindale-Hubbell, copied as written there with a link to each. The home
            page shows the visible ones.
          </p>
        </div>
        <Button ref={mainAction} onClick={openNew}>
          <Plus aria-hidden="true" className="size-4" />
          Add Review
        </Button>
      </div>
      <SamplesNote text={samplesText} />
      <ListState
        query={list}
        what="reviews"
        empty={
          <EmptyState
            icon={MessageSquareText}
            title="No reviews yet"
            description="Add a review a client wrote about the firm on one of these platforms, with the address of its page there. Reviews you add and keep visible appear on the home page."
            action={
              <Button onClick={openNew}>
                <Plus aria-hidden="true" className="size-4" />
                Add Your First Review
              </Button>
            }
          />
        }
      >
        {() => (
          <div className="space-y-3">
            <p className="text-sm text-muted-foreground">{reviewCountText(rows)}</p>
            <ul className="grid gap-4 lg:grid-cols-2" aria-label="External reviews">
              {rows.map((r) => {
                const toggling = toggle.isPending && toggle.variables?.id === r.id;
                const platform = reviewPlatformLabel(r.platform);
                return (
                  <li key={r.id}>
                    <Card className="flex h-full flex-col gap-3 p-4 sm:p-5" data-testid="external-review-card">
                      <div className="flex flex-wrap items-start justify-between gap-2">
                        <h4 className="min-w-0 break-words text-base font-semibold">{r.reviewerName}</h4>
                        <Badge variant={r.isVisible ? 'success' : 'secondary'}>{visibilityText(r.isVisible)}</Badge>
                      </div>
                      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground">
                        <span className="font-medium text-foreground">{platform}</span>
                        <RatingStars rating={r.rating} />
                        {r.reviewedOn && <time dateTime={r.reviewedOn}>{calendarDateLabel(r.reviewedOn)}</time>}
                      </div>
                      <p className="flex-1 whitespace-pre-line break-words">{r.content}</p>
                      <a
                        href={r.reviewUrl}
                        target="_blank"
                        rel="noopener noreferrer"
                        className="inline-flex min-h-10 min-w-0 items-center gap-1.5 self-start break-all text-sm text-primary underline underline-offset-4"
                      >
                        <ExternalLink aria-hidden="true" className="size-4 shrink-0" />
                        {`Open on ${platform}`}
                        <span className="sr-only">{` (the review by ${r.reviewerName}, opens in a new tab)`}</span>
                      </a>
                      <div className="flex flex-wrap gap-2 border-t border-border pt-3">
                        <Button
                          variant="outline"
                          size="sm"
                          className="h-10"
                          disabled={toggling}
                          aria-busy={toggling || undefined}
                          onClick={() => toggle.mutate(r)}
                        >
                          {r.isVisible ? <EyeOff aria-hidden="true" className="size-4" /> : <Eye aria-hidden="true" className="size-4" />}
                          {r.isVisible ? 'Hide' : 'Show'}
                          <span className="sr-only">{` the review by ${r.reviewerName}`}</span>
                        </Button>
                        <Button variant="outline" size="sm" className="h-10" onClick={() => openEdit(r)}>
                          <Pencil aria-hidden="true" className="size-4" />
                          Edit<span className="sr-only">{` the review by ${r.reviewerName}`}</span>
                        </Button>
                        <Button variant="outline" size="sm" className="h-10 text-destructive" onClick={() => askDelete(r)}>
                          <Trash aria-hidden="true" className="size-4" />
                          Delete<span className="sr-only">{` the review by ${r.reviewerName}`}</span>
                        </Button>
                      </div>
                    </Card>
                  </li>
                );
              })}
            </ul>
          </div>
        )}
      </ListState>

      <ExternalReviewDialog open={editor.open} review={editor.row} onOpenChange={setEditorOpen} onCloseAutoFocus={restoreFocus} />

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && closeDelete()}
        title="Delete this review?"
        description={
          deleting
            ? `The review by ${deleting.reviewerName} on ${reviewPlatformLabel(deleting.platform)} will be removed from the website. This cannot be undone.`
            : ''
        }
        pending={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting, { onSettled: closeDelete });
        }}
        onCloseAutoFocus={restoreFocus}
      />
    </section>
  );
}
