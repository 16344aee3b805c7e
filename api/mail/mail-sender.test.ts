/**
 * What the senders refuse before any connection: an unusable configuration and a private or loopback
 * address (when private networks are not allowed) are permanent failures, whose messages name the
 * problem and never a secret. Sending itself is proven against real peers in
 * tests/integration/mail.integration.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { PermanentDeliveryError } from '../deliveries/deliveries.ts';
import type { OutgoingMail } from './mail-messages.ts';
import { senderFor } from './mail-sender.ts';

const mail: OutgoingMail = { to: { email: 'maria@example.com' }, subject: 'Hello', text: 'Hello', html: '<p>Hello</p>', attachments: [] };
const settings = (allowPrivateNetworks: boolean) => ({
  integrations: {
    allowPrivateNetworks,
    firmNotificationEmail: 'intake@firm.example',
    siteUrl: 'http://localhost:4321',
    sendgridApiBase: 'http://127.0.0.1:9',
    googleCalendarApiBase: '',
    googleTokenUrl: '',
    googleAuthorizeUrl: '',
    googleRevokeUrl: '',
    microsoftGraphApiBase: '',
    microsoftLoginBase: '',
    blogSourceRefreshMinutes: 60,
    calendarPollSeconds: 60,
    calendarNotificationBaseUrl: null,
  },
});

async function failure(provider: string, config: unknown, allowPrivateNetworks = false): Promise<Error> {
  try {
    await senderFor({ provider, config: typeof config === 'string' ? config : JSON.stringify(config) }, settings(allowPrivateNetworks)).send(
      mail,
      'delivery-1',
    );
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the send to fail');
}

const SECRET = 'super-secret-password-123';

describe('senderFor', () => {
  it.each([
    ['smtp', 'not json', /smtp email configuration is not valid JSON/],
    ['smtp', { port: 587, auth: { user: 'u', pass: SECRET } }, /host: is required/],
    ['smtp', { host: 'mail.example.com', port: 'abc', auth: { user: 'u', pass: SECRET } }, /port: must be a number/],
    ['smtp', { host: 'mail.example.com', port: 70000 }, /port: must be from 1 to 65535/],
    ['smtp', { host: 'mail.example.com', secure: 'maybe' }, /secure: must be true or false/],
    ['smtp', { host: 'mail.example.com', auth: SECRET }, /auth: must be an object with user and pass/],
    ['smtp', { host: 'mail.example.com', from_email: 'not an address' }, /from_email: must be an email address/],
    ['sendgrid', { from_email: 'office@firm.example' }, /api_key: is required/],
    ['sendgrid', { api_key: SECRET }, /from_email: must be the verified sender address/],
    ['mailgun', { api_key: SECRET }, /provider "mailgun" is not supported/],
  ])('refuses an unusable %s configuration for good, naming the problem, not the secret (%j)', async (provider, config, message) => {
    const err = await failure(provider, config);
    expect(err).toBeInstanceOf(PermanentDeliveryError);
    expect(err.message).toMatch(message);
    expect(err.message).not.toContain(SECRET);
  });

  it.each([['127.0.0.1'], ['10.1.2.3'], ['localhost']])(
    'refuses an SMTP host at a private or loopback address (%s) unless private networks are allowed',
    async (host) => {
      const err = await failure('smtp', { host, port: 1, auth: { user: 'u', pass: SECRET } });
      expect(err).toBeInstanceOf(PermanentDeliveryError);
      expect(err.message).toMatch(/private or loopback address/);
    },
  );

  it('refuses a SendGrid base URL at a loopback address unless private networks are allowed', async () => {
    const err = await failure('sendgrid', { api_key: SECRET, from_email: 'office@firm.example' });
    expect(err).toBeInstanceOf(PermanentDeliveryError);
    expect(err.message).toMatch(/refused|private or loopback/);
    expect(err.message).not.toContain(SECRET);
  });

  it('with private networks allowed, a dead SMTP port is a failure worth retrying, not a permanent one', async () => {
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    const err = await failure('smtp', { host: '127.0.0.1', port: 9 }, true);
    expect(err).not.toBeInstanceOf(PermanentDeliveryError);
    expect(err.message).toMatch(/SMTP send failed/);
  });
});
