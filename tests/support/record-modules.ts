/**
 * Loaded with `node --import` into a server process: records the URL of every module it loads and,
 * when the process exits, writes them one per line to the file MODULES_LOG names. For the tests of
 * what start-up loads (tests/integration/start-up-modules.integration.test.ts).
 */
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const loaded: string[] = [];
registerHooks({
  load(url, context, nextLoad) {
    loaded.push(url);
    return nextLoad(url, context);
  },
});
process.once('exit', () => writeFileSync(process.env.MODULES_LOG!, loaded.join('\n')));
