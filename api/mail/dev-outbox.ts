/**
 * The development outbox: mail that has nowhere else to go (no e-mail integration configured, the
 * embedded identity service's verification codes) is written here, one JSON file a message, so it
 * is never lost and an admin or a test can read it.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  createdAt: string;
}

export interface DevOutbox {
  dir: string;
  deliver(message: Omit<OutboxMessage, 'createdAt'>): OutboxMessage;
  list(): OutboxMessage[];
}

export function createDevOutbox(dir: string): DevOutbox {
  mkdirSync(dir, { recursive: true });
  return {
    dir,
    deliver(message) {
      const stored = { ...message, createdAt: new Date().toISOString() };
      const name = `${stored.createdAt.replace(/[:.]/g, '-')}-${crypto.randomUUID().slice(0, 8)}.json`;
      writeFileSync(join(dir, name), JSON.stringify(stored, null, 2), { mode: 0o600 });
      return stored;
    },
    list() {
      return readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as OutboxMessage);
    },
  };
}
