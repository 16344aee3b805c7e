/**
 * Step 2 of the booking modal (SPEC §5 Booking form): First Name, Last Name, Email Address and
 * Practice Area (required), Phone and Notes (optional), per-field messages tied to their fields, and
 * the inquiry-form notice (DOMAIN.md, ABA Formal Op. 10-457). The form itself belongs to the modal,
 * so going Back and returning keeps what was typed.
 */
import type { FormEvent, ReactNode } from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { Field, Input, RequiredFieldsNote, Select, Textarea } from '../ui/form.tsx';
import { Honeypot } from '../ui/Honeypot.tsx';
import { bookingPracticeAreaOptions, type BookingFormValues } from './booking-form.ts';

interface Props {
  formId: string;
  register: UseFormRegister<BookingFormValues>;
  errors: FieldErrors<BookingFormValues>;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** Focused when the step opens. */
  summary: ReactNode;
}

export default function DetailsStep({ formId, register, errors, onSubmit, summary }: Props) {
  return (
    <form id={formId} method="post" noValidate onSubmit={onSubmit} className="space-y-4">
      {summary}
      <RequiredFieldsNote />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="First Name" required error={errors.firstName?.message}>
          <Input size="lg" type="text" autoComplete="given-name" {...register('firstName')} />
        </Field>
        <Field label="Last Name" required error={errors.lastName?.message}>
          <Input size="lg" type="text" autoComplete="family-name" {...register('lastName')} />
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Email Address" required error={errors.email?.message}>
          <Input size="lg" type="email" autoComplete="email" spellCheck={false} {...register('email')} />
        </Field>
        <Field label="Phone" optional error={errors.phone?.message}>
          <Input size="lg" type="tel" autoComplete="tel" {...register('phone')} />
        </Field>
      </div>
      <Field label="Practice Area" required error={errors.practiceArea?.message}>
        <Select size="lg" placeholder="Select a practice area" options={bookingPracticeAreaOptions} {...register('practiceArea')} />
      </Field>
      <Field label="Notes" optional error={errors.notes?.message}>
        <Textarea rows={3} {...register('notes')} />
      </Field>
      <Honeypot />
      <p className="rounded-md border border-border bg-muted p-3 text-sm text-muted-foreground">
        Booking a consultation does not create an attorney-client relationship. Please do not include confidential information until we have agreed to represent
        you. We use these details to hold your consultation and write to you about it, as our{' '}
        <a href="/privacy" target="_blank" rel="noopener" className="underline underline-offset-4">
          privacy policy<span className="sr-only"> (opens in a new tab)</span>
        </a>{' '}
        explains.
      </p>
    </form>
  );
}
