/**
 * What each table's part of `npm run secrets:rotate` shares (scripts/secrets-rotate.ts,
 * docs/decisions/015): every secret re-sealed with the current key, and plain ones (rows from before
 * sealing) sealed. A row is rewritten only when something in it is not sealed with the current key,
 * and only while it still holds what was read (compare-and-set), so nothing a running server writes
 * meanwhile is lost; its updatedAt is kept (nothing an admin sees changed). A value that does not
 * open stops the run, naming the row. The features' repositories hold the queries.
 */
import { eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { SecretBox } from './secret-box.ts';
import { openConfig, openField, sealConfig, sealField, UnreadableSecretError, type SecretOwner } from './sealed-config.ts';
import type { ConfigKind } from './secret-masking.ts';

type Column = Parameters<typeof eq>[0];

/** The column holds `value` (null included): the compare of a compare-and-set. */
export const sameValue = (column: Column, value: string | null): SQL => (value === null ? isNull(column) : eq(column, value));

/** The column set to itself: $onUpdate would otherwise stamp the row as changed, and a value read earlier could undo a concurrent write. */
export const unchangedColumn = (column: Column) => sql`${column}` as unknown as Date;

/** Runs `write` for a row, naming the row when one of its secrets does not open. */
function named<T>(owner: SecretOwner, write: () => T): T {
  try {
    return write();
  } catch (err) {
    if (err instanceof UnreadableSecretError) throw new Error(`${owner.table} ${owner.id}: ${err.message}`);
    throw err;
  }
}

/** The stored config opened and sealed again with the current key. */
export const resealConfig = (box: SecretBox, stored: string | null, kind: ConfigKind | null, owner: SecretOwner) =>
  named(owner, () => sealConfig(box, openConfig(box, stored, owner), kind, owner));

/** One secret column opened and sealed again with the current key. */
export const resealField = (box: SecretBox, stored: string | null, owner: SecretOwner, field: string) =>
  named(owner, () => sealField(box, openField(box, stored, owner, field), owner, field));

/** A compare-and-set that lost: another writer (a second rotation) got there first, which is fine if it left the row current. */
export function lostRace(owner: SecretOwner): never {
  throw new Error(`${owner.table} ${owner.id} changed while it was being re-sealed; run secrets:rotate again`);
}
