/** A bare node:http server answering every request with one file's bytes: the baseline of load.ts. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const [file, type] = process.argv.slice(2);
const body = readFileSync(file!);
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': type!, 'content-length': String(body.length) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
