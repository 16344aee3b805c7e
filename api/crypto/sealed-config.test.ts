import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, isSealed } from './secret-box.ts';
import {
  configIsCurrent,
  fieldIsCurrent,
  openConfig,
  openField,
  sealConfig,
  sealField,
  UnreadableSecretError,
  writeBackProblem,
  type SecretOwner,
} from './sealed-config.ts';
import { MASK } from './secret-masking.ts';

const box = createSecretBox(randomBytes(32));
const owner: SecretOwner = { table: 'email-settings', id: 'row-1' };
const smtp = {
  host: 'smtp.example.com',
  port: 587,
  secure: false,
  auth: { user: 'office@firm.example', pass: 'smtp-pass-0123456789' },
  pin: 1234,
  flag: true,
  blank: '',
  none: null,
};

describe('sealConfig and openConfig', () => {
  it('seals every value the template does not name public, keeps the public ones, and opens to the same config', () => {
    const sealed = sealConfig(box, JSON.stringify(smtp), 'email:smtp', owner);
    const stored = JSON.parse(sealed);
    expect(stored).toMatchObject({ host: 'smtp.example.com', port: 587, secure: false, auth: { user: 'office@firm.example' }, blank: '', none: null });
    for (const value of [stored.auth.pass, stored.pin, stored.flag]) expect(isSealed(value)).toBe(true);
    expect(sealed).not.toContain('smtp-pass-0123456789');
    // Types come back: a number stays a number.
    expect(JSON.parse(openConfig(box, sealed, owner)!)).toEqual(smtp);
  });

  it('gives back exactly the text that was sealed: spacing, escapes, key order, duplicate keys, long numbers', () => {
    const text =
      ' {\n  "host" : "h",\r\n\t"auth": { "user": "u", "pass": "p\\u00e9\\"q\\\\" },\n "pin": 12345678901234567890123, "big": 1e400, "pin": -0.5E-3, "list": [ "a" , true, false ] } ';
    expect(() => JSON.parse(text)).not.toThrow();
    const sealed = sealConfig(box, text, 'email:smtp', owner);
    for (const plain of ['p\\u00e9', '12345678901234567890123', '1e400', '-0.5E-3', '"a"']) expect(sealed).not.toContain(plain);
    expect(sealed).toContain('"host" : "h"');
    expect(openConfig(box, sealed, owner)).toBe(text);
  });

  it('seals text that is not a JSON object or list whole, and stores a config without secrets as it came', () => {
    for (const text of ['token=abc123456789', '"a string"', '42']) {
      const sealed = sealConfig(box, text, 'calendar:custom', owner);
      expect(isSealed(sealed)).toBe(true);
      expect(openConfig(box, sealed, owner)).toBe(text);
    }
    const noSecret = '{ "host": "smtp.example.com",  "port": 25 }';
    expect(sealConfig(box, noSecret, 'email:smtp', owner)).toBe(noSecret);
    expect(sealConfig(box, null, 'email:smtp', owner)).toBeNull();
  });

  it('reads plain values (rows from before sealing) as they are', () => {
    const plain = JSON.stringify(smtp);
    expect(openConfig(box, plain, owner)).toBe(plain);
    expect(openConfig(box, 'free text', owner)).toBe('free text');
    expect(openField(box, 'plain-api-key', owner, 'apiKey')).toBe('plain-api-key');
  });

  it('opens a value only for the row and field it was sealed for', () => {
    const sealed = sealConfig(box, JSON.stringify({ api_key: 'SG.key-0123456789', from_email: 'a@b.example' }), 'email:sendgrid', owner);
    expect(() => openConfig(box, sealed, { ...owner, id: 'row-2' })).toThrow(UnreadableSecretError);
    expect(() => openConfig(box, sealed, { table: 'calendar-settings', id: owner.id })).toThrow(/its secret "api_key" cannot be opened/);
    // Moved to another field of the same row.
    const stored = JSON.parse(sealed);
    expect(() => openConfig(box, JSON.stringify({ other_key: stored.api_key }), owner)).toThrow(/"other_key"/);
    const key = sealField(box, 'custom-key-0123456789', owner, 'apiKey');
    expect(openField(box, key, owner, 'apiKey')).toBe('custom-key-0123456789');
    expect(() => openField(box, key, owner, 'otherField')).toThrow(UnreadableSecretError);
  });

  it('fails closed on a tampered value, or shows the mask alone when only masking (lenient)', () => {
    const sealed = JSON.parse(sealConfig(box, JSON.stringify(smtp), 'email:smtp', owner));
    sealed.auth.pass = `${sealed.auth.pass.slice(0, -3)}${sealed.auth.pass.at(-3) === 'A' ? 'B' : 'A'}${sealed.auth.pass.slice(-2)}`;
    const tampered = JSON.stringify(sealed);
    expect(() => openConfig(box, tampered, owner)).toThrow(/its secret "auth\.pass" cannot be opened/);
    expect(JSON.parse(openConfig(box, tampered, owner, { lenient: true })!).auth).toEqual({ user: 'office@firm.example', pass: MASK });
    expect(() => openConfig(createSecretBox(randomBytes(32)), sealConfig(box, 'free text', 'calendar:custom', owner), owner)).toThrow(/unknown key/);
    expect(openConfig(createSecretBox(randomBytes(32)), sealConfig(box, 'free text', 'calendar:custom', owner), owner, { lenient: true })).toBe(MASK);
    expect(openField(createSecretBox(randomBytes(32)), sealField(box, 'k'.repeat(20), owner, 'apiKey'), owner, 'apiKey', { lenient: true })).toBe(MASK);
  });
});

describe('configIsCurrent', () => {
  it('is true only when every secret is sealed with the current key and nothing public is sealed', () => {
    const oldKey = randomBytes(32);
    const old = createSecretBox(oldKey);
    const next = createSecretBox(randomBytes(32), [oldKey]);
    expect(configIsCurrent(next, JSON.stringify(smtp), 'email:smtp')).toBe(false);
    expect(configIsCurrent(next, 'free text', 'calendar:custom')).toBe(false);
    expect(configIsCurrent(next, sealConfig(old, JSON.stringify(smtp), 'email:smtp', owner), 'email:smtp')).toBe(false);
    expect(configIsCurrent(next, sealConfig(next, JSON.stringify(smtp), 'email:smtp', owner), 'email:smtp')).toBe(true);
    expect(configIsCurrent(next, sealConfig(next, 'free text', 'calendar:custom', owner), 'calendar:custom')).toBe(true);
    expect(configIsCurrent(next, '{"host":"h","port":25}', 'email:smtp')).toBe(true);
    expect(configIsCurrent(next, null, 'blog-source')).toBe(true);
    // Sealed under one kind, read as a kind whose template names the field public: to be unsealed.
    expect(configIsCurrent(next, sealConfig(next, '{"host":"h"}', null, owner), 'email:smtp')).toBe(false);
    expect(fieldIsCurrent(next, null)).toBe(true);
    expect(fieldIsCurrent(next, 'plain')).toBe(false);
    expect(fieldIsCurrent(next, sealField(old, 'k', owner, 'apiKey'))).toBe(false);
  });
});

describe('writeBackProblem', () => {
  it('refuses what a GET shows masked, and values that look sealed', () => {
    expect(writeBackProblem(`${MASK}abcd`)).toMatch(/masked value/);
    expect(writeBackProblem(JSON.stringify({ auth: { pass: `${MASK}4321` } }))).toMatch(/masked value/);
    expect(writeBackProblem('{"api_key":"sealed:v1.0a1b2c3d.iv.body"}')).toMatch(/sealed value/);
    for (const fine of [null, undefined, '', 'SG.real-key', '{"pass":"hunter2"}']) expect(writeBackProblem(fine)).toBeNull();
  });
});
