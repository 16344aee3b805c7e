// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';

// Pages are prerendered by default (static output); the few that must render on demand say so.
// api/server.ts serves dist/ (through the Node adapter's handler) and the Hono API in one process.
export default defineConfig({
  site: process.env.SITE_URL ?? 'http://localhost:4321',
  output: 'static',
  adapter: node({ mode: 'standalone' }),
  integrations: [react()],
  vite: { plugins: [tailwindcss()] },
  server: { port: 4321 },
  build: { inlineStylesheets: 'auto' },
});
