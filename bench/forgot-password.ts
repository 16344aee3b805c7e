/**
 * Does ForgotPassword's answer time tell a real username from an unknown one (docs/decisions/039)?
 * Against a running site: ROUNDS × USERS calls for confirmed accounts made through the gateway, and as
 * many for usernames nobody has, interleaved (real, unknown, unknown, real, ...), each answer timed
 * from the request to its last byte, as an attacker would time it. Each username stays within its 5
 * free sends (a real one's sign-up code is one of them), so every call takes the same send path. A
 * pause between calls lets the work done after an answer (the code stored and mailed) finish, so each
 * time is of an answer alone.
 *
 *   node bench/forgot-password.ts     (alone: starts the API on its own database)
 */
import { readdirSync, readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../api/server-flags.ts';
import { ADMIN_DOMAIN, siteFiles } from './site.ts';

const USERS = 50;
// A username is sent 5 codes freely; a real one has had its sign-up code, so 4 more stay within them.
const ROUNDS = 4;
const PAUSE_MS = 15;

export interface ForgotPasswordResult {
  calls: number;
  real: { medianMs: number; p90Ms: number };
  unknown: { medianMs: number; p90Ms: number };
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;
const round2 = (ms: number) => Math.round(ms * 100) / 100;

export async function forgotPasswordBench(origin: string, outboxDir: string): Promise<ForgotPasswordResult> {
  const { userPoolClientId } = (await (await fetch(`${origin}/api/identity/config`)).json()) as { userPoolClientId: string };
  const call = async (action: string, body: object) => {
    const started = performance.now();
    const res = await fetch(`${origin}/api/identity/cognito`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${action}` },
      body: JSON.stringify({ ClientId: userPoolClientId, ...body }),
    });
    const text = await res.text();
    const ms = performance.now() - started;
    if (!res.ok) throw new Error(`${action}: ${text}`);
    return { ms, body: JSON.parse(text) as Record<string, unknown> };
  };
  const codeFor = async (email: string) => {
    for (let waited = 0; waited < 5000; waited += 20) {
      const files = (() => {
        try {
          return readdirSync(outboxDir);
        } catch {
          return []; // not made until the first message
        }
      })();
      const message = files
        .filter((f) => f.endsWith('.json'))
        .map((f) => JSON.parse(readFileSync(join(outboxDir, f), 'utf8')) as { to: string; text: string })
        .find((m) => m.to === email);
      if (message) return /\b(\d{6})\b/.exec(message.text)![1]!;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no code for ${email}`);
  };

  // Confirmed accounts with verified addresses: the ones ForgotPassword sends a code to.
  const stamp = Date.now().toString(36);
  const real: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const username = `forgot-${stamp}-${i}`;
    const email = `${username}@${ADMIN_DOMAIN}`;
    await call('SignUp', { Username: username, Password: 'Bench-Forgot-Password-7', UserAttributes: [{ Name: 'email', Value: email }] });
    await call('ConfirmSignUp', { Username: username, ConfirmationCode: await codeFor(email) });
    real.push(username);
  }
  const unknown = real.map((u) => `nobody-${u}`);

  const times = { real: [] as number[], unknown: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < USERS; i++) {
      // Alternate which goes first, so a drift in the machine's load falls on both alike.
      const order: ['real' | 'unknown', string][] =
        (round + i) % 2
          ? [
              ['unknown', unknown[i]!],
              ['real', real[i]!],
            ]
          : [
              ['real', real[i]!],
              ['unknown', unknown[i]!],
            ];
      for (const [kind, username] of order) {
        const { ms, body } = await call('ForgotPassword', { Username: username });
        if (!body.CodeDeliveryDetails) throw new Error(`ForgotPassword answered ${JSON.stringify(body)}`);
        times[kind].push(ms);
        await new Promise((r) => setTimeout(r, PAUSE_MS));
      }
    }
  }
  const summary = (xs: number[]) => ({ medianMs: round2(quantile(xs, 0.5)), p90Ms: round2(quantile(xs, 0.9)) });
  return { calls: times.real.length, real: summary(times.real), unknown: summary(times.unknown) };
}

export const forgotPasswordLine = (r: ForgotPasswordResult) =>
  `ForgotPassword (${r.calls} calls each): real username median ${r.real.medianMs} ms (p90 ${r.real.p90Ms}), unknown ${r.unknown.medianMs} ms (p90 ${r.unknown.p90Ms})`;

export function forgotPasswordMarkdown(r: ForgotPasswordResult): string[] {
  return [
    '## ForgotPassword: real and unknown usernames',
    '',
    `${r.calls} calls for confirmed accounts and ${r.calls} for usernames nobody has, interleaved, each timed from the request to the answer's last byte (bench/forgot-password.ts). The code is stored and mailed after the answer, so the two should not differ beyond noise.`,
    '',
    '| username | median ms | p90 ms |',
    '|---|---:|---:|',
    `| real | ${r.real.medianMs} | ${r.real.p90Ms} |`,
    `| unknown | ${r.unknown.medianMs} | ${r.unknown.p90Ms} |`,
  ];
}

// Alone: the API on a fresh database of its own.
if (import.meta.url === `file://${process.argv[1]}`) {
  const root = new URL('..', import.meta.url).pathname;
  const dir = mkdtempSync(join(tmpdir(), 'firm-bench-forgot-'));
  const port = 4900 + Math.floor(Math.random() * 90);
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'api/server.ts', '--api-only'], {
    cwd: root,
    env: {
      ...process.env,
      ...SERVER_ENV,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      ...siteFiles(dir),
      ADMIN_EMAILS: `@${ADMIN_DOMAIN}`,
      LOG_QUIET: 'true',
      RATE_LIMITS: 'off',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error('the server exited during start');
      if (
        await fetch(`${origin}/api/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 50));
    }
    console.log(forgotPasswordLine(await forgotPasswordBench(origin, siteFiles(dir).OUTBOX_DIR)));
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}
