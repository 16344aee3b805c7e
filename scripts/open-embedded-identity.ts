/**
 * The embedded identity service in the database the server uses (SQLITE_PATH or DATABASE_URL, with
 * its SECRETS_KEY), for the operator's commands (admins.ts, identity-rotate-keys.ts), with the secrets
 * box (admins.ts reads the email setting with it). Close the database when done.
 */
import { parseAllowlist } from '../api/auth/admin-allowlist.ts';
import { createSecretBox, loadSecretsKey } from '../api/crypto/secret-box.ts';
import { systemClock } from '../api/clock.ts';
import type { Env } from '../api/env.ts';
import { startEmbeddedIdentity, type Message } from '../api/identity/embedded-identity.ts';
import { openDatabase } from '../db/client.ts';

export async function openEmbeddedIdentity(env: Env, sendCode: (message: Message) => void = () => {}) {
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, sqlitePath: env.SQLITE_PATH });
  try {
    const key = loadSecretsKey({ key: env.SECRETS_KEY, previous: env.SECRETS_KEY_PREVIOUS, file: env.SECRETS_KEY_FILE });
    const secrets = createSecretBox(key.current, key.previous);
    const identity = await startEmbeddedIdentity({
      database,
      secrets,
      clock: systemClock,
      allowlist: parseAllowlist(env.ADMIN_EMAILS),
      adminMfa: env.ADMIN_MFA,
      sendCode,
    });
    return { identity, database, secrets };
  } catch (err) {
    await database.close();
    throw err;
  }
}
