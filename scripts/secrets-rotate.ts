/**
 * npm run secrets:rotate   (docs/decisions/015)
 *
 * Re-seals every secret the database holds with the current secrets key, and seals the plain ones
 * left from before sealing. To rotate the key: set the new SECRETS_KEY, put the old one in
 * SECRETS_KEY_PREVIOUS (comma-separated if several), restart the servers, run this, then drop
 * SECRETS_KEY_PREVIOUS. Safe while the site runs, and to run again. Reads the same environment as
 * the server (api/env.ts): DATABASE_URL or SQLITE_PATH, SECRETS_KEY, SECRETS_KEY_PREVIOUS,
 * SECRETS_KEY_FILE. Exit status: 0 done, 1 failed (nothing after the failing row was touched), 2 usage.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createSecretBox, loadSecretsKey, type SecretBox } from '../api/crypto/secret-box.ts';
import { EnvError, loadEnv } from '../api/env.ts';
import { identityRepository } from '../api/identity/identity.repository.ts';
import { resealSigningKeys } from '../api/identity/signing-keys.ts';
import { resealSignInSecrets } from '../api/identity/challenges.ts';
import { resealBlogSources } from '../api/blog-sources/blog-sources.repository.ts';
import { resealCalendarSettings } from '../api/calendar-settings/calendar-settings.repository.ts';
import { resealEmailSettings } from '../api/email-settings/email-settings.repository.ts';
import { resealHeldMail } from '../api/mail/dev-outbox.ts';
import { openDatabase, type Database } from '../db/client.ts';

const USAGE = `Usage: npm run secrets:rotate

Re-seals every stored secret with SECRETS_KEY (or the key file SECRETS_KEY_FILE, default
data/secrets.key); values sealed with an older key open with SECRETS_KEY_PREVIOUS.`;

/** One table's secrets re-sealed with `box`'s current key; returns the rows it rewrote. */
export type Resealer = (database: Database, box: SecretBox) => Promise<number>;

/** Every table holding sealed secrets, in the order they are re-sealed. */
export const resealers: Record<string, Resealer> = {
  calendar_settings: resealCalendarSettings,
  email_settings: resealEmailSettings,
  blog_sources: resealBlogSources,
  identity_signing_keys: (database, box) => resealSigningKeys(identityRepository(database), box),
  // SRP verifiers, TOTP secrets and sign-ins under way.
  identity_users: resealSignInSecrets,
  outbox_messages: resealHeldMail,
};

export interface RotateIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

const nodeIo: RotateIo = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

/** Runs the resealers in turn; the rows each rewrote. */
export async function rotateSecrets(
  database: Database,
  box: SecretBox,
  list: Record<string, Resealer> = resealers,
  io?: RotateIo,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [name, reseal] of Object.entries(list)) {
    counts[name] = await reseal(database, box);
    io?.out(`${name}: ${counts[name]} re-sealed\n`);
  }
  return counts;
}

export async function runRotate(argv: string[], env: Record<string, string | undefined> = process.env, io: RotateIo = nodeIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });
    if (values.help) {
      io.out(`${USAGE}\n`);
      return 0;
    }
    if (positionals.length) throw new Error(`unexpected "${positionals.join(' ')}"`);
  } catch (err) {
    io.err(`secrets:rotate: ${(err as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  let settings;
  try {
    settings = loadEnv(env);
  } catch (err) {
    io.err(`${err instanceof EnvError ? err.message : String(err)}\n`);
    return 2;
  }
  // loadSecretsKey generates a key file when there is none: right for a first start, wrong here (run
  // from another folder, it would seal everything with a key the server does not have).
  if (!settings.SECRETS_KEY && !existsSync(settings.SECRETS_KEY_FILE)) {
    io.err(
      `secrets:rotate: no secrets key: SECRETS_KEY is unset and ${settings.SECRETS_KEY_FILE} (SECRETS_KEY_FILE) does not exist. Run it with the server's environment, from the server's folder.\n`,
    );
    return 2;
  }
  let database: Database | null = null;
  try {
    const keys = loadSecretsKey({
      key: settings.SECRETS_KEY,
      previous: settings.SECRETS_KEY_PREVIOUS,
      file: settings.SECRETS_KEY_FILE,
      warn: (m) => io.err(`${m}\n`),
    });
    const box = createSecretBox(keys.current, keys.previous);
    database = await openDatabase({ databaseUrl: settings.DATABASE_URL, sqlitePath: settings.SQLITE_PATH });
    const counts = await rotateSecrets(database, box, resealers, io);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    io.out(
      `Done: ${total} row${total === 1 ? '' : 's'} re-sealed with the current key.${keys.previous.length ? ' SECRETS_KEY_PREVIOUS can be dropped now.' : ''}\n`,
    );
    return 0;
  } catch (err) {
    io.err(`secrets:rotate: ${(err as Error).message}\n`);
    return 1;
  } finally {
    await database?.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exit(await runRotate(process.argv.slice(2)));
