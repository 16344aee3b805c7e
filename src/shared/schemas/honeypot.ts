import { z } from 'zod';

/**
 * The honeypot field of the public POSTs (src/shared/honeypot.ts). Never a 400 for it: whatever a bot
 * puts there (a number, an object, 10,000 characters) is caught as 'filled', so the request looks
 * accepted and is dropped; the API strips it before anything is stored.
 */
export const honeypotField = z.string().trim().max(500).optional().catch('filled');
