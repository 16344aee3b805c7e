/**
 * How the server process is started: Node's own options and environment. package.json's start and
 * serve scripts, the bench and the scale demo start it with these (a unit test holds package.json
 * to them).
 *
 * - Semi-spaces of at most 8 MB (docs/decisions/023-server-memory.md). With V8's default the young
 *   generation grew to 20-49 MB during a start (parsing every module) and a publish, and the heap
 *   kept it; 2 MB cost bookings 10-20 % of their throughput, 8 MB nothing measurable.
 * - Node's compile cache (decision 023): the TypeScript the server runs is stripped of its types
 *   once and kept, with V8's code cache, under node_modules/.cache/. Without it every start loads
 *   the type stripper (a WebAssembly build of swc) to read its first file: about 20 MB of the
 *   resident memory at start and a fifth of the start-up time. An entry is used only while the
 *   file's content is the same, so an edited file is read afresh.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];

/** Relative to the project's root, the working directory the server is started in. */
export const SERVER_ENV: Readonly<Record<string, string>> = { NODE_COMPILE_CACHE: 'node_modules/.cache/node-compile' };

/** The start of the command line package.json's scripts use: `NAME=value … node --flag …`. */
export const serverCommand = (): string =>
  `${Object.entries(SERVER_ENV)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ')} node ${SERVER_NODE_FLAGS.join(' ')}`;
