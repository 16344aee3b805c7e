/**
 * How the server process loads its dependencies, set before anything else is imported (api/server.ts).
 *
 * drizzle-orm is loaded as CommonJS. Its package ships both forms, with a 179 KB package.json (447
 * export paths). Node 24 deserialises a package's package.json again for each ES module file it loads
 * from it, to learn the file's module type: the ~150 ESM files the server needs cost ~150 MB of memory
 * and ~1 s of start-up, the largest single part of both. Its CommonJS files (.cjs) need no such
 * lookup: the same API costs ~25 MB and ~0.2 s. Types are unchanged (they come from the same package).
 * See docs/decisions/022-start-up.md.
 */
import { registerHooks } from 'node:module';

/** Packages loaded through their "require" export conditions. */
const COMMONJS = ['drizzle-orm'];

const commonJs = (specifier: string) => COMMONJS.some((name) => specifier === name || specifier.startsWith(`${name}/`));

let registered = false;

export function preferCommonJs() {
  if (registered) return;
  registered = true;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (!commonJs(specifier)) return nextResolve(specifier, context);
      return nextResolve(specifier, { ...context, conditions: ['require', 'node', 'default'] });
    },
  });
}
