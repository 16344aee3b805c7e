/**
 * The embedded user pool served over real HTTP on a loopback port, as a container serves it: what a
 * stock Cognito client (the AWS SDK, aws-amplify) is pointed at in the contract tests. Several may
 * share one database, as containers do.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApp, type App } from '../../api/app.ts';
import { embeddedAdminDirectory } from '../../api/admins/admin-directory.ts';
import type { EmailAllowlist } from '../../api/auth/admin-allowlist.ts';
import type { SecretBox } from '../../api/crypto/secret-box.ts';
import { startEmbeddedIdentity, type AdminMfa, type EmbeddedIdentity, type Message } from '../../api/identity/embedded-identity.ts';
import type { Database } from '../../db/client.ts';
import { testDeps } from './test-deps.ts';

/** A clock a test moves (never waits for): real time plus an offset, or stopped. */
export interface MovableClock {
  now(): Date;
  advance(ms: number): void;
  /** Stops the clock where it is (guesses made over real seconds would otherwise earn spaced tries). */
  freeze(): void;
}

export function movableClock(): MovableClock {
  let offset = 0;
  let frozenAt: number | null = null;
  return {
    now: () => new Date((frozenAt ?? Date.now()) + offset),
    advance(ms) {
      offset += ms;
    },
    freeze() {
      frozenAt ??= Date.now();
    },
  };
}

export interface ServedPool {
  /** http://127.0.0.1:<port> */
  base: string;
  /** The user-pool endpoint to configure: `${base}/api/identity/cognito`. */
  endpoint: string;
  identity: EmbeddedIdentity;
  app: App;
  clock: MovableClock;
  close(): Promise<void>;
}

export async function servePool(
  database: Database,
  options: { secrets: SecretBox; allowlist: EmailAllowlist; adminMfa?: AdminMfa; clock?: MovableClock; sendCode?: (m: Message) => void },
): Promise<ServedPool> {
  const clock = options.clock ?? movableClock();
  const identity = await startEmbeddedIdentity({
    database,
    secrets: options.secrets,
    clock,
    allowlist: options.allowlist,
    adminMfa: options.adminMfa,
    sendCode: options.sendCode ?? (() => {}),
  });
  const deps = testDeps(database, {
    clock,
    secrets: options.secrets,
    verifier: identity.verifier(options.allowlist),
    identity: { userPoolId: identity.userPoolId, clientId: identity.clientId, region: null, embedded: true },
    embeddedIdentity: identity,
    adminDirectory: embeddedAdminDirectory(identity, options.allowlist),
  });
  // The test is the proxy in front: a test may name its client with X-Forwarded-For (each its own
  // address, so one test's deliberate wrong answers never lock another out); without it, loopback.
  const app = createApp({ ...deps, rateLimits: { ...deps.rateLimits, trustedProxies: ['127.0.0.1', '::1'] } });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    endpoint: `${base}/api/identity/cognito`,
    identity,
    app,
    clock,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
