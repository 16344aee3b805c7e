/**
 * Held mail (docs/decisions/042): mail that has nowhere else to go (no email setting configured, the
 * embedded identity service's codes) is kept here so it is never lost and an admin or a test can
 * read it (GET /api/admin/email-outbox). It lives in the shared database (outbox_messages), so every
 * container sees the same held mail and a replaced container loses none; each message is sealed whole
 * with the install's secrets key (codes, manage-booking links and clients' names are never readable
 * at rest, decision 014), kept HELD_MAIL_DAYS at most and HELD_MAIL_MAX messages at most.
 *
 * A held copy is only for reading: the truth about a message is its delivery row, and Send held
 * messages composes each again from it (decision 027). So the bounds lose nothing a client is owed,
 * and a held delivery's copy goes once the delivery is finally sent or skipped.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../clock.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Logger } from '../logger.ts';
import { outboxRepository, type OutboxRow } from './outbox.repository.ts';

export interface OutboxAttachment {
  filename: string;
  contentType: string;
  /** The file's text (calendar files are text). */
  content: string;
}

export interface OutboxMessage {
  /** Ordered by arrival (a UUIDv7: the holding container's time, then a sequence). */
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

export interface HeldMailSummary {
  /** Messages held now. */
  messages: number;
  /** When the oldest was held, or null with none. */
  oldestAt: Date | null;
}

export interface DevOutbox {
  /** Seals and stores a message; what was stored. */
  deliver(message: NewOutboxMessage): Promise<OutboxMessage>;
  /** Every message, oldest first. */
  list(): Promise<OutboxMessage[]>;
  /** The newest `limit` messages, newest first. */
  recent(limit: number): Promise<OutboxMessage[]>;
  summary(): Promise<HeldMailSummary>;
  /**
   * Deletes the copies held for `deliveryIds` and, among the copies that name no delivery (held
   * before messages named theirs), those that `matches` (a privacy request); how many went.
   */
  remove(selection: { deliveryIds: readonly string[]; matches?: (message: OutboxMessage) => boolean }): Promise<number>;
  /** Deletes what is older than HELD_MAIL_DAYS, then all but the newest HELD_MAIL_MAX; how many went. */
  sweep(): Promise<{ expired: number; overflow: number }>;
  /**
   * Brings the plain JSON files an older version kept in `dir` (one a message) into the store,
   * sealed, and deletes them (and `dir` once empty). Safe to run again, and from two containers.
   */
  importFiles(dir: string): Promise<{ imported: number; deleted: number }>;
}

/** A held copy is deleted this long after it was held (the delivery itself stays, decision 027). */
export const HELD_MAIL_DAYS = 30;
/**
 * At most this many held copies: a flood of bookings, messages or sign-ups while e-mail is not
 * configured (rate limits are per client, not per site) must not grow the database without end.
 * A firm's month is a few hundred messages; 5,000 copies are some 10-30 MB sealed.
 */
export const HELD_MAIL_MAX = 5_000;
/** The count bound is enforced every this many messages a process holds, and by the hourly sweep. */
const TRIM_EVERY = 100;
/** The files an import reads at most in one start (the rest wait for the next). */
const IMPORT_MAX_FILES = 50_000;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Bound to the row's id: a sealed message cannot be opened as another row's. */
const sealContext = (id: string) => `held-mail:${id}`;

function uuid7(ms: number, sequence: number, tail: Buffer): string {
  const bytes = Buffer.alloc(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | ((sequence >> 8) & 0x0f);
  bytes[7] = sequence & 0xff;
  tail.copy(bytes, 8, 0, 8);
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

let lastMs = 0;
let sequence = 0;
/**
 * Arrival order, also within one millisecond: the wall clock (not the injected one, which tests move
 * back and forth) and a per-process sequence, then random bits.
 */
function arrivalId(): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else if (++sequence > 0xfff) {
    lastMs++;
    sequence = 0;
  }
  return uuid7(lastMs, sequence, randomBytes(8));
}

/** The same file always gets the same id (an import run twice stores it once), in its time's place. */
function importedId(file: string, heldAt: Date): string {
  const hash = createHash('sha256').update(file).digest();
  return uuid7(heldAt.getTime(), hash.readUInt16BE(0) & 0x0fff, hash.subarray(2, 10));
}

type Sealed = Pick<OutboxMessage, 'to' | 'subject' | 'text' | 'html' | 'attachments'>;

export interface DevOutboxOptions {
  database: Database;
  secrets: SecretBox;
  clock: Clock;
  log?: Logger;
  /** Smaller bounds, for tests. */
  limits?: { maxMessages?: number; trimEvery?: number };
}

export function createDevOutbox({ database, secrets, clock, log, limits = {} }: DevOutboxOptions): DevOutbox {
  const repo = outboxRepository(database);
  const maxMessages = limits.maxMessages ?? HELD_MAIL_MAX;
  const trimEvery = limits.trimEvery ?? TRIM_EVERY;
  let held = 0;

  const seal = (id: string, message: Sealed) =>
    secrets.seal(
      JSON.stringify({ to: message.to, subject: message.subject, text: message.text, html: message.html, attachments: message.attachments }),
      sealContext(id),
    );
  const open = (row: OutboxRow): OutboxMessage | null => {
    try {
      const body = JSON.parse(secrets.open(row.sealed, sealContext(row.id))) as Sealed;
      return {
        id: row.id,
        ...body,
        ...(row.deliveryId ? { deliveryId: row.deliveryId } : {}),
        createdAt: row.createdAt.toISOString(),
      };
    } catch (err) {
      // Sealed under a key this install no longer has, or altered: never shown, swept in time.
      log?.warn('held mail: a message could not be opened', { id: row.id, err: err instanceof Error ? err.message : String(err) });
      return null;
    }
  };
  const opened = (rows: OutboxRow[]) => rows.map(open).filter((m): m is OutboxMessage => m !== null);

  const trim = async () => {
    const overflow = await repo.keepNewest(maxMessages);
    if (overflow) log?.warn('held mail: the oldest copies deleted to stay within the bound', { deleted: overflow, kept: maxMessages });
    return overflow;
  };

  return {
    async deliver(message) {
      const id = arrivalId();
      const createdAt = clock.now();
      await repo.insert({ id, deliveryId: message.deliveryId ?? null, sealed: seal(id, message), createdAt });
      if (++held % trimEvery === 0) await trim();
      return { id, ...message, createdAt: createdAt.toISOString() };
    },
    // Bounded by the count bound (and a little beyond, between trims).
    list: async () => opened(await repo.listOldestFirst(maxMessages + trimEvery * 10)),
    recent: async (limit) => opened(await repo.recent(limit)),
    summary: () => repo.summary(),
    async remove({ deliveryIds, matches }) {
      let removed = await repo.deleteForDeliveries(deliveryIds);
      if (matches) {
        const doomed = opened(await repo.withoutDelivery()).filter(matches);
        removed += await repo.deleteIds(doomed.map((m) => m.id));
      }
      return removed;
    },
    async sweep() {
      const expired = await repo.deleteHeldBefore(new Date(clock.now().getTime() - HELD_MAIL_DAYS * DAY_MS));
      return { expired, overflow: await trim() };
    },
    async importFiles(dir) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return { imported: 0, deleted: 0 }; // no folder: nothing from before
      }
      let imported = 0;
      let deleted = 0;
      for (const name of names.sort().slice(0, IMPORT_MAX_FILES)) {
        const path = join(dir, name);
        // A .tmp file is a message whose writing never finished: it was never held, and goes unread.
        if (name.endsWith('.json.tmp')) {
          rmSync(path, { force: true });
          deleted++;
          continue;
        }
        if (!name.endsWith('.json')) continue;
        let text: string;
        let modified: Date;
        try {
          text = readFileSync(path, 'utf8');
          modified = statSync(path).mtime;
        } catch {
          continue; // removed meanwhile (another container importing the same folder)
        }
        let parsed: Partial<OutboxMessage> | null = null;
        try {
          parsed = JSON.parse(text) as Partial<OutboxMessage>;
        } catch {
          // Kept whole, sealed, rather than lost: it may be the only copy of something a client wrote.
        }
        const stamped = typeof parsed?.createdAt === 'string' ? new Date(parsed.createdAt) : null;
        const heldAt = stamped && !Number.isNaN(stamped.getTime()) ? stamped : modified;
        const message: Sealed =
          parsed && typeof parsed === 'object'
            ? {
                to: String(parsed.to ?? ''),
                subject: String(parsed.subject ?? ''),
                text: String(parsed.text ?? ''),
                html: typeof parsed.html === 'string' ? parsed.html : undefined,
                attachments: Array.isArray(parsed.attachments) ? parsed.attachments : undefined,
              }
            : { to: '', subject: '(an outbox file that could not be read)', text };
        const id = importedId(name, heldAt);
        const deliveryId = parsed && typeof parsed.deliveryId === 'string' ? parsed.deliveryId : null;
        if (await repo.insert({ id, deliveryId, sealed: seal(id, message), createdAt: heldAt })) imported++;
        // Only once the sealed copy is stored: a crash in between imports it again, stored once.
        rmSync(path, { force: true });
        deleted++;
      }
      try {
        rmdirSync(dir);
      } catch {
        // Not empty (files of another kind) or gone: left as it is.
      }
      return { imported, deleted };
    },
  };
}

/**
 * secrets:rotate: every held message sealed by an older key, sealed again with the current one; how
 * many. A copy no key of this install opens stays as it is: dropping a previous key changes nothing
 * for it, and the sweep deletes it in time.
 */
export async function resealHeldMail(database: Database, box: SecretBox): Promise<number> {
  const repo = outboxRepository(database);
  let count = 0;
  for (const row of await repo.all()) {
    if (box.isCurrent(row.sealed)) continue;
    let plain: string;
    try {
      plain = box.open(row.sealed, sealContext(row.id));
    } catch {
      continue;
    }
    // False when it went meanwhile (swept, erased, or sent): nothing left to re-seal.
    if (await repo.reseal(row.id, row.sealed, box.seal(plain, sealContext(row.id)))) count++;
  }
  return count;
}
