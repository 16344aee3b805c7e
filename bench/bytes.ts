/**
 * What a page ships: the JavaScript it can load (scripts, module preloads, island components and
 * renderers, and every chunk those import) and its CSS (stylesheets and inline <style>), raw and
 * brotli-compressed (what travels).
 */
import { brotliCompressSync } from 'node:zlib';

export interface PageBytes {
  path: string;
  html: number;
  js: number;
  jsBrotli: number;
  css: number;
  cssBrotli: number;
  jsFiles: number;
}

const br = (s: string) => brotliCompressSync(Buffer.from(s)).length;

export async function pageBytes(origin: string, path: string): Promise<PageBytes> {
  const html = await (await fetch(origin + path)).text();
  const js = new Set<string>();
  for (const m of html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)) js.add(m[1]!);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) js.add(m[1]!);
  for (const m of html.matchAll(/(?:component-url|renderer-url)="([^"]+)"/g)) js.add(m[1]!);
  const seen = new Map<string, string>();
  const queue = [...js];
  while (queue.length) {
    const url = queue.shift()!;
    if (seen.has(url) || !url.startsWith('/')) continue;
    const text = await (await fetch(origin + url)).text();
    seen.set(url, text);
    for (const m of text.matchAll(/(?:import|from)\s*\(?\s*["'](\.{1,2}\/[^"']+|\/_astro\/[^"']+)["']/g)) {
      queue.push(new URL(m[1]!, origin + url).pathname);
    }
  }
  const inlineScripts = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!).filter((s) => !s.trim().startsWith('{'));
  const cssLinks = [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
  const cssTexts = await Promise.all(cssLinks.map(async (href) => (await fetch(origin + href)).text()));
  const inlineCss = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
  const jsTexts = [...seen.values(), ...inlineScripts];
  const allCss = [...cssTexts, ...inlineCss];
  return {
    path,
    html: Buffer.byteLength(html),
    js: jsTexts.reduce((n, t) => n + Buffer.byteLength(t), 0),
    jsBrotli: jsTexts.reduce((n, t) => n + br(t), 0),
    css: allCss.reduce((n, t) => n + Buffer.byteLength(t), 0),
    cssBrotli: allCss.reduce((n, t) => n + br(t), 0),
    jsFiles: seen.size,
  };
}
