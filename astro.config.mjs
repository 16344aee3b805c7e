// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'astro/config';
import { precompress } from './api/site/precompress.ts';
import { themeScript } from './src/components/chrome/theme-script.ts';

/**
 * CSP source for an inline script we write ourselves (Astro hashes only what it inlines itself).
 * @param {string} text @returns {`sha256-${string}`}
 */
const sha256 = (text) => `sha256-${createHash('sha256').update(text).digest('base64')}`;

// Pages are prerendered by default (static output); the few that must render on demand say so.
// api/server.ts serves dist/ (through the Node adapter's handler) and the Hono API in one process.
export default defineConfig({
  site: process.env.SITE_URL ?? 'http://localhost:4321',
  output: 'static',
  // staticHeaders: prerendered pages' policies go to dist/_headers.json, not <meta> tags; the server
  // reads the hashes there and sends one Content-Security-Policy header (docs/decisions/012).
  adapter: node({ mode: 'standalone', staticHeaders: true }),
  // Content-Security-Policy (docs/decisions/012): Astro hashes every script it inlines (the
  // island runtime, the client directives); our one inline script is listed here. Inline styles stay
  // allowed (Radix writes them at run time), as in the policy the server sends.
  security: {
    csp: {
      algorithm: 'SHA-256',
      scriptDirective: { hashes: [sha256(themeScript)] },
      styleDirective: { resources: ["'self'", "'unsafe-inline'"] },
    },
  },
  integrations: [
    react(),
    // Each prerendered file's best compressed forms, written beside it: the server reads them at start
    // instead of compressing in every container at every start (api/site/precompress.ts).
    // client:interaction: islands that hydrate when the visitor first reaches into them (src/lib/client-directives).
    {
      name: 'client-interaction',
      hooks: {
        'astro:config:setup': ({ addClientDirective }) => {
          addClientDirective({ name: 'interaction', entrypoint: './src/lib/client-directives/interaction.ts' });
        },
      },
    },
    {
      name: 'precompress',
      hooks: {
        'astro:build:done': async ({ dir, logger }) => {
          const done = await precompress(fileURLToPath(dir));
          logger.info(`${done.files} files compressed (${done.bytes} bytes, ${done.brotliBytes} with brotli)`);
        },
      },
    },
  ],
  // lucide-react bundled into the server build, so only the icons used are in it: left external, the
  // server loaded its whole index (1,300 KB, every icon) at start.
  vite: { plugins: [tailwindcss()], ssr: { noExternal: ['lucide-react'] } },
  server: { port: 4321 },
  build: { inlineStylesheets: 'auto' },
});
