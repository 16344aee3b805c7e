/**
 * Files at rest (decision 014): the SQLite database holds clients' messages and identity hashes, so
 * only the server's own user may read it, whatever the umask; held mail is in it, sealed, and writes
 * no file of its own (decision 042).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSecretBox } from '../api/crypto/secret-box.ts';
import { createDevOutbox } from '../api/mail/dev-outbox.ts';
import { openDatabase } from './client.ts';

const mode = (path: string) => statSync(path).mode & 0o777;
const roots: string[] = [];
const freshRoot = () => {
  const root = mkdtempSync(join(tmpdir(), 'private-files-'));
  roots.push(root);
  return root;
};
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('files at rest', () => {
  it('creates the SQLite folder 0700 and the database, its WAL and shared memory 0600, under a permissive umask', async () => {
    const old = process.umask(0o022);
    try {
      const dir = join(freshRoot(), 'data');
      const path = join(dir, 'site.db');
      const database = await openDatabase({ sqlitePath: path });
      await database.db.insert(database.t.contactSubmissions).values({
        firstName: 'Ana',
        lastName: 'Reyes',
        email: 'ana@example.com',
        practiceArea: 'family-law',
        message: 'A question about custody.',
      });
      expect(mode(dir)).toBe(0o700);
      for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(mode(file), file).toBe(0o600);
      await database.close();
    } finally {
      process.umask(old);
    }
  });

  it('narrows a database an older install left readable by others', async () => {
    const root = freshRoot();
    const path = join(root, 'site.db');
    writeFileSync(path, '');
    chmodSync(path, 0o644);
    const database = await openDatabase({ sqlitePath: path });
    expect(mode(path)).toBe(0o600);
    await database.close();
  });

  it('holds mail in the database, sealed, and writes no file beside it', async () => {
    const root = freshRoot();
    const path = join(root, 'site.db');
    const database = await openDatabase({ sqlitePath: path });
    try {
      const outbox = createDevOutbox({ database, secrets: createSecretBox(randomBytes(32)), clock: { now: () => new Date() } });
      await outbox.deliver({ to: 'ana@example.com', subject: 'Your verification code', text: 'Your verification code is 123456.' });
      expect(readdirSync(root).filter((f) => !f.startsWith('site.db'))).toEqual([]);
      const rows = await database.db.select().from(database.t.outboxMessages);
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toMatch(/123456|ana@example\.com|verification/);
    } finally {
      await database.close();
    }
  });
});
