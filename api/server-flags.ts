/**
 * Node's own options for the server process (docs/decisions/023-server-memory.md): semi-spaces of
 * at most 8 MB. With V8's default the young generation grew to 20-49 MB during a start (parsing every
 * module) and a publish, and the heap kept it; 2 MB cost bookings 10-20 % of their throughput, 8 MB
 * nothing measurable. package.json's start and serve scripts, the bench and the scale demo start the
 * server with these (a unit test holds package.json to them).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];
