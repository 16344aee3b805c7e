/**
 * `npm run db:seed`: the idempotent seed of db/seed (the eight site components and the default theme
 * always; sample testimonials and articles into an empty database unless SEED_SAMPLE_CONTENT=false),
 * on the database the server would use. The server also seeds at start.
 */
import { openDatabase } from '../db/client.ts';
import { seedDatabase } from '../db/seed/seed.ts';
import { EnvError, loadEnv } from '../api/env.ts';

try {
  const env = loadEnv();
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, sqlitePath: env.SQLITE_PATH });
  const seeded = await seedDatabase(database, { sampleContent: env.SEED_SAMPLE_CONTENT });
  console.log(`Seeded ${database.label}: ${JSON.stringify(seeded)}`);
  await database.close();
} catch (err) {
  console.error(err instanceof EnvError ? err.message : `Seeding failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
