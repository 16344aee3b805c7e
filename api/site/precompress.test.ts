import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompress } from './precompress.ts';
import { loadStaticFiles } from './static-files.ts';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function site() {
  dir = mkdtempSync(join(tmpdir(), 'precompress-'));
  mkdirSync(join(dir, '_astro'));
  const js = Buffer.from('export const answer = 42;\n'.repeat(200));
  writeFileSync(join(dir, '_astro', 'app.js'), js);
  writeFileSync(join(dir, 'tiny.txt'), 'small');
  writeFileSync(join(dir, 'logo.png'), Buffer.alloc(4096, 1));
  return { js };
}

describe('precompress (the build step) and loadStaticFiles', () => {
  it('writes the best forms beside each file worth compressing, and the server reads them instead of compressing', async () => {
    const { js } = site();
    const done = await precompress(dir);
    expect(done.files).toBe(1); // not the tiny text, not the PNG
    expect(brotliDecompressSync(readFileSync(join(dir, '_astro', 'app.js.br')))).toEqual(js);
    expect(gunzipSync(readFileSync(join(dir, '_astro', 'app.js.gz')))).toEqual(js);

    const files = loadStaticFiles(dir);
    const app = files.get('/_astro/app.js')!;
    // Ready at once, before any compression at start could have run.
    expect(app.brotli).toEqual(readFileSync(join(dir, '_astro', 'app.js.br')));
    expect(app.gzip).toEqual(readFileSync(join(dir, '_astro', 'app.js.gz')));
    // The compressed forms are not files of their own.
    expect(files.get('/_astro/app.js.br')).toBeUndefined();
    expect(files.size).toBe(3);
    await files.compressed;
  });

  it('compresses at start a file whose forms are older than it (edited after the build)', async () => {
    site();
    await precompress(dir);
    const edited = Buffer.from('export const answer = 43;\n'.repeat(200));
    writeFileSync(join(dir, '_astro', 'app.js'), edited);
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(dir, '_astro', 'app.js.br'), past, past);
    const files = loadStaticFiles(dir);
    await files.compressed;
    expect(brotliDecompressSync(files.get('/_astro/app.js')!.brotli!)).toEqual(edited);
  });
});
