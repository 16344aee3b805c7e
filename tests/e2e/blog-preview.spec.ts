/**
 * A draft's preview link (issue 19, item 2), as the firm uses it: the admin asks for the link on the
 * blog posts list, copies or opens it, and whoever opens it reads the draft laid out as its article
 * page will be, under a banner saying it is not published; the public site still has no such page.
 * In the post's editor the admin revokes its links (decision 042): each made before then says it
 * has expired, and one made after opens the post.
 */
import { expect, openAdminScreen, test } from '../support/admin.ts';
import { expectNoAxeViolations, expectNoSideways, expectToast, screenshot, screenshotDialog, unique, watchConsole } from '../support/e2e.ts';

test('the admin makes a preview link for a draft, and the link shows the draft and nothing else does', async ({ page, adminApi, browser }, info) => {
  const consoleErrors = watchConsole(page);
  const title = unique(info, 'Preview draft');
  const created = await adminApi.post('/api/admin/blog-posts', {
    data: {
      title,
      excerpt: 'Not ready yet.',
      content: '<h2>Still writing</h2><p>A paragraph in <strong>progress</strong>.</p>',
      category: 'probate',
      isPublished: false,
    },
  });
  expect(created.status()).toBe(201);
  const post = (await created.json()) as { id: string; slug: string };

  await openAdminScreen(page, '/admin/blog-posts');
  const card = page.getByRole('listitem').filter({ hasText: title });
  await card.getByRole('button', { name: `Preview ${title}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Preview link' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Anyone with this link can read');
  const link = await dialog.getByRole('textbox', { name: 'Preview link' }).inputValue();
  expect(link).toMatch(/\/blog-preview#[0-9a-f-]{36}\.\d+\.[\w-]+$/);
  await expectNoAxeViolations(page);
  await screenshot(page, info, 'preview-link-dialog', { fullPage: false });
  await page.keyboard.press('Escape');

  // Someone else, not signed in, opens it.
  const visitor = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const other = await visitor.newPage();
  await other.goto(new URL(link).pathname + new URL(link).hash);
  await expect(other.getByRole('status').filter({ hasText: 'Preview.' })).toContainText('A draft: not on the site.');
  await expect(other.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(other.getByRole('heading', { level: 2, name: 'Still writing' })).toBeVisible();
  await expect(other.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await screenshot(other, info, 'preview-page');
  // An altered link opens nothing, and says so.
  const hash = new URL(link).hash;
  await other.goto(`${new URL(link).pathname}${hash.slice(0, -2)}${hash.endsWith('xx') ? 'yy' : 'xx'}`);
  await expect(other.getByRole('alert')).toContainText('This preview link does not open any post');
  // The public site has no such page meanwhile.
  expect((await other.request.get(`/blog/${post.slug}`)).status()).toBe(404);
  await visitor.close();

  expect((await adminApi.delete(`/api/admin/blog-posts/${post.id}`)).status()).toBe(204);
  consoleErrors.expectNone();
});

test('the admin revokes a post’s preview links in its editor: a link made before says it has expired, one made after opens', async ({
  page,
  adminApi,
  browser,
}, info) => {
  const consoleErrors = watchConsole(page);
  const title = unique(info, 'Revoked preview');
  const created = await adminApi.post('/api/admin/blog-posts', {
    data: { title, excerpt: 'Sent to the wrong person.', content: '<p>Not for everyone yet.</p>', category: 'probate', isPublished: false },
  });
  expect(created.status()).toBe(201);
  const post = (await created.json()) as { id: string };
  const linkOf = async () => {
    const made = await adminApi.post(`/api/admin/blog-posts/${post.id}/preview-link`);
    expect(made.status()).toBe(201);
    const url = new URL(((await made.json()) as { url: string }).url);
    return url.pathname + url.hash;
  };
  const before = await linkOf();

  await openAdminScreen(page, `/admin/blog-posts/${post.id}`, 'Edit Blog Post');
  const section = page.getByRole('region', { name: 'Preview Links' });
  await expect(section).toContainText('Anyone holding a preview link of this post can read it');
  await expect(section.getByTestId('previews-revoked-at')).toHaveCount(0);
  await section.getByRole('button', { name: 'Revoke Preview Links' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Revoke preview links?' });
  await expect(confirm).toContainText(`Every preview link made for “${title}” until now stops working`);
  await expectNoAxeViolations(page);
  await screenshotDialog(confirm, info, 'revoke-preview-links-dialog');
  // Cancel changes nothing.
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await section.getByRole('button', { name: 'Revoke Preview Links' }).click();
  await page.getByRole('alertdialog', { name: 'Revoke preview links?' }).getByRole('button', { name: 'Revoke Links' }).click();
  await expectToast(page, 'Success', 'Preview links revoked: the links made until now no longer open this post');
  await expect(section.getByTestId('previews-revoked-at')).toContainText('Links made before');
  await expectNoSideways(page);
  await screenshot(page, info, 'preview-links-revoked', { fullPage: false });

  // Someone holding the earlier link is told it has expired; a link made now opens the post.
  const visitor = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const other = await visitor.newPage();
  await other.goto(before);
  await expect(other.getByRole('alert')).toHaveText('This preview link has expired. Ask for a new one.');
  await expect(other.getByRole('heading', { level: 1, name: title })).toHaveCount(0);
  await other.goto('about:blank');
  await other.goto(await linkOf());
  await expect(other.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await visitor.close();

  expect((await adminApi.delete(`/api/admin/blog-posts/${post.id}`)).status()).toBe(204);
  consoleErrors.expectNone();
});
