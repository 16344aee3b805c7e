/** `npm start`: build the site if needed, then serve the site and the API on PORT (default 4321). */
import { preferCommonJs } from '../api/module-hooks.ts';
import { buildIfNeeded } from './build-if-needed.ts';

preferCommonJs(); // before the server's modules load (api/server.ts)
buildIfNeeded();
const { main } = await import('../api/server.ts');
await main();
