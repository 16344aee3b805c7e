import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readScriptHashes, scriptHashesOf } from './inline-sources.ts';

const file = (entries: unknown) => {
  const path = join(mkdtempSync(join(tmpdir(), 'csp-headers-')), '_headers.json');
  writeFileSync(path, JSON.stringify(entries));
  return path;
};
const entry = (pathname: string, value: string) => ({ pathname, headers: [{ key: 'Content-Security-Policy', value }] });

describe('scriptHashesOf', () => {
  it("takes the script hashes of Astro's policy, nothing else", () => {
    expect(
      scriptHashesOf(
        "script-src 'self' 'sha256-AAA=' 'sha384-BBB'; style-src 'self' 'sha256-CCC='; script-src-elem 'sha512-DDD=='; img-src https: 'sha256-EEE=';",
      ),
    ).toEqual(["'sha256-AAA='", "'sha384-BBB'", "'sha512-DDD=='"]);
    expect(scriptHashesOf("script-src 'self' 'unsafe-inline' https://evil.example 'nonce-x'")).toEqual([]);
  });
});

describe('readScriptHashes', () => {
  it('unites the hashes of every prerendered page, sorted', () => {
    const path = file([
      entry('/a', "script-src 'self' 'sha256-B=' 'sha256-A='; style-src 'self' 'unsafe-inline' ;"),
      entry('/b', "script-src 'self' 'sha256-A=' 'sha256-C=';"),
    ]);
    expect(readScriptHashes(path)).toEqual(["'sha256-A='", "'sha256-B='", "'sha256-C='"]);
  });

  it('refuses to start on a build without them (built before the policy existed)', () => {
    expect(() => readScriptHashes('/nonexistent/_headers.json')).toThrow(/rebuild it with `npm run build`/);
    expect(() => readScriptHashes(file([]))).toThrow(/no inline script hashes/);
  });
});
