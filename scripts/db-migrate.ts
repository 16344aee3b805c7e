/**
 * `npm run db:migrate`: applies the pending migrations of db/migrations to the database the server
 * would use (DATABASE_URL, else SQLITE_PATH), then exits. The server also migrates at start; this is
 * for a deploy step that migrates before the new containers start.
 */
import { openDatabase } from '../db/client.ts';
import { EnvError, loadEnv } from '../api/env.ts';

try {
  const env = loadEnv();
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, sqlitePath: env.SQLITE_PATH });
  console.log(`Migrated ${database.label}`);
  await database.close();
} catch (err) {
  console.error(err instanceof EnvError ? err.message : `Migration failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
