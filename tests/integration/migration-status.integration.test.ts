import { expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import { ADMIN_TOKEN, forEachDialect, NON_ADMIN_TOKEN, testDeps } from '../support/test-app.ts';

forEachDialect(
  'migration status without AWS settings',
  (ctx) => {
    it('reports the relational database connected, the key-value database not configured, and not ready', async () => {
      const res = await ctx().admin('GET', '/api/admin/migration/status');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        postgresConfigured: true,
        awsConfigured: false,
        awsRegion: null,
        ready: false,
        database: ctx().dialect,
        tableName: 'firm-site',
      });
    });

    it('is an admin call', async () => {
      const anonymous = await ctx().call('GET', '/api/admin/migration/status');
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).not.toHaveProperty('ready');
      expect((await ctx().call('GET', '/api/admin/migration/status', { token: NON_ADMIN_TOKEN })).status).toBe(403);
    });
  },
  { migration: { awsConfigured: false, awsRegion: null } },
);

forEachDialect(
  'migration status with a region but no credentials',
  (ctx) => {
    it('shows the region yet is not ready', async () => {
      const res = await ctx().admin('GET', '/api/admin/migration/status');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ postgresConfigured: true, awsConfigured: false, awsRegion: 'us-west-1', ready: false });
    });
  },
  { migration: { awsConfigured: false, awsRegion: 'us-west-1' } },
);

forEachDialect(
  'migration status with AWS configured',
  (ctx) => {
    it('reports the region and ready', async () => {
      const res = await ctx().admin('GET', '/api/admin/migration/status');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        postgresConfigured: true,
        awsConfigured: true,
        awsRegion: 'us-west-2',
        ready: true,
        database: ctx().dialect,
        tableName: 'firm-site',
      });
    });
  },
  { migration: { awsConfigured: true, awsRegion: 'us-west-2' } },
);

forEachDialect(
  'migration status with another table name',
  (ctx) => {
    it('names the DynamoDB table of DYNAMODB_TABLE', async () => {
      const res = await ctx().admin('GET', '/api/admin/migration/status');
      expect(res.body).toMatchObject({ ready: true, tableName: 'firm-site-staging' });
    });
  },
  { migration: { awsConfigured: true, awsRegion: 'us-west-2', tableName: 'firm-site-staging' } },
);

forEachDialect(
  'migration status when the relational database does not answer',
  (ctx) => {
    it('reports it not connected and not ready, even with AWS configured', async () => {
      // The same database, but its ping fails, as when the server went away.
      const database = { ...ctx().database, ping: () => Promise.reject(new Error('connection refused')) };
      const app = createApp(testDeps(database, { migration: { awsConfigured: true, awsRegion: 'us-west-2' } }));
      const res = await app.request('/api/admin/migration/status', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        postgresConfigured: false,
        awsConfigured: true,
        awsRegion: 'us-west-2',
        ready: false,
        database: ctx().dialect,
        tableName: 'firm-site',
      });
    });
  },
  { migration: { awsConfigured: true, awsRegion: 'us-west-2' } },
);
