/**
 * The blog post form's data (SPEC §3 blog_posts, §4 Blog post, §5 slug rules, §7 POST/PUT
 * /api/admin/blog-posts, §9 categories and authors): the admin list's row, the form's starting values,
 * the slug that follows the title, and the publish date, which the form shows and reads as the firm's
 * wall-clock time (the site shows article dates in the firm's zone too).
 */
import { z } from 'zod';
import { blogAuthors, defaultBlogAuthor } from '../../../config/firm.ts';
import { firmInstant, firmWallClock, isFirmDate } from '../../../shared/firm-time.ts';
import { blogCategories, practiceAreaLabels } from '../../../shared/constants.ts';
import { blogPostFields, describeTheImage, type BlogPostInput } from '../../../shared/schemas/blog-posts.ts';
import { slugify } from '../../../shared/slug.ts';
import { adminKeys, publicKeys, type adminQueries, type Row } from '../admin-api.ts';

/** Every list a post's change shows in (SPEC §7: the public list too). */
export const blogPostListKeys = [adminKeys.blogPosts, publicKeys.blogPosts] as const;

/** A row of GET /api/admin/blog-posts, as the route answers it (dates as ISO strings). */
export type BlogPost = Row<typeof adminQueries.blogPosts>;

export interface BlogPostFormValues {
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  /** '' until one is chosen. */
  category: string;
  author: string;
  isPublished: boolean;
  /** 'YYYY-MM-DDTHH:MM' in the firm's zone (a datetime-local input), or '' for "when published". */
  publishDate: string;
  /** '' for none: search results and link previews use the title and the excerpt. */
  seoTitle: string;
  seoDescription: string;
  featuredImageUrl: string;
  featuredImageAlt: string;
}

/** SPEC §5: a new post is unpublished, by the firm. An edit starts from the row. */
export function blogPostFormValues(row?: BlogPost | null): BlogPostFormValues {
  const none = { seoTitle: '', seoDescription: '', featuredImageUrl: '', featuredImageAlt: '' };
  if (!row) return { title: '', slug: '', excerpt: '', content: '', category: '', author: defaultBlogAuthor, isPublished: false, publishDate: '', ...none };
  const { title, slug, excerpt, content, category, author, isPublished, publishedAt } = row;
  return {
    title,
    slug,
    excerpt,
    content,
    category,
    author,
    isPublished,
    publishDate: toFirmDateTimeInput(publishedAt),
    seoTitle: row.seoTitle ?? '',
    seoDescription: row.seoDescription ?? '',
    featuredImageUrl: row.featuredImageUrl ?? '',
    featuredImageAlt: row.featuredImageAlt ?? '',
  };
}

/**
 * SPEC §5: the slug follows the title while it is empty or still the one generated from the title,
 * so an admin who typed their own slug keeps it.
 */
export function followTitle(slug: string, previousTitle: string, nextTitle: string): string {
  return slug === '' || slug === slugify(previousTitle) ? slugify(nextTitle) : slug;
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})$/;

/** An instant as the value of a datetime-local input, in the firm's zone ('' for none). */
export function toFirmDateTimeInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return '';
  return firmWallClock(instant).slice(0, 16);
}

/** A datetime-local value read as the firm's wall-clock time; null when blank or not a real date and time. */
export function fromFirmDateTimeInput(value: string): Date | null {
  const match = DATE_TIME.exec(value.trim());
  if (!match || !isFirmDate(match[1]!)) return null;
  try {
    return firmInstant(match[1]!, match[2]!);
  } catch {
    return null;
  }
}

/** The form's validation: the server's payload schema, with the publish date as the form holds it. */
export const blogPostFormSchema = blogPostFields
  .omit({ publishedAt: true })
  .extend({
    publishDate: z
      .string()
      .trim()
      .refine((v) => v === '' || fromFirmDateTimeInput(v) !== null, 'Publish date must be a valid date and time'),
  })
  .superRefine(describeTheImage);
export type BlogPostFormOutput = z.output<typeof blogPostFormSchema>;

/**
 * The POST/PUT body. SPEC §4 on save: a draft has no publish date; a published post keeps the date
 * given, or gets one from the server (now, or its original date when it was already published). A
 * date left as loaded is sent as stored, so an edit does not round it to the minute.
 */
export function blogPostPayload(values: BlogPostFormOutput, original?: BlogPost | null): BlogPostInput {
  const { publishDate, ...rest } = values;
  let publishedAt: string | null = null;
  if (values.isPublished && publishDate) {
    publishedAt =
      original?.publishedAt && publishDate === toFirmDateTimeInput(original.publishedAt)
        ? original.publishedAt
        : fromFirmDateTimeInput(publishDate)!.toISOString();
  }
  return { ...rest, publishedAt };
}

/** SPEC §9 Blog categories and authors, for the form's menus. */
export const blogCategoryOptions = blogCategories.map((value) => ({ value, label: practiceAreaLabels[value] ?? value }));
export const blogAuthorOptions = [...blogAuthors];
