/**
 * Step 2 of the booking modal (SPEC §5 Booking form): First Name, Last Name, Email Address and
 * Practice Area (required), Phone and Notes (optional), per-field messages tied to their fields, and
 * the inquiry-form notice (DOMAIN.md, ABA Formal Op. 10-457). The form itself belongs to the modal,
 * so going Back and returning keeps what was typed.
 */
import type { FormEvent, ReactNode } from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { FormField, RequiredFieldsNote } from '../ui/FormField.tsx';
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
        <FormField label="First Name" required error={errors.firstName?.message}>
          {(props) => <input type="text" autoComplete="given-name" {...props} {...register('firstName')} />}
        </FormField>
        <FormField label="Last Name" required error={errors.lastName?.message}>
          {(props) => <input type="text" autoComplete="family-name" {...props} {...register('lastName')} />}
        </FormField>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Email Address" required error={errors.email?.message}>
          {(props) => <input type="email" autoComplete="email" spellCheck={false} {...props} {...register('email')} />}
        </FormField>
        <FormField label="Phone" hint="Optional" error={errors.phone?.message}>
          {(props) => <input type="tel" autoComplete="tel" {...props} {...register('phone')} />}
        </FormField>
      </div>
      <FormField label="Practice Area" required error={errors.practiceArea?.message}>
        {(props) => (
          <select {...props} {...register('practiceArea')}>
            <option value="" disabled>
              Select a practice area
            </option>
            {bookingPracticeAreaOptions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField label="Notes" hint="Optional" error={errors.notes?.message}>
        {(props) => <textarea rows={3} {...props} className={`${props.className} h-auto py-2`} {...register('notes')} />}
      </FormField>
      <Honeypot />
      <p className="rounded-md border border-border bg-muted p-3 text-sm text-muted-foreground">
        Booking a consultation does not create an attorney-client relationship. Please do not include confidential information until we have agreed to represent
        you.
      </p>
    </form>
  );
}
