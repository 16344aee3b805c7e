/**
 * /admin/testimonials (SPEC §2): every testimonial, newest first, with its rating, practice area,
 * text, Published/Draft badge and date; add and edit in a dialog; the quick publish toggle (SPEC §4
 * Testimonial, §7: PUT with only isPublished); delete after confirmation (SPEC §5). The empty state
 * is 'No Testimonials Yet' with 'Add Your First Testimonial' (SPEC §2, §8).
 */
import { Eye, EyeOff, MessageSquareQuote, Pencil, Plus, Trash } from 'lucide-react';
import { api, read } from '../../../lib/api-client.ts';
import { dateLabel } from '../../../shared/firm-time.ts';
import AdminPage from '../AdminPage.tsx';
import SamplesNote, { SampleBadge } from '../SamplesNote.tsx';
import { samplesShownText, seededSamplesText, useSampleContent } from '../sample-content.ts';
import { adminQueries, useAdminList, useAdminMutation } from '../admin-api.ts';
import { Button } from '../../ui/button.tsx';
import { Badge, Card } from '../../ui/card.tsx';
import { ConfirmDialog } from '../../ui/dialog.tsx';
import { EmptyState, ListState } from '../../ui/states.tsx';
import { useListEditor } from '../../ui/use-list-editor.ts';
import RatingStars from './RatingStars.tsx';
import TestimonialDialog, { testimonialListKeys } from './TestimonialDialog.tsx';
import { practiceAreaLabel, type Testimonial } from './testimonial-form.ts';

export default function TestimonialsScreen() {
  const list = useAdminList(adminQueries.testimonials);
  const { editor, deleting, mainAction, openNew, openEdit, askDelete, setEditorOpen, closeDelete, restoreFocus } = useListEditor<Testimonial>();

  const toggle = useAdminMutation({
    mutationFn: (t: Testimonial) => read(api.admin.testimonials[':id'].$put({ param: { id: t.id }, json: { isPublished: !t.isPublished } })),
    invalidates: testimonialListKeys,
    success: 'Testimonial updated successfully',
    failure: 'Failed to update testimonial',
  });
  const remove = useAdminMutation({
    mutationFn: (t: Testimonial) => read(api.admin.testimonials[':id'].$delete({ param: { id: t.id } })),
    invalidates: testimonialListKeys,
    success: 'Testimonial deleted successfully',
    failure: 'Failed to delete testimonial',
  });

  const rows = list.data ?? [];
  const published = rows.filter((t) => t.isPublished).length;
  // Issue 19: say plainly when the site shows built-in samples, and which rows the seed wrote.
  const samples = useSampleContent();
  const shownText = list.isSuccess ? samplesShownText('testimonials', samples, published) : null;
  const seededText = seededSamplesText('testimonials', rows.filter((row) => row.isSample).length);

  return (
    <AdminPage
      title="Testimonials"
      description="Client testimonials. Published ones can appear on the home page, newest first."
      actions={
        <Button ref={mainAction} onClick={openNew}>
          <Plus aria-hidden="true" className="size-4" />
          Add Testimonial
        </Button>
      }
    >
      <SamplesNote text={shownText} />
      <SamplesNote text={seededText} />
      <ListState
        query={list}
        what="testimonials"
        empty={
          <EmptyState
            icon={MessageSquareQuote}
            title="No Testimonials Yet"
            description="Add what clients have said about the firm; published testimonials appear on the home page."
            action={
              <Button onClick={openNew}>
                <Plus aria-hidden="true" className="size-4" />
                Add Your First Testimonial
              </Button>
            }
          />
        }
      >
        {() => (
          <section aria-labelledby="testimonial-list-title" className="space-y-3">
            <h2 id="testimonial-list-title" className="text-sm text-muted-foreground">
              {rows.length} testimonial{rows.length === 1 ? '' : 's'}, {published} published
            </h2>
            <ul className="grid gap-4 lg:grid-cols-2">
              {rows.map((t) => {
                const toggling = toggle.isPending && toggle.variables?.id === t.id;
                return (
                  <li key={t.id}>
                    <Card className="flex h-full flex-col gap-3 p-4 sm:p-5">
                      <div className="flex flex-wrap items-start justify-between gap-2">
                        <h3 className="min-w-0 break-words text-base font-semibold">{t.clientName}</h3>
                        <Badge variant={t.isPublished ? 'success' : 'warning'}>{t.isPublished ? 'Published' : 'Draft'}</Badge>
                        {t.isSample && <SampleBadge />}
                      </div>
                      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground">
                        <RatingStars rating={t.rating} />
                        <span>{practiceAreaLabel(t.practiceArea)}</span>
                        <span>Added {dateLabel(t.createdAt)}</span>
                      </div>
                      <p className="flex-1 whitespace-pre-line break-words">{t.content}</p>
                      <div className="flex flex-wrap gap-2 border-t border-border pt-3">
                        <Button
                          variant="outline"
                          size="sm"
                          className="h-10"
                          disabled={toggling}
                          aria-busy={toggling || undefined}
                          onClick={() => toggle.mutate(t)}
                        >
                          {t.isPublished ? <EyeOff aria-hidden="true" className="size-4" /> : <Eye aria-hidden="true" className="size-4" />}
                          {t.isPublished ? 'Unpublish' : 'Publish'}
                          <span className="sr-only"> testimonial from {t.clientName}</span>
                        </Button>
                        <Button variant="outline" size="sm" className="h-10" onClick={() => openEdit(t)}>
                          <Pencil aria-hidden="true" className="size-4" />
                          Edit<span className="sr-only"> testimonial from {t.clientName}</span>
                        </Button>
                        <Button variant="outline" size="sm" className="h-10 text-destructive" onClick={() => askDelete(t)}>
                          <Trash aria-hidden="true" className="size-4" />
                          Delete<span className="sr-only"> testimonial from {t.clientName}</span>
                        </Button>
                      </div>
                    </Card>
                  </li>
                );
              })}
            </ul>
          </section>
        )}
      </ListState>

      <TestimonialDialog open={editor.open} testimonial={editor.row} onOpenChange={setEditorOpen} onCloseAutoFocus={restoreFocus} />

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && closeDelete()}
        title="Delete this testimonial?"
        description={deleting ? `The testimonial from ${deleting.clientName} will be removed from the website. This cannot be undone.` : ''}
        pending={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting, { onSettled: closeDelete });
        }}
        onCloseAutoFocus={restoreFocus}
      />
    </AdminPage>
  );
}
