import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bestCompressions, compress, prepare, send, uncompressed, type Prepared } from './compressed.ts';
import { loadStaticFiles } from './static-files.ts';

/** About 100 KB of HTML: brotli 11 takes a good while on it. */
const largePage = Buffer.from(
  `<!doctype html><html><body>${Array.from({ length: 1000 }, (_, i) => `<p class="mt-4 text-muted-foreground">Paragraph ${i} of an article about probate ${i * 7919}.</p>`).join('\n')}</body></html>`,
);

/** What send() wrote, from a request with these headers. */
function sent(p: Prepared, headers: Record<string, string> = {}, method = 'GET') {
  const out: { status?: number; headers?: Record<string, string>; body?: Buffer } = {};
  const res = {
    writeHead(status: number, h: Record<string, string>) {
      out.status = status;
      out.headers = h;
      return res;
    },
    end(body?: Buffer) {
      out.body = body;
    },
  };
  send({ method, headers } as unknown as IncomingMessage, res as unknown as ServerResponse, p);
  return out;
}

describe('prepare', () => {
  it('compresses off the main thread: the event loop turns before it resolves', async () => {
    let turned = false;
    setImmediate(() => (turned = true));
    const pending = prepare(200, 'text/html; charset=utf-8', largePage, 'no-cache');
    expect(pending).toBeInstanceOf(Promise);
    expect(turned).toBe(false);
    const p = await pending;
    expect(turned).toBe(true);
    expect(p.brotli).not.toBeNull();
  });

  it('a page is ready with quick levels at once, then gets gzip 9 and brotli 11 of the body, with the same ETag', async () => {
    const p = await prepare(200, 'text/html; charset=utf-8', largePage, 'no-cache');
    expect(gunzipSync(p.gzip!)).toEqual(largePage);
    expect(brotliDecompressSync(p.brotli!)).toEqual(largePage);
    const quick = p.brotli;
    await bestCompressions();
    expect(p.brotli).not.toBe(quick);
    expect(gunzipSync(p.gzip!)).toEqual(largePage);
    const quality11 = brotliCompressSync(largePage, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: largePage.length } });
    expect(p.brotli).toEqual(quality11);
    expect(p.etag).toBe(uncompressed(200, 'text/html', largePage, 'no-cache').etag);
    expect(p.etag).toMatch(/^"[\w-]{27}"$/);
  });

  it('leaves small and incompressible bodies as they are', async () => {
    expect(await prepare(200, 'text/html', Buffer.from('<p>short</p>'), 'no-cache')).toMatchObject({ gzip: null, brotli: null });
    expect(await prepare(200, 'image/png', Buffer.alloc(4096), 'no-cache')).toMatchObject({ gzip: null, brotli: null });
  });

  it('a page does not wait for the static files compressing in the background', async () => {
    const finished: string[] = [];
    const files = Array.from({ length: 6 }, (_, i) =>
      compress(uncompressed(200, 'text/javascript', Buffer.concat([largePage, Buffer.from(String(i))]), 'no-cache'), 'background').then(() =>
        finished.push(`file ${i}`),
      ),
    );
    // Quick levels, outside the queue: ready before the files that started first.
    const rendered = prepare(200, 'text/html', largePage.subarray(0, largePage.length / 10), 'no-cache').then(() => finished.push('page'));
    await Promise.all([...files, rendered]);
    expect(finished.indexOf('page')).toBeLessThan(finished.indexOf('file 1'));
  });

  it('compresses many bodies at once, each correctly', async () => {
    const bodies = Array.from({ length: 8 }, (_, i) => Buffer.from(`${'<p>x</p>'.repeat(200)}${i}`));
    const prepared = await Promise.all(bodies.map((b) => prepare(200, 'text/html', b, 'no-cache')));
    prepared.forEach((p, i) => expect(brotliDecompressSync(p.brotli!)).toEqual(bodies[i]));
  });
});

describe('send', () => {
  it('sends brotli, gzip or the body by Accept-Encoding, always with Vary and the ETag', async () => {
    const p = await prepare(200, 'text/html; charset=utf-8', largePage, 'public, max-age=0, must-revalidate');
    const br = sent(p, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers).toMatchObject({ 'content-encoding': 'br', vary: 'accept-encoding', etag: p.etag, 'content-length': String(p.brotli!.length) });
    expect(br.body).toBe(p.brotli);
    expect(sent(p, { 'accept-encoding': 'gzip' }).headers!['content-encoding']).toBe('gzip');
    const plain = sent(p);
    expect(plain.headers!['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(p.body);
    expect(sent(p, { 'if-none-match': p.etag }).status).toBe(304);
    expect(sent(p, { 'accept-encoding': 'br' }, 'HEAD').body).toBeUndefined();
  });

  it('sends a body not compressed yet as it is', () => {
    const p = uncompressed(200, 'text/html', largePage, 'no-cache');
    const out = sent(p, { 'accept-encoding': 'br, gzip' });
    expect(out.headers!['content-encoding']).toBeUndefined();
    expect(out.body).toBe(largePage);
  });
});

describe('loadStaticFiles', () => {
  it('has the files at once and compresses them in the background, byte for byte', async () => {
    const root = mkdtempSync(join(tmpdir(), 'firm-static-'));
    try {
      mkdirSync(join(root, 'about'));
      writeFileSync(join(root, 'about/index.html'), largePage);
      writeFileSync(join(root, '404.html'), largePage);
      const files = loadStaticFiles(root);
      const about = files.get('/about')!;
      expect(about.brotli).toBeNull();
      expect(files.get('/about/')).toBe(about);
      expect(files.get('/404.html')).toBeUndefined();
      await files.compressed;
      expect(brotliDecompressSync(about.brotli!)).toEqual(largePage);
      expect(gunzipSync(about.gzip!)).toEqual(largePage);
      expect(await compress(about)).toBe(about);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
