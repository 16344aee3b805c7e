/**
 * /admin dashboard (SPEC §2): the greeting with the username and Sign Out; the four stat cards and
 * their counts, which move when a post, a testimonial or a contact submission is added; Quick
 * Actions (which open the create dialogs); the Navigation list (admin screens that exist, /blog, the
 * latest article, /contact); the 5 most recent contact submissions and 3 most recent posts, with
 * their empty states (SPEC §8); a list that fails to load; axe; screenshots.
 *
 * Both projects share one server database: counts are compared before and after, never assumed.
 */
import type { APIRequestContext, Locator, Page, TestInfo } from '@playwright/test';
import { adminScreens } from '../../src/components/admin/admin-screens.ts';
import { expect, openAdminScreen, test } from '../support/admin.ts';
import { expectNoAxeViolations, expectNoSideways, screenshot, toasts, unique, watchConsole } from '../support/e2e.ts';

const openDashboard = (page: Page) => openAdminScreen(page, '/admin', 'Admin Dashboard');

const statCard = (page: Page, title: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: title, exact: true }) });

async function numbers(card: Locator, pattern: RegExp): Promise<number[]> {
  await expect(card).toContainText(pattern);
  const match = pattern.exec((await card.textContent()) ?? '');
  return match!.slice(1).map(Number);
}

/** The counts the dashboard shows, read from the page. */
async function readStats(page: Page) {
  const [submissions = NaN, unread = NaN, unresolved = NaN] = await numbers(
    statCard(page, 'Contact Submissions'),
    /(\d+) total\s*(\d+) new · (\d+) unresolved/,
  );
  const [posts = NaN, drafts = NaN, published = NaN] = await numbers(statCard(page, 'Blog Articles'), /(\d+) total\s*(\d+) drafts? · (\d+) published/);
  const [testimonials = NaN, publishedTestimonials = NaN] = await numbers(statCard(page, 'Testimonials'), /(\d+) total\s*(\d+) published/);
  return { submissions, unread, unresolved, posts, drafts, published, testimonials, publishedTestimonials };
}

async function list<T>(api: APIRequestContext, path: string): Promise<T[]> {
  const res = await api.get(path);
  expect(res.ok()).toBe(true);
  return (await res.json()) as T[];
}

async function sendContact(page: Page, info: TestInfo, label: string) {
  const email = `${unique(info, `dash-${label}`, '-')}@example.com`;
  const res = await page.request.post('/api/contact', {
    data: {
      firstName: 'Dana',
      lastName: `Dashboard-${label}`,
      email,
      phone: '',
      practiceArea: 'trust-administration',
      message: 'Please call me about my mother’s trust.',
    },
  });
  expect(res.status()).toBe(201);
  return { email };
}

test('greets the admin; the stat cards count what the admin lists hold; Quick Actions and Navigation', async ({ page, adminApi, adminAccount }, info) => {
  const consoleErrors = watchConsole(page);
  const contact = await sendContact(page, info, 'greeting');
  await openDashboard(page);

  await expect(page.getByText(`Welcome back, ${adminAccount.username}`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();

  // Counts: the same rows the admin API lists.
  const stats = await readStats(page);
  const submissions = await list<{ isRead: boolean; isResolved: boolean }>(adminApi, '/api/admin/contact-submissions');
  const posts = await list<{ isPublished: boolean; publishedAt: string | null; slug: string; title: string }>(adminApi, '/api/admin/blog-posts');
  const testimonials = await list<{ isPublished: boolean }>(adminApi, '/api/admin/testimonials');
  expect(stats).toEqual({
    submissions: submissions.length,
    unread: submissions.filter((s) => !s.isRead).length,
    unresolved: submissions.filter((s) => !s.isResolved).length,
    posts: posts.length,
    drafts: posts.filter((p) => !p.isPublished).length,
    published: posts.filter((p) => p.isPublished).length,
    testimonials: testimonials.length,
    publishedTestimonials: testimonials.filter((t) => t.isPublished).length,
  });
  const traffic = statCard(page, 'Website Traffic');
  await expect(traffic).toContainText('+24%');
  await expect(traffic).toContainText('vs last month');
  await expect(traffic).toContainText('A fixed sample figure: no analytics service is connected.');

  // Quick Actions: the new post's page, the new testimonial's dialog, and two screens.
  const quick = page.getByRole('list').filter({ has: page.getByRole('link', { name: /New Blog Post/ }) });
  await expect(quick.getByRole('link')).toHaveCount(4);
  await expect(quick.getByRole('link', { name: /New Blog Post/ })).toHaveAttribute('href', '/admin/blog-posts/new');
  await expect(quick.getByRole('link', { name: /Add Testimonial/ })).toHaveAttribute('href', '/admin/testimonials#new');
  await expect(quick.getByRole('link', { name: /View Submissions/ })).toHaveAttribute('href', '/admin/contact-submissions');
  await expect(quick.getByRole('link', { name: /Manage Themes/ })).toHaveAttribute('href', '/admin/themes');

  // Navigation: SPEC §2's targets, admin ones only where the screen exists, and the latest article.
  const latest = (await (await page.request.get('/api/blog-posts')).json()) as { slug: string }[];
  const expected = [
    ...[
      '/admin/blog-posts',
      '/admin/testimonials',
      '/admin/contact-submissions',
      '/admin/themes',
      '/admin/appointments',
      '/admin/integrations',
      '/admin/component-visibility',
    ].filter((p) => p in adminScreens),
    '/blog',
    ...(latest[0] ? [`/blog/${latest[0].slug}`] : []),
    '/contact',
  ];
  const nav = page.getByRole('navigation', { name: 'Navigation' });
  const hrefs = await nav.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  expect(hrefs).toEqual(expected);
  expect(latest.length, 'the seeded published posts').toBeGreaterThan(0);

  // The 5 most recent submissions, newest first: the one just sent leads.
  const recent = page.getByRole('region', { name: 'Recent Contact Submissions' });
  const recentItems = recent.getByRole('listitem');
  await expect(recentItems).toHaveCount(Math.min(5, submissions.length));
  await expect(recentItems.first()).toContainText(contact.email);
  await expect(recentItems.first()).toContainText('Trust Administration');
  await expect(recentItems.first().getByText('New', { exact: true })).toBeVisible();
  await expect(recentItems.first().getByText('Pending', { exact: true })).toBeVisible();

  // The 3 most recent posts.
  const recentPosts = page.getByRole('region', { name: 'Recent Blog Posts' });
  await expect(recentPosts.getByRole('listitem')).toHaveCount(Math.min(3, posts.length));
  await expect(recentPosts.getByRole('listitem').first()).toContainText(posts[0]!.title);
  consoleErrors.expectNone();
});

test('the counts move when a post, a testimonial and a submission are added through Quick Actions and the site', async ({ page, adminApi }, info) => {
  test.setTimeout(60_000);
  const consoleErrors = watchConsole(page);
  await openDashboard(page);
  const before = await readStats(page);

  // New Blog Post lands on the new post's page (issue 19: a page of its own); saved, back to the list.
  await page.getByRole('link', { name: /New Blog Post/ }).click();
  await page.waitForURL('**/admin/blog-posts/new');
  const postForm = page.getByRole('main');
  await expect(postForm.getByRole('heading', { level: 1, name: 'New Blog Post' })).toBeVisible({ timeout: 20_000 });
  const title = unique(info, 'Dashboard Count Post');
  await postForm.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
  await postForm.getByRole('textbox', { name: 'Excerpt', exact: true }).fill('Counted on the dashboard.');
  await postForm.getByRole('textbox', { name: 'Content', exact: true }).fill('Counted.');
  await postForm.getByRole('combobox', { name: 'Category' }).selectOption('probate');
  await postForm.getByRole('button', { name: 'Create Post' }).click();
  await page.waitForURL('**/admin/blog-posts');
  await expect(toasts(page)).toContainText('Blog post created successfully');

  await page.goto('/admin');
  let after = await readStats(page);
  expect(after).toEqual({ ...before, posts: before.posts + 1, drafts: before.drafts + 1 });
  // The recent posts now start with it.
  const recentPosts = page.getByRole('region', { name: 'Recent Blog Posts' });
  await expect(recentPosts.getByRole('listitem').first()).toContainText(title);
  await expect(recentPosts.getByRole('listitem').first()).toContainText('Draft');

  // Add Testimonial, likewise.
  await page.getByRole('link', { name: /Add Testimonial/ }).click();
  await page.waitForURL('**/admin/testimonials');
  const testimonialDialog = page.getByRole('dialog', { name: 'Add Testimonial' });
  const clientName = unique(info, 'Dashboard Count');
  await testimonialDialog.getByRole('textbox', { name: 'Client Name' }).fill(clientName);
  await testimonialDialog.getByRole('combobox', { name: 'Practice Area' }).selectOption('estate-planning');
  await testimonialDialog.getByRole('textbox', { name: 'Testimonial', exact: true }).fill('Counted on the dashboard.');
  await testimonialDialog.getByRole('button', { name: 'Add Testimonial' }).click();
  await expect(testimonialDialog).toBeHidden();
  await expect(toasts(page)).toContainText('Testimonial created successfully');

  // A visitor sends the contact form meanwhile.
  await sendContact(page, info, 'count');

  await page.goto('/admin');
  after = await readStats(page);
  expect(after).toEqual({
    ...before,
    posts: before.posts + 1,
    drafts: before.drafts + 1,
    testimonials: before.testimonials + 1,
    publishedTestimonials: before.publishedTestimonials + 1,
    submissions: before.submissions + 1,
    unread: before.unread + 1,
    unresolved: before.unresolved + 1,
  });

  // Clean up this test's rows (the submission stays: there is no delete for it).
  const post = (await list<{ id: string; title: string }>(adminApi, '/api/admin/blog-posts')).find((p) => p.title === title);
  const testimonial = (await list<{ id: string; clientName: string }>(adminApi, '/api/admin/testimonials')).find((t) => t.clientName === clientName);
  expect((await adminApi.delete(`/api/admin/blog-posts/${post!.id}`)).status()).toBe(204);
  expect((await adminApi.delete(`/api/admin/testimonials/${testimonial!.id}`)).status()).toBe(204);
  consoleErrors.expectNone();
});

test('empty lists: No contact submissions yet, No blog posts yet, zero counts and no latest article', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  // The database is shared with other tests, so the empty lists are served by the test (route interception).
  for (const path of ['contact-submissions', 'blog-posts', 'testimonials']) {
    await page.route(`**/api/admin/${path}`, (route) => (route.request().method() === 'GET' ? route.fulfill({ json: [] }) : route.fallback()));
  }
  await openDashboard(page);
  await expect(page.getByText('No contact submissions yet', { exact: true })).toBeVisible();
  await expect(page.getByText('No blog posts yet', { exact: true })).toBeVisible();
  expect(await readStats(page)).toEqual({
    submissions: 0,
    unread: 0,
    unresolved: 0,
    posts: 0,
    drafts: 0,
    published: 0,
    testimonials: 0,
    publishedTestimonials: 0,
  });
  const hrefs = await page
    .getByRole('navigation', { name: 'Navigation' })
    .getByRole('link')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  expect(hrefs.filter((h) => h?.startsWith('/blog/'))).toEqual([]);
  await expectNoAxeViolations(page);
  await screenshot(page, info, 'admin-dashboard-empty', { unhover: true });
  consoleErrors.expectNone();
});

test('a list that cannot load says so and offers Try Again', async ({ page }) => {
  const consoleErrors = watchConsole(page);
  let fail = true;
  await page.route('**/api/admin/contact-submissions', (route) =>
    fail ? route.fulfill({ status: 500, json: { error: 'Internal error' } }) : route.fallback(),
  );
  await openDashboard(page);
  await expect(statCard(page, 'Contact Submissions')).toContainText('Could not be loaded.');
  const alert = page.getByRole('alert').filter({ hasText: 'The contact submissions could not be loaded.' });
  await expect(alert).toBeVisible();
  // The other cards are unaffected.
  await expect(statCard(page, 'Blog Articles')).toContainText('published');
  fail = false;
  await alert.getByRole('button', { name: 'Try Again' }).click();
  await expect(statCard(page, 'Contact Submissions')).toContainText(/\d+ total/);
  consoleErrors.expectOnlyFailedRequests(500);
});

test('no axe violations; screenshots at desktop and phone width', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  await openDashboard(page);
  await readStats(page);
  await expect(page.getByRole('heading', { name: 'Recent Blog Posts' })).toBeVisible();
  await expectNoAxeViolations(page);
  await expectNoSideways(page);
  await screenshot(page, info, 'admin-dashboard', { unhover: true });
  consoleErrors.expectNone();
});
