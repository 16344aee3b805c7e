/**
 * Add or edit a testimonial (SPEC §2 /admin/testimonials, §5 defaults rating 5 and published, §7
 * POST / PUT /api/admin/testimonials, §8 toasts). Validated by the server's own payload schema; the
 * server's field messages show beside the fields too. The form lives inside the dialog's content, so
 * each opening starts from fresh values and closing discards what was typed.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { api, read } from '../../../lib/api-client.ts';
import { testimonialInput } from '../../../shared/schemas/testimonials.ts';
import { adminKeys, publicKeys, useAdminMutation } from '../admin-api.ts';
import { Dialog, DialogContent, DialogFooter } from '../../ui/dialog.tsx';
import { Field, Input, RequiredFieldsNote, Select, Switch, Textarea } from '../../ui/form.tsx';
import { showServerFieldErrors } from '../../ui/server-errors.tsx';
import {
  ratingChoices,
  ratingText,
  testimonialFormValues,
  testimonialPracticeAreaOptions,
  type Testimonial,
  type TestimonialFormValues,
} from './testimonial-form.ts';

type TestimonialPayload = z.output<typeof testimonialInput>;

// The schema's input type allows a missing rating (it has a default); the form always holds one.
const resolver = zodResolver(testimonialInput) as unknown as Resolver<TestimonialFormValues, unknown, TestimonialPayload>;
const fieldNames = ['clientName', 'rating', 'content', 'practiceArea', 'isPublished'] as const;

export const testimonialListKeys = [adminKeys.testimonials, publicKeys.testimonials] as const;

export default function TestimonialDialog({
  open,
  testimonial,
  onOpenChange,
  onCloseAutoFocus,
}: {
  open: boolean;
  /** The testimonial being edited, or null to add one. */
  testimonial: Testimonial | null;
  onOpenChange: (open: boolean) => void;
  /** Where the focus goes on close (ui/return-focus.ts): back to the button that opened the dialog. */
  onCloseAutoFocus: (event: Event) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        onCloseAutoFocus={onCloseAutoFocus}
        title={testimonial ? 'Edit Testimonial' : 'Add Testimonial'}
        description={testimonial ? `Update the testimonial from ${testimonial.clientName}.` : 'A published testimonial can appear on the home page.'}
      >
        <TestimonialForm key={testimonial?.id ?? 'new'} testimonial={testimonial} onSaved={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function TestimonialForm({ testimonial, onSaved }: { testimonial: Testimonial | null; onSaved: () => void }) {
  const form = useForm<TestimonialFormValues, unknown, TestimonialPayload>({ resolver, defaultValues: testimonialFormValues(testimonial) });
  const errors = form.formState.errors;
  const failure = testimonial ? 'Failed to update testimonial' : 'Failed to create testimonial';
  const save = useAdminMutation({
    mutationFn: (json: TestimonialPayload) =>
      testimonial ? read(api.admin.testimonials[':id'].$put({ param: { id: testimonial.id }, json })) : read(api.admin.testimonials.$post({ json })),
    invalidates: testimonialListKeys,
    success: testimonial ? 'Testimonial updated successfully' : 'Testimonial created successfully',
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
      <Field label="Client Name" required error={errors.clientName?.message} hint="As it should appear on the site, e.g. first name and initial.">
        <Input autoComplete="off" {...form.register('clientName')} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Rating" required error={errors.rating?.message}>
          <Select {...form.register('rating', { valueAsNumber: true })}>
            {ratingChoices.map((r) => (
              <option key={r} value={r}>
                {ratingText(r)}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Practice Area" required error={errors.practiceArea?.message}>
          <Select placeholder="Select a practice area" options={testimonialPracticeAreaOptions} {...form.register('practiceArea')} />
        </Field>
      </div>
      <Field label="Testimonial" required error={errors.content?.message}>
        <Textarea rows={5} {...form.register('content')} />
      </Field>
      <Controller
        control={form.control}
        name="isPublished"
        render={({ field }) => (
          <div className="space-y-1">
            <Switch checked={field.value} onCheckedChange={field.onChange} label="Published" />
            <p className="text-xs text-muted-foreground">{field.value ? 'Shown on the website.' : 'Saved as a draft: not shown on the website.'}</p>
          </div>
        )}
      />
      <DialogFooter action={testimonial ? 'Save Changes' : 'Add Testimonial'} pending={save.isPending} error={save.error} failure={failure} />
    </form>
  );
}
