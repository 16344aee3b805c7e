/**
 * The form controls of the admin and the public islands: one labelled Field (label, required mark,
 * '(Optional)', hint and message, tied to the control by aria-describedby / aria-invalid), Input,
 * Textarea, native Select (keyboard and screen-reader friendly everywhere, phones included) and
 * Switch (role="switch"). A control's accessible name is its label alone: what else is said about it
 * (optional, the hint, the message) is its description.
 */
import { CircleAlert } from 'lucide-react';
import {
  cloneElement,
  forwardRef,
  isValidElement,
  useId,
  type InputHTMLAttributes,
  type ReactElement,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

const control =
  'block w-full rounded-md border border-input bg-background px-3 text-base text-foreground placeholder:text-muted-foreground sm:text-sm ' +
  'disabled:opacity-60 aria-[invalid=true]:border-2 aria-[invalid=true]:border-destructive';

/** `md` is the admin's (40px from the sm breakpoint), `lg` the public forms' (44px at every width). */
const heights = { md: 'h-11 sm:h-10', lg: 'h-11' } as const;
type ControlSize = keyof typeof heights;

export const Input = forwardRef<HTMLInputElement, Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> & { size?: ControlSize }>(function Input(
  { className = '', size = 'md', ...props },
  ref,
) {
  return <input ref={ref} className={`${control} ${heights[size]} ${className}`} {...props} />;
});

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea(
  { className = '', rows = 4, ...props },
  ref,
) {
  return <textarea ref={ref} rows={rows} className={`${control} py-2 ${className}`} {...props} />;
});

/** A select's choices; `placeholder` is a first, disabled choice with the empty value ('Select a practice area'). */
type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'size'> & {
  size?: ControlSize;
  options?: readonly { value: string | number; label: string }[];
  placeholder?: string;
};

export const Select = forwardRef<HTMLSelectElement, SelectProps>(function Select(
  { className = '', size = 'md', options, placeholder, children, ...props },
  ref,
) {
  // With a placeholder and no value of its own, the server's HTML shows the placeholder too: a
  // disabled first option is otherwise skipped, and the page showed the first real choice as chosen
  // until the island hydrated.
  const initial = placeholder !== undefined && props.value === undefined && props.defaultValue === undefined ? { defaultValue: '' } : {};
  return (
    <select ref={ref} className={`${control} ${heights[size]} pr-8 ${className}`} {...initial} {...props}>
      {placeholder !== undefined && (
        <option value="" disabled>
          {placeholder}
        </option>
      )}
      {options?.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
      {children}
    </select>
  );
});

type ControlProps = { id?: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean; 'aria-required'?: boolean };

/** What a Field gives a control it cannot clone (one inside a wrapper): spread them on the control. */
export interface FieldControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
  'aria-required'?: true;
}

/**
 * Wraps one control: gives it an id, names it by the label, and describes it by '(Optional)', the
 * hint and the message. `children` is the control itself, or, for a control inside a wrapper (an
 * amount with its $ sign), a function that places the given props on it.
 */
export function Field({
  label,
  required = false,
  optional = false,
  hint,
  error,
  children,
  className = '',
}: {
  label: ReactNode;
  required?: boolean;
  /** '(Optional)' beside the label. */
  optional?: boolean;
  /** Said below the control. */
  hint?: ReactNode;
  error?: string;
  children: ReactElement<ControlProps> | ((control: FieldControlProps) => ReactNode);
  className?: string;
}) {
  const generated = useId();
  const element = isValidElement(children) ? children : null;
  const id = element?.props.id ?? generated;
  const optionalId = optional ? `${id}-optional` : undefined;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const control: FieldControlProps = {
    id,
    'aria-describedby': [element?.props['aria-describedby'], optionalId, hintId, errorId].filter(Boolean).join(' ') || undefined,
    'aria-invalid': error ? true : undefined,
    'aria-required': required || undefined,
  };
  const labelElement = (
    <label htmlFor={id} className={optional ? 'font-medium' : 'block text-sm font-medium'}>
      {label}
      {required && <RequiredMark />}
    </label>
  );
  return (
    <div className={`space-y-1.5 ${className}`}>
      {optional ? (
        <div className="text-sm">
          {labelElement}
          <span id={optionalId} className="ml-1.5 text-muted-foreground">
            (Optional)
          </span>
        </div>
      ) : (
        labelElement
      )}
      {element ? cloneElement(element, control) : typeof children === 'function' ? children(control) : null}
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
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

/** An on/off switch. Its accessible name comes from `label` (visible) or `aria-label`. */
export function Switch({
  checked,
  onCheckedChange,
  label,
  disabled,
  id,
  'aria-label': ariaLabel,
}: {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  label?: ReactNode;
  disabled?: boolean;
  id?: string;
  'aria-label'?: string;
}) {
  const generated = useId();
  const switchId = id ?? generated;
  return (
    <span className="inline-flex items-center gap-2">
      <button
        id={switchId}
        type="button"
        role="switch"
        aria-checked={checked}
        aria-label={ariaLabel}
        disabled={disabled}
        onClick={() => onCheckedChange(!checked)}
        className={`relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-60 ${checked ? 'bg-primary' : 'bg-input'}`}
      >
        <span
          aria-hidden="true"
          className={`pointer-events-none block size-5 rounded-full bg-background shadow transition-transform ${checked ? 'translate-x-5' : 'translate-x-0'}`}
        />
      </button>
      {label && (
        <label htmlFor={switchId} className="cursor-pointer text-sm font-medium">
          {label}
        </label>
      )}
    </span>
  );
}
