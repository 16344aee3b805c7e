import { describe, expect, it } from 'vitest';
import { isSecretKey, MASK, maskConfig, maskSecret, maskUrl, maskUrlsInText, type ConfigKind } from './secret-masking.ts';

const masked = (config: unknown, kind: ConfigKind | null) => JSON.parse(maskConfig(JSON.stringify(config), kind)!);

describe('maskSecret', () => {
  it('keeps only the last 4 characters of a long secret', () => {
    expect(maskSecret('SG.abcdefghijklmnop1234')).toBe(`${MASK}1234`);
    expect(maskSecret('123456789012')).toBe(`${MASK}9012`);
  });

  it('masks a short secret entirely, so the tail is never a large part of it', () => {
    for (const value of ['a', 'abc123', '12345678', '12345678901']) expect(maskSecret(value)).toBe(MASK);
  });

  it('does not reveal the length of the secret', () => {
    expect(maskSecret('x'.repeat(200))).toBe(`${MASK}xxxx`);
    expect(maskSecret('short')).toBe(maskSecret('a bit longer'.slice(0, 9)));
  });

  it('gives null for a missing or empty secret', () => {
    expect(maskSecret(null)).toBeNull();
    expect(maskSecret(undefined)).toBeNull();
    expect(maskSecret('')).toBeNull();
  });
});

describe('isSecretKey', () => {
  it('recognises the secret names of the SPEC §3 templates and common variants', () => {
    for (const key of [
      'personal_access_token',
      'webhook_signing_key',
      'client_secret',
      'api_key',
      'apiKey',
      'api-key',
      'APIKEY',
      'pass',
      'password',
      'smtpPassword',
      'pwd',
      'refresh_token',
      'private_key',
      'credentials',
      'Authorization',
      'signingKey',
      'key',
    ]) {
      expect(isSecretKey(key), key).toBe(true);
    }
  });

  it('leaves the plain fields of the templates alone', () => {
    for (const key of [
      'username',
      'client_id',
      'redirect_uri',
      'calendar_id',
      'tenant_id',
      'from_email',
      'from_name',
      'host',
      'port',
      'secure',
      'user',
      'auth',
      'endpoint',
      'category',
    ]) {
      expect(isSecretKey(key), key).toBe(false);
    }
  });
});

describe('maskConfig', () => {
  it('shows the public fields of the SPEC §3 templates and masks their secrets', () => {
    expect(
      masked({ username: 'firm', personal_access_token: 'eyJhbGciOi.calendly.token-AAAA', webhook_signing_key: 'whsk_0123456789' }, 'calendar:calendly'),
    ).toEqual({
      username: 'firm',
      personal_access_token: `${MASK}AAAA`,
      webhook_signing_key: `${MASK}6789`,
    });
    expect(
      masked(
        {
          client_id: 'id.apps.example.com',
          client_secret: 'GOCSPX-secret-ZZZZ',
          redirect_uri: 'https://firm.example.com/cb',
          calendar_id: 'primary',
          refresh_token: '1//refresh-token-RRRR',
        },
        'calendar:google',
      ),
    ).toEqual({
      client_id: 'id.apps.example.com',
      client_secret: `${MASK}ZZZZ`,
      redirect_uri: 'https://firm.example.com/cb',
      calendar_id: 'primary',
      refresh_token: `${MASK}RRRR`,
    });
    expect(
      masked({ client_id: 'app-id', client_secret: 'outlook~secret~value~9911', tenant_id: 'tenant', user_email: 'cal@firm.example' }, 'calendar:outlook'),
    ).toEqual({
      client_id: 'app-id',
      client_secret: `${MASK}9911`,
      tenant_id: 'tenant',
      user_email: 'cal@firm.example',
    });
    expect(masked({ api_key: 'SG.xxxxxxxxxxxxxxxx.yyyy', from_email: 'office@firm.example.com', from_name: 'The Firm' }, 'email:sendgrid')).toEqual({
      api_key: `${MASK}yyyy`,
      from_email: 'office@firm.example.com',
      from_name: 'The Firm',
    });
    expect(masked({ host: 'smtp.example.com', port: 587, secure: false, auth: { user: 'office@firm.example.com', pass: 'hunter2' } }, 'email:smtp')).toEqual({
      host: 'smtp.example.com',
      port: 587,
      secure: false,
      auth: { user: 'office@firm.example.com', pass: MASK },
    });
  });

  it('masks every field the template does not name public: unknown, innocent-looking and nested ones, numbers and booleans too', () => {
    expect(
      masked(
        {
          username: 'firm',
          auth: 'Basic dXNlcjpwYXNzd29yZA==',
          x: 'x-value-0123456789',
          n: 1234,
          flag: true,
          nested: { user: 'svc', deeper: ['list-item-value-0001', 7] },
        },
        'calendar:calendly',
      ),
    ).toEqual({ username: 'firm', auth: `${MASK}ZA==`, x: `${MASK}6789`, n: MASK, flag: MASK, nested: { user: MASK, deeper: [`${MASK}0001`, MASK] } });
    // A public name one level away is not public: auth.user is, user and auth.user.name are not.
    expect(masked({ user: 'top-level-user', auth: { user: { name: 'nested-name' }, pass: 'p' } }, 'email:smtp')).toEqual({
      user: `${MASK}user`,
      auth: { user: { name: MASK }, pass: MASK },
    });
    // The custom webhook's config has no public field at all.
    expect(masked({ endpoint: 'https://calendar.example.com', auth: { user: 'firm' } }, 'calendar:custom')).toEqual({
      endpoint: `${MASK}.com`,
      auth: { user: MASK },
    });
  });

  it('shows nothing of a config whose kind has no template', () => {
    expect(masked({ client_id: 'id', host: 'h' }, null)).toEqual({ client_id: MASK, host: MASK });
  });

  it('reads the blog source keys of feed-parsers.ts: how to read the feed is public, headers and keys are not', () => {
    expect(
      masked(
        {
          apiKey: 'feed-api-key-00001111',
          apiKeyHeader: 'X-Api-Key',
          headers: { Authorization: 'Bearer feed-token-2222' },
          itemsPath: 'data.posts',
          fields: { title: 'headline' },
          selectors: { item: 'article.post' },
          category: 'law',
        },
        'blog-source',
      ),
    ).toEqual({
      apiKey: `${MASK}1111`,
      apiKeyHeader: 'X-Api-Key',
      headers: { Authorization: `${MASK}2222` },
      itemsPath: 'data.posts',
      fields: { title: 'headline' },
      selectors: { item: 'article.post' },
      category: MASK,
    });
  });

  it('keeps empty and null values (nothing to hide)', () => {
    expect(masked({ api_key: '', token: null, from_name: '' }, 'email:sendgrid')).toEqual({ api_key: '', token: null, from_name: '' });
  });

  it('masks secrets carried by URLs in public fields', () => {
    expect(
      masked(
        { redirect_uri: 'https://svc:db-password-1234@firm.example.com/x?sslmode=require&access_token=url-token-value-9876', calendar_id: 'primary' },
        'calendar:google',
      ),
    ).toEqual({
      redirect_uri: `https://svc:${MASK}@firm.example.com/x?sslmode=require&access_token=${MASK}9876`,
      calendar_id: 'primary',
    });
  });

  it('withholds text that is not a JSON object or list', () => {
    for (const config of ['not json', 'token=abc123456789', '{"api_key": ', '"a string"', '42', 'true', 'null', '']) {
      expect(maskConfig(config, 'calendar:custom'), config).toBe(MASK);
    }
  });

  it('gives null for a missing config and keeps an empty object or list', () => {
    expect(maskConfig(null, 'calendar:custom')).toBeNull();
    expect(maskConfig('{}', 'calendar:custom')).toBe('{}');
    expect(maskConfig('[]', 'calendar:custom')).toBe('[]');
  });

  it('never lets any secret of a mixed config through', () => {
    const secrets = [
      'S1-secret-value-aaaaaaaa',
      'S2-token-value-bbbbbbbb',
      'S3-pass',
      'S4-key-in-list-cccccccc',
      'S5-url-pass-dddddd',
      'S6-url-token-eeeeee',
      'S7-innocent-name',
    ];
    const config = JSON.stringify({
      client_secret: secrets[0],
      nested: { deeper: { refresh_token: secrets[1] } },
      auth: { user: 'u', pass: secrets[2] },
      api_keys: [secrets[3]],
      redirect_uri: `https://user:${secrets[4]}@h.example.com/?token=${secrets[5]}`,
      label: secrets[6],
    });
    const out = maskConfig(config, 'calendar:google')!;
    for (const secret of secrets) expect(out).not.toContain(secret);
  });
});

describe('maskUrl', () => {
  it('masks the password of the user info and secret-looking query and fragment parameters', () => {
    expect(maskUrl('https://user:p4ssw0rd-long-value@hooks.example.com/cal?token=abcdef1234567890&team=family#access_token=frag-token-0000')).toBe(
      `https://user:${MASK}@hooks.example.com/cal?token=${MASK}7890&team=family#access_token=${MASK}0000`,
    );
  });

  it('masks a bare user-info token entirely', () => {
    expect(maskUrl('https://ghp_tokenvalue1234@example.com/feed')).toBe(`https://${MASK}@example.com/feed`);
  });

  it('judges encoded parameter names by their decoded text', () => {
    expect(maskUrl('https://x.example.com/?api%5Fkey=abc&q=law')).toBe(`https://x.example.com/?api%5Fkey=${MASK}&q=law`);
  });

  it('leaves a URL without secrets, and text that is not a URL, unchanged', () => {
    for (const value of [
      'https://firm.example.com/hooks/calendly',
      'https://news.example.com/feed.xml?page=2&lang=en',
      'not a url',
      'mailto:office@firm.example.com',
    ]) {
      expect(maskUrl(value)).toBe(value);
    }
    expect(maskUrl(null)).toBeNull();
    expect(maskUrl(undefined)).toBeNull();
  });
});

describe('maskUrlsInText', () => {
  it('masks every URL inside free text and leaves the words alone', () => {
    expect(maskUrlsInText('GET https://api.example.com/v2?apiKey=key-in-error-text-4444 failed: 401; retry https://x.example.com/ok later')).toBe(
      `GET https://api.example.com/v2?apiKey=${MASK}4444 failed: 401; retry https://x.example.com/ok later`,
    );
    expect(maskUrlsInText('connect postgres://app:db-secret-pw@10.0.0.5/firm refused')).toBe(`connect postgres://app:${MASK}@10.0.0.5/firm refused`);
    expect(maskUrlsInText('no url here')).toBe('no url here');
    expect(maskUrlsInText(null)).toBeNull();
  });
});
