/**
 * The dashboard's warnings about mail and calendar deliveries (issue 19): while e-mail is not
 * configured, that clients get no mail and how many messages are held; messages held from before
 * that can now be sent; deliveries that failed in the last days. Each links to where it is fixed.
 * While e-mail is not configured, also how much the development outbox holds and the oldest's age
 * (decision 042), so a pile-up shows before its bounds delete anything.
 * Nothing to say, nothing shown; a warning that cannot be loaded says so rather than vanish.
 */
import { useQuery } from '@tanstack/react-query';
import { CircleAlert, MailWarning } from 'lucide-react';
import type { ReactNode } from 'react';
import { heldMailText, integrationQueries, messagesAre } from '../integrations/integrations.ts';

export const EMAIL_TAB_HREF = '/admin/integrations#email';
export const CALENDAR_TAB_HREF = '/admin/integrations#calendar';

export default function DeliveryWarnings() {
  const active = useQuery(integrationQueries.activeEmail);
  const attention = useQuery(integrationQueries.deliveryAttention);
  // Only a detail of the warning: while it loads, or if it cannot be, the warning shows without it.
  const outbox = useQuery(integrationQueries.emailOutboxSummary);
  if (active.isPending || attention.isPending) return null;
  if (active.isError || attention.isError) {
    return (
      <Warnings>
        <Warning title="Delivery status unavailable" href={EMAIL_TAB_HREF} link="Open the Email settings">
          Whether e-mail is configured, and whether anything failed to send, could not be loaded.
        </Warning>
      </Warnings>
    );
  }
  const configured = Boolean(active.data?.isActive);
  const { held, failed } = attention.data;
  const failedTotal = failed.email + failed.calendar;
  if (configured && !held.email && !failedTotal) return null;
  return (
    <Warnings>
      {!configured && (
        <Warning title="E-mail is not configured" href={EMAIL_TAB_HREF} link="Configure e-mail">
          Clients get no confirmations or reminders and the firm no notifications.
          {held.email > 0 && <> {messagesAre(held.email)} held, not sent.</>}
          {outbox.data && outbox.data.messages > 0 && <> The development outbox keeps {heldMailText(outbox.data, new Date())}.</>}
        </Warning>
      )}
      {configured && held.email > 0 && (
        <Warning title="Messages held, not sent" href={EMAIL_TAB_HREF} link="Send the held messages">
          {messagesAre(held.email)} held from while e-mail was not configured.
        </Warning>
      )}
      {failedTotal > 0 && (
        <Warning title="Deliveries failed" href={failed.email ? EMAIL_TAB_HREF : CALENDAR_TAB_HREF} link="See the delivery log">
          In the last 7 days: {[failed.email && `${failed.email} e-mail`, failed.calendar && `${failed.calendar} calendar`].filter(Boolean).join(' and ')}{' '}
          {failedTotal === 1 ? 'delivery' : 'deliveries'} failed for good.
        </Warning>
      )}
    </Warnings>
  );
}

function Warnings({ children }: { children: ReactNode }) {
  return (
    <section aria-labelledby="dashboard-warnings" data-testid="delivery-warnings" className="space-y-3">
      <h2 id="dashboard-warnings" className="sr-only">
        Needs attention
      </h2>
      <ul className="grid gap-3 lg:grid-cols-2">{children}</ul>
    </section>
  );
}

function Warning({ title, href, link, children }: { title: string; href: string; link: string; children: ReactNode }) {
  const Icon = title.startsWith('E-mail') ? MailWarning : CircleAlert;
  return (
    <li className="flex items-start gap-3 rounded-lg border-2 border-amber-600 bg-amber-50 p-4 text-amber-950 dark:border-amber-400 dark:bg-amber-950 dark:text-amber-50">
      <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <div className="min-w-0 space-y-1">
        <h3 className="font-semibold">{title}</h3>
        <p className="text-sm">{children}</p>
        <a href={href} className="inline-flex min-h-6 items-center text-sm font-medium underline underline-offset-4">
          {link}
        </a>
      </div>
    </li>
  );
}
