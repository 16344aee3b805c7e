/**
 * /admin/blog-posts (SPEC §2, §4 Blog post, §5 slug rules, defaults and delete confirmation, §7
 * admin calls, §8 toasts and 'No blog posts yet', §9 categories and authors), worked through as an
 * admin would: a draft that is not public, publishing (now, or on a chosen date in the firm's zone),
 * View Post, a slug change whose old URL answers 301 (DOMAIN.md Publishing), scripts removed from the
 * HTML, unpublishing and deleting, each seen on /blog and /blog/{slug}; the failure toasts; axe;
 * screenshots.
 *
 * Both projects share one server database, so every test makes its own uniquely named posts.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import type { BlogPost } from '../../src/components/admin/blog-posts/blog-post-form.ts';
import { firm } from '../../src/config/firm.ts';
import { slugify } from '../../src/shared/slug.ts';
import { expect, openAdminScreen, test } from '../support/admin.ts';
import { expectNoAxeViolations, expectNoSideways, expectToast, screenshot, screenshotDialog, unique, watchConsole } from '../support/e2e.ts';

const openScreen = (page: Page) => openAdminScreen(page, '/admin/blog-posts', 'Blog Posts');

const row = (page: Page, title: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: title, exact: true }) });

const fields = (dialog: ReturnType<Page['getByRole']>) => ({
  title: dialog.getByRole('textbox', { name: 'Title', exact: true }),
  slug: dialog.getByRole('textbox', { name: 'Slug', exact: true }),
  excerpt: dialog.getByRole('textbox', { name: 'Excerpt', exact: true }),
  content: dialog.getByRole('textbox', { name: 'Content (HTML)', exact: true }),
  category: dialog.getByRole('combobox', { name: 'Category' }),
  author: dialog.getByRole('combobox', { name: 'Author' }),
  published: dialog.getByRole('switch', { name: 'Published' }),
  publishDate: dialog.getByLabel('Publish Date'),
});

async function stored(adminApi: APIRequestContext, title: string) {
  const rows = (await (await adminApi.get('/api/admin/blog-posts')).json()) as BlogPost[];
  return rows.find((r) => r.title === title) ?? null;
}

async function arrange(adminApi: APIRequestContext, title: string, extra: Partial<BlogPost> = {}) {
  const res = await adminApi.post('/api/admin/blog-posts', {
    data: { title, slug: '', excerpt: `About ${title}.`, content: `<p>Arranged post ${title}.</p>`, category: 'probate', isPublished: false, ...extra },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as BlogPost;
}

const text = async (page: Page, path: string) => (await page.request.get(path)).text();
const status = async (page: Page, path: string) => (await page.request.get(path, { maxRedirects: 0 })).status();
const longDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { timeZone: 'America/Los_Angeles', year: 'numeric', month: 'long', day: 'numeric' });

test('a draft, published, renamed (old URL redirects), dated, unpublished and deleted; /blog follows each step', async ({ page, adminApi }, info) => {
  test.setTimeout(90_000);
  const consoleErrors = watchConsole(page);
  const stamp = Date.now();
  const title = `Naming a Guardian ${info.project.name} ${stamp}`;
  const body = `Unique guardian body ${stamp}`;
  await openScreen(page);

  // Create, with the defaults of SPEC §5: unpublished, by the firm.
  const newButton = page.getByRole('button', { name: 'New Blog Post' });
  await newButton.click();
  const dialog = page.getByRole('dialog', { name: 'Create Blog Post' });
  const f = fields(dialog);
  await expect(f.title).toBeFocused();
  await expect(f.author).toHaveValue(firm.name);
  await expect(f.author.getByRole('option')).toHaveText([firm.name, ...firm.attorneys.map((a) => a.name)]);
  await expect(f.category.getByRole('option')).toHaveText(['Select a category', 'Estate Planning', 'Family Law', 'Divorce', 'Probate']);
  await expect(f.published).toHaveAttribute('aria-checked', 'false');
  await expect(f.publishDate).toHaveCount(0); // a draft has no date
  await expect(dialog).toContainText('Scripts and other unsupported markup are removed when you save.');

  // SPEC §5: the slug follows the title while empty or still generated.
  await f.title.fill('Naming a Guardian');
  await expect(f.slug).toHaveValue('naming-a-guardian');
  await f.title.fill(title);
  await expect(f.slug).toHaveValue(slugify(title));
  await expect(dialog).toContainText(`/blog/${slugify(title)}`);

  // Nothing else filled in: the shared schema's messages.
  await dialog.getByRole('button', { name: 'Create Post' }).click();
  await expect(dialog.getByText('Excerpt is required')).toBeVisible();
  await expect(dialog.getByText('Content is required')).toBeVisible();
  await expect(dialog.getByText('Please choose a category')).toBeVisible();
  await expect(f.excerpt).toBeFocused();

  await f.excerpt.fill('Who looks after your children if you cannot.');
  await f.content.fill(`<h2>What a guardian does</h2><p>${body}</p><script>window.__xss = 1</script>`);
  await f.category.selectOption('family-law');
  await f.author.selectOption('Michael R. Torres');
  await dialog.getByRole('button', { name: 'Create Post' }).click();
  await expect(dialog).toBeHidden();
  await expect(newButton).toBeFocused();
  await expectToast(page, 'Success', 'Blog post created successfully');

  const slug = slugify(title);
  const item = row(page, title);
  await expect(item.getByText('Draft', { exact: true })).toHaveCount(2); // the badge, and 'Draft' as its date (SPEC §4)
  await expect(item).toContainText(`/blog/${slug}`);
  await expect(item).toContainText('Family Law');
  await expect(item).toContainText('Michael R. Torres');
  await expect(item.getByRole('link', { name: /View Post/ })).toHaveCount(0);
  let saved = await stored(adminApi, title);
  expect(saved).toMatchObject({ slug, category: 'family-law', author: 'Michael R. Torres', isPublished: false, publishedAt: null });
  expect(saved!.content).toContain(body);
  expect(saved!.content).not.toContain('script'); // removed on save (DOMAIN.md Publishing: no stored XSS)
  expect(await status(page, `/blog/${slug}`), 'a draft is not public').toBe(404);

  // Publish with no date: the server dates it now (SPEC §4).
  await item.getByRole('button', { name: `Edit ${title}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Blog Post' });
  const e = fields(edit);
  await expect(e.title).toHaveValue(title);
  await expect(e.content).toHaveValue(saved!.content);
  await e.published.click();
  await expect(e.publishDate).toHaveValue('');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit).toBeHidden();
  await expectToast(page, 'Success', 'Blog post updated successfully');
  saved = await stored(adminApi, title);
  expect(saved!.isPublished).toBe(true);
  expect(Math.abs(new Date(saved!.publishedAt!).getTime() - Date.now())).toBeLessThan(120_000);
  await expect(item.getByText('Published', { exact: true })).toBeVisible();
  await expect(item).toContainText(longDate(saved!.publishedAt!));
  await expect.poll(() => status(page, `/blog/${slug}`), { message: 'published: the article is public' }).toBe(200);
  const article = await text(page, `/blog/${slug}`);
  expect(article).toContain(body);
  expect(article).not.toContain('window.__xss');
  await expect.poll(() => text(page, '/blog'), { message: '/blog lists it' }).toContain(title);

  // View Post opens the article in a new tab.
  const view = item.getByRole('link', { name: `View Post ${title} (opens in a new tab)` });
  await expect(view).toHaveAttribute('href', `/blog/${slug}`);
  await expect(view).toHaveAttribute('target', '_blank');
  const [tab] = await Promise.all([page.waitForEvent('popup'), view.click()]);
  await expect(tab.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await tab.close();

  // Rename the slug and choose a date (firm time): the old URL answers 301 to the new one.
  await item.getByRole('button', { name: `Edit ${title}` }).click();
  await expect(e.publishDate).toHaveValue(
    new Date(saved!.publishedAt!).toLocaleString('sv-SE', { timeZone: 'America/Los_Angeles' }).slice(0, 16).replace(' ', 'T'),
  );
  const newSlug = `${slug}-renamed`;
  await e.slug.fill(newSlug);
  await expect(edit).toContainText(`The old address /blog/${slug} will redirect to the new one.`);
  // A slug of one's own no longer follows the title.
  const newTitle = `${title} Updated`;
  await e.title.fill(newTitle);
  await expect(e.slug).toHaveValue(newSlug);
  await e.publishDate.fill('2025-03-14T10:30');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit).toBeHidden();
  await expectToast(page, 'Success', 'Blog post updated successfully');
  saved = await stored(adminApi, newTitle);
  expect(saved).toMatchObject({ slug: newSlug, publishedAt: '2025-03-14T17:30:00.000Z' }); // 10:30 AM PDT
  const renamed = row(page, newTitle);
  await expect(renamed).toContainText('March 14, 2025');
  await expect(renamed).toContainText(`/blog/${newSlug}`);
  await expect.poll(() => status(page, `/blog/${slug}`), { message: 'the old URL redirects' }).toBe(301);
  expect((await page.request.get(`/blog/${slug}`, { maxRedirects: 0 })).headers().location).toBe(`/blog/${newSlug}`);
  expect(await text(page, `/blog/${newSlug}`)).toContain(newTitle);

  // Unpublish: the date is cleared (SPEC §4) and the article leaves the site.
  await renamed.getByRole('button', { name: `Edit ${newTitle}` }).click();
  await e.published.click();
  await expect(e.publishDate).toHaveCount(0);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit).toBeHidden();
  await expectToast(page, 'Success', 'Blog post updated successfully');
  expect(await stored(adminApi, newTitle)).toMatchObject({ isPublished: false, publishedAt: null });
  await expect(renamed.getByText('Draft', { exact: true })).toHaveCount(2);
  await expect.poll(() => status(page, `/blog/${newSlug}`), { message: 'unpublished: gone from the site' }).toBe(404);
  expect(await text(page, '/blog')).not.toContain(newTitle);

  // Delete asks first (SPEC §5).
  await renamed.getByRole('button', { name: `Delete ${newTitle}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this blog post?' });
  await expect(confirm).toContainText(`“${newTitle}” will be removed`);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(renamed).toBeVisible();
  await renamed.getByRole('button', { name: `Delete ${newTitle}` }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toBeHidden();
  await expect(renamed).toHaveCount(0);
  await expect(newButton).toBeFocused();
  await expectToast(page, 'Success', 'Blog post deleted successfully');
  expect(await stored(adminApi, newTitle)).toBeNull();
  consoleErrors.expectNone();
});

test('an empty slug is made from the title; a slug in use is refused; failures show the SPEC §8 error toasts', async ({ page, adminApi }, info) => {
  test.setTimeout(60_000);
  const consoleErrors = watchConsole(page);
  const taken = await arrange(adminApi, unique(info, 'Slug Owner'));
  const other = await arrange(adminApi, unique(info, 'Second Post'));
  const doomed = await arrange(adminApi, unique(info, 'Deleted Elsewhere'));
  await openScreen(page);

  // Create with a slug another post has: 409, the toast, and the reason beside the slug.
  await page.getByRole('button', { name: 'New Blog Post' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Blog Post' });
  const f = fields(dialog);
  const title = unique(info, 'Fresh Title');
  await f.title.fill(title);
  await f.slug.fill(taken.slug);
  await f.excerpt.fill('Excerpt.');
  await f.content.fill('<p>Content.</p>');
  await f.category.selectOption('divorce');
  await dialog.getByRole('button', { name: 'Create Post' }).click();
  await expectToast(page, 'Error', 'Failed to create blog post', { overDialog: true });
  await expect(dialog.getByRole('alert')).toHaveText('Failed to create blog post. A post with this slug already exists.');
  await expect(dialog.getByText('This slug is already used by another post')).toBeVisible();
  await expect(f.slug).toBeFocused();
  await expect(f.slug).toHaveAttribute('aria-invalid', 'true');

  // Cleared, the slug follows the title again; an empty slug is also made from the title by the server.
  await f.slug.fill('');
  await f.title.fill(`${title} Again`);
  await expect(f.slug).toHaveValue(slugify(`${title} Again`));
  await f.slug.fill('');
  await dialog.getByRole('button', { name: 'Create Post' }).click();
  await expect(dialog).toBeHidden();
  await expectToast(page, 'Success', 'Blog post created successfully');
  const created = await stored(adminApi, `${title} Again`);
  expect(created?.slug).toBe(slugify(`${title} Again`));

  // Update to a slug in use: 409.
  await row(page, other.title)
    .getByRole('button', { name: `Edit ${other.title}` })
    .click();
  const edit = page.getByRole('dialog', { name: 'Edit Blog Post' });
  await fields(edit).slug.fill(taken.slug);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Error', 'Failed to update blog post', { overDialog: true });
  await expect(edit.getByText('This slug is already used by another post')).toBeVisible();
  await edit.getByRole('button', { name: 'Cancel' }).click();
  // Unsaved changes: closing asks first.
  await page.getByRole('alertdialog', { name: 'Discard your changes?' }).getByRole('button', { name: 'Discard Changes' }).click();
  await expect(edit).toBeHidden();
  expect((await stored(adminApi, other.title))?.slug).toBe(other.slug);

  // Delete a post someone else deleted meanwhile: 404, then the list catches up.
  expect((await adminApi.delete(`/api/admin/blog-posts/${doomed.id}`)).status()).toBe(204);
  await row(page, doomed.title)
    .getByRole('button', { name: `Delete ${doomed.title}` })
    .click();
  await page.getByRole('alertdialog', { name: 'Delete this blog post?' }).getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Error', 'Failed to delete blog post');
  await expect(row(page, doomed.title)).toHaveCount(0);

  for (const p of [taken, other, created!]) expect((await adminApi.delete(`/api/admin/blog-posts/${p.id}`)).status()).toBe(204);
  // Those calls fail on purpose: the browser logs their statuses, the mutation hook each failure it toasts.
  consoleErrors.expectOnly(/the server responded with a status of (409|404)/, /Failed to (create|update|delete) blog post/);
});

test('a long post written on a phone survives Escape, a click beside the dialog and a reload; saved, its kept draft goes', async ({ page, adminApi }, info) => {
  const consoleErrors = watchConsole(page);
  await page.setViewportSize({ width: 390, height: 844 });
  const title = `Kept Draft ${info.project.name} ${Date.now()}`;
  const content = Array.from({ length: 30 }, (_, i) => `<p>Paragraph ${i + 1} of a long article about trusts in California.</p>`).join('\n');
  await openScreen(page);
  await page.getByRole('button', { name: 'New Blog Post' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Blog Post' });
  const f = fields(dialog);
  await f.title.fill(title);
  await f.excerpt.fill('A long one.');
  await f.content.fill(content);

  // Escape asks; Keep Editing keeps every word.
  await page.keyboard.press('Escape');
  const discard = page.getByRole('alertdialog', { name: 'Discard your changes?' });
  await expect(discard).toBeVisible();
  await discard.getByRole('button', { name: 'Keep Editing' }).click();
  await expect(dialog).toBeVisible();
  await expect(f.content).toHaveValue(content);
  // A tap beside the dialog does nothing while there is unsaved work.
  await page.mouse.click(5, 5);
  await expect(dialog).toBeVisible();
  await expect(f.title).toHaveValue(title);

  // The tab closes (a reload here, answered "leave"): the work was kept on this device, and is offered back.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('firm-admin:blog-post-draft:new') ?? '')).toContain(title);
  page.once('dialog', (prompt) => void prompt.accept());
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Blog Posts' })).toBeVisible();
  await page.getByRole('button', { name: 'New Blog Post' }).click();
  const kept = dialog.getByTestId('kept-draft');
  await expect(kept).toContainText('Unsaved changes from');
  await expect(f.title).toHaveValue('');
  await kept.getByRole('button', { name: 'Restore Them' }).click();
  await expect(f.title).toHaveValue(title);
  await expect(f.content).toHaveValue(content);
  await screenshotDialog(dialog, info, 'admin-blog-post-restored');

  // Saved: the post exists, and the kept draft is gone.
  await f.category.selectOption('probate');
  await dialog.getByRole('button', { name: 'Create Post' }).click();
  await expectToast(page, 'Success', 'Blog post created successfully');
  await expect(dialog).toBeHidden();
  const created = await stored(adminApi, title);
  expect(created?.content).toContain('Paragraph 30 of a long article');
  await page.getByRole('button', { name: 'New Blog Post' }).click();
  await expect(dialog.getByTestId('kept-draft')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect((await adminApi.delete(`/api/admin/blog-posts/${created!.id}`)).status()).toBe(204);
  consoleErrors.expectNone();
});

test('no posts: No blog posts yet, and its button opens the dialog', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  // The database is shared with other tests, so the empty list is served by the test (route interception).
  await page.route('**/api/admin/blog-posts', (route) => (route.request().method() === 'GET' ? route.fulfill({ json: [] }) : route.fallback()));
  await openScreen(page);
  await expect(page.getByRole('heading', { name: 'No blog posts yet' })).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, info, 'admin-blog-posts-empty', { unhover: true });
  await page.getByRole('button', { name: 'Create Your First Post' }).click();
  await expect(page.getByRole('dialog', { name: 'Create Blog Post' })).toBeVisible();
  consoleErrors.expectNone();
});

test('no axe violations on the list, the dialogs and the delete confirmation; screenshots', async ({ page, adminApi }, info) => {
  test.setTimeout(90_000); // several axe runs
  const consoleErrors = watchConsole(page);
  const post = await arrange(adminApi, unique(info, 'Screenshot Draft'), { category: 'estate-planning', author: 'Sarah J. Mitchell' });
  await openScreen(page);
  await expect(row(page, post.title)).toBeVisible();
  await expectNoAxeViolations(page);
  await expectNoSideways(page);
  await screenshot(page, info, 'admin-blog-posts', { unhover: true });

  await page.getByRole('button', { name: 'New Blog Post' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Blog Post' });
  const f = fields(dialog);
  await f.title.fill('Updating Your Trust After a Move to California');
  await f.excerpt.fill('What changes, and what does not, when a trust moves states.');
  await f.content.fill('<h2>Does my trust still work?</h2>\n<p>Usually yes, but a few points deserve a review.</p>');
  await f.published.click();
  await expect(f.publishDate).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotDialog(dialog, info, 'admin-blog-post-dialog', { unhover: true });
  await dialog.getByRole('button', { name: 'Create Post' }).click();
  await expect(dialog.getByText('Please choose a category')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');
  const discard = page.getByRole('alertdialog', { name: 'Discard your changes?' });
  await expect(discard).toBeVisible();
  await expectNoAxeViolations(page, { label: 'Discard your changes?' });
  await discard.getByRole('button', { name: 'Discard Changes' }).click();
  await expect(dialog).toBeHidden();

  await row(page, post.title)
    .getByRole('button', { name: `Edit ${post.title}` })
    .click();
  await expect(page.getByRole('dialog', { name: 'Edit Blog Post' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');

  await row(page, post.title)
    .getByRole('button', { name: `Delete ${post.title}` })
    .click();
  await expect(page.getByRole('alertdialog', { name: 'Delete this blog post?' })).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, info, 'admin-blog-post-delete', { fullPage: false, unhover: true });
  await page.keyboard.press('Escape');

  expect((await adminApi.delete(`/api/admin/blog-posts/${post.id}`)).status()).toBe(204);
  consoleErrors.expectNone();
});
