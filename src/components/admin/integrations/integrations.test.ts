import { describe, expect, it } from 'vitest';
import {
  activeIntegration,
  articlesText,
  attemptsText,
  blogSourceFormDefaults,
  blogSourceTypeText,
  checkBlogSourceForm,
  checkCalendarForm,
  checkEmailForm,
  configAfterProviderChange,
  deliveriesQuery,
  deliveryStatusLabel,
  integrationQueries,
  messagesAre,
  fetchOutcomeToast,
  firstFetchPollInterval,
  heldAgo,
  heldMailText,
  isDeliveriesKey,
  newestFirst,
  parseDisplayLimit,
  purposeLabel,
  templateText,
  type CalendarIntegration,
} from './integrations.ts';

describe('SPEC §3 config templates', () => {
  it('prefills each provider with its keys', () => {
    expect(JSON.parse(templateText('calendly'))).toEqual({ username: '', personal_access_token: '', webhook_signing_key: '' });
    expect(JSON.parse(templateText('google'))).toEqual({ client_id: '', client_secret: '', redirect_uri: '', calendar_id: 'primary' });
    expect(JSON.parse(templateText('outlook'))).toEqual({ client_id: '', client_secret: '', tenant_id: '' });
    expect(JSON.parse(templateText('custom'))).toEqual({});
    expect(JSON.parse(templateText('sendgrid'))).toEqual({ api_key: '', from_email: '', from_name: '' });
    expect(JSON.parse(templateText('smtp'))).toEqual({ host: '', port: 587, secure: false, auth: { user: '', pass: '' } });
  });

  it('replaces an empty or untouched config with the chosen template, and keeps what the admin typed', () => {
    expect(configAfterProviderChange('', 'google')).toBe(templateText('google'));
    expect(configAfterProviderChange(templateText('google'), 'outlook')).toBe(templateText('outlook'));
    expect(configAfterProviderChange(templateText('sendgrid'), 'smtp')).toBe(templateText('smtp'));
    const typed = '{"client_id": "abc"}';
    expect(configAfterProviderChange(typed, 'calendly')).toBe(typed);
    expect(configAfterProviderChange(typed, '')).toBe(typed);
  });
});

describe('SPEC §5 calendar integration', () => {
  const base = { provider: 'google' as const, config: '{"client_id":"x"}', webhookUrl: '', apiKey: '' };

  it('needs a provider and a config ("Please fill in all required fields.")', () => {
    expect(checkCalendarForm({ ...base, provider: '' })).toMatchObject({ kind: 'missing', fields: { provider: expect.any(String) } });
    expect(checkCalendarForm({ ...base, config: '   ' })).toMatchObject({ kind: 'missing', fields: { config: expect.any(String) } });
  });

  it('does not check the config as JSON; a blank name, webhook URL and API key become null; created inactive', () => {
    expect(checkCalendarForm({ ...base, config: 'not json at all' })).toEqual({
      kind: 'ok',
      payload: { provider: 'google', name: null, isActive: false, config: 'not json at all', webhookUrl: null, apiKey: null },
    });
    expect(checkCalendarForm({ ...base, name: '  Intake calendar ' })).toMatchObject({ kind: 'ok', payload: { name: 'Intake calendar' } });
  });

  it('needs the webhook URL and the signing key for a custom webhook', () => {
    const check = checkCalendarForm({ provider: 'custom', config: '{}', webhookUrl: '', apiKey: '' });
    expect(check.kind).toBe('missing');
    expect(Object.keys(check.kind === 'missing' ? check.fields : {}).sort()).toEqual(['apiKey', 'webhookUrl']);
    expect(checkCalendarForm({ provider: 'custom', config: '{}', webhookUrl: 'https://hooks.example.com/firm', apiKey: 's3cret-signing-key' })).toMatchObject({
      kind: 'ok',
      payload: { provider: 'custom', webhookUrl: 'https://hooks.example.com/firm', apiKey: 's3cret-signing-key' },
    });
  });

  it('refuses a webhook URL that is not http(s), beside the field', () => {
    expect(checkCalendarForm({ ...base, webhookUrl: 'ftp://example.com' })).toEqual({
      kind: 'invalid',
      fields: { webhookUrl: 'Webhook URL must be a valid http(s) URL' },
    });
  });
});

describe('SPEC §5 email configuration', () => {
  it('needs a config ("Please provide configuration settings.")', () => {
    expect(checkEmailForm({ provider: 'sendgrid', config: '' }).kind).toBe('missing');
  });
  it('is saved active with the shared schema, which wants a JSON object', () => {
    expect(checkEmailForm({ provider: 'smtp', config: templateText('smtp') })).toEqual({
      kind: 'ok',
      payload: { provider: 'smtp', isActive: true, config: templateText('smtp') },
    });
    expect(checkEmailForm({ provider: 'sendgrid', config: '{oops' })).toEqual({ kind: 'invalid', fields: { config: 'Configuration must be a JSON object' } });
  });
});

describe('SPEC §5 blog source', () => {
  it('starts as rss showing 5 articles', () => {
    expect(blogSourceFormDefaults()).toEqual({ name: '', url: '', type: 'rss', displayLimit: '5', config: '' });
  });

  it('needs a name and a url', () => {
    const check = checkBlogSourceForm({ ...blogSourceFormDefaults(), name: ' ' });
    expect(check.kind === 'missing' && Object.keys(check.fields).sort()).toEqual(['name', 'url']);
  });

  it('turns a non-numeric number of articles into 5, and checks numbers against 1-10', () => {
    expect(parseDisplayLimit('abc')).toBe(5);
    expect(parseDisplayLimit('')).toBe(5);
    expect(parseDisplayLimit(' 8 ')).toBe(8);
    const values = { ...blogSourceFormDefaults(), name: 'Law news', url: 'https://news.example.com/feed.xml' };
    expect(checkBlogSourceForm({ ...values, displayLimit: 'lots' })).toEqual({
      kind: 'ok',
      payload: { name: 'Law news', url: 'https://news.example.com/feed.xml', type: 'rss', displayLimit: 5, config: null, isActive: true },
    });
    expect(checkBlogSourceForm({ ...values, displayLimit: '0' })).toEqual({
      kind: 'invalid',
      fields: { displayLimit: 'Number of articles must be at least 1' },
    });
    expect(checkBlogSourceForm({ ...values, displayLimit: '11' })).toEqual({
      kind: 'invalid',
      fields: { displayLimit: 'Number of articles must be at most 10' },
    });
  });

  it('takes an optional JSON object config', () => {
    const values = { ...blogSourceFormDefaults(), name: 'API', url: 'https://api.example.com/posts', type: 'api' as const };
    expect(checkBlogSourceForm({ ...values, config: '{"itemsPath":"data"}' })).toMatchObject({ kind: 'ok', payload: { config: '{"itemsPath":"data"}' } });
    expect(checkBlogSourceForm({ ...values, config: '[1]' })).toEqual({ kind: 'invalid', fields: { config: 'Configuration must be a JSON object' } });
  });

  it('says how Fetch now went, also when the source could not be read', () => {
    expect(fetchOutcomeToast('Law news', { lastError: null, articleCount: 12 })).toEqual({
      title: 'Success',
      description: 'Law news fetched: 12 articles stored',
    });
    expect(fetchOutcomeToast('Law news', { lastError: 'The feed timed out after 10 s', articleCount: 3 })).toEqual({
      title: 'Fetch Failed',
      description: 'Law news: The feed timed out after 10 s',
    });
  });

  it('shows the type in upper case and the number of articles', () => {
    expect(blogSourceTypeText('rss')).toBe('RSS');
    expect(articlesText(5)).toBe('Shows 5 articles');
    expect(articlesText(1)).toBe('Shows 1 article');
  });
});

describe('first fetch of a new blog source', () => {
  const now = 1_000_000;
  it('polls every 2 s while a source created here has not been fetched, for up to 30 s', () => {
    const watched = new Map([['new', now - 5_000]]);
    expect(firstFetchPollInterval([{ id: 'new', lastFetched: null, lastError: null }], watched, now)).toBe(2_000);
    expect(firstFetchPollInterval([{ id: 'new', lastFetched: '2026-01-01T00:00:00.000Z', lastError: null }], watched, now)).toBe(false);
    expect(firstFetchPollInterval([{ id: 'new', lastFetched: null, lastError: 'timeout' }], watched, now)).toBe(false);
    expect(firstFetchPollInterval([{ id: 'new', lastFetched: null, lastError: null }], watched, now + 30_000)).toBe(false);
    expect(firstFetchPollInterval([{ id: 'old', lastFetched: null, lastError: null }], watched, now)).toBe(false);
    expect(firstFetchPollInterval(undefined, watched, now)).toBe(false);
  });
});

describe('lists', () => {
  it('names the active calendar integration', () => {
    const row = (id: string, isActive: boolean) => ({ id, isActive }) as CalendarIntegration;
    expect(activeIntegration([row('a', false), row('b', true)])?.id).toBe('b');
    expect(activeIntegration([row('a', false)])).toBeNull();
  });

  it('orders the outbox newest first', () => {
    const rows = [{ createdAt: '2026-01-01T00:00:00Z' }, { createdAt: '2026-03-01T00:00:00Z' }, { createdAt: '2026-02-01T00:00:00Z' }];
    expect(newestFirst(rows).map((r) => r.createdAt.slice(5, 7))).toEqual(['03', '02', '01']);
  });

  it('builds the delivery log paths', () => {
    expect(deliveriesQuery({ channel: 'calendar', integrationId: 'abc', limit: 5 }).queryKey).toEqual([
      '/api/admin/deliveries?channel=calendar&integrationId=abc&limit=5',
    ]);
    expect(deliveriesQuery({ channel: 'email', limit: 10 }).queryKey).toEqual(['/api/admin/deliveries?channel=email&limit=10']);
    expect(isDeliveriesKey(deliveriesQuery({ channel: 'email', limit: 10 }).queryKey)).toBe(true);
    expect(isDeliveriesKey(['/api/admin/blog-sources'])).toBe(false);
  });

  it('words the delivery log', () => {
    expect(purposeLabel('booking-confirmation')).toBe('Booking confirmation');
    expect(purposeLabel('event_update')).toBe('Event update');
    expect(attemptsText({ attempts: 1, status: 'sent' })).toBeNull();
    expect(attemptsText({ attempts: 0, status: 'pending' })).toBeNull();
    expect(attemptsText({ attempts: 1, status: 'failed' })).toBe('1 attempt');
    expect(attemptsText({ attempts: 3, status: 'sent' })).toBe('3 attempts');
    expect(attemptsText({ attempts: 1, status: 'held' })).toBeNull();
    // Mail kept in the development outbox is never called sent (issue 19).
    expect(deliveryStatusLabel('held')).toBe('Held, not sent');
    expect(deliveryStatusLabel('sent')).toBe('Sent');
    expect(messagesAre(1)).toBe('1 message is');
    expect(messagesAre(4)).toBe('4 messages are');
    // The warnings' counts are refreshed with the delivery logs.
    expect(isDeliveriesKey(integrationQueries.deliveryAttention.queryKey)).toBe(true);
  });

  it('says how much mail is held and since when, in hours for two days, then in days', () => {
    const now = new Date('2026-03-10T12:00:00Z');
    const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
    const HOUR = 3_600_000;
    expect(heldAgo(ago(59 * 60_000), now)).toBe('less than an hour ago');
    expect(heldAgo(ago(HOUR), now)).toBe('1 hour ago');
    expect(heldAgo(ago(47 * HOUR + 59 * 60_000), now)).toBe('47 hours ago');
    expect(heldAgo(ago(48 * HOUR), now)).toBe('2 days ago');
    expect(heldAgo(ago(29 * 24 * HOUR + 5 * HOUR), now)).toBe('29 days ago');
    expect(heldMailText({ messages: 0, oldestAt: null }, now)).toBeNull();
    expect(heldMailText({ messages: 1, oldestAt: ago(3 * HOUR) }, now)).toBe('1 message, the oldest held 3 hours ago');
    expect(heldMailText({ messages: 12, oldestAt: ago(3 * 24 * HOUR) }, now)).toBe('12 messages, the oldest held 3 days ago');
  });
});
