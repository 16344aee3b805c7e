/** STYLE §7: a test fails if it logs an unexpected console.error. Expect one with `allowConsoleError()`. */
import { afterEach, beforeEach, vi } from 'vitest';

let allowed = false;
let logged: unknown[][] = [];

export function allowConsoleError() {
  allowed = true;
}

beforeEach(() => {
  allowed = false;
  logged = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    logged.push(args);
  });
});

afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (!allowed && logged.length) {
    throw new Error(`Unexpected console.error:\n${logged.map((a) => a.map(String).join(' ')).join('\n')}`);
  }
});
