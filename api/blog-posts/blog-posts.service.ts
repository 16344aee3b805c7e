import type { z } from 'zod';
import type { blogPostInput } from '../../src/shared/schemas/blog-posts.ts';
import { databaseRefusal } from '../../db/driver-errors.ts';
import { isSeededSamplePost } from '../../db/seed/sample-content.ts';
import { slugify } from '../../src/shared/slug.ts';
import type { BlogPostSummaryField } from '../../src/shared/schemas/blog-posts.ts';
import type { Deps } from '../deps.ts';
import { badRequest, conflict, HttpError, notFound } from '../http/errors.ts';
import { checkPreviewToken, madeBeforeRevocation, previewExpiry, previewToken, previewUrl } from './preview-link.ts';
import { isStorableText } from '../http/validate.ts';
import { blogPostsRepository, type BlogPostValues } from './blog-posts.repository.ts';

type BlogPostInput = z.output<typeof blogPostInput>;

/** Longer than any slug the schema accepts, so it cannot name a post. */
const MAX_SLUG = 200;

const previewExpired = () => new HttpError(410, 'This preview link has expired. Ask for a new one.');

export function blogPostsService({ database, events, clock, secrets, integrations }: Pick<Deps, 'database' | 'events' | 'clock' | 'secrets' | 'integrations'>) {
  const repo = blogPostsRepository(database);

  /** SPEC §4 Blog post, on save: empty slug from the title; published gets a date; unpublished loses it. */
  async function normalize(input: BlogPostInput): Promise<BlogPostValues> {
    const slug = input.slug || slugify(input.title);
    if (!slug) throw badRequest('Please check the highlighted fields.', { slug: 'Could not make a slug from this title; please enter one' });
    // Loaded when a post is first saved: sanitize-html brings postcss and htmlparser2 (~450 KB of
    // source) that no start needs.
    const { sanitizeArticleHtml } = await import('../http/sanitize-html.ts');
    const content = sanitizeArticleHtml(input.content);
    // Content that was nothing but script (or other stripped markup) is empty once made safe.
    if (!content.trim())
      throw badRequest('Please check the highlighted fields.', { content: 'Content is required (scripts and unsupported markup are removed)' });
    return {
      ...input,
      slug,
      content,
      publishedAt: input.isPublished ? (input.publishedAt ?? clock.now()) : null,
    };
  }

  async function unique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (databaseRefusal(err)?.kind === 'unique')
        throw conflict('A post with this slug already exists.', { slug: 'This slug is already used by another post' });
      throw err;
    }
  }

  return {
    listPublished: () => repo.listPublished(clock.now()),
    /** Part of the published list (blogPostsQuery), and how many are published in all when sliced. */
    async listPublishedPart(query: { limit?: number; offset: number; fields?: readonly BlogPostSummaryField[] }) {
      const now = clock.now();
      const [posts, total] = await Promise.all([repo.listPublishedPart({ ...query, now }), query.limit === undefined ? null : repo.countPublished(now)]);
      return { posts, total };
    },
    /** Every post; `isSample`: still the seed's development text (docs/decisions/029). */
    listAll: async () => (await repo.listAll()).map((row) => ({ ...row, isSample: isSeededSamplePost(row) })),
    /** Every slug getPublished answers: live posts' slugs and the earlier slugs leading to one. */
    async articleSlugs(): Promise<string[]> {
      const now = clock.now();
      const [current, earlier] = await Promise.all([repo.publishedSlugs(now), repo.redirectsToPublished(now)]);
      return [...current, ...earlier].filter((slug) => slug.length <= MAX_SLUG);
    },

    /** A published post by its slug, or by a slug it had before (the page then redirects). */
    async getPublished(slug: string) {
      // Text no database can hold (a NUL: PostgreSQL refuses it) names no post either.
      if (slug.length > MAX_SLUG || !isStorableText(slug)) throw notFound('Article Not Found');
      const now = clock.now();
      const post = await repo.findPublishedBySlug(slug, now);
      if (post) return post;
      const movedTo = await repo.findRedirect(slug);
      const moved = movedTo ? await repo.findById(movedTo) : null;
      if (moved?.isPublished && moved.publishedAt && moved.publishedAt <= now) return moved;
      throw notFound('Article Not Found');
    },

    /** A link that shows the post as it is now, published or not, to whoever holds it, for a week. */
    async previewLink(id: string) {
      const post = await repo.findById(id);
      if (!post) throw notFound('Blog post not found');
      const expiresAt = previewExpiry(clock.now(), post.previewsRevokedAt);
      return { url: previewUrl(integrations.siteUrl, previewToken(secrets, post.id, expiresAt)), expiresAt };
    },

    /**
     * Every preview link of the post made until now stops working (decision 042); links made after
     * work as before. Its updatedAt is kept: the post itself did not change.
     */
    async revokePreviews(id: string) {
      const revoked = await repo.revokePreviews(id, clock.now());
      if (!revoked) throw notFound('Blog post not found');
      return revoked;
    },

    /**
     * The post a preview link opens: as stored now (a later edit shows), whether published or not. A
     * link made before the post's previews were revoked answers as an expired one does.
     */
    async preview(token: string | undefined) {
      const check = checkPreviewToken(secrets, token, clock.now());
      if (check === 'expired') throw previewExpired();
      const post = check === 'invalid' ? null : await repo.findById(check.postId);
      if (!post || check === 'invalid') throw notFound('This preview link does not open any post. It may have been mistyped, or the post deleted.');
      if (madeBeforeRevocation(check.expiresAt, post.previewsRevokedAt)) throw previewExpired();
      return { post, expiresAt: check.expiresAt };
    },

    async create(input: BlogPostInput) {
      const values = await normalize(input);
      const row = await unique(() => repo.create(values));
      await repo.releaseSlug(row.slug);
      events.changed({ topic: 'blog-posts', keys: [row.slug] });
      return row;
    },

    async update(id: string, input: BlogPostInput) {
      const before = await repo.findById(id);
      if (!before) throw notFound('Blog post not found');
      const values: BlogPostValues = await normalize(input);
      // SPEC §4: an already-published post keeps its original date unless the form sends another.
      if (values.isPublished && !input.publishedAt && before.publishedAt) values.publishedAt = before.publishedAt;
      // Unpublished (a retraction): the links made while it was out stop showing it (decision 042).
      if (before.isPublished && !values.isPublished) values.previewsRevokedAt = clock.now();
      const row = await unique(() => repo.update(id, values));
      if (!row) throw notFound('Blog post not found');
      if (row.slug !== before.slug) {
        await repo.releaseSlug(row.slug);
        await repo.rememberOldSlug(before.slug, id);
      }
      // Every page that shows or redirects to this post changes: its old and new slug, and earlier ones.
      events.changed({ topic: 'blog-posts', keys: [...new Set([before.slug, row.slug, ...(await repo.oldSlugsOf(id))])] });
      return row;
    },

    async remove(id: string) {
      // Read before the delete: the redirects go with the post (cascade), and their pages change too.
      const oldSlugs = await repo.oldSlugsOf(id);
      const removed = await repo.remove(id);
      if (!removed) throw notFound('Blog post not found');
      events.changed({ topic: 'blog-posts', keys: [...new Set([removed.slug, ...oldSlugs])] });
    },
  };
}
