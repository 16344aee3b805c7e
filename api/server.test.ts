import { describe, expect, it } from 'vitest';
import { loadEnv } from './env.ts';
import { PRODUCTION_SHUTDOWN_GRACE_MS, shutdownGraceMs } from './server.ts';
import type { ContentChange } from './content-events.ts';
import { republisher } from './start-server.ts';

describe('shutdownGraceMs (SHUTDOWN_GRACE_MS, decision 016)', () => {
  it('defaults to 5 s in production and 0 elsewhere', () => {
    expect(PRODUCTION_SHUTDOWN_GRACE_MS).toBe(5000);
    expect(shutdownGraceMs(loadEnv({ NODE_ENV: 'production', SITE_URL: 'https://www.example-firm.com', IDENTITY_EMBEDDED: 'true' }))).toBe(5000);
    expect(
      shutdownGraceMs(loadEnv({ NODE_ENV: 'production', SITE_URL: 'https://www.example-firm.com', IDENTITY_EMBEDDED: 'true', SHUTDOWN_GRACE_MS: '' })),
    ).toBe(5000);
    expect(shutdownGraceMs(loadEnv({ NODE_ENV: 'development' }))).toBe(0);
    expect(shutdownGraceMs(loadEnv({ NODE_ENV: 'test' }))).toBe(0);
  });

  it('takes whole milliseconds from 0 to 120000', () => {
    expect(
      shutdownGraceMs(loadEnv({ NODE_ENV: 'production', SITE_URL: 'https://www.example-firm.com', IDENTITY_EMBEDDED: 'true', SHUTDOWN_GRACE_MS: '0' })),
    ).toBe(0);
    expect(shutdownGraceMs(loadEnv({ SHUTDOWN_GRACE_MS: '1500' }))).toBe(1500);
    expect(shutdownGraceMs(loadEnv({ SHUTDOWN_GRACE_MS: '120000' }))).toBe(120_000);
  });

  it('stops the start on anything else, naming the variable and an example', () => {
    for (const bad of ['-1', '1.5', 'abc', '120001', '9999999']) {
      expect(() => loadEnv({ SHUTDOWN_GRACE_MS: bad }), bad).toThrow(/SHUTDOWN_GRACE_MS: .*for example SHUTDOWN_GRACE_MS=5000/);
    }
  });
});

describe('republisher: what a content change does in a container', () => {
  const change: ContentChange = { topic: 'blog-posts', keys: ['a-post'] };
  const recorder = () => {
    const calls: string[] = [];
    return {
      calls,
      site: { onChange: async () => void calls.push('render') },
      cdn: { purge: async () => void calls.push('purge') },
    };
  };

  it('re-renders the pages it touches, then purges them from the CDN', async () => {
    const { calls, site, cdn } = recorder();
    await republisher(site, cdn, () => false)(change);
    expect(calls).toEqual(['render', 'purge']);
  });

  it('lets the renders running when the container begins to stop finish before its listener closes', async () => {
    let finish = () => {};
    const calls: string[] = [];
    const site = { onChange: () => new Promise<void>((resolve) => (finish = () => (calls.push('rendered'), resolve()))) };
    const republish = republisher(site, { purge: async () => void calls.push('purge') }, () => false);
    const running = republish(change);
    let settled = false;
    const waiting = republish.settled().then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toBe(false);
    finish();
    await waiting;
    await running;
    expect(calls).toEqual(['rendered', 'purge']);
    await republish.settled(); // nothing running: at once
  });

  it('once the container is stopping, starts no render (its listener is about to close) but still purges, for the containers that stay', async () => {
    const { calls, site, cdn } = recorder();
    await republisher(site, cdn, () => true)(change);
    expect(calls).toEqual(['purge']);
  });
});

describe("the server's Node options (decision 023)", () => {
  it('are what package.json starts the server with', async () => {
    const { readFileSync } = await import('node:fs');
    const { serverCommand } = await import('./server-flags.ts');
    const scripts = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).scripts as Record<string, string>;
    expect(serverCommand()).toBe('NODE_COMPILE_CACHE=node_modules/.cache/node-compile node --max-semi-space-size=8');
    for (const name of ['start', 'serve', 'serve:api']) expect(scripts[name], name).toMatch(new RegExp(`^${serverCommand()} `));
  });
});
