import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Where a fresh Node process resolves drizzle's modules, with or without the server's hooks. */
const resolved = (withHooks: boolean) =>
  execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `${withHooks ? "(await import('./api/module-hooks.ts')).preferCommonJs();" : ''}
       for (const s of ['drizzle-orm', 'drizzle-orm/sqlite-core', 'drizzle-orm/better-sqlite3', 'hono']) console.log(import.meta.resolve(s));`,
    ],
    { encoding: 'utf8' },
  )
    .trim()
    .split('\n');

describe('preferCommonJs', () => {
  it('resolves drizzle-orm to its CommonJS files (the ES ones cost ~150 MB at start), and nothing else', () => {
    const [orm, core, driver, hono] = resolved(true);
    expect(orm).toMatch(/drizzle-orm\/index\.cjs$/);
    expect(core).toMatch(/drizzle-orm\/sqlite-core\/index\.cjs$/);
    expect(driver).toMatch(/drizzle-orm\/better-sqlite3\/index\.cjs$/);
    expect(hono).toMatch(/\.js$/);
  });

  it('leaves a process that does not register it on the ES build', () => {
    expect(resolved(false)[0]).toMatch(/drizzle-orm\/index\.js$/);
  });
});
