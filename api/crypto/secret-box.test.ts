import { randomBytes } from 'node:crypto';
import { mkdtempSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSecretBox, isSealed, loadSecretsKey, parseSecretsKey } from './secret-box.ts';

describe('secret box', () => {
  const key = randomBytes(32);
  const box = createSecretBox(key);

  it('seals and opens, never showing the plain text, and binds the context', () => {
    const sealed = box.seal('smtp-password-123', 'email-settings:pass');
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain('smtp-password-123');
    expect(box.open(sealed, 'email-settings:pass')).toBe('smtp-password-123');
    expect(() => box.open(sealed, 'calendar-settings:apiKey')).toThrow();
    expect(box.seal('x', 'c')).not.toBe(box.seal('x', 'c')); // a fresh IV each time
  });

  it('fails closed on a tampered value or an unknown key', () => {
    const sealed = box.seal('secret', 'c');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    expect(() => box.open([...parts.slice(0, 3), body.toString('base64url')].join('.'), 'c')).toThrow();
    expect(() => createSecretBox(randomBytes(32)).open(sealed, 'c')).toThrow(/unknown key/);
  });

  it('opens values of a previous key after rotation, and says which are current', () => {
    const next = createSecretBox(randomBytes(32), [key]);
    const old = box.seal('secret', 'c');
    expect(next.open(old, 'c')).toBe('secret');
    expect(next.isCurrent(old)).toBe(false);
    expect(next.isCurrent(next.seal('secret', 'c'))).toBe(true);
  });

  it('digests with a key: the same value gives the same digest, another key another', () => {
    expect(box.digest('123456', 'code')).toBe(box.digest('123456', 'code'));
    expect(box.digest('123456', 'code')).not.toBe(createSecretBox(randomBytes(32)).digest('123456', 'code'));
    expect(box.digest('123456', 'code')).not.toBe(box.digest('123456', 'other'));
  });

  it('matches a digest made by the current key or a previous one, and nothing else', () => {
    const digest = box.digest('appointment-1', 'link');
    expect(box.matchesDigest('appointment-1', 'link', digest)).toBe(true);
    // After a rotation, what the old key handed out still matches; the new key's digests too.
    const next = createSecretBox(randomBytes(32), [key]);
    expect(next.matchesDigest('appointment-1', 'link', digest)).toBe(true);
    expect(next.matchesDigest('appointment-1', 'link', next.digest('appointment-1', 'link'))).toBe(true);
    expect(createSecretBox(randomBytes(32)).matchesDigest('appointment-1', 'link', digest)).toBe(false);
    expect(box.matchesDigest('appointment-2', 'link', digest)).toBe(false);
    expect(box.matchesDigest('appointment-1', 'other', digest)).toBe(false);
    // The last character carries two spare bits: a spelling that decodes to the same bytes is refused too.
    for (const last of ['A', 'B', 'C', 'D', 'E'])
      if (!digest.endsWith(last)) expect(box.matchesDigest('appointment-1', 'link', `${digest.slice(0, -1)}${last}`)).toBe(false);
    expect(box.matchesDigest('appointment-1', 'link', digest.slice(0, 20))).toBe(false);
    expect(box.matchesDigest('appointment-1', 'link', '')).toBe(false);
  });

  it('generates the key file once with mode 0600, and tightens a readable one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'firm-key-'));
    const file = join(dir, 'secrets.key');
    const first = loadSecretsKey({ file });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadSecretsKey({ file }).current.equals(first.current)).toBe(true);
    chmodSync(file, 0o644);
    const warnings: string[] = [];
    loadSecretsKey({ file, warn: (m) => warnings.push(m) });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(warnings).toHaveLength(1);
    writeFileSync(join(dir, 'bad.key'), 'short');
    expect(() => loadSecretsKey({ file: join(dir, 'bad.key') })).toThrow(/32-byte/);
  });

  it('takes SECRETS_KEY as base64 or hex, and refuses anything but 32 bytes', () => {
    expect(parseSecretsKey(key.toString('base64'))?.equals(key)).toBe(true);
    expect(parseSecretsKey(key.toString('hex'))?.equals(key)).toBe(true);
    expect(parseSecretsKey('too-short')).toBeNull();
    expect(() => loadSecretsKey({ key: 'too-short', file: '/nonexistent' })).toThrow(/SECRETS_KEY/);
  });
});
