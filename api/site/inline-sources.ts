/**
 * The hashes of every inline script the built site emits, as Astro computed them at build time
 * (astro.config.mjs `security.csp`): the island runtime, the client directives, and the inline scripts
 * we declare ourselves (the theme script). With the Node adapter's `staticHeaders`, the build writes
 * each prerendered page's policy to dist/_headers.json instead of a <meta> tag; Astro's list is the
 * same for the whole build, so the server reads it once and sends one policy everywhere
 * (docs/decisions/012-security-headers.md). Style hashes are not needed: inline styles are allowed.
 */
import { existsSync, readFileSync } from 'node:fs';

interface HeadersEntry {
  pathname: string;
  headers: { key: string; value: string }[];
}

const HASH = /^'sha(256|384|512)-[A-Za-z0-9+/]+={0,2}'$/;

/** The hash sources of the script-src directives (script-src, -elem) of one policy. */
export function scriptHashesOf(policy: string): string[] {
  const hashes = new Set<string>();
  for (const directive of policy.split(';')) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name === 'script-src' || name === 'script-src-elem') for (const source of sources) if (HASH.test(source)) hashes.add(source);
  }
  return [...hashes];
}

/** Every script hash of the build's policies, sorted; throws when the build has none (built before decision 012). */
export function readScriptHashes(headersFile: string): string[] {
  if (!existsSync(headersFile)) {
    throw new Error(`The site build has no Content-Security-Policy hashes (${headersFile}): rebuild it with \`npm run build\`.`);
  }
  const entries = JSON.parse(readFileSync(headersFile, 'utf8')) as HeadersEntry[];
  const hashes = new Set<string>();
  for (const entry of entries) {
    for (const header of entry.headers) {
      if (header.key.toLowerCase() === 'content-security-policy') scriptHashesOf(header.value).forEach((h) => hashes.add(h));
    }
  }
  if (hashes.size === 0) throw new Error(`The site build lists no inline script hashes (${headersFile}): rebuild it with \`npm run build\`.`);
  return [...hashes].sort();
}
