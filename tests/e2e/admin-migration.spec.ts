/**
 * /admin/migration (SPEC §2, §4 Migration wizard, §7 migration calls, §8 migration messages)
 * against a real DynamoDB API: dynalite, started here. The server reaches it at DYNAMODB_ENDPOINT
 * (E2E_DYNAMO_PORT) through a small HTTP relay this spec controls, so DynamoDB can go down (connections
 * refused and cut, as in an outage) and come back without losing its data (stopping dynalite itself
 * would empty it), and BatchWriteItem calls can be held so a run is seen, and reloaded, midway.
 *
 * The tests run in order: the migration run is the server's, one for the whole site. They hold
 * whatever a previous run of this file (another project against the same server) left: each starts
 * from the step the page shows and goes on from there (generating the table commands moves to the
 * migrate step from any later step, SPEC §4).
 */
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { estimateProbate } from '../../src/shared/probate.ts';
import { expect, openAdminScreen, test } from '../support/admin.ts';
import { startDynalite, type RunningDynalite } from '../support/dynalite.ts';
import { expectNoAxeViolations, expectNoSideways, screenshot, toasts, watchConsole } from '../support/e2e.ts';

const SCREEN = '/admin/migration';
const relayPort = Number(process.env.E2E_DYNAMO_PORT);

/** SPEC §2's list of what is migrated, in its order. */
const specKinds = [
  'Testimonials',
  'Blog posts',
  'Contact submissions',
  'Probate calculations',
  'Theme settings',
  'Appointments',
  'Calendar settings',
  'Email settings',
  'Blog sources',
  'External articles',
  'Component visibility',
  'User data',
];

/**
 * The way to dynalite. Down: the port refuses connections and open ones are cut. Held: BatchWriteItem
 * calls after the first `pass` wait until released (the rest of the API still answers).
 */
class DynamoRelay {
  private server: Server;
  private sockets = new Set<Socket>();
  private held: (() => void)[] | null = null;
  private passBeforeHold = 0;
  private targetPort: number;
  constructor(targetPort: number) {
    this.targetPort = targetPort;
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  private handle(req: IncomingMessage, res: ServerResponse) {
    const forward = () => {
      const upstream = httpRequest({ host: '127.0.0.1', port: this.targetPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    };
    const isWrite = req.headers['x-amz-target'] === 'DynamoDB_20120810.BatchWriteItem';
    if (isWrite && this.held) {
      if (this.passBeforeHold > 0) this.passBeforeHold -= 1;
      else return void this.held.push(forward);
    }
    forward();
  }

  up() {
    return new Promise<void>((resolve, reject) => {
      if (this.server.listening) return resolve();
      this.server.once('error', reject);
      this.server.listen(relayPort, '127.0.0.1', () => resolve());
    });
  }

  /** Held calls are dropped with their connections. */
  down() {
    this.held = null;
    return new Promise<void>((resolve) => {
      for (const socket of this.sockets) socket.destroy();
      if (!this.server.listening) return resolve();
      this.server.close(() => resolve());
    });
  }

  holdWrites(pass: number) {
    this.held = [];
    this.passBeforeHold = pass;
  }

  release() {
    const waiting = this.held ?? [];
    this.held = null;
    for (const go of waiting) go();
  }
}

let dynamo: RunningDynalite;
let relay: DynamoRelay;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  dynamo = await startDynalite();
  relay = new DynamoRelay(dynamo.port);
});

test.afterAll(async () => {
  await relay.down();
  await dynamo.stop();
});

/** DynamoDB as the test sees it, straight to dynalite. */
const directClient = () => new DynamoDBClient({ region: 'us-west-2', endpoint: dynamo.endpoint, credentials: { accessKeyId: 'e2e', secretAccessKey: 'e2e' } });

const openScreen = (page: Page) => openAdminScreen(page, SCREEN, 'Data Migration');
const stepCard = (page: Page, n: number) => page.getByTestId(`step-${n}`);
const currentStep = (page: Page) => page.getByRole('list', { name: 'Migration steps' }).locator(':scope > li[aria-current="step"]');
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const runBox = (page: Page) => page.getByTestId('migration-run');
const bars = (page: Page) => runBox(page).getByRole('progressbar');

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Which numbered step is current (0 at the final card, where all four are completed). */
async function currentStepNumber(page: Page): Promise<number> {
  if ((await currentStep(page).count()) === 0) return 0;
  return Number((await currentStep(page).getAttribute('data-testid'))!.replace('step-', ''));
}

/** SPEC §4: completed, current or pending by position, said in words. */
async function expectSteps(page: Page, current: number) {
  for (const n of [1, 2, 3, 4]) {
    const expected = current === 0 || n < current ? 'Completed' : n === current ? 'Current step' : 'Pending';
    await expect(stepCard(page, n).getByTestId('step-progress'), `step ${n}`).toHaveText(expected);
  }
  if (current === 0) await expect(currentStep(page)).toHaveCount(0);
  else await expect(currentStep(page)).toHaveAttribute('data-testid', `step-${current}`);
}

/** SPEC §4: Migrate only at step 3, Verify only at step 4; table generation whenever the setup is ready. */
async function expectButtonsFor(page: Page, current: number) {
  await expect(button(page, 'Generate Table Commands')).toBeEnabled();
  if (current === 3) await expect(button(page, 'Start Migration')).toBeEnabled();
  else await expect(button(page, 'Start Migration')).toBeDisabled();
  if (current === 4) await expect(button(page, 'Verify Migration')).toBeEnabled();
  else await expect(button(page, 'Verify Migration')).toBeDisabled();
}

/** The one toast on screen has this title (and description), then it is closed. Returns the description. */
async function expectToastTitled(page: Page, title: string, description?: string | RegExp, timeout = 20_000): Promise<string> {
  const item = toasts(page);
  await expect(item.getByText(title, { exact: true })).toBeVisible({ timeout });
  if (description !== undefined) await expect(item).toContainText(description);
  const text = ((await item.textContent()) ?? '').replace(title, '').trim();
  await item.getByRole('button', { name: 'Close notification' }).click();
  await expect(item).toHaveCount(0);
  return text;
}

/** Every bar full: each progressbar at its maximum, its text 'N / N'. */
async function expectAllDone(page: Page) {
  await expect(runBox(page)).toHaveAttribute('data-state', 'completed', { timeout: 30_000 });
  const count = await bars(page).count();
  expect(count).toBe(specKinds.length + 1);
  for (let i = 0; i < count; i++) {
    const bar = bars(page).nth(i);
    // Read now and max together: the page may still be drawing the run's previous snapshot, whose
    // total can differ by the rows added since.
    const full = () => bar.evaluate((el) => ({ now: el.getAttribute('aria-valuenow'), max: el.getAttribute('aria-valuemax') }));
    await expect
      .poll(async () => {
        const { now, max } = await full();
        return now !== null && now === max;
      })
      .toBe(true);
    const { max } = await full();
    const row = runBox(page).getByTestId('progress').nth(i);
    await expect(row.getByTestId('progress-text')).toHaveText(`${Number(max).toLocaleString('en-US')} / ${Number(max).toLocaleString('en-US')}`);
  }
}

async function overallProgress(page: Page) {
  const bar = runBox(page).getByRole('progressbar', { name: 'All data' });
  return { done: Number(await bar.getAttribute('aria-valuenow')), total: Number(await bar.getAttribute('aria-valuemax')) };
}

/** Saves probate calculations as a visitor does (SPEC §7): data for the migration that nothing else on the site lists. */
async function saveCalculations(request: APIRequestContext, info: TestInfo, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const e = estimateProbate(250_000 + i * 1_000, 100_000);
    const res = await request.post('/api/probate-calculator', {
      data: {
        estateValue: String(e.estateValue),
        realEstateValue: String(e.realEstateValue),
        attorneyFees: String(e.attorneyFees),
        executorFees: String(e.executorFees),
        courtCosts: String(e.courtCosts),
        totalProbate: String(e.totalProbate),
        trustCost: String(e.trustCost),
        savings: String(e.savings),
        userEmail: `migration-${info.project.name}-${i}@example.com`,
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    ids.push(((await res.json()) as { id: string }).id);
  }
  return ids;
}

async function tableName(adminApi: APIRequestContext) {
  const res = await adminApi.get('/api/admin/migration/status');
  expect(res.status()).toBe(200);
  return ((await res.json()) as { tableName: string }).tableName;
}

/** Generates the table commands; the wizard moves to Migrate Data (SPEC §4). */
async function generateTable(page: Page) {
  await button(page, 'Generate Table Commands').click();
  await expectToastTitled(page, 'Table Commands Generated', 'Table creation commands are ready.');
  await expectSteps(page, 3);
}

/** Starts (or resumes) the migration and waits for it to complete: SPEC §8 'Migration Completed', then Verify Migration. */
async function migrateToVerify(page: Page) {
  await button(page, 'Start Migration').click();
  await expectAllDone(page);
  await expectSteps(page, 4);
  // Start Migration no longer applies: the focus moved on to the next step rather than being lost.
  await expect(stepCard(page, 4).getByRole('heading', { level: 2 })).toBeFocused();
  await expectToastTitled(page, 'Migration Completed', /Data successfully migrated: [\d,]+ items?\./);
}

test("status, steps and what is migrated; while DynamoDB is down, generating fails with 'Error' and the step stays", async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  await relay.down();
  await openScreen(page);

  // SPEC §2 status card: the database the e2e server runs on (SQLite), DynamoDB, the region.
  const status = page.getByTestId('migration-status');
  await expect(status.getByRole('heading', { name: 'Migration Status' })).toBeVisible();
  const item = (term: string) =>
    status
      .locator('dl > div')
      .filter({ has: page.locator('dt', { hasText: new RegExp(`^${term}$`) }) })
      .locator('dd');
  await expect(item('SQLite database')).toHaveText('Connected');
  await expect(item('DynamoDB')).toHaveText('Configured');
  await expect(item('AWS region')).toHaveText('us-west-2');
  await expect(page.getByTestId('setup-alert')).toHaveText('All systems ready for migration!');
  // Checked again on request: the configuration, not DynamoDB's reachability, makes it ready.
  const statusCalls: string[] = [];
  page.on('request', (r) => r.url().endsWith('/api/admin/migration/status') && statusCalls.push(r.url()));
  await button(page, 'Check Again').click();
  await expect.poll(() => statusCalls.length).toBe(1);
  await expect(button(page, 'Check Again')).not.toHaveAttribute('aria-disabled');
  await expect(page.getByTestId('setup-alert')).toHaveText('All systems ready for migration!');

  // SPEC §2: four numbered steps; setup is verified, so the wizard is past step 1 (where exactly
  // depends on what earlier runs of this file left on the server).
  await expect(page.getByRole('list', { name: 'Migration steps' }).getByRole('heading', { level: 2 })).toHaveText([
    'Step 1: Setup Verification',
    'Step 2: Create Table',
    'Step 3: Migrate Data',
    'Step 4: Verify Migration',
  ]);
  const at = await currentStepNumber(page);
  expect([2, 3, 4]).toContain(at);
  await expectSteps(page, at);
  await expectButtonsFor(page, at);

  // SPEC §2: the card listing what is migrated.
  await expect(page.getByRole('heading', { name: 'What Is Migrated' })).toBeVisible();
  await expect(page.getByTestId('migrated-kinds').getByRole('listitem')).toHaveText(specKinds);

  // DynamoDB refuses connections: 'Error' with the error's message (SPEC §8); the step stays (SPEC §4).
  await button(page, 'Generate Table Commands').click();
  const message = await expectToastTitled(page, 'Error');
  expect(message.length).toBeGreaterThan(0);
  expect(message).not.toContain('Table creation commands are ready');
  await expect(button(page, 'Generate Table Commands')).toBeEnabled();
  await expect(page.getByTestId('table-commands')).toHaveCount(0);
  await expectSteps(page, at);
  await expectButtonsFor(page, at);
  await expectNoAxeViolations(page, { label: 'after a failed generation', fromTop: true });
  await screenshot(page, info, 'admin-migration-status', { fromTop: true, blur: true });
  consoleErrors.expectOnly(/the server responded with a status of 5\d\d/, new RegExp(`^${escapeRegExp(message.slice(0, 40))}`));
});

test('not configured: the SPEC alert, and the variables to set by name', async ({ page }, info) => {
  const consoleErrors = watchConsole(page);
  // A server without AWS settings (this one has them): its answer, as the API gives it then.
  await page.route('**/api/admin/migration/status', (route) =>
    route.fulfill({ json: { postgresConfigured: true, awsConfigured: false, awsRegion: null, ready: false, database: 'sqlite', tableName: 'firm-site' } }),
  );
  await openScreen(page);
  await expect(page.getByTestId('setup-alert')).toHaveText('AWS credentials not configured. Please check your environment configuration.');
  const help = page.getByTestId('setup-help');
  for (const name of ['AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'DYNAMODB_ENDPOINT', 'DYNAMODB_TABLE'])
    await expect(help).toContainText(name);
  await expect(help).not.toContainText('SQLITE_PATH');
  await expect(help).toContainText('README’s “DynamoDB migration” section');
  await expectNoAxeViolations(page, { label: 'migration not configured' });
  await screenshot(page, info, 'admin-migration-not-configured');
  consoleErrors.expectNone();
});

test("walks the wizard to 'Migration Complete', with live progress that survives a reload", async ({ page, request, adminApi }, info) => {
  test.setTimeout(120_000);
  const consoleErrors = watchConsole(page);
  await relay.up();
  // More items than one batch of 25 holds, so a run held after its first batch is seen midway.
  await saveCalculations(request, info, 30);
  const table = await tableName(adminApi);
  await openScreen(page);

  // Step 2: the table is created in DynamoDB and its definition shown, as a CLI command and as JSON.
  await generateTable(page);
  const description = await directClient().send(new DescribeTableCommand({ TableName: table }));
  expect(description.Table?.TableStatus).toBe('ACTIVE');
  const cli = page.getByTestId('cli-command').locator('pre');
  await expect(cli).toContainText('aws dynamodb create-table');
  await expect(cli).toContainText(table);
  await expect(page.getByTestId('table-definition').locator('pre')).toContainText(`"TableName": "${table}"`);
  await expect(stepCard(page, 2).getByTestId('step-progress')).toHaveText('Completed');
  await expectButtonsFor(page, 3);
  await expectNoAxeViolations(page, { label: 'table commands' });
  await screenshot(page, info, 'admin-migration-table', { blur: true });

  // Step 3, held after its first batch: the run is running, and a reload finds it with its progress.
  relay.holdWrites(1);
  await button(page, 'Start Migration').click();
  await expect(runBox(page)).toHaveAttribute('data-state', 'running');
  await expect(button(page, 'Migrating...')).toBeVisible();
  await expect.poll(async () => (await overallProgress(page)).done, { timeout: 20_000 }).toBeGreaterThan(0);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Data Migration' })).toBeVisible({ timeout: 20_000 });
  await expect(runBox(page)).toHaveAttribute('data-state', 'running');
  await expectSteps(page, 3);
  const midway = await overallProgress(page);
  expect(midway.done).toBeGreaterThan(0);
  expect(midway.done).toBeLessThan(midway.total);
  await expect(bars(page)).toHaveCount(specKinds.length + 1);
  await expect(runBox(page).getByTestId('progress').first().getByTestId('progress-text')).toHaveText(
    `${midway.done.toLocaleString('en-US')} / ${midway.total.toLocaleString('en-US')}`,
  );
  await expect(button(page, 'Verify Migration')).toBeDisabled();
  await expectNoAxeViolations(page, { label: 'migration running' });
  await screenshot(page, info, 'admin-migration-running', { blur: true });

  // Released: the bars fill, 'Migration Completed' (the page followed the run it found), on to Verify.
  relay.release();
  await expectAllDone(page);
  await expectSteps(page, 4);
  await expectButtonsFor(page, 4);
  await expectToastTitled(page, 'Migration Completed', /Data successfully migrated: [\d,]+ items?\./);

  // A reload after the migration: the completed run, and the wizard at Verify.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Data Migration' })).toBeVisible({ timeout: 20_000 });
  await expectAllDone(page);
  await expectSteps(page, 4);
  await expectButtonsFor(page, 4);

  // Step 4: counts per kind on both sides, no mismatch: 'Verification Complete', the final card.
  await button(page, 'Verify Migration').click();
  // The Verify button no longer applies: the focus goes to the final card, not to the page's start.
  await expect(page.getByRole('heading', { name: 'Migration Complete' })).toBeFocused();
  await expectToastTitled(page, 'Verification Complete', /Migration verification successful: all [\d,]+ items? match\./);
  const report = page.getByTestId('verification');
  await expect(report).toContainText('Every item in DynamoDB matches the source.');
  await expect(report.getByRole('table').getByRole('columnheader')).toHaveText(['Data', 'SQLite', 'DynamoDB', 'Mismatches']);
  const rows = report.getByRole('table').locator('tbody tr');
  await expect(rows).toHaveCount(specKinds.length);
  for (let i = 0; i < specKinds.length; i++) {
    const cells = rows.nth(i).locator('td');
    await expect(rows.nth(i).locator('th')).toHaveText(specKinds[i]!);
    await expect(cells.nth(1)).toHaveText((await cells.nth(0).textContent())!);
    await expect(cells.nth(2)).toHaveText('0');
  }
  await expect(rows.filter({ hasText: 'Probate calculations' }).locator('td').first()).not.toHaveText('0');
  await expect(page.getByTestId('mismatches')).toHaveCount(0);
  const complete = page.getByTestId('migration-complete');
  await expect(complete.getByRole('heading', { name: 'Migration Complete' })).toBeVisible();
  await expect(complete).toContainText(`DynamoDB table ${table}`);
  await expectSteps(page, 0);
  await expect(button(page, 'Start Migration')).toBeDisabled();
  await expect(button(page, 'Verify Migration')).toBeDisabled();

  await expectNoAxeViolations(page, { label: 'complete, light', fromTop: true });
  await screenshot(page, info, 'admin-migration-complete', { fromTop: true, blur: true });
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await expectNoAxeViolations(page, { label: 'complete, dark', fromTop: true });
  await screenshot(page, info, 'admin-migration-complete-dark', { fromTop: true });
  await page.evaluate(() => document.documentElement.classList.remove('dark'));

  // Phone widths: nothing wider than the screen.
  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 800 });
    await expectNoSideways(page);
    await screenshot(page, info, `admin-migration-complete-${width}`, { fromTop: true });
  }
  consoleErrors.expectNone();
});

test('a verification that finds a mismatch fails and names it; generating again leads back to a migration that copies it', async ({ page, request }, info) => {
  test.setTimeout(120_000);
  const consoleErrors = watchConsole(page);
  await relay.up();
  await openScreen(page);
  await expectSteps(page, 4);

  // Saved after the migration: in the source, not in DynamoDB.
  const [added] = await saveCalculations(request, info, 1);
  await button(page, 'Verify Migration').click();
  await expectToastTitled(page, 'Verification Failed', '1 mismatch found');
  const report = page.getByTestId('verification');
  await expect(report).toContainText('1 mismatch found.');
  const probate = report.getByRole('table').locator('tbody tr').filter({ hasText: 'Probate calculations' }).locator('td');
  await expect(probate.nth(2)).toHaveText('1');
  await expect(page.getByTestId('mismatches').getByRole('listitem')).toHaveCount(1);
  await expect(page.getByTestId('mismatches').getByRole('listitem')).toContainText(`Probate calculations ${added}`);
  // A failure keeps the step (SPEC §4).
  await expectSteps(page, 4);
  await expectButtonsFor(page, 4);
  await expect(page.getByTestId('migration-complete')).toHaveCount(0);
  await expectNoAxeViolations(page, { label: 'verification failed' });
  await screenshot(page, info, 'admin-migration-verification-failed', { blur: true });

  await generateTable(page);
  await expect(page.getByTestId('verification')).toHaveCount(0);
  await migrateToVerify(page);
  await button(page, 'Verify Migration').click();
  await expectToastTitled(page, 'Verification Complete');
  await expect(page.getByTestId('migration-complete')).toBeVisible();
  consoleErrors.expectNone();
});

test("'Verification Failed' and 'Migration Failed' when DynamoDB goes down; the stopped run resumes where it stopped", async ({ page }, info) => {
  // A run that loses DynamoDB retries with backoff before it gives up (docs/decisions/011).
  test.setTimeout(180_000);
  const consoleErrors = watchConsole(page);
  await relay.up();
  await openScreen(page);
  await expectSteps(page, 4);

  // Verify with DynamoDB down: 'Verification Failed' with the error's message; still at Verify.
  await relay.down();
  await button(page, 'Verify Migration').click();
  const verifyMessage = await expectToastTitled(page, 'Verification Failed');
  expect(verifyMessage).toContain('DynamoDB');
  await expectSteps(page, 4);
  await expectButtonsFor(page, 4);

  // Back to Migrate Data; DynamoDB goes away after the run's first batch: 'Migration Failed' with
  // the run's reason, still at Migrate Data, the progress so far kept.
  await relay.up();
  await generateTable(page);
  relay.holdWrites(1);
  await button(page, 'Start Migration').click();
  await expect(runBox(page)).toHaveAttribute('data-state', 'running');
  await expect.poll(async () => (await overallProgress(page)).done, { timeout: 20_000 }).toBeGreaterThan(0);
  await relay.down();
  const migrateMessage = await expectToastTitled(page, 'Migration Failed', undefined, 120_000);
  expect(migrateMessage).toContain('DynamoDB');
  await expect(runBox(page)).toHaveAttribute('data-state', 'failed');
  await expect(page.getByTestId('run-error')).toHaveText(migrateMessage);
  await expectSteps(page, 3);
  await expectButtonsFor(page, 3);
  const stopped = await overallProgress(page);
  expect(stopped.done).toBeGreaterThan(0);
  expect(stopped.done).toBeLessThan(stopped.total);

  // A reload shows the stopped run at Migrate Data; Start Migration resumes it once DynamoDB is back.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Data Migration' })).toBeVisible({ timeout: 20_000 });
  await expectSteps(page, 3);
  await expect(runBox(page)).toHaveAttribute('data-state', 'failed');
  expect(await overallProgress(page)).toEqual(stopped);
  await expect(page.getByText('The last migration stopped. Start Migration resumes it from where it stopped.')).toBeVisible();
  await expectNoAxeViolations(page, { label: 'migration failed', fromTop: true });
  await screenshot(page, info, 'admin-migration-failed', { fromTop: true, blur: true });
  await relay.up();
  await migrateToVerify(page);
  await button(page, 'Verify Migration').click();
  await expectToastTitled(page, 'Verification Complete');
  await expect(page.getByTestId('migration-complete')).toBeVisible();
  consoleErrors.expectOnly(/the server responded with a status of 503/, /^Verification Failed/);
});
