/**
 * End-to-end tests in a real Chromium (Debian's, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1) against the
 * built site served by api/server.ts on its own port and its own SQLite file.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4399);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'firm-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-gpu', '--no-first-run', '--disable-sync'],
};

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 30_000,
  use: { baseURL: `http://127.0.0.1:${port}`, trace: 'retain-on-failure', screenshot: 'only-on-failure' },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], launchOptions: chromium } },
    { name: 'phone', use: { ...devices['Pixel 7'], launchOptions: chromium } },
  ],
  webServer: {
    command: 'node scripts/build-if-needed.ts && node api/server.ts',
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: join(dataDir, 'site.db'),
      IDENTITY_DATA_DIR: join(dataDir, 'identity'),
      OUTBOX_DIR: join(dataDir, 'outbox'),
      // Sign-up is open to this test domain only (the allowlist is part of what is tested).
      ADMIN_EMAILS: '@e2e.example.com',
      LOG_QUIET: 'true',
      DATABASE_URL: '',
    },
  },
});
