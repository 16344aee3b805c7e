import { describe, expect, it } from 'vitest';
import { adminScreens, type AdminScreen } from '../admin-screens.ts';
import {
  latestPublishedPost,
  mostRecent,
  recentPosts,
  navigationLinks,
  postCounts,
  quickActions,
  submissionCounts,
  testimonialCounts,
  type ContactSubmissionSummary,
} from './dashboard-data.ts';

const submission = (id: string, createdAt: string, isRead: boolean, isResolved: boolean): ContactSubmissionSummary => ({
  id,
  firstName: 'A',
  lastName: 'B',
  email: 'a@example.com',
  practiceArea: 'other',
  isRead,
  isResolved,
  createdAt,
});

const post = (slug: string, isPublished: boolean, publishedAt: string | null, createdAt: string) => ({
  slug,
  title: slug.toUpperCase(),
  isPublished,
  publishedAt,
  createdAt,
});

describe('stat card counts (SPEC §2)', () => {
  it('counts submissions, new (unread) and unresolved', () => {
    const rows = [submission('1', '2026-01-01', false, false), submission('2', '2026-01-02', true, false), submission('3', '2026-01-03', true, true)];
    expect(submissionCounts(rows)).toEqual({ total: 3, unread: 1, unresolved: 2 });
  });

  it('counts posts by drafts and published, testimonials by published', () => {
    expect(postCounts([{ isPublished: true }, { isPublished: false }, { isPublished: false }])).toEqual({ total: 3, published: 1, drafts: 2 });
    expect(testimonialCounts([{ isPublished: true }, { isPublished: false }])).toEqual({ total: 2, published: 1 });
    expect(postCounts([])).toEqual({ total: 0, published: 0, drafts: 0 });
  });
});

describe('recent items', () => {
  it('keeps the newest by creation, whatever the order given', () => {
    const rows = ['2026-01-03', '2026-01-07', '2026-01-01', '2026-01-05', '2026-01-02', '2026-01-06'].map((d, i) => submission(String(i), d, false, false));
    expect(mostRecent(rows, 5).map((r) => r.createdAt)).toEqual(['2026-01-07', '2026-01-06', '2026-01-05', '2026-01-03', '2026-01-02']);
    expect(mostRecent(rows.slice(0, 2), 5)).toHaveLength(2);
  });

  it('recent posts: a published one by its publish date, a draft by its last edit, all created at once', () => {
    const created = '2026-01-01T00:00:00Z';
    const rows = [
      { id: 'old', isPublished: true, publishedAt: '2026-02-01T00:00:00Z', createdAt: created, updatedAt: created },
      { id: 'draft-edited', isPublished: false, publishedAt: null, createdAt: created, updatedAt: '2026-03-05T00:00:00Z' },
      { id: 'new', isPublished: true, publishedAt: '2026-03-01T00:00:00Z', createdAt: created, updatedAt: created },
      { id: 'draft-untouched', isPublished: false, publishedAt: null, createdAt: created, updatedAt: created },
    ];
    expect(recentPosts(rows, 3).map((r) => r.id)).toEqual(['draft-edited', 'new', 'old']);
  });

  it('the latest article is the published one with the latest publish date', () => {
    const rows = [
      post('draft-newest', false, null, '2026-03-01'),
      post('older', true, '2026-01-01T00:00:00Z', '2026-02-01'),
      post('newer', true, '2026-02-01T00:00:00Z', '2026-01-01'),
    ];
    expect(latestPublishedPost(rows)?.slug).toBe('newer');
    expect(latestPublishedPost([post('d', false, null, '2026-01-01')])).toBeNull();
  });
});

describe('links', () => {
  it('lists the SPEC §2 navigation targets in order, the latest article among them', () => {
    const links = navigationLinks(adminScreens, { slug: 'wills', title: 'Wills' }).map((l) => l.href);
    expect(links).toEqual([
      '/admin/blog-posts',
      '/admin/testimonials',
      '/admin/contact-submissions',
      '/admin/themes',
      '/admin/appointments',
      ...('/admin/integrations' in adminScreens ? ['/admin/integrations'] : []),
      '/admin/component-visibility',
      '/blog',
      '/blog/wills',
      '/contact',
    ]);
  });

  it('leaves out admin screens that do not exist yet, and the article when none is published', () => {
    const load = async () => ({ default: () => null });
    const screens: Record<string, AdminScreen> = {
      '/admin': { title: 'D', nav: 'Dashboard', load },
      '/admin/themes': { title: 'Themes', nav: 'Themes', load },
    };
    expect(navigationLinks(screens, null).map((l) => l.href)).toEqual(['/admin/themes', '/blog', '/contact']);
    expect(quickActions(screens).map((l) => l.label)).toEqual(['Manage Themes']);
  });

  it('Quick Actions open the create dialogs directly', () => {
    expect(quickActions(adminScreens).map((l) => [l.label, l.href])).toEqual([
      ['New Blog Post', '/admin/blog-posts/new'],
      ['Add Testimonial', '/admin/testimonials#new'],
      ['View Submissions', '/admin/contact-submissions'],
      ['Manage Themes', '/admin/themes'],
    ]);
  });
});
