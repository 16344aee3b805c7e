import { describe, expect, it } from 'vitest';
import { cdnPurgeSettings, EnvError, integrationSettings, loadEnv, migrationSettings } from './env.ts';

describe('loadEnv: SITE_URL in production', () => {
  it('refuses a production start whose public origin is unset or loopback: every canonical URL, the feed and the sitemap would name it', () => {
    const production = { NODE_ENV: 'production', IDENTITY_EMBEDDED: 'true' };
    expect(() => loadEnv(production)).toThrow(/SITE_URL: is required in production \(it is http:\/\/localhost:4321\)/);
    expect(() => loadEnv({ ...production, SITE_URL: 'http://127.0.0.1:8080' })).toThrow(/SITE_URL/);
    expect(() => loadEnv({ ...production, SITE_URL: 'http://[::1]:8080' })).toThrow(/SITE_URL/);
    expect(loadEnv({ ...production, SITE_URL: 'https://www.example-firm.com' }).SITE_URL).toBe('https://www.example-firm.com');
    // Developing, the default is the local one.
    expect(loadEnv({}).SITE_URL).toBe('http://localhost:4321');
  });
});

describe('loadEnv: where the embedded identity service may run', () => {
  const pool = { COGNITO_REGION: 'us-west-2', COGNITO_USER_POOL_ID: 'us-west-2_AbCdEf123', COGNITO_CLIENT_ID: 'abc123' };
  it('refuses a production start without a user pool, unless IDENTITY_EMBEDDED=true says the embedded service is wanted', () => {
    expect(() => loadEnv({ NODE_ENV: 'production', SITE_URL: 'https://www.example-firm.com' })).toThrow(
      /IDENTITY_EMBEDDED: a production start .* needs a Cognito user pool/,
    );
    expect(() => loadEnv({ HOST: '0.0.0.0' })).toThrow(/IDENTITY_EMBEDDED/);
    expect(loadEnv({ NODE_ENV: 'production', SITE_URL: 'https://www.example-firm.com', IDENTITY_EMBEDDED: 'true' }).IDENTITY_EMBEDDED).toBe(true);
    expect(loadEnv({ NODE_ENV: 'production', SITE_URL: 'https://www.example-firm.com', ...pool }).COGNITO_USER_POOL_ID).toBe(pool.COGNITO_USER_POOL_ID);
    expect(loadEnv({ HOST: '127.0.0.1' }).IDENTITY_EMBEDDED).toBe(false);
    expect(loadEnv({ HOST: '::1' }).HOST).toBe('::1');
  });

  it('asks for SECRETS_KEY in production on PostgreSQL, where containers must share it', () => {
    expect(() =>
      loadEnv({ NODE_ENV: 'production', SITE_URL: 'https://www.example-firm.com', IDENTITY_EMBEDDED: 'true', DATABASE_URL: 'postgres://db/firm' }),
    ).toThrow(/SECRETS_KEY: is required in production with DATABASE_URL/);
    expect(
      loadEnv({ NODE_ENV: 'production', SITE_URL: 'https://www.example-firm.com', ...pool, DATABASE_URL: 'postgres://db/firm', SECRETS_KEY: 'x'.repeat(44) })
        .SECRETS_KEY,
    ).toBeDefined();
  });
});

describe('loadEnv', () => {
  it('seeds sample content where SAMPLE_CONTENT allows it unless SEED_SAMPLE_CONTENT says otherwise (issue 19)', () => {
    const production = { NODE_ENV: 'production', SITE_URL: 'https://www.example-firm.com', IDENTITY_EMBEDDED: 'true' };
    expect(loadEnv(production).SEED_SAMPLE_CONTENT).toBe(false);
    expect(loadEnv({ ...production, SAMPLE_CONTENT: 'true' }).SEED_SAMPLE_CONTENT).toBe(true);
    expect(loadEnv({ ...production, SEED_SAMPLE_CONTENT: 'true' }).SEED_SAMPLE_CONTENT).toBe(true);
    expect(loadEnv({ SAMPLE_CONTENT: 'false' }).SEED_SAMPLE_CONTENT).toBe(false);
    expect(loadEnv({ SAMPLE_CONTENT: 'false', SEED_SAMPLE_CONTENT: 'true' }).SEED_SAMPLE_CONTENT).toBe(true);
    expect(loadEnv({ NODE_ENV: 'development', SEED_SAMPLE_CONTENT: 'false' }).SEED_SAMPLE_CONTENT).toBe(false);
  });

  it('makes TOTP required for admins in production and optional elsewhere unless ADMIN_MFA says otherwise', () => {
    const production = { NODE_ENV: 'production', SITE_URL: 'https://www.example-firm.com', IDENTITY_EMBEDDED: 'true' };
    expect(loadEnv(production).ADMIN_MFA).toBe('required');
    expect(loadEnv({ ...production, ADMIN_MFA: 'optional' }).ADMIN_MFA).toBe('optional');
    expect(loadEnv({}).ADMIN_MFA).toBe('optional');
    expect(loadEnv({ NODE_ENV: 'test', ADMIN_MFA: '' }).ADMIN_MFA).toBe('optional');
    expect(loadEnv({ ADMIN_MFA: 'required' }).ADMIN_MFA).toBe('required');
    expect(() => loadEnv({ ADMIN_MFA: 'yes' })).toThrow(/ADMIN_MFA: .*required \(every admin/);
  });

  it('gives the embedded defaults with nothing set', () => {
    const env = loadEnv({});
    expect(env).toMatchObject({ PORT: 4321, HOST: '127.0.0.1', SQLITE_PATH: 'data/site.db', SEED_SAMPLE_CONTENT: true });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('treats an empty DATABASE_URL as unset', () => {
    expect(loadEnv({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });

  it('treats every variable set to nothing as unset, as .env.example lists them', () => {
    const env = loadEnv({ DYNAMODB_ENDPOINT: '', FIRM_NOTIFICATION_EMAIL: '', SEED_SAMPLE_CONTENT: '', SENDGRID_API_BASE: '', PORT: '' });
    expect(env.DYNAMODB_ENDPOINT).toBeUndefined();
    expect(env.FIRM_NOTIFICATION_EMAIL).toBeUndefined();
    expect(env).toMatchObject({ SEED_SAMPLE_CONTENT: true, SENDGRID_API_BASE: 'https://api.sendgrid.com', PORT: 4321 });
  });

  it('reads the integration settings, with the firm address for notifications by default', () => {
    expect(integrationSettings(loadEnv({}))).toMatchObject({
      allowPrivateNetworks: false,
      firmNotificationEmail: 'info@pacificcrestlaw.com',
      blogSourceRefreshMinutes: 60,
    });
    const env = loadEnv({ INTEGRATIONS_ALLOW_PRIVATE_NETWORKS: 'true', FIRM_NOTIFICATION_EMAIL: 'intake@example.com', BLOG_SOURCE_REFRESH_MINUTES: '15' });
    expect(integrationSettings(env)).toMatchObject({ allowPrivateNetworks: true, firmNotificationEmail: 'intake@example.com', blogSourceRefreshMinutes: 15 });
    expect(() => loadEnv({ FIRM_NOTIFICATION_EMAIL: 'not an address' })).toThrow(/FIRM_NOTIFICATION_EMAIL: .*intake@example-firm.com/);
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

describe('loadEnv: the CDN purge', () => {
  it('is none by default and asks for what each adapter needs', () => {
    expect(cdnPurgeSettings(loadEnv({}))).toEqual({ kind: 'none' });
    expect(() => loadEnv({ CDN_PURGE: 'varnish' })).toThrow(/CDN_PURGE_URLS: is required with CDN_PURGE=varnish/);
    expect(() => loadEnv({ CDN_PURGE: 'varnish', CDN_PURGE_URLS: 'varnish:6081' })).toThrow(/CDN_PURGE_URLS: must be comma-separated http/);
    expect(() => loadEnv({ CDN_PURGE: 'fastly', FASTLY_SERVICE_ID: 'svc' })).toThrow(/FASTLY_API_TOKEN: is required with CDN_PURGE=fastly/);
    expect(() => loadEnv({ CDN_PURGE: 'cloudflare' })).toThrow(/CLOUDFLARE_ZONE_ID[\s\S]*CLOUDFLARE_API_TOKEN/);
    expect(() => loadEnv({ CDN_PURGE: 'cloudfront', CLOUDFRONT_DISTRIBUTION_ID: 'E2' })).toThrow(/AWS_REGION: is required with CDN_PURGE=cloudfront/);
    expect(() => loadEnv({ CDN_PURGE: 'akamai' })).toThrow(/CDN_PURGE/);
  });

  it('gives each adapter its settings', () => {
    expect(cdnPurgeSettings(loadEnv({ CDN_PURGE: 'varnish', CDN_PURGE_URLS: 'http://10.0.0.5:80, http://10.0.0.6:80' }))).toEqual({
      kind: 'varnish',
      urls: ['http://10.0.0.5:80', 'http://10.0.0.6:80'],
    });
    expect(cdnPurgeSettings(loadEnv({ CDN_PURGE: 'fastly', FASTLY_SERVICE_ID: 'svc', FASTLY_API_TOKEN: 'tok' }))).toEqual({
      kind: 'fastly',
      serviceId: 'svc',
      token: 'tok',
      apiBase: 'https://api.fastly.com',
    });
    expect(cdnPurgeSettings(loadEnv({ CDN_PURGE: 'cloudflare', CLOUDFLARE_ZONE_ID: 'z', CLOUDFLARE_API_TOKEN: 't' }))).toMatchObject({
      kind: 'cloudflare',
      apiBase: 'https://api.cloudflare.com/client/v4',
    });
    expect(cdnPurgeSettings(loadEnv({ CDN_PURGE: 'cloudfront', CLOUDFRONT_DISTRIBUTION_ID: 'E2', AWS_REGION: 'us-east-1' }))).toEqual({
      kind: 'cloudfront',
      distributionId: 'E2',
      region: 'us-east-1',
      endpoint: undefined,
      credentials: undefined,
    });
  });
});
