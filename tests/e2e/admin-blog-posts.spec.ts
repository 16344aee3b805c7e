/**
 * /admin/blog-posts (SPEC §2, §4 Blog post, §5 slug rules, defaults and delete confirmation, §7
 * admin calls, §8 toasts and 'No blog posts yet', §9 categories and authors), worked through as an
 * admin would: a draft that is not public, publishing (now, or on a chosen date in the firm's zone),
 * View Post, a slug change whose old URL answers 301 (DOMAIN.md Publishing), scripts removed from the
 * HTML, unpublishing and deleting, each seen on /blog and /blog/{slug}; the failure toasts; axe;
 * screenshots. Issue 19: each post is written on a page of its own, in a rich-text editor (its
 * toolbar by mouse and keyboard, the link prompt, the HTML view), its markup shown as written on the
 * public article; at phone width, a long post survives Escape, a link away and a closed tab.
 *
 * Both projects share one server database, so every test makes its own uniquely named posts.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import type { BlogPost } from '../../src/components/admin/blog-posts/blog-post-form.ts';
import { firm } from '../../src/config/firm.ts';
import { slugify } from '../../src/shared/slug.ts';
import { expect, openAdminScreen, test } from '../support/admin.ts';
import { expectNoAxeViolations, expectNoSideways, expectToast, screenshot, unique, watchConsole } from '../support/e2e.ts';

const openScreen = (page: Page) => openAdminScreen(page, '/admin/blog-posts', 'Blog Posts');
const LIST_URL = /\/admin\/blog-posts$/;

const row = (page: Page, title: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: title, exact: true }) });

/** The post's page: its fields, the editor, its toolbar and its HTML view. */
const fields = (page: Page) => {
  const form = page.getByRole('main');
  const toolbar = form.getByRole('toolbar', { name: 'Formatting' });
  return {
    title: form.getByRole('textbox', { name: 'Title', exact: true }),
    slug: form.getByRole('textbox', { name: 'Slug', exact: true }),
    excerpt: form.getByRole('textbox', { name: 'Excerpt', exact: true }),
    editor: form.getByRole('textbox', { name: 'Content', exact: true }),
    html: form.getByRole('textbox', { name: 'Content (HTML)', exact: true }),
    toolbar,
    tool: (name: string) => toolbar.getByRole('button', { name, exact: true }),
    category: form.getByRole('combobox', { name: 'Category' }),
    author: form.getByRole('combobox', { name: 'Author' }),
    published: form.getByRole('switch', { name: 'Published' }),
    publishDate: form.getByLabel('Publish Date'),
  };
};

/** Opens the HTML view and writes the content there (what a paste of HTML would do). */
async function writeHtml(page: Page, html: string) {
  const f = fields(page);
  if ((await f.tool('HTML').getAttribute('aria-pressed')) !== 'true') await f.tool('HTML').click();
  await f.html.fill(html);
}

async function openNewPost(page: Page) {
  await page.getByRole('link', { name: 'New Blog Post' }).click();
  await expect(page).toHaveURL(/\/admin\/blog-posts\/new$/);
  await expect(page.getByRole('heading', { level: 1, name: 'New Blog Post' })).toBeVisible({ timeout: 20_000 });
  await expect(fields(page).editor).toBeVisible();
}

async function openEdit(page: Page, title: string) {
  await row(page, title)
    .getByRole('link', { name: `Edit ${title}` })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit Blog Post' })).toBeVisible({ timeout: 20_000 });
  await expect(fields(page).title).toHaveValue(title);
}

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

test('a draft, published, renamed (old URL redirects), dated, unpublished and deleted; /blog follows each step @any-width', async ({
  page,
  adminApi,
}, info) => {
  test.setTimeout(90_000);
  const consoleErrors = watchConsole(page);
  const stamp = Date.now();
  const title = `Naming a Guardian ${info.project.name} ${stamp}`;
  const body = `Unique guardian body ${stamp}`;
  await openScreen(page);

  // Create, on the post's own page, with the defaults of SPEC §5: unpublished, by the firm.
  await openNewPost(page);
  const f = fields(page);
  const form = page.getByRole('main');
  await expect(f.title).toBeFocused();
  await expect(f.author).toHaveValue(firm.name);
  await expect(f.author.getByRole('option')).toHaveText([firm.name, ...firm.attorneys.map((a) => a.name)]);
  await expect(f.category.getByRole('option')).toHaveText(['Select a category', 'Estate Planning', 'Family Law', 'Divorce', 'Probate']);
  await expect(f.published).toHaveAttribute('aria-checked', 'false');
  await expect(f.publishDate).toHaveCount(0); // a draft has no date
  await expect(form).toContainText('Scripts and other unsupported markup are removed when you save.');

  // SPEC §5: the slug follows the title while empty or still generated.
  await f.title.fill('Naming a Guardian');
  await expect(f.slug).toHaveValue('naming-a-guardian');
  await f.title.fill(title);
  await expect(f.slug).toHaveValue(slugify(title));
  await expect(form).toContainText(`/blog/${slugify(title)}`);

  // Nothing else filled in: the shared schema's messages.
  await form.getByRole('button', { name: 'Create Post' }).click();
  await expect(form.getByText('Excerpt is required')).toBeVisible();
  await expect(form.getByText('Content is required')).toBeVisible();
  await expect(form.getByText('Please choose a category')).toBeVisible();
  await expect(f.excerpt).toBeFocused();
  await expect(f.editor).toHaveAttribute('aria-invalid', 'true');

  await f.excerpt.fill('Who looks after your children if you cannot.');
  // HTML written in the HTML view (as pasted from elsewhere), a script in it.
  await writeHtml(page, `<h2>What a guardian does</h2><p>${body}</p><script>window.__xss = 1</script>`);
  await f.category.selectOption('family-law');
  await f.author.selectOption('Michael R. Torres');
  await form.getByRole('button', { name: 'Create Post' }).click();
  // Saved, back to the list (as the dialog closed), where SPEC §8's toast shows.
  await expect(page).toHaveURL(LIST_URL);
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
  await openEdit(page, title);
  const e = fields(page);
  await expect(page).toHaveURL(`/admin/blog-posts/${saved!.id}`);
  await expect(e.editor.getByRole('heading', { level: 2, name: 'What a guardian does' })).toBeVisible();
  await e.tool('HTML').click();
  await expect(e.html).toHaveValue(saved!.content);
  await e.published.click();
  await expect(e.publishDate).toHaveValue('');
  await form.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page).toHaveURL(LIST_URL);
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
  await openEdit(page, title);
  await expect(e.publishDate).toHaveValue(
    new Date(saved!.publishedAt!).toLocaleString('sv-SE', { timeZone: 'America/Los_Angeles' }).slice(0, 16).replace(' ', 'T'),
  );
  const newSlug = `${slug}-renamed`;
  await e.slug.fill(newSlug);
  await expect(form).toContainText(`The old address /blog/${slug} will redirect to the new one.`);
  // A slug of one's own no longer follows the title.
  const newTitle = `${title} Updated`;
  await e.title.fill(newTitle);
  await expect(e.slug).toHaveValue(newSlug);
  await e.publishDate.fill('2025-03-14T10:30');
  await form.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page).toHaveURL(LIST_URL);
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
  await openEdit(page, newTitle);
  await e.published.click();
  await expect(e.publishDate).toHaveCount(0);
  await form.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page).toHaveURL(LIST_URL);
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
  await expect(page.getByRole('link', { name: 'New Blog Post' })).toBeFocused();
  await expectToast(page, 'Success', 'Blog post deleted successfully');
  expect(await stored(adminApi, newTitle)).toBeNull();
  consoleErrors.expectNone();
});

test('an empty slug is made from the title; a slug in use is refused; failures show the SPEC §8 error toasts @any-width', async ({ page, adminApi }, info) => {
  test.setTimeout(60_000);
  const consoleErrors = watchConsole(page);
  const taken = await arrange(adminApi, unique(info, 'Slug Owner'));
  const other = await arrange(adminApi, unique(info, 'Second Post'));
  const doomed = await arrange(adminApi, unique(info, 'Deleted Elsewhere'));
  await openScreen(page);

  // Create with a slug another post has: 409, the toast, and the reason beside the slug.
  await openNewPost(page);
  const form = page.getByRole('main');
  const f = fields(page);
  const title = unique(info, 'Fresh Title');
  await f.title.fill(title);
  await f.slug.fill(taken.slug);
  await f.excerpt.fill('Excerpt.');
  await f.editor.fill('Content.');
  await f.category.selectOption('divorce');
  await form.getByRole('button', { name: 'Create Post' }).click();
  await expect(form.getByRole('alert')).toHaveText('Failed to create blog post. A post with this slug already exists.');
  await expect(page).toHaveURL(/\/admin\/blog-posts\/new$/);
  await expect(form.getByText('This slug is already used by another post')).toBeVisible();
  await expect(f.slug).toBeFocused();
  await expect(f.slug).toHaveAttribute('aria-invalid', 'true');
  await expectToast(page, 'Error', 'Failed to create blog post');

  // Cleared, the slug follows the title again; an empty slug is also made from the title by the server.
  await f.slug.fill('');
  await f.title.fill(`${title} Again`);
  await expect(f.slug).toHaveValue(slugify(`${title} Again`));
  await f.slug.fill('');
  await form.getByRole('button', { name: 'Create Post' }).click();
  await expect(page).toHaveURL(LIST_URL);
  await expectToast(page, 'Success', 'Blog post created successfully');
  const created = await stored(adminApi, `${title} Again`);
  expect(created).toMatchObject({ slug: slugify(`${title} Again`), content: '<p>Content.</p>' });

  // Update to a slug in use: 409.
  await openEdit(page, other.title);
  await f.slug.fill(taken.slug);
  await form.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Error', 'Failed to update blog post');
  await expect(form.getByText('This slug is already used by another post')).toBeVisible();
  await form.getByRole('link', { name: 'Cancel' }).click();
  // Unsaved changes: leaving asks first; discarded, the kept draft goes too.
  await page.getByRole('alertdialog', { name: 'Discard your changes?' }).getByRole('button', { name: 'Discard Changes' }).click();
  await expect(page).toHaveURL(LIST_URL);
  await expect(row(page, other.title)).toBeVisible();
  expect(await page.evaluate((id) => localStorage.getItem(`firm-admin:blog-post-draft:${id}`), other.id)).toBeNull();
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

test('a post written with the toolbar (heading, bold word, list, link) shows with that markup on its public page', async ({ page, adminApi }, info) => {
  test.setTimeout(90_000);
  const consoleErrors = watchConsole(page);
  const title = unique(info, 'Toolbar Post');
  await openScreen(page);
  await openNewPost(page);
  const f = fields(page);
  const form = page.getByRole('main');
  await f.title.fill(title);
  await f.excerpt.fill('Written with the toolbar.');
  await f.category.selectOption('estate-planning');

  // Typed as a person would, the toolbar's buttons pressed on the way.
  await f.editor.click();
  await f.tool('Heading 2').click();
  await expect(f.tool('Heading 2')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.type('Why a trust');
  await page.keyboard.press('Enter');
  await expect(f.tool('Heading 2')).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.type('A trust keeps your family ');
  await f.tool('Bold').click();
  await page.keyboard.type('out of court');
  await f.tool('Bold').click();
  await page.keyboard.type('.');
  await page.keyboard.press('Enter');
  await f.tool('Bulleted list').click();
  await page.keyboard.type('No probate');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Private');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter'); // out of the list
  await page.keyboard.type('Read the ');
  // The link: a javascript: address is refused, with the reason; a real one is applied.
  await page.keyboard.type('court guide');
  for (let i = 0; i < 'court guide'.length; i++) await page.keyboard.press('Shift+ArrowLeft');
  await f.tool('Link').click();
  const prompt = page.getByRole('dialog', { name: 'Add Link' });
  const address = prompt.getByRole('textbox', { name: 'Link Address' });
  await expect(address).toBeFocused();
  await address.fill('javascript:alert(1)');
  await address.press('Enter');
  await expect(prompt.getByText('Use an address starting with https://, http://, mailto: or tel:, or a path on this site such as /contact')).toBeVisible();
  await expect(address).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(page, { label: 'the link prompt' });
  await address.fill('courts.ca.gov/selfhelp');
  await prompt.getByRole('button', { name: 'Add Link' }).click();
  await expect(prompt).toBeHidden();
  await expect(f.editor).toBeFocused();
  await expect(f.editor.getByRole('link', { name: 'court guide' })).toHaveAttribute('href', 'https://courts.ca.gov/selfhelp');
  await expectNoAxeViolations(page, { label: 'the editor page' });
  await expectNoSideways(page);
  await screenshot(page, info, 'admin-blog-post-editor', { unhover: true });

  // Undo takes the last step back, Redo puts it again.
  await f.tool('Undo').click();
  await expect(f.editor.getByRole('link', { name: 'court guide' })).toHaveCount(0);
  await f.tool('Redo').click();
  await expect(f.editor.getByRole('link', { name: 'court guide' })).toBeVisible();

  await f.published.click();
  await form.getByRole('button', { name: 'Create Post' }).click();
  await expect(page).toHaveURL(LIST_URL);
  await expectToast(page, 'Success', 'Blog post created successfully');
  const saved = await stored(adminApi, title);
  const expected =
    '<h2>Why a trust</h2><p>A trust keeps your family <strong>out of court</strong>.</p><ul><li><p>No probate</p></li><li><p>Private</p></li></ul>' +
    '<p>Read the <a href="https://courts.ca.gov/selfhelp">court guide</a></p>';
  // What the editor wrote is what the sanitiser kept, unchanged.
  expect(saved!.content).toBe(expected);
  await expect.poll(() => text(page, `/blog/${saved!.slug}`), { message: 'the article shows that markup' }).toContain(expected);
  const article = await page.context().newPage();
  await article.goto(`/blog/${saved!.slug}`);
  await expect(article.getByRole('heading', { level: 2, name: 'Why a trust' })).toBeVisible();
  await expect(article.getByRole('link', { name: 'court guide' })).toHaveAttribute('href', 'https://courts.ca.gov/selfhelp');
  await article.close();
  expect((await adminApi.delete(`/api/admin/blog-posts/${saved!.id}`)).status()).toBe(204);
  consoleErrors.expectNone();
});

test('the toolbar by keyboard: one Tab stop, arrow keys along it, shortcuts in the editor @any-width', async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await openAdminScreen(page, '/admin/blog-posts/new', 'New Blog Post');
  const f = fields(page);
  await f.editor.click();
  await page.keyboard.type('Plain ');
  await page.keyboard.press('Control+b');
  await page.keyboard.type('strong');
  await expect(f.editor.locator('strong')).toHaveText('strong');
  // Shift+Tab from the editor goes to the toolbar's one stop; the arrows move along the buttons that work.
  await f.tool('Heading 2').focus();
  await page.keyboard.press('ArrowRight');
  await expect(f.tool('Heading 3')).toBeFocused();
  await page.keyboard.press('End');
  await expect(f.tool('HTML')).toBeFocused();
  await page.keyboard.press('Home');
  await expect(f.tool('Heading 2')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(f.tool('HTML')).toBeFocused();
  await expect(f.toolbar.locator('button[tabindex="0"]')).toHaveCount(1);
  // Ctrl+K asks for a link; Escape closes only that prompt and gives the editor the focus back.
  await f.editor.click();
  await page.keyboard.press('Control+k');
  const prompt = page.getByRole('dialog', { name: 'Add Link' });
  await expect(prompt).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(prompt).toBeHidden();
  await expect(f.editor).toBeFocused();
  await expect(page.getByRole('heading', { level: 1, name: 'New Blog Post' })).toBeVisible();
  consoleErrors.expectNone();
});

test('the HTML view: the source of what was written, edits there flow back; markup the editor cannot keep stays HTML @any-width', async ({
  page,
  adminApi,
}, info) => {
  const consoleErrors = watchConsole(page);
  const table = await arrange(adminApi, unique(info, 'Fee Table'), {
    content: '<p>Our fees.</p><table><tbody><tr><td>Will</td><td>$900</td></tr></tbody></table>',
  });
  await openAdminScreen(page, '/admin/blog-posts/new', 'New Blog Post');
  const f = fields(page);
  await f.editor.click();
  await f.tool('Heading 3').click();
  await page.keyboard.type('First');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Then ');
  await f.tool('Italic').click();
  await page.keyboard.type('this');
  await f.tool('HTML').click();
  await expect(f.tool('HTML')).toHaveAttribute('aria-pressed', 'true');
  await expect(f.tool('Bold')).toBeDisabled();
  await expect(f.html).toHaveValue('<h3>First</h3><p>Then <em>this</em></p>');
  await f.html.fill('<h3>First</h3><p>Then <em>this</em></p><blockquote><p>Added as HTML</p></blockquote><ol><li><p>One</p></li></ol>');
  await f.tool('HTML').click();
  await expect(f.editor.locator('blockquote')).toHaveText('Added as HTML');
  await expect(f.editor.getByRole('listitem')).toHaveText('One');
  // The editor keeps an empty line after a closing list to write on; it is not part of the article.
  await f.editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('After');
  await f.tool('HTML').click();
  await expect(f.html).toHaveValue(
    '<h3>First</h3><p>Then <em>this</em></p><blockquote><p>Added as HTML</p></blockquote><ol><li><p>One</p></li></ol><p>After</p>',
  );
  await expectNoAxeViolations(page, { label: 'the HTML view' });

  // A post with a table (the editor has none): it opens in the HTML view, which says why, and stays there.
  page.once('dialog', (d) => void d.accept()); // the unsaved post above: the browser asks before leaving
  await openAdminScreen(page, `/admin/blog-posts/${table.id}`, 'Edit Blog Post');
  await expect(f.html).toHaveValue(table.content);
  await expect(f.html).toHaveAccessibleDescription(/markup the editor cannot keep \(table, tbody, td, tr\)/);
  await f.tool('HTML').click();
  await expect(f.html).toBeVisible();
  await expect(f.editor).toHaveCount(0);
  expect((await adminApi.delete(`/api/admin/blog-posts/${table.id}`)).status()).toBe(204);
  consoleErrors.expectNone();
});

test('a long post written on a phone survives Escape, a link away and closing the tab; saved, its kept draft goes', async ({ page, adminApi }, info) => {
  test.setTimeout(90_000);
  const consoleErrors = watchConsole(page);
  await page.setViewportSize({ width: 390, height: 844 });
  const title = `Kept Draft ${info.project.name} ${Date.now()}`;
  const paragraphs = Array.from({ length: 25 }, (_, i) => `Paragraph ${i + 1} of a long article about trusts in California.`);
  await openScreen(page);
  await openNewPost(page);
  const f = fields(page);
  const form = page.getByRole('main');
  const save = form.getByRole('button', { name: 'Create Post' });
  await f.title.fill(title);
  await f.excerpt.fill('A long one.');
  await f.editor.click();
  for (const line of paragraphs) {
    await page.keyboard.insertText(line);
    await page.keyboard.press('Enter');
  }
  await page.keyboard.insertText('The last line.');
  // At 390 px: the toolbar wraps inside the screen and stays at its top, the editor is as wide as the
  // form, the line being typed is in view and Save is in reach, all without sideways scrolling.
  const toolbarBox = (await f.toolbar.boundingBox())!;
  expect(toolbarBox.x + toolbarBox.width).toBeLessThanOrEqual(390);
  expect(toolbarBox.y).toBeGreaterThanOrEqual(0);
  await expect(f.toolbar).toBeInViewport();
  const editorBox = (await f.editor.boundingBox())!;
  expect(editorBox.width).toBeGreaterThan(390 - 2 * 16 - 8);
  await expect(f.editor.getByText('The last line.')).toBeInViewport();
  await expect(save).toBeInViewport();
  await expectNoSideways(page);
  await screenshot(page, info, 'admin-blog-post-editor-phone', { fullPage: false });

  // Escape changes nothing on the page.
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/admin\/blog-posts\/new$/);
  await expect(f.editor.getByText('Paragraph 25 of a long article')).toBeVisible();
  // A link away asks first; Keep Editing keeps every word.
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Dashboard' }).click();
  const discard = page.getByRole('alertdialog', { name: 'Discard your changes?' });
  await expect(discard).toBeVisible();
  await expectNoAxeViolations(page, { label: 'Discard your changes?' });
  await discard.getByRole('button', { name: 'Keep Editing' }).click();
  await expect(discard).toBeHidden();
  await expect(page).toHaveURL(/\/admin\/blog-posts\/new$/);
  await expect(f.editor.getByText('The last line.')).toBeAttached();

  // The tab closes (a reload here, answered "leave"): the work was kept on this device, and is offered back.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('firm-admin:blog-post-draft:new') ?? '')).toContain('The last line.');
  page.once('dialog', (prompt) => void prompt.accept());
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'New Blog Post' })).toBeVisible({ timeout: 20_000 });
  const kept = form.getByTestId('kept-draft');
  await expect(kept).toContainText('Unsaved changes from');
  await expect(f.title).toHaveValue('');
  await kept.getByRole('button', { name: 'Restore Them' }).click();
  await expect(f.title).toHaveValue(title);
  for (const line of [paragraphs[0]!, paragraphs[24]!, 'The last line.']) await expect(f.editor.getByText(line)).toBeAttached();
  await screenshot(page, info, 'admin-blog-post-restored', { fullPage: false });

  // Saved: the post exists, whole, and the kept draft is gone.
  await f.category.selectOption('probate');
  await save.click();
  await expect(page).toHaveURL(LIST_URL);
  await expectToast(page, 'Success', 'Blog post created successfully');
  const created = await stored(adminApi, title);
  expect(created!.content).toBe([...paragraphs, 'The last line.'].map((line) => `<p>${line}</p>`).join(''));
  await openNewPost(page);
  await expect(page.getByTestId('kept-draft')).toHaveCount(0);
  expect((await adminApi.delete(`/api/admin/blog-posts/${created!.id}`)).status()).toBe(204);
  consoleErrors.expectNone();
});

test('no posts: No blog posts yet, and its button opens a new post', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  // The database is shared with other tests, so the empty list is served by the test (route interception).
  await page.route('**/api/admin/blog-posts', (route) => (route.request().method() === 'GET' ? route.fulfill({ json: [] }) : route.fallback()));
  await openScreen(page);
  await expect(page.getByRole('heading', { name: 'No blog posts yet' })).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, info, 'admin-blog-posts-empty', { unhover: true });
  await page.getByRole('link', { name: 'Create Your First Post' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New Blog Post' })).toBeVisible({ timeout: 20_000 });
  consoleErrors.expectNone();
});

test('a post that is not there: Blog post not found, and the way back @any-width', async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await openAdminScreen(page, '/admin/blog-posts/no-such-post', 'Edit Blog Post');
  await expect(page.getByRole('heading', { level: 2, name: 'Blog post not found' })).toBeVisible();
  // The page belongs to Blog Posts: the navigation says so.
  await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Blog Posts' })).toHaveAttribute('aria-current', 'location');
  await page.getByRole('main').getByRole('link', { name: 'Back to Blog Posts' }).first().click();
  await expect(page).toHaveURL(LIST_URL);
  consoleErrors.expectNone();
});

test('no axe violations on the list, the post pages and the delete confirmation; screenshots', async ({ page, adminApi }, info) => {
  test.setTimeout(90_000); // several axe runs
  const consoleErrors = watchConsole(page);
  const post = await arrange(adminApi, unique(info, 'Screenshot Draft'), { category: 'estate-planning', author: 'Sarah J. Mitchell' });
  await openScreen(page);
  await expect(row(page, post.title)).toBeVisible();
  await expectNoAxeViolations(page);
  await expectNoSideways(page);
  await screenshot(page, info, 'admin-blog-posts', { unhover: true });

  await openNewPost(page);
  const f = fields(page);
  const form = page.getByRole('main');
  await f.title.fill('Updating Your Trust After a Move to California');
  await f.excerpt.fill('What changes, and what does not, when a trust moves states.');
  await writeHtml(page, '<h2>Does my trust still work?</h2>\n<p>Usually yes, but a few points deserve a review.</p>');
  await f.tool('HTML').click();
  await f.published.click();
  await expect(f.publishDate).toBeVisible();
  await expectNoAxeViolations(page);
  await expectNoSideways(page);
  await screenshot(page, info, 'admin-blog-post-new', { unhover: true });
  await form.getByRole('button', { name: 'Create Post' }).click();
  await expect(form.getByText('Please choose a category')).toBeVisible();
  await expectNoAxeViolations(page);
  await form.getByRole('link', { name: 'Cancel' }).click();
  const discard = page.getByRole('alertdialog', { name: 'Discard your changes?' });
  await expect(discard).toBeVisible();
  await expectNoAxeViolations(page, { label: 'Discard your changes?' });
  await discard.getByRole('button', { name: 'Discard Changes' }).click();
  await expect(page).toHaveURL(LIST_URL);

  await openEdit(page, post.title);
  await expectNoAxeViolations(page);
  await screenshot(page, info, 'admin-blog-post-edit', { unhover: true });
  await page.getByRole('main').getByRole('link', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(LIST_URL);

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
