import { describe, expect, it } from 'vitest';
import { firm } from '../../../config/firm.ts';
import {
  blogAuthorOptions,
  blogCategoryOptions,
  blogPostFormSchema,
  blogPostFormValues,
  blogPostPayload,
  followTitle,
  fromFirmDateTimeInput,
  toFirmDateTimeInput,
  type BlogPost,
} from './blog-post-form.ts';

const post: BlogPost = {
  id: 'p1',
  title: 'Trusts 101',
  slug: 'trusts-101',
  excerpt: 'Why a trust.',
  content: '<p>Body</p>',
  category: 'probate',
  author: 'Sarah J. Mitchell',
  isPublished: true,
  // 9:30:45.123 AM in San Diego (PDT, UTC-7)
  publishedAt: '2026-06-01T16:30:45.123Z',
  seoTitle: null,
  seoDescription: null,
  featuredImageUrl: 'https://media.example.com/trusts.jpg',
  featuredImageAlt: 'A family at a kitchen table reading papers',
  previewsRevokedAt: null,
  createdAt: '2026-05-30T10:00:00.000Z',
  updatedAt: '2026-05-30T10:00:00.000Z',
  isSample: false,
};

describe('blog post form values', () => {
  it('starts a new post unpublished, by the firm, with no date (SPEC §5)', () => {
    expect(blogPostFormValues()).toEqual({
      title: '',
      slug: '',
      excerpt: '',
      content: '',
      category: '',
      author: firm.name,
      isPublished: false,
      publishDate: '',
      seoTitle: '',
      seoDescription: '',
      featuredImageUrl: '',
      featuredImageAlt: '',
    });
  });

  it('starts an edit from the row, its publish date in the firm zone', () => {
    expect(blogPostFormValues(post)).toMatchObject({
      title: 'Trusts 101',
      slug: 'trusts-101',
      author: 'Sarah J. Mitchell',
      isPublished: true,
      publishDate: '2026-06-01T09:30',
      seoTitle: '',
      featuredImageUrl: 'https://media.example.com/trusts.jpg',
      featuredImageAlt: 'A family at a kitchen table reading papers',
    });
  });

  it('offers the four categories and the three authors of SPEC §9, the firm first', () => {
    expect(blogCategoryOptions.map((o) => o.value)).toEqual(['estate-planning', 'family-law', 'divorce', 'probate']);
    expect(blogCategoryOptions.map((o) => o.label)).toEqual(['Estate Planning', 'Family Law', 'Divorce', 'Probate']);
    expect(blogAuthorOptions).toEqual([firm.name, ...firm.attorneys.map((a) => a.name)]);
  });
});

describe('the slug follows the title (SPEC §5)', () => {
  it('while it is empty', () => {
    expect(followTitle('', '', 'Hello World')).toBe('hello-world');
  });

  it('while it is still the one generated from the title', () => {
    expect(followTitle('hello-world', 'Hello World', 'Hello World, Again!')).toBe('hello-world-again');
  });

  it('not once the admin typed their own', () => {
    expect(followTitle('my-own', 'Hello World', 'Hello World, Again!')).toBe('my-own');
  });

  it('follows again after the admin clears it', () => {
    expect(followTitle('', 'Anything', 'Fresh  Title')).toBe('fresh-title');
  });
});

describe('publish date in the firm zone', () => {
  it('reads and writes wall-clock time in San Diego, across daylight saving', () => {
    expect(toFirmDateTimeInput('2026-01-15T17:00:00.000Z')).toBe('2026-01-15T09:00'); // PST
    expect(toFirmDateTimeInput('2026-07-15T16:00:00.000Z')).toBe('2026-07-15T09:00'); // PDT
    expect(fromFirmDateTimeInput('2026-01-15T09:00')?.toISOString()).toBe('2026-01-15T17:00:00.000Z');
    expect(fromFirmDateTimeInput('2026-07-15T09:00')?.toISOString()).toBe('2026-07-15T16:00:00.000Z');
  });

  it('has nothing for blanks and impossible dates', () => {
    expect(toFirmDateTimeInput(null)).toBe('');
    expect(toFirmDateTimeInput('not a date')).toBe('');
    expect(fromFirmDateTimeInput('')).toBeNull();
    expect(fromFirmDateTimeInput('2026-02-30T09:00')).toBeNull();
    expect(fromFirmDateTimeInput('2026-02-03T25:00')).toBeNull();
  });

  it('is checked by the form schema', () => {
    const base = { title: 'T', slug: '', excerpt: 'E', content: '<p>C</p>', category: 'probate', author: firm.name, isPublished: true };
    expect(blogPostFormSchema.safeParse({ ...base, publishDate: '' }).success).toBe(true);
    expect(blogPostFormSchema.safeParse({ ...base, publishDate: '2026-03-04T10:15' }).success).toBe(true);
    const bad = blogPostFormSchema.safeParse({ ...base, publishDate: '2026-13-04T10:15' });
    expect(bad.error?.issues[0]?.message).toBe('Publish date must be a valid date and time');
  });
});

describe('the payload (SPEC §4 Blog post on save)', () => {
  const values = {
    title: 'T',
    slug: 't',
    excerpt: 'E',
    content: '<p>C</p>',
    category: 'probate' as const,
    author: firm.name as typeof firm.name,
    isPublished: true,
    publishDate: '',
    seoTitle: null,
    seoDescription: null,
    featuredImageUrl: null,
    featuredImageAlt: null,
  };

  it('a draft sends no date, whatever the form holds', () => {
    expect(blogPostPayload({ ...values, isPublished: false, publishDate: '2026-03-04T10:15' }).publishedAt).toBeNull();
  });

  it('published with no date leaves the date to the server (now, or the original)', () => {
    expect(blogPostPayload(values).publishedAt).toBeNull();
  });

  it('published with a date sends that firm time as an instant', () => {
    expect(blogPostPayload({ ...values, publishDate: '2026-03-04T10:15' }).publishedAt).toBe('2026-03-04T18:15:00.000Z');
  });

  it('an unchanged date of an edited post is sent as stored, not rounded to the minute', () => {
    expect(blogPostPayload({ ...values, publishDate: '2026-06-01T09:30' }, post).publishedAt).toBe(post.publishedAt);
    expect(blogPostPayload({ ...values, publishDate: '2026-06-01T09:31' }, post).publishedAt).toBe('2026-06-01T16:31:00.000Z');
  });

  it('sends every field of SPEC §7, the SEO fields and the featured image, and nothing else', () => {
    expect(Object.keys(blogPostPayload(values)).sort()).toEqual([
      'author',
      'category',
      'content',
      'excerpt',
      'featuredImageAlt',
      'featuredImageUrl',
      'isPublished',
      'publishedAt',
      'seoDescription',
      'seoTitle',
      'slug',
      'title',
    ]);
  });

  it('asks for words for a featured image, and only an https address', () => {
    const form = { ...values, seoTitle: '', seoDescription: '', featuredImageAlt: '' };
    const missing = blogPostFormSchema.safeParse({ ...form, featuredImageUrl: 'https://media.example.com/a.jpg' });
    expect(missing.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['featuredImageAlt', 'Describe the image for visitors who cannot see it'],
    ]);
    const http = blogPostFormSchema.safeParse({ ...form, featuredImageUrl: 'http://media.example.com/a.jpg', featuredImageAlt: 'A desk' });
    expect(http.error?.issues.map((i) => i.message)).toEqual(['Featured image must be an https:// address']);
    expect(blogPostFormSchema.safeParse({ ...form, featuredImageUrl: '' }).success).toBe(true);
    expect(blogPostFormSchema.safeParse({ ...form, seoTitle: 'x'.repeat(71) }).error?.issues[0]?.message).toBe('SEO title must be at most 70 characters');
  });
});
