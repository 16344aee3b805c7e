import { adminRouter } from '../http/routes.ts';
import type { MigrationDeps, MigrationService } from './migration.service.ts';

/**
 * SPEC §7 migration calls (admin only). The shapes are src/shared/migration.ts's.
 *   GET  /migration/status        MigrationStatus ({ postgresConfigured, awsConfigured, awsRegion, ready } + database, tableName)
 *   POST /migration/create-table  CreateTableResult (creates the table if missing; twice is harmless)
 *   POST /migration/migrate       202 { run }: starts, resumes, or reports the run in progress
 *   GET  /migration/run           { run | null }: the latest run, polled for the progress bars
 *   POST /migration/verify        VerificationResult (200 whether it matches or not)
 * Not ready: 503 with SPEC §8's setup message; no table yet: 409; DynamoDB unreachable: 503.
 */
export function migrationRoutes(deps: MigrationDeps) {
  // The service (and the AWS SDK under it, ~40 MB) is loaded at the first migration call, not at every start.
  let loading: Promise<MigrationService> | null = null;
  const service = () => (loading ??= import('./migration.service.ts').then((m) => m.createMigrationService(deps)));
  return {
    admin: adminRouter()
      .get('/migration/status', async (c) => c.json(await (await service()).status()))
      .post('/migration/create-table', async (c) => c.json(await (await service()).createTable()))
      .post('/migration/migrate', async (c) => {
        const { run } = await (await service()).startMigration();
        return c.json({ run }, 202);
      })
      .get('/migration/run', async (c) => c.json({ run: await (await service()).latestRun() }))
      .post('/migration/verify', async (c) => c.json(await (await service()).verify())),
    // A run goes on after its 202: a shutdown stops it and records it interrupted (resumable).
    stop: async () => {
      if (loading) await (await loading).stop();
    },
  };
}
