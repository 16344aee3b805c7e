/**
 * Real mail peers for the integration tests (ARCHITECTURE Testing layers): an SMTP server
 * (`smtp-server`) that requires a login and keeps every message it accepts, parsed with postal-mime;
 * and an HTTP receiver standing in for SendGrid's v3 API. Both listen on 127.0.0.1, port 0, and can be
 * told to refuse the next attempts, to prove retries.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  /** The authenticated user. */
  user: string | undefined;
  raw: Buffer;
  parsed: Email;
}

export interface SmtpPeer {
  port: number;
  user: string;
  pass: string;
  messages: ReceivedMail[];
  /** Attempts refused so far (logins and messages). */
  refusals: string[];
  /** Refuse the next `count` messages after DATA with this reply (default 451, a temporary failure). */
  refuseNext(count: number, code?: number, text?: string): void;
  /** Messages to `address`. */
  to(address: string): ReceivedMail[];
  reset(): void;
  close(): Promise<void>;
}

export async function startSmtpPeer({ user = 'office@firm.example', pass = 'smtp-pass-0123456789' } = {}): Promise<SmtpPeer> {
  const messages: ReceivedMail[] = [];
  const refusals: string[] = [];
  let refuse: { count: number; code: number; text: string } = { count: 0, code: 451, text: '' };
  const server = new SMTPServer({
    secure: false,
    // Plain SMTP on loopback: no certificate to trust, and the login still has to be right.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === pass) return callback(null, { user: auth.username });
      refusals.push('auth');
      callback(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refuse.count > 0) {
          refuse.count--;
          refusals.push(`data ${refuse.code}`);
          return callback(Object.assign(new Error(refuse.text || 'Temporary local problem, please try again later'), { responseCode: refuse.code }));
        }
        const raw = Buffer.concat(chunks);
        PostalMime.parse(raw, { attachmentEncoding: 'utf8' }).then(
          (parsed) => {
            messages.push({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              user: session.user as string | undefined,
              raw,
              parsed,
            });
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    user,
    pass,
    messages,
    refusals,
    refuseNext(count, code = 451, text = '') {
      refuse = { count, code, text };
    },
    to: (address) => messages.filter((m) => m.envelope.to.includes(address)),
    reset() {
      messages.length = 0;
      refusals.length = 0;
      refuse = { count: 0, code: 451, text: '' };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface ReceivedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  json(): any;
}

export interface HttpReceiver {
  /** http://127.0.0.1:<port> */
  url: string;
  requests: ReceivedRequest[];
  /** Answer the next `count` requests with this status (and body) instead of the default. */
  failNext(count: number, status: number, body?: string): void;
  reset(): void;
  close(): Promise<void>;
}

/**
 * SendGrid's Mail Send as far as the client sees it: 202 Accepted with an X-Message-Id, or the
 * status the test asked for.
 */
export async function startSendgridReceiver(): Promise<HttpReceiver> {
  const requests: ReceivedRequest[] = [];
  let failures: { count: number; status: number; body: string } = { count: 0, status: 500, body: '' };
  let served = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, json: () => JSON.parse(body) });
      if (failures.count > 0) {
        failures.count--;
        res
          .writeHead(failures.status, { 'content-type': 'application/json' })
          .end(failures.body || JSON.stringify({ errors: [{ message: 'Internal error', field: null }] }));
        return;
      }
      served++;
      res.writeHead(202, { 'x-message-id': `sg-message-${served}` }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(count, status, body = '') {
      failures = { count, status, body };
    },
    reset() {
      requests.length = 0;
      failures = { count: 0, status: 500, body: '' };
      served = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
