/** `npm start`: build the site if needed, then serve the site and the API on PORT (default 4321). */
import { main } from '../api/server.ts';
import { buildIfNeeded } from './build-if-needed.ts';

buildIfNeeded();
await main();
