/**
 * The firm's external reviews (issue 19, docs/decisions/029), worked through as an admin would, at
 * desktop and phone width: in the Review Platforms tab, with none recorded the home page shows the
 * built-in samples (this server runs while developing) and the screen says so; add a review (field
 * messages first), see it on the home page with its link to the review page and only its platform in
 * the filter, hide it (gone from the home page), delete it after confirming.
 *
 * Both projects share one server database: the test starts from no reviews (it deletes any) and
 * names its review uniquely.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import type { ExternalReview } from '../../src/components/admin/integrations/external-review-form.ts';
import { expect, openAdminScreen, test } from '../support/admin.ts';
import { expectNoAxeViolations, expectNoSideways, expectToast, screenshot, screenshotDialog, unique, watchConsole } from '../support/e2e.ts';

const homeHtml = async (page: Page) => (await page.request.get('/')).text();

async function deleteEveryReview(adminApi: APIRequestContext) {
  const rows = (await (await adminApi.get('/api/admin/external-reviews')).json()) as ExternalReview[];
  for (const row of rows) expect((await adminApi.delete(`/api/admin/external-reviews/${row.id}`)).status()).toBe(204);
}

test('add a review, see it on the home page with its link, hide it and delete it', async ({ page, adminApi }, info) => {
  const consoleErrors = watchConsole(page);
  await deleteEveryReview(adminApi);
  const reviewer = unique(info, 'Dana R.');
  const text = `They answered every question about our trust within a day ${Date.now()}`;
  const url = `https://www.google.com/maps/reviews/${Date.now()}`;

  await openAdminScreen(page, '/admin/integrations#reviews', 'Integrations');
  const panel = page.getByRole('tabpanel', { name: 'Review Platforms' });
  const section = panel.getByRole('region', { name: 'Reviews on the Website' });
  await expect(section).toBeVisible();
  // SPEC's content of the tab stays as it was.
  await expect(panel.getByRole('button', { name: 'Manage Sources' })).toBeVisible();
  await expect(panel.getByRole('list', { name: 'Connected review platforms' }).getByRole('listitem')).toHaveCount(3);
  // None recorded: the empty state says what to do, and the note says the home page shows samples.
  await expect(section.getByRole('heading', { name: 'No reviews yet' })).toBeVisible();
  await expect(section.getByTestId('samples-note')).toHaveText(
    'The home page is showing 4 built-in sample reviews because none here is visible yet. They are for development and are off in production (SAMPLE_CONTENT).',
  );
  await expectNoSideways(page);
  await screenshot(page, info, 'external-reviews-empty');

  // Add: nothing filled in gives the schema's messages under the fields, and sends nothing.
  const addFirst = section.getByRole('button', { name: 'Add Your First Review' });
  await addFirst.click();
  const dialog = page.getByRole('dialog', { name: 'Add Review' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Reviewer Name' })).toBeFocused();
  await expect(dialog.getByRole('combobox', { name: 'Platform' }).getByRole('option')).toHaveText([
    'Select a platform',
    'Google',
    'Avvo',
    'Yelp',
    'Facebook',
    'Martindale-Hubbell',
  ]);
  await dialog.getByRole('button', { name: 'Add Review' }).click();
  await expect(dialog.getByText('Reviewer name is required')).toBeVisible();
  await expect(dialog.getByText('Please choose the platform the review is on')).toBeVisible();
  await expect(dialog.getByText('Review text is required')).toBeVisible();
  await expect(dialog.getByText('Review page URL is required')).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Reviewer Name' })).toHaveAttribute('aria-invalid', 'true');

  await dialog.getByRole('textbox', { name: 'Reviewer Name' }).fill(reviewer);
  await dialog.getByRole('combobox', { name: 'Platform' }).selectOption('google');
  await dialog.getByRole('combobox', { name: 'Rating' }).selectOption('4');
  await dialog.getByLabel('Date of the Review').fill('2026-03-04');
  await dialog.getByRole('textbox', { name: 'Review Text' }).fill(text);
  // Not https: refused under the field.
  await dialog.getByRole('textbox', { name: 'Review Page URL' }).fill('http://www.google.com/maps/reviews/1');
  await dialog.getByRole('button', { name: 'Add Review' }).click();
  await expect(dialog.getByText('Review Page URL must be an https:// address', { exact: false })).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Review Page URL' }).fill(url);
  await screenshotDialog(dialog, info, 'external-review-dialog');
  await dialog.getByRole('button', { name: 'Add Review' }).click();
  await expect(dialog).toBeHidden();
  await expectToast(page, 'Success', 'External review created successfully');

  const card = section.getByTestId('external-review-card').filter({ has: page.getByRole('heading', { name: reviewer, exact: true }) });
  await expect(card).toContainText('Google');
  await expect(card).toContainText('4 out of 5 stars');
  await expect(card).toContainText('March 4, 2026');
  await expect(card).toContainText('Visible');
  await expect(card.getByRole('link', { name: /Open on Google/ })).toHaveAttribute('href', url);
  await expect(section.getByTestId('samples-note')).toHaveCount(0);
  await expectNoSideways(page);
  await expectNoAxeViolations(page);
  await screenshot(page, info, 'external-reviews-list');

  // The home page shows the firm's review with its link, instead of the samples.
  await expect.poll(() => homeHtml(page), { message: 'the home page shows the new review' }).toContain(text);
  await page.goto('/');
  const reviews = page.getByRole('region', { name: 'What Our Clients Say' });
  const shown = reviews.getByTestId('external-review').filter({ hasText: text });
  await expect(shown).toContainText(`${reviewer} on Google`);
  await expect(shown.getByRole('link', { name: /Read on Google/ })).toHaveAttribute('href', url);
  await expect(reviews.getByRole('group', { name: 'Filter reviews by source' }).getByRole('button')).toHaveText(['All', 'Google Reviews']);
  await expect(reviews).not.toContainText('Stephanie L.'); // a sample
  await shown.scrollIntoViewIfNeeded();
  await expectNoSideways(page);
  await screenshot(page, info, 'external-review-on-home');

  // Hide: gone from the home page (the samples stand in again while developing), kept in the admin.
  await openAdminScreen(page, '/admin/integrations#reviews', 'Integrations');
  await card.getByRole('button', { name: `Hide the review by ${reviewer}` }).click();
  await expectToast(page, 'Success', 'External review updated successfully');
  await expect(card).toContainText('Hidden');
  await expect(card.getByRole('button', { name: `Show the review by ${reviewer}` })).toBeVisible();
  await expect.poll(() => homeHtml(page), { message: 'a hidden review is not on the home page' }).not.toContain(text);

  // Delete, after confirming; the focus goes back to the screen's action.
  await card.getByRole('button', { name: `Delete the review by ${reviewer}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this review?' });
  await expect(confirm).toContainText(`The review by ${reviewer} on Google will be removed from the website.`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Success', 'External review deleted successfully');
  await expect(section.getByRole('heading', { name: 'No reviews yet' })).toBeVisible();
  expect((await (await adminApi.get('/api/admin/external-reviews')).json()) as ExternalReview[]).toEqual([]);
  consoleErrors.expectNone();
});
