/**
 * Builds the site when dist/ is missing or older than anything it is built from, so `npm start` and
 * the end-to-end tests always serve what the sources say. Prints what it decided.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const stamp = join(root, 'dist/server/entry.mjs');
const inputs = ['src', 'public', 'astro.config.mjs', 'package-lock.json', 'tsconfig.json'];

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

export function buildIfNeeded(): boolean {
  const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  const source = Math.max(...inputs.map((p) => newest(join(root, p))));
  if (built && built >= source) {
    console.log('Site build is up to date.');
    return false;
  }
  console.log(built ? 'Sources changed since the last build: building the site...' : 'Building the site...');
  execFileSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], { cwd: root, stdio: 'inherit' });
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) buildIfNeeded();
