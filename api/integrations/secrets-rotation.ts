/**
 * The integration tables' part of `npm run secrets:rotate` (scripts/secrets-rotate.ts,
 * docs/decisions/015): every secret re-sealed with the current key, and plain ones (rows from before
 * sealing) sealed. A row is rewritten only when something in it is not sealed with the current key,
 * and only while it still holds what was read (compare-and-set), so nothing a running server writes
 * meanwhile is lost; its updatedAt is kept (nothing an admin sees changed). Each returns the number
 * of rows rewritten. A value that does not open stops the run, naming the row.
 */
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { configIsCurrent, fieldIsCurrent, openConfig, openField, sealConfig, sealField, UnreadableSecretError, type SecretOwner } from './sealed-config.ts';
import { configKind, type ConfigKind } from './secrets.ts';

type Column = Parameters<typeof eq>[0];
const same = (column: Column, value: string | null): SQL => (value === null ? isNull(column) : eq(column, value));
/** The column set to itself: $onUpdate would otherwise stamp the row as changed, and a value read earlier could undo a concurrent write. */
const unchanged = (column: Column) => sql`${column}` as unknown as Date;

/** Runs `write` for a row, naming the row when one of its secrets does not open. */
function named<T>(owner: SecretOwner, write: () => T): T {
  try {
    return write();
  } catch (err) {
    if (err instanceof UnreadableSecretError) throw new Error(`${owner.table} ${owner.id}: ${err.message}`);
    throw err;
  }
}

const resealedConfig = (box: SecretBox, stored: string | null, kind: ConfigKind | null, owner: SecretOwner) =>
  named(owner, () => sealConfig(box, openConfig(box, stored, owner), kind, owner));

/** A compare-and-set that lost: another writer (a second rotation) got there first, which is fine if it left the row current. */
function lost(owner: SecretOwner): never {
  throw new Error(`${owner.table} ${owner.id} changed while it was being re-sealed; run secrets:rotate again`);
}

export async function resealCalendarSettings({ db, t }: Database, box: SecretBox): Promise<number> {
  const table = t.calendarSettings;
  let count = 0;
  for (const row of await db.select().from(table)) {
    const owner: SecretOwner = { table: 'calendar-settings', id: row.id };
    const kind = configKind('calendar', row.provider);
    if (configIsCurrent(box, row.config, kind) && fieldIsCurrent(box, row.apiKey)) continue;
    const config = resealedConfig(box, row.config, kind, owner)!;
    const apiKey = named(owner, () => sealField(box, openField(box, row.apiKey, owner, 'apiKey'), owner, 'apiKey'));
    const written = await db
      .update(table)
      .set({ config, apiKey, updatedAt: unchanged(table.updatedAt) })
      .where(and(eq(table.id, row.id), eq(table.config, row.config), same(table.apiKey, row.apiKey)))
      .returning({ id: table.id });
    if (written.length) count++;
    else {
      const [now] = await db.select().from(table).where(eq(table.id, row.id));
      if (now && !(configIsCurrent(box, now.config, kind) && fieldIsCurrent(box, now.apiKey))) lost(owner);
    }
  }
  return count;
}

export async function resealEmailSettings({ db, t }: Database, box: SecretBox): Promise<number> {
  const table = t.emailSettings;
  let count = 0;
  for (const row of await db.select().from(table)) {
    const owner: SecretOwner = { table: 'email-settings', id: row.id };
    const kind = configKind('email', row.provider);
    if (configIsCurrent(box, row.config, kind)) continue;
    const written = await db
      .update(table)
      .set({ config: resealedConfig(box, row.config, kind, owner)!, updatedAt: unchanged(table.updatedAt) })
      .where(and(eq(table.id, row.id), eq(table.config, row.config)))
      .returning({ id: table.id });
    if (written.length) count++;
    else {
      const [now] = await db.select().from(table).where(eq(table.id, row.id));
      if (now && !configIsCurrent(box, now.config, kind)) lost(owner);
    }
  }
  return count;
}

export async function resealBlogSources({ db, t }: Database, box: SecretBox): Promise<number> {
  const table = t.blogSources;
  let count = 0;
  for (const row of await db.select({ id: table.id, config: table.config }).from(table)) {
    const owner: SecretOwner = { table: 'blog-sources', id: row.id };
    if (configIsCurrent(box, row.config, 'blog-source')) continue;
    const written = await db
      .update(table)
      .set({ config: resealedConfig(box, row.config, 'blog-source', owner), updatedAt: unchanged(table.updatedAt) })
      .where(and(eq(table.id, row.id), same(table.config, row.config)))
      .returning({ id: table.id });
    if (written.length) count++;
    else {
      const [now] = await db.select({ config: table.config }).from(table).where(eq(table.id, row.id));
      if (now && !configIsCurrent(box, now.config, 'blog-source')) lost(owner);
    }
  }
  return count;
}
