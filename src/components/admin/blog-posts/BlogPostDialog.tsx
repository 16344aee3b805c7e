/**
 * Create or edit a blog post (SPEC §2 /admin/blog-posts, §4 Blog post, §5 slug rules and defaults,
 * §7 POST / PUT /api/admin/blog-posts, §8 toasts). The slug follows the title while it is empty or
 * still generated; the publish date is the firm's wall-clock time and only applies to a published
 * post. The server sanitises the HTML and records the old slug when it changes, so old links
 * redirect. The form lives inside the dialog's content: each opening starts fresh. Unsaved work is
 * guarded (issue 19): closing asks first, leaving the page asks the browser to, and a draft is kept
 * on this device until the post is saved, offered back the next time the form opens.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { api, read } from '../../../lib/api-client.ts';
import { FIRM_TIME_ZONE_LABEL, formatFirmDateTime } from '../../../shared/firm-time.ts';
import { adminKeys, publicKeys, useAdminMutation } from '../admin-api.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog, Dialog, DialogContent, DialogFooter } from '../../ui/dialog.tsx';
import { Field, Input, RequiredFieldsNote, Select, Switch, Textarea } from '../../ui/form.tsx';
import { showServerFieldErrors } from '../../ui/server-errors.tsx';
import {
  blogAuthorOptions,
  blogCategoryOptions,
  blogPostFormSchema,
  blogPostFormValues,
  blogPostPayload,
  followTitle,
  type BlogPost,
  type BlogPostFormOutput,
  type BlogPostFormValues,
} from './blog-post-form.ts';

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

export const blogPostListKeys = [adminKeys.blogPosts, publicKeys.blogPosts] as const;

export default function BlogPostDialog({
  open,
  post,
  onOpenChange,
  onCloseAutoFocus,
}: {
  open: boolean;
  /** The post being edited, or null to create one. */
  post: BlogPost | null;
  onOpenChange: (open: boolean) => void;
  /** Where the focus goes on close (ui/return-focus.ts): back to the button that opened the dialog. */
  onCloseAutoFocus: (event: Event) => void;
}) {
  // Unsaved work is never thrown away by a stray Escape, Close or click beside the dialog (issue 19):
  // closing asks first; the form also keeps a draft on this device (draftKey) until it is saved.
  const dirty = useRef(false);
  const [askDiscard, setAskDiscard] = useState(false);
  const close = () => {
    dirty.current = false;
    onOpenChange(false);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) onOpenChange(true);
        else if (dirty.current) setAskDiscard(true);
        else close();
      }}
    >
      <DialogContent
        wide
        onCloseAutoFocus={onCloseAutoFocus}
        onInteractOutside={(event) => {
          if (dirty.current) event.preventDefault();
        }}
        title={post ? 'Edit Blog Post' : 'Create Blog Post'}
        description={post ? `Changes to a published post show on the site as soon as you save.` : 'A new post is a draft until you switch on Published.'}
      >
        <BlogPostForm
          key={post?.id ?? 'new'}
          post={post}
          onDirtyChange={(value) => {
            dirty.current = value;
          }}
          onSaved={close}
        />
        <ConfirmDialog
          open={askDiscard}
          onOpenChange={setAskDiscard}
          title="Discard your changes?"
          description="What you changed since the post was last saved is lost if you close without saving."
          confirmLabel="Discard Changes"
          cancelLabel="Keep Editing"
          onConfirm={() => {
            clearDraft(draftKey(post));
            setAskDiscard(false);
            close();
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

/** Where the form keeps its unsaved work on this device: per post, and one for a new post. */
export const draftKey = (post: Pick<BlogPost, 'id'> | null) => `firm-admin:blog-post-draft:${post?.id ?? 'new'}`;

interface KeptDraft {
  values: BlogPostFormValues;
  savedAt: string;
}

function readDraft(key: string): KeptDraft | null {
  try {
    const kept = JSON.parse(localStorage.getItem(key) ?? 'null') as KeptDraft | null;
    return kept && typeof kept.values?.title === 'string' && typeof kept.savedAt === 'string' ? kept : null;
  } catch {
    return null;
  }
}

function clearDraft(key: string) {
  try {
    localStorage.removeItem(key);
  } catch {
    // Storage refused (private mode): nothing was kept either.
  }
}

function BlogPostForm({ post, onSaved, onDirtyChange }: { post: BlogPost | null; onSaved: () => void; onDirtyChange: (dirty: boolean) => void }) {
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

  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);
  // Kept on this device as it is typed (half a second after the last keystroke), while it differs from what is saved.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `values` is the trigger (each change restarts the wait); the effect reads them through getValues
  useEffect(() => {
    if (!isDirty) return;
    const timer = setTimeout(() => {
      try {
        localStorage.setItem(key, JSON.stringify({ values: form.getValues(), savedAt: new Date().toISOString() } satisfies KeptDraft));
      } catch {
        // Storage full or refused: the unsaved-changes prompt still guards the work.
      }
    }, 500);
    return () => clearTimeout(timer);
  }, [values, isDirty, key, form]);
  // Leaving the page (reload, closing the tab) with unsaved work: the browser asks first.
  useEffect(() => {
    if (!isDirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [isDirty]);

  const failure = post ? 'Failed to update blog post' : 'Failed to create blog post';
  const save = useAdminMutation({
    mutationFn: (values: BlogPostFormOutput) => {
      const json = blogPostPayload(values, post);
      return post ? read(api.admin['blog-posts'][':id'].$put({ param: { id: post.id }, json })) : read(api.admin['blog-posts'].$post({ json }));
    },
    invalidates: blogPostListKeys,
    success: post ? 'Blog post updated successfully' : 'Blog post created successfully',
    failure,
    onSuccess: () => {
      clearDraft(key);
      onSaved();
    },
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
      <Field
        label="Content (HTML)"
        required
        error={errors.content?.message}
        hint="HTML is allowed: headings, paragraphs, lists, links, images and tables. Scripts and other unsupported markup are removed when you save."
      >
        <Textarea rows={10} spellCheck={false} className="font-mono" {...form.register('content')} />
      </Field>
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
      <DialogFooter action={post ? 'Save Changes' : 'Create Post'} pending={save.isPending} error={save.error} failure={failure} />
    </form>
  );
}
