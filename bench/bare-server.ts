/**
 * A bare node:http server answering every request with one file's bytes: the baseline of load.ts.
 *   node bench/bare-server.ts <body file> <content type> [<headers JSON file>]
 * The headers file holds the other headers the site sent with those bytes (the security set, cache
 * and CDN headers...), so the two answers cost the same on the wire and in node:http.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const [file, type, headersFile] = process.argv.slice(2);
const body = readFileSync(file!);
const extra = headersFile ? (JSON.parse(readFileSync(headersFile, 'utf8')) as Record<string, string>) : {};
const server = createServer((_req, res) => {
  res.writeHead(200, { ...extra, 'content-type': type!, 'content-length': String(body.length) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
