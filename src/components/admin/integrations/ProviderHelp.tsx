/**
 * What to put in a provider's configuration, shown under the provider once chosen (and read with the
 * configuration field: it describes it). The keys are the ones the backends read
 * (./provider-help.ts).
 */
import { Info } from 'lucide-react';
import type { ReactNode } from 'react';
import type { CalendarProvider, EmailProvider } from './integrations.ts';
import {
  CALENDLY_EVENTS,
  DELIVERY_HEADER,
  GOOGLE_CALENDAR_SCOPE,
  GOOGLE_REFRESH_TOKEN_KEY,
  OUTLOOK_MAILBOX_KEY,
  OUTLOOK_PERMISSION,
  SIGNATURE_HEADER,
} from './provider-help.ts';

const Key = ({ children }: { children: ReactNode }) => <code className="rounded bg-muted px-1 py-0.5 font-mono text-[0.8125rem]">{children}</code>;

function HelpBox({ id, children }: { id: string; children: ReactNode }) {
  return (
    <div id={id} className="flex gap-2 rounded-md border border-border bg-muted/40 p-3 text-sm">
      <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
      <div className="min-w-0 space-y-1.5">{children}</div>
    </div>
  );
}

export function CalendarProviderHelp({ id, provider, calendlyWebhookUrl }: { id: string; provider: CalendarProvider; calendlyWebhookUrl: string }) {
  switch (provider) {
    case 'calendly':
      return (
        <HelpBox id={id}>
          <p>
            Fill in the Calendly <Key>username</Key>, a <Key>personal_access_token</Key> and the <Key>webhook_signing_key</Key>. While this integration is
            active, bookings made at Calendly become appointments here (and cancellations there cancel them); changes made here are not sent to Calendly.
          </p>
          <p>
            Register this webhook URL at Calendly for the{' '}
            {CALENDLY_EVENTS.map((e, i) => (
              <span key={e}>
                {i > 0 && ' and '}
                <Key>{e}</Key>
              </span>
            ))}{' '}
            events, with the same signing key:
          </p>
          <p>
            <code data-testid="calendly-webhook-url" className="block break-all rounded bg-background px-2 py-1 font-mono text-[0.8125rem]">
              {calendlyWebhookUrl}
            </code>
          </p>
        </HelpBox>
      );
    case 'google':
      return (
        <HelpBox id={id}>
          <p>
            Fill in the OAuth client of the firm’s Google Cloud project (<Key>client_id</Key>, <Key>client_secret</Key>, <Key>redirect_uri</Key>) and add a{' '}
            <Key>{GOOGLE_REFRESH_TOKEN_KEY}</Key> key: a refresh token of the firm’s Google account granted with the{' '}
            <span className="break-all">{GOOGLE_CALENDAR_SCOPE}</span> scope. <Key>calendar_id</Key> <Key>primary</Key> is the account’s main calendar.
          </p>
        </HelpBox>
      );
    case 'outlook':
      return (
        <HelpBox id={id}>
          <p>
            Fill in the app registration in Microsoft Entra ID (<Key>client_id</Key>, <Key>client_secret</Key>, <Key>tenant_id</Key>) and add a{' '}
            <Key>{OUTLOOK_MAILBOX_KEY}</Key> key: the mailbox whose calendar receives the appointments. The app needs the {OUTLOOK_PERMISSION} application
            permission.
          </p>
        </HelpBox>
      );
    case 'custom':
      return (
        <HelpBox id={id}>
          <p>
            Each booking, change, cancellation and deletion is POSTed as JSON to the Webhook URL, signed with the API Key: the <Key>{SIGNATURE_HEADER}</Key>{' '}
            header reads <Key>{'t=<unix time>,v1=<hex>'}</Key>, an HMAC-SHA256 of the time, a dot and the raw body, keyed with the API Key. The receiver
            recomputes it to know the event came from this site, and refuses old times. <Key>{DELIVERY_HEADER}</Key> stays the same when an event is retried.
            The configuration can stay <Key>{'{}'}</Key>.
          </p>
        </HelpBox>
      );
  }
}

export function EmailProviderHelp({ id, provider }: { id: string; provider: EmailProvider }) {
  return provider === 'sendgrid' ? (
    <HelpBox id={id}>
      <p>
        <Key>api_key</Key>: a SendGrid API key with the Mail Send permission. <Key>from_email</Key>: a sender address verified at SendGrid. <Key>from_name</Key>
        : the name recipients see.
      </p>
    </HelpBox>
  ) : (
    <HelpBox id={id}>
      <p>
        <Key>host</Key> and <Key>port</Key> of the mail server (587 with <Key>secure</Key> false uses STARTTLS; 465 with <Key>secure</Key> true uses TLS from
        the start), and the account in <Key>auth.user</Key> and <Key>auth.pass</Key>. Optional <Key>from_email</Key> and <Key>from_name</Key> set the sender (by
        default the account, or the firm’s address).
      </p>
    </HelpBox>
  );
}
