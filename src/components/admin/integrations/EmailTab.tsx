/**
 * Email Settings (SPEC §2, §4 Email setting): Configure Email opens the dialog; a green card says
 * 'Configured' (with the provider) when an active email setting exists (GET
 * /api/email-settings/active), otherwise 'Email Not Configured'. Below, the latest e-mail deliveries
 * and, while nothing is configured, the development outbox: mail is held there (and in the server
 * log), never lost, and marked 'Held, not sent' in the log. Configured, the card sends a test e-mail
 * and removes the setting, and messages held from before can be sent (EmailActions.tsx).
 */
import { useQuery } from '@tanstack/react-query';
import { CircleCheck, MailWarning, Settings2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { formatFirmDateTime } from '../../../shared/firm-time.ts';
import { ErrorState, LoadingState } from '../../ui/states.tsx';
import DeliveryLog from './DeliveryLog.tsx';
import DevOutbox from './DevOutbox.tsx';
import EmailSettingsDialog from './EmailSettingsDialog.tsx';
import { emailProviderLabel } from '../../../shared/constants.ts';
import { HeldMessages, RemoveEmailSetting, SendTestEmail } from './EmailActions.tsx';
import { integrationQueries, messagesAre, prettyConfig } from './integrations.ts';
import SectionHeader from './SectionHeader.tsx';

export default function EmailTab() {
  const active = useQuery(integrationQueries.activeEmail);
  const attention = useQuery(integrationQueries.deliveryAttention);
  const held = attention.data?.held.email ?? 0;
  const [configuring, setConfiguring] = useState(false);
  const configured = active.data?.isActive ? active.data : null;
  const providerName = configured ? emailProviderLabel(configured.provider) : null;

  return (
    <section aria-labelledby="email-settings-title" className="space-y-4">
      <SectionHeader
        id="email-settings-title"
        title="Email Settings"
        description="How the site sends e-mail: booking confirmations with a calendar file, reminders the day before, and the firm’s notifications of bookings and messages."
        action={
          <EmailSettingsDialog
            open={configuring}
            onOpenChange={setConfiguring}
            current={providerName}
            trigger={
              <Button>
                <Settings2 aria-hidden="true" className="size-4" />
                Configure Email
              </Button>
            }
          />
        }
      />
      {active.isPending ? (
        <LoadingState />
      ) : active.isError ? (
        <ErrorState message="The email settings could not be loaded." onRetry={() => void active.refetch()} />
      ) : configured ? (
        <>
          <ConfiguredCard provider={providerName!} />
          {held > 0 && <HeldMessages held={held} />}
        </>
      ) : (
        <Card className="flex items-start gap-3 border-2 border-dashed p-4 sm:p-5" data-testid="email-status">
          <MailWarning aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-muted-foreground" />
          <div className="space-y-1">
            <h3 className="text-lg font-semibold">Email Not Configured</h3>
            <p className="text-sm text-muted-foreground">
              Without a configuration no e-mail leaves the site: clients get no confirmations or reminders, and the firm no notifications. Each message is held
              in the development outbox below (and written to the server log), never lost; configure email, then send them.
            </p>
            {held > 0 && <p className="text-sm font-semibold">{messagesAre(held)} held, not sent.</p>}
          </div>
        </Card>
      )}
      {!active.isPending && !active.isError && (
        <>
          <Card className="p-4 sm:p-5">
            <DeliveryLog channel="email" limit={10} title="Recent email deliveries" empty="No e-mail has been sent yet." />
          </Card>
          {!configured && <DevOutbox />}
        </>
      )}
    </section>
  );
}

/** SPEC §2: the green 'Configured' card; with the saved configuration, secrets masked, when the server gives it. */
function ConfiguredCard({ provider }: { provider: string }) {
  const setting = useQuery(integrationQueries.emailSetting);
  return (
    <div
      data-testid="email-status"
      className="flex items-start gap-3 rounded-lg border-2 border-emerald-700 bg-emerald-50 p-4 text-emerald-950 sm:p-5 dark:border-emerald-500 dark:bg-emerald-950 dark:text-emerald-50"
    >
      <CircleCheck aria-hidden="true" className="mt-0.5 size-6 shrink-0" />
      <div className="min-w-0 flex-1 space-y-1">
        <h3 className="text-lg font-semibold">Configured</h3>
        <p className="text-sm">
          E-mail is sent through <span className="font-semibold">{provider}</span>.
          {setting.data && (
            <>
              {' '}
              Saved <time dateTime={setting.data.createdAt}>{formatFirmDateTime(setting.data.createdAt)}</time>.
            </>
          )}
        </p>
        <div className="flex flex-wrap gap-2 pt-1">
          <SendTestEmail />
          <RemoveEmailSetting provider={provider} />
        </div>
        {setting.data?.config && (
          <details className="pt-1 text-sm">
            <summary className="inline-flex min-h-6 cursor-pointer items-center rounded-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-current">
              Configuration (secrets hidden)
            </summary>
            <pre className="mt-2 whitespace-pre-wrap break-all rounded-md bg-white/70 p-3 font-mono text-xs dark:bg-black/30">
              {prettyConfig(setting.data.config)}
            </pre>
          </details>
        )}
      </div>
    </div>
  );
}
