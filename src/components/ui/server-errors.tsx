/**
 * A failed save on admin forms, said where the admin is looking: a 400 or 409 from the API carries
 * `fields` (api/http/errors.ts), keyed by payload field, shown beside the fields (the first takes the
 * focus); and the failure itself, as an alert inside the form, besides the SPEC §8 toast.
 */
import { CircleAlert } from 'lucide-react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../lib/api-client.ts';

/**
 * Sets the form errors of `err` for the fields the form has (`names`); `rename` maps a payload
 * field to the form's own name (publishedAt -> publishDate). Returns how many were shown.
 */
export function showServerFieldErrors<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  names: readonly Path<T>[],
  rename: Readonly<Record<string, Path<T>>> = {},
): number {
  if (!(err instanceof ApiError)) return 0;
  const fields = err.details.fields ?? {};
  let shown = 0;
  for (const [key, message] of Object.entries(fields)) {
    const name = rename[key] ?? (names as readonly string[]).find((n) => n === key);
    if (!name || typeof message !== 'string') continue;
    setError(name as Path<T>, { type: 'server', message }, { shouldFocus: shown === 0 });
    shown++;
  }
  return shown;
}

/**
 * The failure said inside the form too: while a modal dialog is open, everything outside it (the
 * toast viewport included) is hidden from assistive technology, so the toast alone would not be
 * heard. Shows the server's reason for a refused request (4xx), never internals of a 5xx.
 */
export function SaveFailed({ error, message }: { error: Error | null; message: string }) {
  if (!error) return null;
  const reason = error instanceof ApiError && error.status < 500 ? error.details.error : undefined;
  return (
    <p role="alert" className="flex items-start gap-2 rounded-md border border-destructive p-3 text-sm font-medium text-destructive">
      <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>
        {message}.{reason ? ` ${reason}` : ' Please try again.'}
      </span>
    </p>
  );
}
