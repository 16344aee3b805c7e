import type { Deps } from '../deps.ts';
import { adminRouter, type FeatureRoutes } from '../http/routes.ts';

/** SPEC §7 migration status: { postgresConfigured, awsConfigured, awsRegion, ready }. */
export function migrationRoutes({ database, migration }: Deps): FeatureRoutes {
  return {
    admin: adminRouter().get('/migration/status', async (c) => {
      // "postgresConfigured" is SPEC's name for the relational source, whichever dialect the site runs on.
      const postgresConfigured = await database.ping().then(
        () => true,
        () => false,
      );
      return c.json({
        postgresConfigured,
        awsConfigured: migration.awsConfigured,
        awsRegion: migration.awsRegion,
        ready: postgresConfigured && migration.awsConfigured,
        database: database.dialect,
      });
    }),
  };
}
