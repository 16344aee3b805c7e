/**
 * The transports behind the active email setting (SPEC §3 config templates): SMTP through
 * nodemailer, SendGrid's v3 HTTP API through safeFetch, and, with no setting at all, the development
 * outbox. A send either resolves with the provider's reference or throws: a plain error is retried by
 * the delivery runner, a PermanentDeliveryError (refused credentials, an unusable configuration, an
 * address the provider rejects for good) is recorded as failed at once. Error messages name the
 * problem and the fix, never a secret.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { z } from 'zod';
import { firm } from '../../src/config/firm.ts';
import { PermanentDeliveryError } from '../deliveries/deliveries.ts';
import type { Deps } from '../deps.ts';
import { isPrivateAddress, OutboundError, safeFetch } from '../http/outbound-fetch.ts';
import type { MailAddress, OutgoingMail } from './mail-messages.ts';

export interface SendResult {
  /** The provider's id of the message (SMTP Message-ID, SendGrid X-Message-Id), or 'outbox'. */
  externalRef: string | null;
}

export interface MailSender {
  /** `deliveryId` names the message (Message-ID), so a resend after a crash can be recognised. */
  send(mail: OutgoingMail, deliveryId: string): Promise<SendResult>;
}

export interface EmailSettingRow {
  provider: string;
  config: string;
}

/** SMTP: waits are bounded so a dead server costs one retry, not a stuck runner. */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000, dnsTimeout: 10_000 } as const;
export const SENDGRID_TIMEOUT_MS = 15_000;

const boolish = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], { error: 'must be true or false' });
const optionalEmail = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.email({ error: 'must be an email address' }).optional(),
);
const optionalName = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.string({ error: 'must be text' }).trim().max(200, 'must be at most 200 characters').optional(),
);

/** SPEC §3 SMTP template: host, port (587), secure (false), auth { user, pass }; from_email and from_name optional. */
const smtpConfig = z.object({
  host: z.string({ error: 'is required' }).trim().min(1, 'is required'),
  port: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be from 1 to 65535')
    .max(65535, 'must be from 1 to 65535')
    .default(587),
  secure: boolish.default(false),
  auth: z
    .object(
      { user: z.string({ error: 'must be text' }).trim().default(''), pass: z.string({ error: 'must be text' }).default('') },
      { error: 'must be an object with user and pass' },
    )
    .optional(),
  from_email: optionalEmail,
  from_name: optionalName,
});

/** SPEC §3 SendGrid template: api_key, from_email, from_name. */
const sendgridConfig = z.object({
  api_key: z.string({ error: 'is required' }).trim().min(1, 'is required'),
  from_email: z.email({ error: 'must be the verified sender address' }),
  from_name: optionalName,
});

const fixHint: Record<string, string> = {
  smtp: 'save the email settings again with host, port, secure and auth { user, pass }',
  sendgrid: 'save the email settings again with api_key, from_email and from_name',
};

function parseConfig<T extends z.ZodType>(provider: string, schema: T, text: string): z.output<T> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PermanentDeliveryError(`The ${provider} email configuration is not valid JSON; ${fixHint[provider]}`);
  }
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  // Paths and messages only: a value may be a secret.
  const problems = result.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
  throw new PermanentDeliveryError(`The ${provider} email configuration is not valid (${problems.join('; ')}); ${fixHint[provider]}`);
}

export function senderFor(setting: EmailSettingRow, deps: Pick<Deps, 'integrations'>): MailSender {
  if (setting.provider === 'smtp') return smtpSender(parseConfig('smtp', smtpConfig, setting.config), deps.integrations.allowPrivateNetworks);
  if (setting.provider === 'sendgrid') return sendgridSender(parseConfig('sendgrid', sendgridConfig, setting.config), deps.integrations);
  throw new PermanentDeliveryError(`The email provider "${setting.provider}" is not supported; choose sendgrid or smtp`);
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1) || firm.email.split('@')[1]!;

/**
 * The address to connect to. Unless private networks are allowed (tests, an intranet relay), an SMTP
 * host that is or resolves to a loopback or private address is refused, as for every outbound
 * request (api/http/outbound-fetch.ts); the checked address is the one connected to, with the
 * host name kept for TLS.
 */
async function smtpAddress(host: string, allowPrivateNetworks: boolean): Promise<{ host: string; servername?: string }> {
  if (allowPrivateNetworks) return { host };
  const refused = () =>
    new PermanentDeliveryError(
      `The SMTP host ${host} is a private or loopback address; use the mail server's public name, or allow private networks for an intranet relay`,
    );
  if (isIP(host)) {
    if (isPrivateAddress(host)) throw refused();
    return { host };
  }
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch (err) {
    throw new Error(`Could not resolve the SMTP host ${host}: ${(err as NodeJS.ErrnoException).code ?? 'lookup failed'}`);
  }
  const usable = addresses.find((a) => !isPrivateAddress(a.address));
  if (!usable) throw refused();
  return { host: usable.address, servername: host };
}

type SmtpError = Error & { code?: string; responseCode?: number; response?: string; command?: string };

/**
 * SMTP reply codes say whether to try again: 4xx is "not now", 5xx is "never" (RFC 5321 §4.2.1).
 * An authentication failure without a 4xx code is a wrong user or password: permanent.
 */
function smtpFailure(err: unknown): Error {
  const e = err as SmtpError;
  const code = e.responseCode;
  const detail = [e.code, code, e.command ? `after ${e.command.split(' ')[0]}` : null].filter(Boolean).join(' ');
  const reply = (e.response ?? e.message ?? '').replace(/\s+/g, ' ').trim().slice(0, 200);
  if (e.code === 'EAUTH' && !(code && code >= 400 && code < 500)) {
    return new PermanentDeliveryError(`The SMTP server refused the login (${detail}): check auth.user and auth.pass in the email settings. ${reply}`.trim());
  }
  if (code && code >= 500 && code < 600) return new PermanentDeliveryError(`The SMTP server refused the message (${detail}): ${reply}`);
  return new Error(`SMTP send failed (${detail || 'no reply'}): ${reply}`);
}

function smtpSender(config: z.output<typeof smtpConfig>, allowPrivateNetworks: boolean): MailSender {
  const user = config.auth?.user ?? '';
  const fromEmail = config.from_email ?? (user.includes('@') ? user : firm.email);
  const from = { name: config.from_name ?? firm.name, address: fromEmail };
  const address = (a: MailAddress) => (a.name ? { name: a.name, address: a.email } : a.email);
  return {
    async send(mail, deliveryId) {
      const target = await smtpAddress(config.host, allowPrivateNetworks);
      // Loaded at the first SMTP send, not at every start.
      const { default: nodemailer } = await import('nodemailer');
      const transport = nodemailer.createTransport({
        host: target.host,
        ...(target.servername ? { servername: target.servername } : {}),
        port: config.port,
        secure: config.secure,
        ...(user ? { auth: { user, pass: config.auth?.pass ?? '' } } : {}),
        ...SMTP_TIMEOUTS,
        name: domainOf(fromEmail),
      });
      try {
        const info = await transport.sendMail({
          from,
          to: address(mail.to),
          ...(mail.replyTo ? { replyTo: address(mail.replyTo) } : {}),
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          attachments: mail.attachments.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })),
          // The delivery id as Message-ID: a message sent twice (a crash between send and record) is
          // recognisably the same one, and many mailbox providers drop the duplicate.
          messageId: `<${deliveryId}@${domainOf(fromEmail)}>`,
          headers: { 'Auto-Submitted': 'auto-generated' },
        });
        return { externalRef: info.messageId ?? null };
      } catch (err) {
        throw smtpFailure(err);
      } finally {
        transport.close();
      }
    },
  };
}

/** SendGrid's error answer: `{ errors: [{ message, field }] }`; its messages hold no secrets. */
function sendgridErrors(text: string): string {
  try {
    const body = JSON.parse(text) as { errors?: { message?: string; field?: string | null }[] };
    const list = (body.errors ?? []).map((e) => [e.field, e.message].filter(Boolean).join(': ')).filter(Boolean);
    if (list.length) return list.join('; ').slice(0, 300);
  } catch {
    /* not JSON */
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}

function sendgridSender(config: z.output<typeof sendgridConfig>, settings: Deps['integrations']): MailSender {
  const url = `${settings.sendgridApiBase.replace(/\/+$/, '')}/v3/mail/send`;
  const who = (a: MailAddress) => (a.name ? { email: a.email, name: a.name } : { email: a.email });
  return {
    async send(mail, deliveryId) {
      // SendGrid v3 Mail Send: text/plain must come before text/html; attachments are base64.
      const body = {
        personalizations: [{ to: [who(mail.to)] }],
        from: { email: config.from_email, name: config.from_name ?? firm.name },
        ...(mail.replyTo ? { reply_to: who(mail.replyTo) } : {}),
        subject: mail.subject,
        content: [
          { type: 'text/plain', value: mail.text },
          { type: 'text/html', value: mail.html },
        ],
        ...(mail.attachments.length
          ? {
              attachments: mail.attachments.map((a) => ({
                content: Buffer.from(a.content, 'utf8').toString('base64'),
                type: a.contentType,
                filename: a.filename,
                disposition: 'attachment',
              })),
            }
          : {}),
        headers: { 'Auto-Submitted': 'auto-generated' },
        // Shown in SendGrid's activity feed and event webhooks: ties a message to its delivery.
        custom_args: { delivery_id: deliveryId },
      };
      let res;
      try {
        res = await safeFetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${config.api_key}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
          timeoutMs: SENDGRID_TIMEOUT_MS,
          maxBytes: 64 * 1024,
          maxRedirects: 0,
          allowPrivateNetworks: settings.allowPrivateNetworks,
        });
      } catch (err) {
        if (err instanceof OutboundError && (err.failure === 'bad-url' || err.failure === 'refused-address')) {
          throw new PermanentDeliveryError(`SendGrid cannot be reached at ${url}: ${err.message} (check SENDGRID_API_BASE)`);
        }
        throw err;
      }
      if (res.ok) return { externalRef: res.headers['x-message-id'] ?? null };
      const why = sendgridErrors(res.text());
      if (res.status === 401 || res.status === 403) {
        throw new PermanentDeliveryError(
          `SendGrid refused the API key (${res.status}): check api_key in the email settings, and that the key may send mail. ${why}`.trim(),
        );
      }
      if (res.status === 429 || res.status >= 500) throw new Error(`SendGrid answered ${res.status}; will try again. ${why}`.trim());
      throw new PermanentDeliveryError(`SendGrid refused the message (${res.status}): ${why}`);
    },
  };
}
