import { z } from 'zod';
import { blogAuthors, defaultBlogAuthor } from '../../config/firm.ts';
import { blogCategories } from '../constants.ts';
import { isSlug } from '../slug.ts';
import { optionalText, requiredText } from './fields.ts';

const MIN_PUBLISH_YEAR = 1900;
const MAX_PUBLISH_YEAR = 9999;

/** The fields of POST and PUT /api/admin/blog-posts, before the rules across them (the admin form adds its own). */
export const blogPostFields = z.object({
  title: requiredText('Title', 200),
  slug: z
    .string({ error: 'Slug must be text' })
    .trim()
    .max(200, 'Slug must be at most 200 characters')
    .refine((v) => v === '' || isSlug(v), 'Slug may contain only lowercase letters, digits and single hyphens')
    .default(''),
  excerpt: requiredText('Excerpt', 500),
  content: requiredText('Content', 60_000),
  category: z.enum(blogCategories, { error: 'Please choose a category' }),
  author: z.enum(blogAuthors, { error: 'Please choose an author' }).default(defaultBlogAuthor),
  isPublished: z.boolean({ error: 'Published must be true or false' }).default(false),
  // A blank date from the form means "none" (SPEC §4: published without a date gets now).
  publishedAt: z
    .union([z.string(), z.date()], { error: 'Publish date must be a valid date' })
    .nullish()
    .transform((v, ctx) => {
      if (v == null || (typeof v === 'string' && v.trim() === '')) return null;
      const d = v instanceof Date ? v : new Date(v.trim());
      if (Number.isNaN(d.getTime())) {
        ctx.addIssue({ code: 'custom', message: 'Publish date must be a valid date' });
        return z.NEVER;
      }
      // PostgreSQL cannot hold year 0 or years past 9999 (a 500), and reads years before 100
      // back as 19xx/20xx; no article of the firm's is dated outside these.
      const year = d.getUTCFullYear();
      if (year < MIN_PUBLISH_YEAR || year > MAX_PUBLISH_YEAR) {
        ctx.addIssue({ code: 'custom', message: `Publish date must be between the years ${MIN_PUBLISH_YEAR} and ${MAX_PUBLISH_YEAR}` });
        return z.NEVER;
      }
      return d;
    }),
  // What search results and link previews show instead of the title and the excerpt (blank: those).
  seoTitle: optionalText('SEO title', 70),
  seoDescription: optionalText('SEO description', 160),
  // An image on another site (the firm's media library, say), over https: a page served over https
  // may not show one fetched over http.
  featuredImageUrl: z
    .string({ error: 'Featured image must be a web address' })
    .trim()
    .max(2048, 'Featured image address must be at most 2048 characters')
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || (/^https:\/\//i.test(v) && URL.canParse(v)), 'Featured image must be an https:// address'),
  featuredImageAlt: optionalText('Image description', 200),
});

/** A picture that says something needs words for those who cannot see it (WCAG 1.1.1). */
export function describeTheImage(post: { featuredImageUrl: string | null; featuredImageAlt: string | null }, ctx: z.RefinementCtx) {
  if (post.featuredImageUrl && !post.featuredImageAlt)
    ctx.addIssue({ code: 'custom', path: ['featuredImageAlt'], message: 'Describe the image for visitors who cannot see it' });
}

/** POST and PUT /api/admin/blog-posts (SPEC §7). An empty slug is generated from the title (SPEC §4). */
export const blogPostInput = blogPostFields.superRefine(describeTheImage);
export type BlogPostInput = z.input<typeof blogPostInput>;

/** The fields of a post in the public list (GET /api/blog-posts), in the order they are sent. */
export const blogPostSummaryFields = ['id', 'title', 'slug', 'excerpt', 'category', 'author', 'publishedAt', 'updatedAt'] as const;
export type BlogPostSummaryField = (typeof blogPostSummaryFields)[number];

/**
 * GET /api/blog-posts: every published post, newest first; or, so a page reads only what it shows
 * (the home page three posts, the feed twenty, a blog page twelve, the sitemap two fields of each):
 * `limit` and `offset` a slice of it (the whole count in X-Total-Count), `fields` some fields only.
 */
export const blogPostsQuery = z
  .object({
    limit: z.coerce
      .number({ error: 'Limit must be a whole number from 1 to 100' })
      .int('Limit must be a whole number from 1 to 100')
      .min(1, 'Limit must be a whole number from 1 to 100')
      .max(100, 'Limit must be a whole number from 1 to 100')
      .optional(),
    offset: z.coerce
      .number({ error: 'Offset must be a whole number from 0' })
      .int('Offset must be a whole number from 0')
      .min(0, 'Offset must be a whole number from 0')
      .max(100_000_000, 'Offset must be at most 100000000')
      .default(0),
    fields: z
      .string({ error: 'Fields must be given once, separated by commas' })
      .transform((v, ctx) => {
        const names = [...new Set(v.split(',').map((name) => name.trim()))];
        const unknown = names.filter((name) => !(blogPostSummaryFields as readonly string[]).includes(name));
        if (unknown.length || !names.length) {
          ctx.addIssue({ code: 'custom', message: `Fields must be some of ${blogPostSummaryFields.join(', ')}, separated by commas` });
          return z.NEVER;
        }
        return names as BlogPostSummaryField[];
      })
      .optional(),
  })
  // An offset without a limit would be ignored: said, rather than answering the whole list.
  .refine((query) => query.limit !== undefined || query.offset === 0, { path: ['offset'], message: 'Offset needs a limit' });
