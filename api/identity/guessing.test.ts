import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../crypto/secret-box.ts';
import { afterAnswer, DEVICE_DAYS, knownDevices } from './guessing.ts';

const T0 = Date.UTC(2031, 0, 6, 18, 0);

describe('knownDevices (the known-device cookie)', () => {
  const key = randomBytes(32);
  let now = T0;
  const clock = { now: () => new Date(now) };
  const devices = knownDevices(createSecretBox(key), clock);

  it('names the username it was issued for, and nothing else reads as valid', () => {
    const value = devices.issue('ana.partner');
    expect(devices.read(value)).toBe('ana.partner');
    const [v, user, issued, mac] = value.split('.') as [string, string, string, string];
    const other = Buffer.from('someone.else').toString('base64url');
    for (const bad of [
      `${v}.${other}.${issued}.${mac}`,
      `${v}.${user}.${Number(issued) + 1}.${mac}`,
      `${v}.${user}.${issued}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`,
      `v2.${user}.${issued}.${mac}`,
      `${value}.x`,
      '',
      undefined,
      'x'.repeat(5000),
    ])
      expect(devices.read(bad), String(bad).slice(0, 40)).toBeNull();
    // Another install's key (or a forged one) signs nothing this one accepts.
    expect(devices.read(knownDevices(createSecretBox(randomBytes(32)), clock).issue('ana.partner'))).toBeNull();
  });

  it(`is forgotten ${DEVICE_DAYS} days after the sign-in that issued it; a previous secrets key still reads it`, () => {
    now = T0;
    const value = devices.issue('ana.partner');
    const rotated = knownDevices(createSecretBox(randomBytes(32), [key]), clock);
    expect(rotated.read(value)).toBe('ana.partner');
    now = T0 + DEVICE_DAYS * 86_400_000 - 1000;
    expect(devices.read(value)).toBe('ana.partner');
    now = T0 + DEVICE_DAYS * 86_400_000 + 1000;
    expect(devices.read(value)).toBeNull();
  });
});

describe('afterAnswer (work after the answer)', () => {
  it('runs the work after the current turn, and settled waits for it and what it defers', async () => {
    const errors: unknown[] = [];
    const deferred = afterAnswer((err) => errors.push(err));
    const done: string[] = [];
    deferred.later(async () => {
      done.push('first');
      deferred.later(async () => void done.push('second'));
    });
    deferred.later(async () => {
      throw new Error('mail server down');
    });
    // Not yet: the caller is answered first.
    expect(done).toEqual([]);
    expect(deferred.pending).toBe(2);
    await deferred.settled();
    expect(done).toEqual(['first', 'second']);
    expect(errors).toEqual([new Error('mail server down')]);
    expect(deferred.pending).toBe(0);
  });
});
