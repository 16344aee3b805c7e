/**
 * The development outbox: mail that has nowhere else to go (no e-mail integration configured, the
 * embedded identity service's verification codes) is written here, one JSON file a message, so it
 * is never lost and an admin or a test can read it (GET /api/admin/email-outbox).
 * File names start with the time and a per-process sequence number, so sorting them sorts the
 * messages by arrival, also within one millisecond.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface OutboxAttachment {
  filename: string;
  contentType: string;
  /** The file's text (calendar files are text). */
  content: string;
}

export interface OutboxMessage {
  /** The file's name without .json. */
  id: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: OutboxAttachment[];
  /** The delivery this message was held for, if it was one (not an identity code): erased with it. */
  deliveryId?: string;
  createdAt: string;
}

export type NewOutboxMessage = Omit<OutboxMessage, 'id' | 'createdAt'>;

export interface DevOutbox {
  dir: string;
  deliver(message: NewOutboxMessage): OutboxMessage;
  /** Every message, oldest first. */
  list(): OutboxMessage[];
  /** The newest `limit` messages, newest first. */
  recent(limit: number): OutboxMessage[];
  /**
   * Deletes every file whose text `matches` (a privacy request); how many went. Judged on the file's
   * text, not its parse: a file that does not parse (left half-written) can still hold a copy.
   */
  remove(matches: (text: string) => boolean): number;
}

let sequence = 0;

export function createDevOutbox(dir: string): DevOutbox {
  mkdirSync(dir, { recursive: true, mode: 0o700 }); // the messages hold codes and clients' details
  const names = () =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
  const read = (file: string): OutboxMessage => {
    const stored = JSON.parse(readFileSync(join(dir, file), 'utf8')) as OutboxMessage;
    return { ...stored, id: stored.id ?? file.slice(0, -'.json'.length) };
  };
  return {
    dir,
    deliver(message) {
      const createdAt = new Date().toISOString();
      sequence = (sequence + 1) % 1_000_000;
      const id = `${createdAt.replace(/[:.]/g, '-')}-${String(sequence).padStart(6, '0')}-${crypto.randomUUID().slice(0, 8)}`;
      const stored: OutboxMessage = { id, ...message, createdAt };
      // Written whole or not at all: a crash mid-write leaves a .tmp file, never a half message.
      const file = join(dir, `${id}.json`);
      writeFileSync(`${file}.tmp`, JSON.stringify(stored, null, 2), { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
      return stored;
    },
    list() {
      return names().map(read);
    },
    recent(limit) {
      return names().reverse().slice(0, limit).map(read);
    },
    remove(matches) {
      let removed = 0;
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.json') || f.endsWith('.json.tmp'))) {
        let text: string;
        try {
          text = readFileSync(join(dir, file), 'utf8');
        } catch {
          continue; // removed meanwhile
        }
        if (!matches(text)) continue;
        rmSync(join(dir, file), { force: true });
        removed++;
      }
      return removed;
    },
  };
}
