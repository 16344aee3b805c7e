/**
 * `npm run test:e2e`: the Playwright suite in E2E_SHARDS shards at once (default 2), each against a
 * server of its own (its own port, SQLite file, identity data and outbox), so the shards share no
 * state and the suite takes about half the time on the CI machine. Arguments (a spec file, --project,
 * --grep...) run one plain Playwright process instead, as `npx playwright test` would.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const args = process.argv.slice(2);
const shards = args.length ? 1 : Math.max(1, Number(process.env.E2E_SHARDS ?? 2));
const basePort = Number(process.env.E2E_PORT ?? 4399);
const playwright = join(import.meta.dirname, '../node_modules/@playwright/test/cli.js');

// Built once here, so the shards' servers start from the same dist/ instead of queueing on the lock
// (the same lock as playwright.config.ts's web server command).
execFileSync('flock', ['/tmp/firm-site-build.lock', process.execPath, join(import.meta.dirname, 'build-if-needed.ts')], { stdio: 'inherit' });

function runShard(index: number): Promise<number> {
  const shardArgs = shards > 1 ? [`--shard=${index + 1}/${shards}`, `--output=test-results/shard-${index + 1}`] : [];
  const child = spawn(process.execPath, [playwright, 'test', ...shardArgs, ...args], {
    env: {
      ...process.env,
      // Ports step by 10: each server also uses port + 1 (provider fakes) and port + 2 (dynalite).
      E2E_PORT: String(basePort + index * 10),
      E2E_DATA_DIR: mkdtempSync(join(tmpdir(), `firm-e2e-${index + 1}-`)),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = shards > 1 ? `[${index + 1}/${shards}] ` : '';
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => (stream === child.stderr ? process.stderr : process.stdout).write(`${prefix}${line}\n`));
  }
  return new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

const started = Date.now();
const codes = await Promise.all(Array.from({ length: shards }, (_, i) => runShard(i)));
const failed = codes.filter((code) => code !== 0).length;
console.log(`\ne2e: ${shards} shard(s), ${failed ? `${failed} failed` : 'all passed'}, in ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(failed ? 1 : 0);
