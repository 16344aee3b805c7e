/**
 * A blog post's own page (issue 19: written on a full page, not in a dialog; usable on a phone):
 * /admin/blog-posts/new and /admin/blog-posts/{id}, opened from the list's New Blog Post and Edit.
 * The fields, rules and messages of SPEC §4 Blog post, §5 slug rules and defaults, §7 POST / PUT
 * /api/admin/blog-posts and §8 toasts; the content in the rich-text editor (./ArticleEditor.tsx),
 * which only this page loads. The slug follows the title while it is empty or still generated; the
 * publish date is the firm's wall-clock time and only applies to a published post. The server
 * sanitises the HTML and records the old slug when it changes, so old links redirect.
 *
 * Unsaved work is never lost: it is kept on this device as it is typed and offered back when the
 * page opens again (./blog-post-draft.ts); a link away asks first, closing the tab asks through the
 * browser (../leave-guard.ts). Saved, the page goes back to the list (as the dialog closed), where
 * the success toast shows. An existing post's preview links can be revoked here
 * (./PreviewLinksRevoke.tsx, decision 042).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { FileQuestion } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { api, read } from '../../../lib/api-client.ts';
import { toastOnNextPage } from '../../../lib/toast.ts';
import { FIRM_TIME_ZONE_LABEL, formatFirmDateTime } from '../../../shared/firm-time.ts';
import AdminPage from '../AdminPage.tsx';
import type { AdminScreenProps } from '../admin-screens.ts';
import { adminQueries, useAdminList, useAdminMutation } from '../admin-api.ts';
import { useLeaveGuard } from '../leave-guard.ts';
import { Button, buttonClass } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/dialog.tsx';
import { Field, Input, RequiredFieldsNote, Select, Switch, Textarea } from '../../ui/form.tsx';
import { SaveFailed, showServerFieldErrors } from '../../ui/server-errors.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states.tsx';
import ArticleEditor from './ArticleEditor.tsx';
import PreviewLinksRevoke from './PreviewLinksRevoke.tsx';
import { clearDraft, draftKey, readDraft, writeDraft } from './blog-post-draft.ts';
import {
  blogAuthorOptions,
  blogCategoryOptions,
  blogPostFormSchema,
  blogPostFormValues,
  blogPostListKeys,
  blogPostPayload,
  followTitle,
  type BlogPost,
  type BlogPostFormOutput,
  type BlogPostFormValues,
} from './blog-post-form.ts';

const LIST = '/admin/blog-posts';
const resolver = zodResolver(blogPostFormSchema) as unknown as Resolver<BlogPostFormValues, unknown, BlogPostFormOutput>;
const fieldNames = [
  'title',
  'slug',
  'excerpt',
  'content',
  'category',
  'author',
  'isPublished',
  'publishDate',
  'seoTitle',
  'seoDescription',
  'featuredImageUrl',
  'featuredImageAlt',
] as const;

export default function BlogPostEditorScreen({ params }: AdminScreenProps) {
  const isNew = params.id === 'new';
  // The admin API has the list, not one post: an edit finds its post there (the list is small).
  const list = useAdminList({ ...adminQueries.blogPosts, enabled: !isNew });
  const post = isNew ? null : (list.data?.find((p) => p.id === params.id) ?? null);
  const back = { href: LIST, label: 'Back to Blog Posts' };

  if (!isNew && !post) {
    return (
      <AdminPage title="Edit Blog Post" back={back}>
        {list.isPending ? (
          <LoadingState />
        ) : list.isError ? (
          <ErrorState message="The blog post could not be loaded." onRetry={() => void list.refetch()} />
        ) : (
          <EmptyState
            icon={FileQuestion}
            title="Blog post not found"
            description="It may have been deleted. The list has every post there is."
            action={
              <a href={LIST} className={buttonClass('outline')}>
                Back to Blog Posts
              </a>
            }
          />
        )}
      </AdminPage>
    );
  }
  return (
    <AdminPage
      title={post ? 'Edit Blog Post' : 'New Blog Post'}
      back={back}
      description={post ? 'Changes to a published post show on the site as soon as you save.' : 'A new post is a draft until you switch on Published.'}
    >
      <BlogPostForm key={post?.id ?? 'new'} post={post} />
    </AdminPage>
  );
}

function BlogPostForm({ post }: { post: BlogPost | null }) {
  const defaults = blogPostFormValues(post);
  const form = useForm<BlogPostFormValues, unknown, BlogPostFormOutput>({ resolver, defaultValues: defaults });
  const errors = form.formState.errors;
  const [slug, isPublished] = useWatch({ control: form.control, name: ['slug', 'isPublished'] });
  const lastTitle = useRef(defaults.title);
  const key = draftKey(post);
  // A draft kept from an earlier, unsaved visit (a closed tab, a crash): offered, never applied unasked.
  const [kept, setKept] = useState(() => readDraft(key));
  const { isDirty } = form.formState;
  const values = useWatch({ control: form.control });
  const guard = useLeaveGuard(isDirty);

  // Kept on this device as it is typed (half a second after the last keystroke), while it differs from what is saved.
  // Once the work is saved or discarded, nothing more is kept: a wait still running as the page leaves
  // would otherwise write back the draft just cleared.
  const done = useRef(false);
  const finish = () => {
    done.current = true;
    clearDraft(key);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: `values` is the trigger (each change restarts the wait); the effect reads them through getValues
  useEffect(() => {
    if (!isDirty || done.current) return;
    const timer = setTimeout(() => {
      if (!done.current) writeDraft(key, form.getValues());
    }, 500);
    return () => clearTimeout(timer);
  }, [values, isDirty, key, form]);
  // A new post starts at its title, as the dialog did.
  useEffect(() => {
    if (!post) form.setFocus('title');
  }, [post, form]);

  const failure = post ? 'Failed to update blog post' : 'Failed to create blog post';
  const save = useAdminMutation({
    mutationFn: (values: BlogPostFormOutput) => {
      const json = blogPostPayload(values, post);
      return post ? read(api.admin['blog-posts'][':id'].$put({ param: { id: post.id }, json })) : read(api.admin['blog-posts'].$post({ json }));
    },
    invalidates: blogPostListKeys,
    onSuccess: () => {
      finish();
      // SPEC §8's toast, shown by the list this page returns to (the dialog closed on success).
      toastOnNextPage({ title: 'Success', description: post ? 'Blog post updated successfully' : 'Blog post created successfully' });
      guard.go(LIST);
    },
    failure,
  });

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
    } catch (err) {
      // The failure toast is shown; the server's field messages (a slug in use) go beside the fields.
      showServerFieldErrors(err, form.setError, fieldNames, { publishedAt: 'publishDate' });
    }
  });

  const title = form.register('title', {
    // SPEC §5: the slug follows the title while it is empty or still the generated one.
    onChange: (event: { target: { value: string } }) => {
      const next = event.target.value;
      const current = form.getValues('slug');
      const followed = followTitle(current, lastTitle.current, next);
      if (followed !== current) form.setValue('slug', followed, { shouldValidate: form.formState.isSubmitted });
      lastTitle.current = next;
    },
  });
  const seoTitleLength = (useWatch({ control: form.control, name: 'seoTitle' }) ?? '').trim().length;
  const seoDescriptionLength = (useWatch({ control: form.control, name: 'seoDescription' }) ?? '').trim().length;
  const slugMoved = post?.isPublished && isPublished && slug.trim() !== '' && slug.trim() !== post.slug;

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      {kept && (
        <div role="status" className="flex flex-wrap items-center gap-2 rounded-md border border-border bg-muted p-3 text-sm" data-testid="kept-draft">
          <p className="min-w-0 flex-1">
            Unsaved changes from <time dateTime={kept.savedAt}>{formatFirmDateTime(kept.savedAt)}</time> were kept on this device.
          </p>
          <Button
            size="sm"
            className="h-10"
            onClick={() => {
              form.reset(kept.values, { keepDefaultValues: true });
              lastTitle.current = kept.values.title;
              setKept(null);
            }}
          >
            Restore Them
          </Button>
          <Button
            variant="outline"
            size="sm"
            className="h-10"
            onClick={() => {
              clearDraft(key);
              setKept(null);
            }}
          >
            Discard Them
          </Button>
        </div>
      )}
      <RequiredFieldsNote />
      <Field label="Title" required error={errors.title?.message}>
        <Input autoComplete="off" {...title} />
      </Field>
      <Field
        label="Slug"
        error={errors.slug?.message}
        hint={
          <>
            The address: <span className="font-mono">/blog/{slug.trim() || '…'}</span>. Follows the title until you change it; left empty, it is made from the
            title.{slugMoved && <> The old address /blog/{post.slug} will redirect to the new one.</>}
          </>
        }
      >
        <Input autoComplete="off" spellCheck={false} className="font-mono" {...form.register('slug')} />
      </Field>
      <Field label="Excerpt" required error={errors.excerpt?.message} hint="A sentence or two shown in article lists.">
        <Textarea rows={2} {...form.register('excerpt')} />
      </Field>
      <Controller
        control={form.control}
        name="content"
        render={({ field }) => (
          <ArticleEditor
            label="Content"
            required
            error={errors.content?.message}
            hint="Written as it will read. HTML shows the source, where images and tables can be added too. Scripts and other unsupported markup are removed when you save."
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            handle={field.ref}
          />
        )}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Category" required error={errors.category?.message}>
          <Select placeholder="Select a category" options={blogCategoryOptions} {...form.register('category')} />
        </Field>
        <Field label="Author" required error={errors.author?.message}>
          <Select {...form.register('author')}>
            {blogAuthorOptions.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <fieldset className="grid gap-4 rounded-md border border-border p-3 sm:p-4">
        <legend className="px-1 text-sm font-semibold">Search and sharing</legend>
        <Field
          label="SEO Title"
          error={errors.seoTitle?.message}
          hint={`What search results and link previews show as the headline (up to 70 characters; ${seoTitleLength} used). Empty: the title.`}
        >
          <Input autoComplete="off" {...form.register('seoTitle')} />
        </Field>
        <Field
          label="SEO Description"
          error={errors.seoDescription?.message}
          hint={`The summary under it in search results (up to 160 characters; ${seoDescriptionLength} used). Empty: the excerpt.`}
        >
          <Textarea rows={2} {...form.register('seoDescription')} />
        </Field>
        <Field
          label="Featured Image"
          error={errors.featuredImageUrl?.message}
          hint="The https:// address of an image (1200 × 630 suits link previews). Shown above the article and in link previews; empty: the site's own card."
        >
          <Input type="url" inputMode="url" autoComplete="off" spellCheck={false} placeholder="https://" {...form.register('featuredImageUrl')} />
        </Field>
        <Field
          label="Image Description"
          error={errors.featuredImageAlt?.message}
          hint="What the image shows, for visitors who cannot see it. Needed with an image."
        >
          <Input autoComplete="off" {...form.register('featuredImageAlt')} />
        </Field>
      </fieldset>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <Controller
          control={form.control}
          name="isPublished"
          render={({ field }) => (
            <div className="space-y-1 sm:pt-7">
              <Switch checked={field.value} onCheckedChange={field.onChange} label="Published" />
              <p className="text-xs text-muted-foreground">
                {field.value ? 'Shown on the blog once saved.' : 'A draft: not shown on the site, and has no publish date.'}
              </p>
            </div>
          )}
        />
        {isPublished && (
          <Field
            label="Publish Date"
            error={errors.publishDate?.message}
            hint={
              // The server keeps a published post's first date when none is sent (api/blog-posts service).
              `${FIRM_TIME_ZONE_LABEL}. ${
                post?.publishedAt ? 'Leave empty to keep the date it was first published.' : 'Leave empty to use the moment you save.'
              } A later date schedules the post: it goes live at that minute.`
            }
          >
            <Input type="datetime-local" {...form.register('publishDate')} />
          </Field>
        )}
      </div>
      {post && <PreviewLinksRevoke post={post} />}
      {/* Save stays in reach: at the bottom of the screen however long the article (and above a phone's keyboard). */}
      <div className="sticky bottom-0 z-20 -mx-4 grid gap-2 border-t border-border bg-background px-4 py-3 sm:mx-0 sm:px-0">
        <SaveFailed error={save.error} message={failure} />
        <div className="flex flex-wrap justify-end gap-2">
          <a href={LIST} className={buttonClass('outline')}>
            Cancel
          </a>
          <Button type="submit" disabled={save.isPending} aria-busy={save.isPending || undefined}>
            {save.isPending ? 'Saving...' : post ? 'Save Changes' : 'Create Post'}
          </Button>
        </div>
      </div>
      <ConfirmDialog
        open={guard.leaving !== null}
        onOpenChange={(open) => !open && guard.stay()}
        title="Discard your changes?"
        description="What you changed since the post was last saved is lost if you leave without saving."
        confirmLabel="Discard Changes"
        cancelLabel="Keep Editing"
        onConfirm={() => {
          finish();
          guard.go(guard.leaving ?? LIST);
        }}
      />
    </form>
  );
}
