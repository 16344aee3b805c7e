/**
 * The embedded identity service in the database the server uses (SQLITE_PATH or DATABASE_URL, with
 * its SECRETS_KEY), for the operator's commands (admins.ts, identity-rotate-keys.ts). Close the
 * database when done. What the service mails is held as the server holds it (decision 042: sealed in
 * the database) unless `sendCode` says otherwise; close() waits for those writes first.
 */
import { parseAllowlist } from '../api/auth/admin-allowlist.ts';
import { createSecretBox, loadSecretsKey } from '../api/crypto/secret-box.ts';
import { systemClock } from '../api/clock.ts';
import type { Env } from '../api/env.ts';
import { startEmbeddedIdentity, type Message } from '../api/identity/embedded-identity.ts';
import { createDevOutbox } from '../api/mail/dev-outbox.ts';
import { openDatabase } from '../db/client.ts';

export async function openEmbeddedIdentity(env: Env, sendCode?: (message: Message) => void) {
  const opened = await openDatabase({ databaseUrl: env.DATABASE_URL, sqlitePath: env.SQLITE_PATH });
  const holding = new Set<Promise<unknown>>();
  const database = {
    ...opened,
    async close() {
      await Promise.allSettled([...holding]);
      await opened.close();
    },
  };
  try {
    const key = loadSecretsKey({ key: env.SECRETS_KEY, previous: env.SECRETS_KEY_PREVIOUS, file: env.SECRETS_KEY_FILE });
    const secrets = createSecretBox(key.current, key.previous);
    const outbox = createDevOutbox({ database: opened, secrets, clock: systemClock });
    const hold = (m: Message) => {
      const held = outbox.deliver({ to: m.to, subject: m.subject, text: m.text }).catch((err: unknown) => {
        process.stderr.write(`The message to ${m.to} could not be held: ${err instanceof Error ? err.message : String(err)}\n`);
      });
      holding.add(held);
      void held.finally(() => holding.delete(held));
    };
    const identity = await startEmbeddedIdentity({
      database: opened,
      secrets,
      clock: systemClock,
      allowlist: parseAllowlist(env.ADMIN_EMAILS),
      adminMfa: env.ADMIN_MFA,
      sendCode: sendCode ?? hold,
    });
    return { identity, database, secrets, outbox };
  } catch (err) {
    await opened.close();
    throw err;
  }
}
