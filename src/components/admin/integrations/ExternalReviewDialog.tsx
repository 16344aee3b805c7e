/**
 * Add or edit an external review (docs/decisions/029; POST / PUT /api/admin/external-reviews): who
 * wrote it, on which platform, the rating and text as written there, the address of its page (https)
 * and, if known, its date. Validated by the server's own payload schema; the server's field messages
 * show beside the fields too. The form lives inside the dialog's content, so each opening starts
 * from fresh values and closing discards what was typed.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { api, read } from '../../../lib/api-client.ts';
import { externalReviewInput } from '../../../shared/schemas/external-reviews.ts';
import { adminKeys, publicKeys, useAdminMutation } from '../admin-api.ts';
import { Dialog, DialogContent, DialogFooter } from '../../ui/dialog.tsx';
import { Field, Input, RequiredFieldsNote, Select, Switch, Textarea } from '../../ui/form.tsx';
import { showServerFieldErrors } from '../../ui/server-errors.tsx';
import { ratingChoices, ratingText } from '../testimonials/testimonial-form.ts';
import { externalReviewFormValues, reviewPlatformOptions, type ExternalReview, type ExternalReviewFormValues } from './external-review-form.ts';

type ExternalReviewPayload = z.output<typeof externalReviewInput>;

const resolver = zodResolver(externalReviewInput) as unknown as Resolver<ExternalReviewFormValues, unknown, ExternalReviewPayload>;
const fieldNames = ['reviewerName', 'platform', 'rating', 'content', 'reviewUrl', 'reviewedOn', 'isVisible'] as const;

export const externalReviewListKeys = [adminKeys.externalReviews, publicKeys.externalReviews] as const;

export default function ExternalReviewDialog({
  open,
  review,
  onOpenChange,
  onCloseAutoFocus,
}: {
  open: boolean;
  /** The review being edited, or null to add one. */
  review: ExternalReview | null;
  onOpenChange: (open: boolean) => void;
  /** Where the focus goes on close (ui/return-focus.ts): back to the button that opened the dialog. */
  onCloseAutoFocus: (event: Event) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        onCloseAutoFocus={onCloseAutoFocus}
        title={review ? 'Edit Review' : 'Add Review'}
        description={
          review
            ? `Update the review by ${review.reviewerName}.`
            : 'Copy a review a client wrote about the firm on another site, as written there, with the address of its page. A visible review appears on the home page.'
        }
      >
        <ExternalReviewForm key={review?.id ?? 'new'} review={review} onSaved={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function ExternalReviewForm({ review, onSaved }: { review: ExternalReview | null; onSaved: () => void }) {
  const form = useForm<ExternalReviewFormValues, unknown, ExternalReviewPayload>({ resolver, defaultValues: externalReviewFormValues(review) });
  const errors = form.formState.errors;
  const failure = review ? 'Failed to update external review' : 'Failed to create external review';
  const save = useAdminMutation({
    mutationFn: (json: ExternalReviewPayload) =>
      review ? read(api.admin['external-reviews'][':id'].$put({ param: { id: review.id }, json })) : read(api.admin['external-reviews'].$post({ json })),
    invalidates: externalReviewListKeys,
    success: review ? 'External review updated successfully' : 'External review created successfully',
    failure,
    onSuccess: onSaved,
  });

  const onSubmit = form.handleSubmit(async (payload) => {
    try {
      await save.mutateAsync(payload);
    } catch (err) {
      // The failure toast is already shown; the form keeps what was typed.
      showServerFieldErrors(err, form.setError, fieldNames);
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <RequiredFieldsNote />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Reviewer Name" required error={errors.reviewerName?.message} hint="As the platform shows it, e.g. Jennifer M.">
          <Input autoComplete="off" {...form.register('reviewerName')} />
        </Field>
        <Field label="Platform" required error={errors.platform?.message}>
          <Select placeholder="Select a platform" options={reviewPlatformOptions} {...form.register('platform')} />
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Rating" required error={errors.rating?.message} hint="The stars the reviewer gave there.">
          <Select {...form.register('rating', { valueAsNumber: true })}>
            {ratingChoices.map((r) => (
              <option key={r} value={r}>
                {ratingText(r)}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Date of the Review" optional error={errors.reviewedOn?.message}>
          <Input type="date" autoComplete="off" {...form.register('reviewedOn')} />
        </Field>
      </div>
      <Field label="Review Text" required error={errors.content?.message} hint="Word for word as written on the platform.">
        <Textarea rows={5} {...form.register('content')} />
      </Field>
      <Field
        label="Review Page URL"
        required
        error={errors.reviewUrl?.message}
        hint="The address of this review on the platform (https), so visitors can read it there."
      >
        <Input type="url" inputMode="url" autoComplete="off" spellCheck={false} placeholder="https://" {...form.register('reviewUrl')} />
      </Field>
      <Controller
        control={form.control}
        name="isVisible"
        render={({ field }) => (
          <div className="space-y-1">
            <Switch checked={field.value} onCheckedChange={field.onChange} label="Visible" />
            <p className="text-xs text-muted-foreground">{field.value ? 'Shown on the home page.' : 'Hidden: kept here, not shown on the website.'}</p>
          </div>
        )}
      />
      <DialogFooter action={review ? 'Save Changes' : 'Add Review'} pending={save.isPending} error={save.error} failure={failure} />
    </form>
  );
}
