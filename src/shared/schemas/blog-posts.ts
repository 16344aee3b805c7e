import { z } from 'zod';
import { blogAuthors, defaultBlogAuthor } from '../../config/firm.ts';
import { blogCategories } from '../constants.ts';
import { isSlug } from '../slug.ts';
import { requiredText } from './fields.ts';

const MIN_PUBLISH_YEAR = 1900;
const MAX_PUBLISH_YEAR = 9999;

/** POST and PUT /api/admin/blog-posts (SPEC §7). An empty slug is generated from the title (SPEC §4). */
export const blogPostInput = z.object({
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
});
export type BlogPostInput = z.input<typeof blogPostInput>;
