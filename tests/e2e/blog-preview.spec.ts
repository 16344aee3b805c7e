/**
 * A draft's preview link (issue 19, item 2), as the firm uses it: the admin asks for the link on the
 * blog posts list, copies or opens it, and whoever opens it reads the draft laid out as its article
 * page will be, under a banner saying it is not published; the public site still has no such page.
 */
import { expect, openAdminScreen, test } from '../support/admin.ts';
import { expectNoAxeViolations, screenshot, unique, watchConsole } from '../support/e2e.ts';

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
