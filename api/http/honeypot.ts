/**
 * The honeypot of the public forms (src/shared/honeypot.ts, docs/decisions/013): a request
 * with it filled in came from a script. It is answered like a success, so the script has no reason to
 * try again differently, and nothing is stored or sent.
 */
import type { Context } from 'hono';
import type { Logger } from '../logger.ts';

/**
 * Splits the honeypot off a validated body: `input` is what may be stored, `caught` whether a bot
 * filled the trap. A catch is logged with the request id and route only (no personal data).
 */
export function honeypot<T extends { website?: string }>(c: Context, body: T, log: Logger): { caught: boolean; input: Omit<T, 'website'> } {
  const { website, ...input } = body;
  const caught = Boolean(website);
  if (caught) log.info('honeypot: request dropped', { requestId: c.get('requestId'), path: c.req.path });
  return { caught, input };
}
