/**
 * Add Blog Source (SPEC §2 Blog Sources, §4 Blog source, §5, §7 POST /api/admin/blog-sources, §8
 * toasts): name, url, type (RSS by default), number of articles (1 to 10; a non-numeric entry becomes
 * 5) and an optional JSON configuration. Missing name or url gives 'Validation Error' / 'Please fill
 * in all required fields.' and sends nothing. Created active; the server fetches it at once.
 */
import { useId, type FocusEvent, type ReactElement } from 'react';
import { useForm } from 'react-hook-form';
import { blogSourceDisplayLimit, blogSourceTypes } from '../../../shared/constants.ts';
import { useAdminMutation } from '../admin-api.ts';
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '../../ui/dialog.tsx';
import { Field, Input, RequiredFieldsNote, Select, Textarea } from '../../ui/form.tsx';
import { BlogSourceTypeHelp } from './BlogSourceTypeHelp.tsx';
import {
  blogSourceFormDefaults,
  blogSourceTypeLabels,
  checkBlogSourceForm,
  integrationKeys,
  parseDisplayLimit,
  REQUIRED_FIELDS_MESSAGE,
  type BlogSource,
  type BlogSourceFormValues,
  type BlogSourcePayload,
} from './integrations.ts';
import { submitChecked } from './submit-checked.ts';

const fieldNames = ['name', 'url', 'type', 'displayLimit', 'config'] as const;

export const blogSourceListKeys = [integrationKeys.blogSources, integrationKeys.externalArticles] as const;

export default function BlogSourceDialog({
  open,
  onOpenChange,
  trigger,
  create,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger: ReactElement;
  /** Sends the new source (the tab watches it until its first fetch shows). */
  create: (payload: BlogSourcePayload) => Promise<BlogSource>;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent
        wide
        title="Add Blog Source"
        description="Articles from this source appear on the blog page and under External Articles. It is fetched at once, then on a schedule."
      >
        <BlogSourceForm create={create} onSaved={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function BlogSourceForm({ create, onSaved }: { create: (payload: BlogSourcePayload) => Promise<BlogSource>; onSaved: () => void }) {
  const form = useForm<BlogSourceFormValues>({ defaultValues: blogSourceFormDefaults() });
  const errors = form.formState.errors;
  const type = form.watch('type');
  const helpId = useId();
  const failure = 'Failed to create blog source';
  const save = useAdminMutation<BlogSourcePayload, BlogSource>({
    mutationFn: create,
    invalidates: blogSourceListKeys,
    success: 'Blog source created successfully',
    failure,
    onSuccess: onSaved,
  });

  const onSubmit = form.handleSubmit(async (values) => {
    form.clearErrors();
    // SPEC §5: what was typed as the number of articles shows what is sent (a non-numeric entry becomes 5).
    form.setValue('displayLimit', String(parseDisplayLimit(values.displayLimit)));
    await submitChecked(form, checkBlogSourceForm(values), { missingMessage: REQUIRED_FIELDS_MESSAGE, save: save.mutateAsync, fieldNames });
  });

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <RequiredFieldsNote />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Name" required error={errors.name?.message} hint="Shown as the articles’ source, e.g. California Courts News.">
          <Input autoComplete="off" {...form.register('name')} />
        </Field>
        <Field label="Type" error={errors.type?.message}>
          <Select {...form.register('type')}>
            {blogSourceTypes.map((t) => (
              <option key={t} value={t}>
                {blogSourceTypeLabels[t]}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <Field label="URL" required error={errors.url?.message} hint="The feed, API or page address (http or https).">
        <Input type="url" inputMode="url" autoComplete="off" spellCheck={false} placeholder="https://" {...form.register('url')} />
      </Field>
      <Field
        label="Number of articles"
        error={errors.displayLimit?.message}
        hint={`How many of this source’s newest articles the site shows: ${blogSourceDisplayLimit.min} to ${blogSourceDisplayLimit.max}. Anything that is not a number becomes ${blogSourceDisplayLimit.default}.`}
        className="sm:max-w-xs"
      >
        <Input
          inputMode="numeric"
          autoComplete="off"
          {...form.register('displayLimit', {
            // SPEC §5: a non-numeric entry becomes 5, as soon as the field is left.
            onBlur: (e: FocusEvent<HTMLInputElement>) => form.setValue('displayLimit', String(parseDisplayLimit(e.target.value))),
          })}
        />
      </Field>
      <BlogSourceTypeHelp id={helpId} type={type} />
      <Field label="Configuration (JSON, optional)" error={errors.config?.message}>
        <Textarea
          rows={4}
          aria-describedby={helpId}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          className="font-mono text-sm"
          placeholder="{}"
          {...form.register('config')}
        />
      </Field>
      <DialogFooter action="Add Blog Source" pending={save.isPending} error={save.error} failure={failure} />
    </form>
  );
}
