/**
 * The labelled field of the public islands' forms (the contact form, the booking modal's details step;
 * SPEC §5): the label with its required mark and hint, the control, and the field's message tied to
 * the control by aria-describedby, so a screen reader reads it with the field.
 */
import { CircleAlert } from 'lucide-react';
import { useId, type ReactNode } from 'react';

/** What the field gives its control: spread them on the input, select or textarea. */
export interface FormControlProps {
  id: string;
  'aria-required'?: true;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
  className: string;
}

interface Props {
  label: string;
  required?: boolean;
  /** Shown after the label, in brackets ('Optional'). */
  hint?: string;
  error?: string;
  children: (props: FormControlProps) => ReactNode;
}

export function FormField({ label, required = false, hint, error, children }: Props) {
  const controlId = useId();
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  return (
    <div className="space-y-1.5">
      <label htmlFor={controlId} className="block text-sm font-medium">
        {label}
        {required && <RequiredMark />}
        {hint && (
          <span id={hintId} className="ml-1.5 font-normal text-muted-foreground">
            ({hint})
          </span>
        )}
      </label>
      {children({
        id: controlId,
        'aria-required': required || undefined,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': errorId,
        className: `block h-11 w-full rounded-md border bg-background px-3 text-base sm:text-sm ${error ? 'border-2 border-destructive' : 'border-input'}`,
      })}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/** Said once above a form's fields: what the red asterisk means, in words for screen readers. */
export function RequiredFieldsNote() {
  return (
    <p className="text-sm text-muted-foreground">
      Fields marked <span aria-hidden="true">*</span>
      <span className="sr-only">with an asterisk</span> are required.
    </p>
  );
}

/** The red asterisk after a required field's label; the form's note says what it means in words. */
export function RequiredMark() {
  return (
    <span aria-hidden="true" className="ml-0.5 text-destructive">
      *
    </span>
  );
}

/** A field's message, with the id its control's aria-describedby names; nothing without a message. */
export function FieldError({ id, message }: { id?: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="flex items-center gap-1 text-sm font-medium text-destructive">
      <CircleAlert aria-hidden="true" className="size-4 shrink-0" />
      {message}
    </p>
  );
}
