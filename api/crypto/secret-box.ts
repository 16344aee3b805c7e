/**
 * Secrets at rest (docs/decisions/014): AES-256-GCM under the install's secrets key, for what the
 * database must hold but nobody reading it may use (identity signing keys, integration API keys and
 * passwords). A sealed value names the key that sealed it, so SECRETS_KEY can be rotated: the new key
 * seals, SECRETS_KEY_PREVIOUS still opens, and `npm run secrets:rotate` re-seals everything.
 *
 * The key comes from SECRETS_KEY (32 bytes, base64 or hex) or, for the embedded default, from a file
 * generated on first start with mode 0600 (SECRETS_KEY_FILE, default data/secrets.key). Containers
 * that share a database must share the key: api/env.ts refuses a production start without it.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const PREFIX = 'sealed:v1';
const KEY_BYTES = 32;

export interface SecretBox {
  /** Encrypts `plain`; `context` is bound to it (a value sealed for one purpose cannot be opened as another). */
  seal(plain: string, context: string): string;
  /** Decrypts a sealed value; throws when it was tampered with, sealed for another context, or under an unknown key. */
  open(sealed: string, context: string): string;
  /** True when the value was sealed by the current key (false: sealed by a previous key, or not sealed). */
  isCurrent(value: string): boolean;
  /**
   * A keyed digest (HMAC-SHA256 under a key derived for `context`): for short secrets that are only
   * compared, such as one-time codes, which a plain hash would not protect (a million guesses).
   */
  digest(value: string, context: string): string;
  /**
   * Whether `digest` is this value's digest under the current key or a previous one (compared in
   * constant time): what was handed out before a key rotation still matches.
   */
  matchesDigest(value: string, context: string, digest: string): boolean;
}

export const isSealed = (value: unknown): value is string => typeof value === 'string' && value.startsWith(`${PREFIX}.`);

const keyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

/** Parses a key given as base64 or hex; null when it is not 32 bytes. */
export function parseSecretsKey(value: string): Buffer | null {
  const text = value.trim();
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  return key.length === KEY_BYTES ? key : null;
}

function keyedDigest(key: Buffer, value: string, context: string): Buffer {
  const derived = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `digest:${context}`, 32));
  return createHmac('sha256', derived).update(value).digest();
}

export function createSecretBox(current: Buffer, previous: Buffer[] = []): SecretBox {
  const keys = new Map([current, ...previous].map((key) => [keyId(key), key]));
  const currentId = keyId(current);
  return {
    seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${PREFIX}.${currentId}.${iv.toString('base64url')}.${body.toString('base64url')}`;
    },
    open(sealed, context) {
      const [prefix, id, iv, body] = sealed.split('.');
      if (prefix !== PREFIX || !id || !iv || !body) throw new Error('not a sealed value');
      const key = keys.get(id);
      if (!key) throw new Error(`sealed with an unknown key (${id}): set SECRETS_KEY_PREVIOUS to the key it was sealed with`);
      const bytes = Buffer.from(body, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
    },
    isCurrent(value) {
      return isSealed(value) && value.split('.')[1] === currentId;
    },
    digest(value, context) {
      return keyedDigest(current, value, context).toString('base64url');
    },
    matchesDigest(value, context, digest) {
      // The text is compared, not its decoding: one digest, one spelling (base64url has spare bits).
      const given = Buffer.from(digest);
      let matches = false;
      // Every key is tried, so the time taken does not tell which one matched.
      for (const key of keys.values()) {
        const expected = Buffer.from(keyedDigest(key, value, context).toString('base64url'));
        if (given.length === expected.length && timingSafeEqual(given, expected)) matches = true;
      }
      return matches;
    },
  };
}

/**
 * The install's key: SECRETS_KEY when given, otherwise the key file, generated (0600) when absent.
 * A key file readable by others is tightened to 0600 and said so.
 */
export function loadSecretsKey(options: { key?: string; previous?: string[]; file: string; warn?: (message: string) => void }): {
  current: Buffer;
  previous: Buffer[];
} {
  const previous = (options.previous ?? []).map((value) => {
    const key = parseSecretsKey(value);
    if (!key) throw new Error('SECRETS_KEY_PREVIOUS: each key must be 32 bytes, base64 or hex');
    return key;
  });
  if (options.key) {
    const key = parseSecretsKey(options.key);
    if (!key) throw new Error('SECRETS_KEY must be 32 bytes, base64 or hex (generate one with `openssl rand -base64 32`)');
    return { current: key, previous };
  }
  if (existsSync(options.file)) {
    if ((statSync(options.file).mode & 0o077) !== 0) {
      chmodSync(options.file, 0o600);
      options.warn?.(`${options.file} was readable by other users; its mode is now 0600`);
    }
    const key = parseSecretsKey(readFileSync(options.file, 'utf8'));
    if (!key)
      throw new Error(`${options.file} does not hold a 32-byte key (base64): restore it from a backup, or remove it only if nothing was sealed with it`);
    return { current: key, previous };
  }
  mkdirSync(dirname(options.file), { recursive: true, mode: 0o700 });
  const key = randomBytes(KEY_BYTES);
  writeFileSync(options.file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  return { current: key, previous };
}
