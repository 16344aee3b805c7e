import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv, migrationSettings } from './env.ts';

describe('loadEnv', () => {
  it('gives the embedded defaults with nothing set', () => {
    const env = loadEnv({});
    expect(env).toMatchObject({ PORT: 4321, HOST: '127.0.0.1', SQLITE_PATH: 'data/site.db', SEED_SAMPLE_CONTENT: true });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('treats an empty DATABASE_URL as unset', () => {
    expect(loadEnv({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });

  it('stops on bad values with a message naming each variable and how to fix it', () => {
    let error: unknown;
    try {
      loadEnv({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SEED_SAMPLE_CONTENT: 'maybe' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as Error).message;
    expect(message).toMatch(/PORT: .*set PORT to a number/);
    expect(message).toMatch(/DATABASE_URL: must be a postgres:\/\/ .*for example DATABASE_URL=postgres:\/\//);
    expect(message).toMatch(/SEED_SAMPLE_CONTENT/);
  });
});

describe('migrationSettings', () => {
  it('needs a region and either credentials or an endpoint', () => {
    expect(migrationSettings(loadEnv({}))).toEqual({ awsRegion: null, awsConfigured: false });
    expect(migrationSettings(loadEnv({ AWS_REGION: 'us-west-2' }))).toEqual({ awsRegion: 'us-west-2', awsConfigured: false });
    expect(migrationSettings(loadEnv({ AWS_REGION: 'us-west-2', AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' })).awsConfigured).toBe(true);
    expect(migrationSettings(loadEnv({ AWS_REGION: 'local', DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' })).awsConfigured).toBe(true);
  });
});
