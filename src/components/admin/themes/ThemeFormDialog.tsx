/**
 * The create-custom-theme dialog (SPEC §2), also used to review an imported file before saving it
 * (SPEC §4 Theme import) and to edit an installed theme. Validation is the payload schema of POST
 * /api/admin/themes (themeInput), the server's own; every problem with the variables is listed at
 * once. The name follows the display name while it is empty or still the generated one (SPEC §5). A
 * saved theme is installed inactive. The colours are edited with pickers per variant or as JSON, one
 * value behind both (ColourEditor); the real home page wears them live in the preview, for the admin
 * only (HomePreview, decision 031). The contrast warnings (WCAG 2.2 AA, DOMAIN.md) help; they do not
 * block saving.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useRef, useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError, api, read } from '../../../lib/api-client.ts';
import { themeInput } from '../../../shared/schemas/themes.ts';
import { slugify } from '../../../shared/slug.ts';
import { themeColorKeys, themeTemplates } from '../../../shared/theme-templates.ts';
import { themeVariantLabels, type ThemeVariant } from '../../../shared/theme-variables.ts';
import { adminKeys, publicKeys, useAdminMutation } from '../admin-api.ts';
import { Dialog, DialogContent, DialogFooter } from '../../ui/dialog.tsx';
import { Field, Input, Select, Textarea } from '../../ui/form.tsx';
import { ColourEditor } from './ColourEditor.tsx';
import { HomePreview } from './HomePreview.tsx';
import { missingVariables, variableProblems, variantsOf } from './theme-checks.ts';
import { formatVariables, parseVariables, type ThemeDraft, type VariablesObject } from './theme-file.ts';

export type ThemeDialogMode = 'create' | 'import' | 'edit';

type ThemeOutput = z.output<typeof themeInput>;
const resolver = zodResolver(themeInput) as unknown as Resolver<ThemeDraft, unknown, ThemeOutput>;
const NAME_TAKEN = 'A theme with this name is already installed';

const dialogText: Record<ThemeDialogMode, { title: string; description: string }> = {
  create: { title: 'Create Custom Theme', description: 'Name the theme and set its colours. It is installed inactive: activate it when you are ready.' },
  import: {
    title: 'Import Theme',
    description: 'Review the theme read from the file, then save it. It is installed inactive: activate it when you are ready.',
  },
  edit: {
    title: 'Edit Theme',
    description: 'Change its name as shown, description and colours. If the site wears this theme, visitors see the change at once.',
  },
};

export default function ThemeFormDialog({
  state,
  onClose,
  onCloseAutoFocus,
  installedNames,
}: {
  /** The dialog is open while there is a state; the draft prefills the form; `themeId`, the theme edited. */
  state: { mode: ThemeDialogMode; draft: ThemeDraft; themeId?: string } | null;
  onClose: () => void;
  /** Where the focus goes once the dialog has closed (ui/return-focus.ts). */
  onCloseAutoFocus: (event: Event) => void;
  installedNames: readonly string[];
}) {
  return (
    <Dialog open={state !== null} onOpenChange={(open) => !open && onClose()}>
      {state && (
        <DialogContent wide="editor" onCloseAutoFocus={onCloseAutoFocus} title={dialogText[state.mode].title} description={dialogText[state.mode].description}>
          <ThemeForm mode={state.mode} draft={state.draft} themeId={state.themeId} installedNames={installedNames} onSaved={onClose} />
        </DialogContent>
      )}
    </Dialog>
  );
}

function ThemeForm({
  mode,
  draft,
  themeId,
  installedNames,
  onSaved,
}: {
  mode: ThemeDialogMode;
  draft: ThemeDraft;
  themeId?: string;
  installedNames: readonly string[];
  onSaved: () => void;
}) {
  const id = useId();
  const form = useForm<ThemeDraft, unknown, ThemeOutput>({ resolver, defaultValues: draft });
  const { errors, isSubmitted } = form.formState;
  const lastDisplayName = useRef(draft.displayName);
  const [name, variablesText] = useWatch({ control: form.control, name: ['name', 'cssVariables'] });
  const [variant, setVariant] = useState<ThemeVariant>('light');
  const setVariables = (text: string) => form.setValue('cssVariables', text, { shouldDirty: true, shouldValidate: isSubmitted });

  const create = useAdminMutation({
    mutationFn: ({ input }: { input: ThemeOutput; mode: ThemeDialogMode }) => read(api.admin.themes.$post({ json: input })),
    invalidates: [adminKeys.themes],
    success: (_, vars) => (vars.mode === 'import' ? 'Theme imported successfully' : 'Theme created successfully'),
    failure: 'Failed to create theme',
  });
  const update = useAdminMutation({
    mutationFn: ({ id, input }: { id: string; input: ThemeOutput }) =>
      read(
        api.admin.themes[':id'].$put({
          param: { id },
          json: { displayName: input.displayName, description: input.description, cssVariables: input.cssVariables },
        }),
      ),
    // The banner and the preview read the public active theme: an edit of the worn one changes it.
    invalidates: [adminKeys.themes, publicKeys.activeTheme],
    success: 'Theme updated successfully',
    failure: 'Failed to update theme',
  });
  const editing = mode === 'edit';

  // An edited theme keeps its name (its identity): not "taken" by itself.
  const nameTaken = !editing && installedNames.includes(name.trim());
  const problems = variableProblems(variablesText);
  const variables = parseVariables(variablesText);
  const showProblems = (isSubmitted || form.getFieldState('cssVariables').isDirty || mode === 'import') && problems.length > 0;
  const variablesError = showProblems ? problems : errors.cssVariables?.message ? [errors.cssVariables.message] : [];

  const displayName = form.register('displayName', {
    onChange: (e: { target: { value: string } }) => {
      // SPEC §5: the name follows while it is empty or still the one generated from the display name.
      const current = form.getValues('name');
      if (current === '' || current === slugify(lastDisplayName.current)) form.setValue('name', slugify(e.target.value), { shouldValidate: isSubmitted });
      lastDisplayName.current = e.target.value;
    },
  });

  const onSubmit = form.handleSubmit(async (values) => {
    if (!editing && installedNames.includes(values.name)) {
      form.setError('name', { message: NAME_TAKEN }, { shouldFocus: true });
      return;
    }
    try {
      if (editing && themeId) await update.mutateAsync({ id: themeId, input: values });
      else await create.mutateAsync({ input: { ...values, isActive: false, isDefault: false }, mode });
      onSaved();
    } catch (err) {
      // The failure toast is shown by the mutation; the server's field messages go beside the fields.
      const fields = err instanceof ApiError ? err.details.fields : undefined;
      for (const key of ['name', 'displayName', 'description', 'cssVariables'] as const) {
        if (fields?.[key]) form.setError(key, { message: fields[key] });
      }
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4 xl:grid-cols-2 xl:items-start">
      <div className="grid min-w-0 gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Display name" required error={errors.displayName?.message}>
            <Input autoComplete="off" {...displayName} />
          </Field>
          <Field
            label="Name"
            required
            hint={
              editing
                ? 'A theme’s name stays: exported files and links name it.'
                : 'URL-friendly: lowercase letters, digits and hyphens. Follows the display name until you change it.'
            }
            error={errors.name?.message ?? (nameTaken ? NAME_TAKEN : undefined)}
          >
            <Input autoComplete="off" spellCheck={false} className="font-mono" readOnly={editing} {...form.register('name')} />
          </Field>
        </div>
        <Field label="Description" error={errors.description?.message}>
          <Textarea rows={2} {...form.register('description')} />
        </Field>

        <ColourEditor text={variablesText} variables={variables} onChange={setVariables} variant={variant} onVariantChange={setVariant} />

        <div className="space-y-1.5">
          <div className="flex flex-wrap items-end justify-between gap-2">
            <label htmlFor={`${id}-vars`} className="block text-sm font-medium">
              CSS variables (JSON)
              <span aria-hidden="true" className="ml-0.5 text-destructive">
                *
              </span>
            </label>
            <Select
              aria-label="Copy variables from a template"
              className="w-full sm:w-60"
              value=""
              onChange={(e) => {
                const template = themeTemplates.find((t) => t.name === e.target.value);
                if (template) setVariables(formatVariables(template.cssVariables));
              }}
            >
              <option value="">Copy variables from...</option>
              {themeTemplates.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.displayName}
                </option>
              ))}
            </Select>
          </div>
          <Textarea
            id={`${id}-vars`}
            rows={12}
            spellCheck={false}
            aria-required
            aria-invalid={variablesError.length > 0 || undefined}
            aria-describedby={`${id}-vars-hint${variablesError.length ? ` ${id}-vars-error` : ''}`}
            className="font-mono text-xs sm:text-xs"
            {...form.register('cssVariables')}
          />
          <p id={`${id}-vars-hint`} className="text-xs text-muted-foreground">
            Colours are HSL triplets such as "222 47% 11%"; radius from 0.125rem to 0.875rem. Variables: {themeColorKeys.join(', ')}, radius; "dark" and "warm"
            hold the colours of those variants.
          </p>
          {variablesError.length > 0 && (
            <div id={`${id}-vars-error`} className="text-sm font-medium text-destructive">
              {variablesError.length === 1 ? (
                <p>{variablesError[0]}</p>
              ) : (
                <ul className="list-disc space-y-0.5 pl-5">
                  {variablesError.map((p) => (
                    <li key={p}>{p}</li>
                  ))}
                </ul>
              )}
            </div>
          )}
        </div>
      </div>

      {/* Beside the colours on a wide screen, and kept in view while they scroll, so each change is seen as it is made. */}
      {variables && (
        <div className="min-w-0 xl:sticky xl:top-0">
          <ThemePreview variables={variables} variant={variant} />
        </div>
      )}

      <div className="xl:col-span-2">
        <DialogFooter action={editing ? 'Save Changes' : 'Save Theme'} pending={create.isPending || update.isPending} />
      </div>
    </form>
  );
}

/** The real home page wearing the form's colours, in the variant being edited (or light, when the theme has no such variant). */
function ThemePreview({ variables, variant }: { variables: VariablesObject; variant: ThemeVariant }) {
  const missing = missingVariables(variables);
  const shown = variantsOf(variables).includes(variant) ? variant : 'light';
  return (
    <section aria-label="Preview" className="space-y-2 rounded-lg border border-border p-3 sm:p-4">
      <h3 className="text-sm font-semibold">Preview</h3>
      <p className="text-sm text-muted-foreground">
        The home page in these {themeVariantLabels[shown].toLowerCase()} colours, as it changes. Only you see this: visitors keep the active theme until you
        save and activate.
      </p>
      <HomePreview variables={variables} variant={shown} />
      {missing.length > 0 && <p className="text-xs text-muted-foreground">Not set, so the site keeps its own value: {missing.join(', ')}.</p>}
    </section>
  );
}
