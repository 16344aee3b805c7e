import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { toast } from '../../../lib/toast.ts';
import { showServerFieldErrors } from '../../ui/server-errors.tsx';
import { VALIDATION_TITLE, type FormCheck } from './integrations.ts';

/**
 * The integration dialogs' submit: the form's own check first (SPEC §5: missing fields say so beside
 * the fields and in a 'Validation Error' toast, and nothing is sent), then the save, whose field
 * errors from the server are shown beside the fields (its toast comes from useAdminMutation).
 */
export async function submitChecked<V extends FieldValues, P>(
  form: UseFormReturn<V>,
  check: FormCheck<P>,
  { missingMessage, save, fieldNames }: { missingMessage: string; save: (payload: P) => Promise<unknown>; fieldNames: readonly Path<V>[] },
): Promise<void> {
  if (check.kind !== 'ok') {
    Object.entries(check.fields).forEach(([name, message], i) => form.setError(name as Path<V>, { type: 'manual', message }, { shouldFocus: i === 0 }));
    if (check.kind === 'missing') toast({ title: VALIDATION_TITLE, description: missingMessage, variant: 'destructive' });
    return;
  }
  try {
    await save(check.payload);
  } catch (err) {
    showServerFieldErrors(err, form.setError, fieldNames);
  }
}
