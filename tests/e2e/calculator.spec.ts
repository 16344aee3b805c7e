/**
 * /probate-calculator (SPEC §2, §4 Calculator, §5 Calculator, §7 POST /api/probate-calculator, §8,
 * §9 Probate calculator): placeholder, 'Invalid Input', the figures of the schedule, separators
 * while typing, saved only with an email (the stored row checked in the e2e database), 'Save Failed'.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { estimateProbate, formatUsd } from '../../src/shared/probate.ts';
import { expectNoAxeViolationsInEveryMode, screenshot, toasts, unique, watchConsole } from '../support/e2e.ts';

const dbPath = join(process.env.E2E_DATA_DIR ?? '', 'site.db');

/** Requests to the save endpoint, to prove none is sent without an email. */
function watchSaves(page: Page) {
  const saves: { body: unknown }[] = [];
  page.on('request', (req) => {
    if (req.url().endsWith('/api/probate-calculator')) saves.push({ body: req.postDataJSON() as unknown });
  });
  return saves;
}

const calculator = (page: Page) => page.locator('[data-component="probate_calculator"]');
const estateField = (page: Page) => calculator(page).getByRole('textbox', { name: 'Estate Value', exact: true });
const realEstateField = (page: Page) => calculator(page).getByRole('textbox', { name: 'Real Estate Value', exact: true });
const emailField = (page: Page) => calculator(page).getByRole('textbox', { name: 'Email', exact: true });
const calculateButton = (page: Page) => calculator(page).getByRole('button', { name: 'Calculate Costs' });

async function openCalculator(page: Page) {
  await page.goto('/probate-calculator');
  await expect(page.getByRole('heading', { level: 1, name: 'Probate Cost Calculator' })).toBeVisible();
  // The island is ready when its button is enabled (it stays disabled until hydration).
  await expect(calculateButton(page)).toBeEnabled();
}

/** The figures shown, by label, as text. */
async function shownFigures(page: Page) {
  const results = page.getByTestId('calculator-results');
  const figure = async (label: string) =>
    (
      await results
        .locator('div', { has: page.getByText(label, { exact: true }) })
        .last()
        .locator('dd')
        .textContent()
    )?.trim();
  return {
    attorneyFees: await figure('Attorney Fees'),
    executorFees: await figure('Executor Fees'),
    courtCosts: await figure('Court Costs'),
    totalProbate: await figure('Total Probate Costs'),
    trustCost: await figure('Total Living Trust Cost'),
    savings: (await results.locator('[data-figure="savings"]').textContent())?.trim(),
  };
}

function expectedFigures(estate: number, realEstate = 0) {
  const e = estimateProbate(estate, realEstate);
  return {
    attorneyFees: formatUsd(e.attorneyFees),
    executorFees: formatUsd(e.executorFees),
    courtCosts: formatUsd(e.courtCosts),
    totalProbate: formatUsd(e.totalProbate),
    trustCost: formatUsd(e.trustCost),
    savings: formatUsd(e.savings),
  };
}

test('the page shows the placeholder, then the figures of the schedule, and sends nothing without an email', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  const saves = watchSaves(page);
  await openCalculator(page);
  await expect(page).toHaveTitle(/Probate Cost Calculator/);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /living trust/);
  await expect(page.getByRole('main')).toContainText('4-7%');
  await expect(page.getByRole('main')).toContainText('12-18 months');

  // SPEC §4: a placeholder until a calculation is done.
  await expect(page.getByTestId('calculator-placeholder')).toBeVisible();
  await expect(page.getByTestId('calculator-results')).toHaveCount(0);
  await expect(estateField(page)).toHaveAttribute('inputmode', 'numeric');
  await expect(realEstateField(page)).toHaveAttribute('inputmode', 'numeric');
  await screenshot(page, info, 'calculator-before', { fromTop: true });

  await estateField(page).pressSequentially('1000000');
  await expect(estateField(page)).toHaveValue('1,000,000');
  await realEstateField(page).pressSequentially('500000');
  await expect(realEstateField(page)).toHaveValue('500,000');
  await calculateButton(page).click();

  await expect(page.getByTestId('calculator-placeholder')).toHaveCount(0);
  const results = page.getByTestId('calculator-results');
  await expect(results).toBeVisible();
  expect(await shownFigures(page)).toEqual(expectedFigures(1_000_000, 500_000));
  // SPEC §9 worked example: 17,500 per party, court 3,000, total 38,000, trust 3,000, savings 35,000.
  expect(await shownFigures(page)).toEqual({
    attorneyFees: '$17,500',
    executorFees: '$17,500',
    courtCosts: '$3,000',
    totalProbate: '$38,000',
    trustCost: '$3,000',
    savings: '$35,000',
  });
  await expect(results).toContainText('Trust Preparation$2,500');
  await expect(results).toContainText('Funding Services$500');
  await expect(results).toContainText('including $500,000 of real estate');
  await expect(results).toContainText('Estimate only, not legal advice.');
  await expect(results).toContainText("firm's simplified fee schedule, not the statutory schedule of the California Probate Code");
  // How the attorney fee is figured, band by band, adding up to the fee shown.
  await results.getByText('How the attorney fee is figured').click();
  const bands = results.getByRole('table', { name: "The attorney fee by band of the estate's value" });
  await expect(bands.getByRole('row')).toHaveText(['Part of the estateRateFee', '$0 to $100,0004%$4,000', '$100,000 to $1,000,0001.5%$13,500']);
  await expect(results.getByRole('link', { name: /Start Your Estate Plan/ })).toHaveAttribute('href', '/contact?service=estate-planning');
  await expect(results.getByRole('link', { name: 'Learn About Estate Planning' })).toHaveAttribute('href', '/practice-areas/estate-planning');
  // Announced politely to screen readers.
  await expect(calculator(page).locator('[aria-live="polite"]')).toHaveText('Estimated probate costs $38,000. Living trust $3,000. Potential savings $35,000.');
  // No save toast, no request (SPEC §5: saved only with an email).
  await expect(toasts(page)).toHaveCount(0);
  await screenshot(page, info, 'calculator-after', { fromTop: true });

  // A small estate: savings floored at 0; court costs at their minimum.
  await estateField(page).fill('20,000');
  await realEstateField(page).fill('');
  await calculateButton(page).click();
  expect(await shownFigures(page)).toEqual(expectedFigures(20_000));
  await expect(results.locator('[data-figure="savings"]')).toHaveText('$0');

  expect(saves).toEqual([]);
  consoleErrors.expectNone();
});

for (const [name, typed] of [
  ['empty', ''],
  ['zero', '0'],
  ['letters', 'abc'],
] as const) {
  test(`an estate value that is ${name} gives 'Invalid Input' and an inline message`, { tag: '@any-width' }, async ({ page }) => {
    const consoleErrors = watchConsole(page);
    const saves = watchSaves(page);
    await openCalculator(page);
    if (typed) await estateField(page).pressSequentially(typed);
    // Letters are never kept: the field stays empty.
    await expect(estateField(page)).toHaveValue(name === 'letters' ? '' : typed);
    await emailField(page).fill('someone@example.com');
    await calculateButton(page).click();

    // SPEC §8's message, under the button (no toast over the results).
    await expect(calculator(page).getByRole('alert')).toHaveText('Invalid Input. Please enter a valid estate value greater than $0.');
    await expect(toasts(page)).toHaveCount(0);
    await expect(estateField(page)).toHaveAttribute('aria-invalid', 'true');
    // The hint stays with the message (both describe the field).
    await expect(estateField(page)).toHaveAccessibleDescription(
      'The total value of everything you own: home, accounts, investments, vehicles. Please enter a valid estate value greater than $0.',
    );
    await expect(estateField(page)).toBeFocused();
    await expect(page.getByTestId('calculator-placeholder')).toBeVisible();
    expect(saves).toEqual([]);
    consoleErrors.expectNone();
  });
}

test('amount fields add thousands separators while typing and keep the caret in place', async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await openCalculator(page);
  const estate = estateField(page);
  await estate.pressSequentially('1234567');
  await expect(estate).toHaveValue('1,234,567');

  // Typing at the start: the caret stays after the new digit.
  await estate.press('Home');
  await estate.press('9');
  await expect(estate).toHaveValue('91,234,567');
  await estate.press('8');
  await expect(estate).toHaveValue('981,234,567');

  // Backspace just after a separator removes the digit before it, not only the comma.
  await estate.fill('');
  await estate.pressSequentially('1234');
  await expect(estate).toHaveValue('1,234');
  await estate.press('Home');
  await estate.press('ArrowRight');
  await estate.press('ArrowRight'); // caret after "1,"
  await estate.press('Backspace');
  await expect(estate).toHaveValue('234');

  // Letters and signs are not kept; pasted formatted amounts are.
  await estate.fill('');
  await estate.pressSequentially('12a3-4');
  await expect(estate).toHaveValue('1,234');
  await realEstateField(page).fill('$750000');
  await expect(realEstateField(page)).toHaveValue('750,000');
  consoleErrors.expectNone();
});

test('with an email the calculation is saved: the message under the button and the stored row', { tag: '@any-width' }, async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  const saves = watchSaves(page);
  const email = `${unique(info, 'calc', '-')}@example.com`;
  await openCalculator(page);
  await estateField(page).pressSequentially('1000000');
  await realEstateField(page).pressSequentially('500000');
  await emailField(page).fill(email);
  await calculateButton(page).click();

  await expect(calculator(page).getByRole('status').filter({ hasText: 'Calculation Saved' })).toHaveText(
    'Calculation Saved. Your probate calculation has been saved successfully.',
  );
  await expect(toasts(page)).toHaveCount(0);
  // Nothing covers the totals: the point at the middle of Potential Savings is the figure itself.
  const savings = page.getByTestId('calculator-results').getByText('Potential Savings');
  await savings.scrollIntoViewIfNeeded();
  expect(
    await savings.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
    }),
  ).toBe(true);
  expect(await shownFigures(page)).toEqual(expectedFigures(1_000_000, 500_000));
  expect(saves).toHaveLength(1);
  expect(saves[0]!.body).toEqual({
    estateValue: '1000000.00',
    realEstateValue: '500000.00',
    attorneyFees: '17500.00',
    executorFees: '17500.00',
    courtCosts: '3000.00',
    totalProbate: '38000.00',
    trustCost: '3000.00',
    savings: '35000.00',
    userEmail: email,
  });

  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        `select estate_value, real_estate_value, attorney_fees, executor_fees, court_costs, total_probate, trust_cost, savings, user_email
         from probate_calculations where user_email = ?`,
      )
      .all(email);
    expect(rows).toEqual([
      {
        estate_value: '1000000.00',
        real_estate_value: '500000.00',
        attorney_fees: '17500.00',
        executor_fees: '17500.00',
        court_costs: '3000.00',
        total_probate: '38000.00',
        trust_cost: '3000.00',
        savings: '35000.00',
        user_email: email,
      },
    ]);
  } finally {
    db.close();
  }
  await screenshot(page, info, 'calculator-saved', { fromTop: true });
  consoleErrors.expectNone();
});

test('an invalid email is refused beside the field, and nothing is sent', { tag: '@any-width' }, async ({ page }) => {
  const consoleErrors = watchConsole(page);
  const saves = watchSaves(page);
  await openCalculator(page);
  await estateField(page).pressSequentially('400000');
  await emailField(page).fill('not-an-email');
  await calculateButton(page).click();
  await expect(emailField(page)).toHaveAttribute('aria-invalid', 'true');
  await expect(emailField(page)).toHaveAccessibleDescription(
    'Optional: enter your email to save this estimate. Without one, nothing is saved. Please enter a valid email address',
  );
  await expect(emailField(page)).toBeFocused();
  expect(saves).toEqual([]);
  consoleErrors.expectNone();
});

test("a failed save shows 'Save Failed' and keeps the results", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await page.route('**/api/probate-calculator', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }));
  await openCalculator(page);
  await estateField(page).pressSequentially('2500000');
  await emailField(page).fill('fails@example.com');
  await calculateButton(page).click();
  await expect(calculator(page).getByRole('alert')).toHaveText('Save Failed. Unable to save your calculation. Please try again.');
  expect(await shownFigures(page)).toEqual(expectedFigures(2_500_000));
  await expect(emailField(page)).toHaveValue('fails@example.com');
  await expect(calculateButton(page)).toBeEnabled();
  consoleErrors.expectOnlyFailedRequests(500);
});

// The calculator as it opens is judged by accessibility.spec.ts's crawl; here, its error and its
// results, in full in light mode and by the colour rules in dark and warm (expectNoAxeViolationsInEveryMode).
test('no axe violations in any visitor mode, with the error and with the results', async ({ page }, info) => {
  test.setTimeout(60_000); // two full-page axe runs, and the colour rules in two more modes at each
  await openCalculator(page);

  await calculateButton(page).click(); // the error state
  // From the top of the page: target-size counts a field scrolled under the sticky header as obscured.
  await expect(calculator(page).getByRole('alert')).toContainText('Invalid Input');
  await expectNoAxeViolationsInEveryMode(page, { label: 'with the error', fromTop: true, htmlcs: true });

  await estateField(page).pressSequentially('1500000');
  await calculateButton(page).click();
  await expect(page.getByTestId('calculator-results')).toBeVisible();
  await expectNoAxeViolationsInEveryMode(page, {
    label: 'with the results',
    fromTop: true,
    each: async (mode) => (mode === 'light' ? undefined : screenshot(page, info, `calculator-${mode}`, { fromTop: true })),
  });
});
