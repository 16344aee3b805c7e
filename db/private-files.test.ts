/**
 * Files at rest (decision 014): the SQLite database and the development outbox hold clients'
 * messages, identity hashes and codes, so only the server's own user may read them, whatever the umask.
 */
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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

  it('keeps the development outbox in a folder of its own (0700), each message 0600', () => {
    const old = process.umask(0o022);
    try {
      const dir = join(freshRoot(), 'outbox');
      const outbox = createDevOutbox(dir);
      const message = outbox.deliver({ to: 'ana@example.com', subject: 'Your verification code', text: 'Your verification code is 123456.' });
      expect(mode(dir)).toBe(0o700);
      expect(mode(join(dir, `${message.id}.json`))).toBe(0o600);
    } finally {
      process.umask(old);
    }
  });
});
