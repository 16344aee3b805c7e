/**
 * The held mail of a server under test (decision 042: sealed in its database), read as the server
 * reads it: its database opened with its secrets key. For the e2e specs and the bench, which run the
 * server in another process; the integration tests read `ctx.deps.outbox` instead. A spec that has
 * an admin can also read GET /api/admin/email-outbox. No test-runner import: the bench loads it too.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../../api/clock.ts';
import { createSecretBox, loadSecretsKey } from '../../api/crypto/secret-box.ts';
import { createDevOutbox, type OutboxMessage } from '../../api/mail/dev-outbox.ts';
import { openDatabase } from '../../db/client.ts';

/** Where a server keeps what its held mail needs: its database and its secrets key. */
export interface ServerStore {
  sqlitePath?: string;
  databaseUrl?: string;
  secretsKeyFile: string;
}

/** The e2e server's (playwright.config.ts: everything in E2E_DATA_DIR). */
export function e2eServerStore(dataDir = process.env.E2E_DATA_DIR): ServerStore {
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run the specs through npm run test:e2e');
  return { sqlitePath: join(dataDir, 'site.db'), secretsKeyFile: join(dataDir, 'secrets.key') };
}

/** Every held message, oldest first. */
export async function readHeldMail(store: ServerStore = e2eServerStore()): Promise<OutboxMessage[]> {
  // The server made the key on its first start; one made here would open nothing.
  if (!existsSync(store.secretsKeyFile)) throw new Error(`no secrets key at ${store.secretsKeyFile}: has the server started?`);
  const key = loadSecretsKey({ file: store.secretsKeyFile });
  const database = await openDatabase({ databaseUrl: store.databaseUrl, sqlitePath: store.sqlitePath, migrate: false });
  try {
    return await createDevOutbox({ database, secrets: createSecretBox(key.current), clock: systemClock }).list();
  } finally {
    await database.close();
  }
}

/** The messages held for `to`, oldest first. */
export async function heldMailTo(to: string, store?: ServerStore): Promise<OutboxMessage[]> {
  return (await readHeldMail(store)).filter((m) => m.to === to);
}

/** The 6-digit code in a message's text (a verification or reset code), if any. */
export const codeIn = (text: string | undefined): string | undefined => /\b(\d{6})\b/.exec(text ?? '')?.[1];

/** The code of the newest message held for `to`, if any. */
export async function newestCodeTo(to: string, store?: ServerStore): Promise<string | undefined> {
  return codeIn((await heldMailTo(to, store)).at(-1)?.text);
}
