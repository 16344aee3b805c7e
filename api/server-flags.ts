/**
 * Node's own options for the server process (docs/decisions/023-server-memory.md): a young generation
 * of 2 MB semi-spaces instead of V8's default of up to 16 MB each, which a start (parsing every
 * module) and a publish fill, and which the heap then keeps. package.json's start and serve scripts,
 * the bench and the scale demo start the server with them (a unit test holds package.json to them).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2'];
