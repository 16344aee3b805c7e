import { describe, expect, it } from 'vitest';
import { isSecretKey, MASK, maskConfig, maskSecret, maskUrl, maskUrlsInText } from './secrets.ts';

const masked = (config: unknown) => JSON.parse(maskConfig(JSON.stringify(config))!);

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
    for (const key of ['username', 'client_id', 'redirect_uri', 'calendar_id', 'tenant_id', 'from_email', 'from_name', 'host', 'port', 'secure', 'user', 'auth', 'endpoint', 'category']) {
      expect(isSecretKey(key), key).toBe(false);
    }
  });
});

describe('maskConfig', () => {
  it('masks the secrets of the SPEC §3 templates and keeps their other fields', () => {
    expect(masked({ username: 'firm', personal_access_token: 'eyJhbGciOi.calendly.token-AAAA', webhook_signing_key: 'whsk_0123456789' })).toEqual({
      username: 'firm',
      personal_access_token: `${MASK}AAAA`,
      webhook_signing_key: `${MASK}6789`,
    });
    expect(masked({ client_id: 'id.apps.example.com', client_secret: 'GOCSPX-secret-ZZZZ', redirect_uri: 'https://firm.example.com/cb', calendar_id: 'primary' })).toEqual({
      client_id: 'id.apps.example.com',
      client_secret: `${MASK}ZZZZ`,
      redirect_uri: 'https://firm.example.com/cb',
      calendar_id: 'primary',
    });
    expect(masked({ api_key: 'SG.xxxxxxxxxxxxxxxx.yyyy', from_email: 'office@firm.example.com', from_name: 'The Firm' })).toEqual({
      api_key: `${MASK}yyyy`,
      from_email: 'office@firm.example.com',
      from_name: 'The Firm',
    });
  });

  it('masks inside nested objects and keeps non-secret values with their types', () => {
    expect(masked({ host: 'smtp.example.com', port: 587, secure: false, auth: { user: 'office@firm.example.com', pass: 'hunter2' } })).toEqual({
      host: 'smtp.example.com',
      port: 587,
      secure: false,
      auth: { user: 'office@firm.example.com', pass: MASK },
    });
    expect(masked({ a: { b: { c: { client_secret: 'deeply-nested-secret-QQQQ', label: 'x' } } } })).toEqual({ a: { b: { c: { client_secret: `${MASK}QQQQ`, label: 'x' } } } });
  });

  it('masks inside arrays: objects in a list, and every value listed under a secret key', () => {
    expect(masked({ accounts: [{ name: 'one', token: 'first-token-value-1111' }, { name: 'two', token: 'second-token-value-2222' }] })).toEqual({
      accounts: [
        { name: 'one', token: `${MASK}1111` },
        { name: 'two', token: `${MASK}2222` },
      ],
    });
    expect(masked({ refresh_tokens: ['refresh-token-number-one-1', 'short'], scopes: ['calendar', 'events'] })).toEqual({
      refresh_tokens: [`${MASK}ne-1`, MASK],
      scopes: ['calendar', 'events'],
    });
    expect(masked([{ password: 'top-level-list-password' }])).toEqual([{ password: `${MASK}word` }]);
  });

  it('masks everything below a secret key, numbers included', () => {
    expect(masked({ credentials: { user: 'svc', pw: 'p@ss-in-credentials' }, pin_password: 123456, secret: { nested: [42, 'x'] } })).toEqual({
      credentials: { user: MASK, pw: `${MASK}ials` },
      pin_password: MASK,
      secret: { nested: [MASK, MASK] },
    });
  });

  it('keeps empty, null and boolean values under secret keys (nothing to hide)', () => {
    expect(masked({ api_key: '', token: null, use_token: true })).toEqual({ api_key: '', token: null, use_token: true });
  });

  it('masks secrets carried by URLs in non-secret fields', () => {
    expect(masked({ endpoint: 'https://svc:db-password-1234@db.example.com/x?sslmode=require&access_token=url-token-value-9876', plain: 'https://firm.example.com/a?b=c' })).toEqual({
      endpoint: `https://svc:${MASK}@db.example.com/x?sslmode=require&access_token=${MASK}9876`,
      plain: 'https://firm.example.com/a?b=c',
    });
  });

  it('withholds text that is not a JSON object or list', () => {
    for (const config of ['not json', 'token=abc123456789', '{"api_key": ', '"a string"', '42', 'true', 'null', '']) {
      expect(maskConfig(config), config).toBe(MASK);
    }
  });

  it('gives null for a missing config and keeps an empty object', () => {
    expect(maskConfig(null)).toBeNull();
    expect(maskConfig('{}')).toBe('{}');
    expect(maskConfig('[]')).toBe('[]');
  });

  it('never lets any secret of a mixed config through', () => {
    const secrets = ['S1-secret-value-aaaaaaaa', 'S2-token-value-bbbbbbbb', 'S3-pass', 'S4-key-in-list-cccccccc', 'S5-url-pass-dddddd', 'S6-url-token-eeeeee'];
    const config = JSON.stringify({
      client_secret: secrets[0],
      nested: { deeper: { refresh_token: secrets[1] } },
      auth: { user: 'u', pass: secrets[2] },
      api_keys: [secrets[3]],
      endpoint: `https://user:${secrets[4]}@h.example.com/?token=${secrets[5]}`,
    });
    const out = maskConfig(config)!;
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
    for (const value of ['https://firm.example.com/hooks/calendly', 'https://news.example.com/feed.xml?page=2&lang=en', 'not a url', 'mailto:office@firm.example.com']) {
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
