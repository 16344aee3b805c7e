import { describe, expect, it } from 'vitest';
import { loadEnv } from './env.ts';
import { PRODUCTION_SHUTDOWN_GRACE_MS, shutdownGraceMs } from './server.ts';

describe('shutdownGraceMs (SHUTDOWN_GRACE_MS, decision 016)', () => {
  it('defaults to 5 s in production and 0 elsewhere', () => {
    expect(PRODUCTION_SHUTDOWN_GRACE_MS).toBe(5000);
    expect(shutdownGraceMs(loadEnv({ NODE_ENV: 'production', IDENTITY_EMBEDDED: 'true' }))).toBe(5000);
    expect(shutdownGraceMs(loadEnv({ NODE_ENV: 'production', IDENTITY_EMBEDDED: 'true', SHUTDOWN_GRACE_MS: '' }))).toBe(5000);
    expect(shutdownGraceMs(loadEnv({ NODE_ENV: 'development' }))).toBe(0);
    expect(shutdownGraceMs(loadEnv({ NODE_ENV: 'test' }))).toBe(0);
  });

  it('takes whole milliseconds from 0 to 120000', () => {
    expect(shutdownGraceMs(loadEnv({ NODE_ENV: 'production', IDENTITY_EMBEDDED: 'true', SHUTDOWN_GRACE_MS: '0' }))).toBe(0);
    expect(shutdownGraceMs(loadEnv({ SHUTDOWN_GRACE_MS: '1500' }))).toBe(1500);
    expect(shutdownGraceMs(loadEnv({ SHUTDOWN_GRACE_MS: '120000' }))).toBe(120_000);
  });

  it('stops the start on anything else, naming the variable and an example', () => {
    for (const bad of ['-1', '1.5', 'abc', '120001', '9999999']) {
      expect(() => loadEnv({ SHUTDOWN_GRACE_MS: bad }), bad).toThrow(/SHUTDOWN_GRACE_MS: .*for example SHUTDOWN_GRACE_MS=5000/);
    }
  });
});
