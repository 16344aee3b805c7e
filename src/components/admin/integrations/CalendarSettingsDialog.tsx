/**
 * New settings for a calendar integration (issue 19): the configuration is entered whole and replaces
 * the saved one, which is never shown in full (decision 015); a blank webhook URL or API key keeps the
 * saved one. While it is active, the server refuses a configuration its provider cannot work with and
 * says what it lacks, under the field.
 */
import { Settings2 } from 'lucide-react';
import { useState } from 'react';
import { ApiError, api, read } from '../../../lib/api-client.ts';
import { useAdminMutation } from '../admin-api.ts';
import { Button } from '../../ui/button.tsx';
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '../../ui/dialog.tsx';
import { Field, Input, Textarea } from '../../ui/form.tsx';
import { calendarListKeys } from './CalendarIntegrationDialog.tsx';
import { calendarProviderLabel, isCalendarProvider, templateText, type CalendarIntegration } from './integrations.ts';

type Errors = Partial<Record<'config' | 'webhookUrl' | 'apiKey', string>>;

export default function CalendarSettingsDialog({ row, label, busy }: { row: CalendarIntegration; label: string; busy: boolean }) {
  const [open, setOpen] = useState(false);
  const [config, setConfig] = useState('');
  const [webhookUrl, setWebhookUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const save = useAdminMutation<void, CalendarIntegration>({
    mutationFn: () =>
      read(api.admin['calendar-settings'][':id'].settings.$put({ param: { id: encodeURIComponent(row.id) }, json: { config, webhookUrl, apiKey } })),
    invalidates: calendarListKeys,
    success: 'Calendar integration updated',
    failure: 'Failed to update calendar integration',
    onSuccess: () => setOpen(false),
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setConfig('');
          setWebhookUrl('');
          setApiKey('');
          setErrors({});
          save.reset();
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" className="h-10" disabled={busy}>
          <Settings2 aria-hidden="true" className="size-4" />
          Edit Settings<span className="sr-only"> {label}</span>
        </Button>
      </DialogTrigger>
      <DialogContent
        wide
        title="Edit calendar integration settings"
        description={`${label}: the configuration you enter replaces the saved one, which is not shown because it holds secrets.${row.isActive ? ' It is active, so it must hold what ' + calendarProviderLabel(row.provider) + ' needs.' : ''}`}
      >
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (!config.trim()) {
              setErrors({ config: 'Configuration is required' });
              return;
            }
            setErrors({});
            save.mutate(undefined, {
              onError: (err) => {
                if (err instanceof ApiError && err.details.fields) setErrors(err.details.fields as Errors);
              },
            });
          }}
        >
          <Field label="Configuration" required error={errors.config} hint="The whole configuration, as JSON. The template below shows the keys.">
            <Textarea
              rows={8}
              spellCheck={false}
              className="font-mono"
              placeholder={isCalendarProvider(row.provider) ? templateText(row.provider) : undefined}
              value={config}
              onChange={(e) => setConfig(e.target.value)}
            />
          </Field>
          <Field label="Webhook URL" optional error={errors.webhookUrl} hint="Leave empty to keep the saved one.">
            <Input type="url" inputMode="url" autoComplete="off" spellCheck={false} value={webhookUrl} onChange={(e) => setWebhookUrl(e.target.value)} />
          </Field>
          <Field label="API Key" optional error={errors.apiKey} hint="Leave empty to keep the saved one.">
            <Input type="password" autoComplete="off" spellCheck={false} value={apiKey} onChange={(e) => setApiKey(e.target.value)} />
          </Field>
          <DialogFooter action="Save Settings" pending={save.isPending} error={save.error} failure="The settings were not saved" />
        </form>
      </DialogContent>
    </Dialog>
  );
}
