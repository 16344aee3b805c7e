/**
 * Add Integration (SPEC §2 Calendar Integrations, §3 config templates, §5, §7 POST
 * /api/admin/calendar-settings, §8 toasts): a provider, its configuration (prefilled with the
 * provider's template), a webhook URL and an API key (masked). Missing provider or configuration
 * gives the 'Validation Error' toast and sends nothing; the configuration is not checked as JSON. A
 * custom webhook is signed with the API key, so it needs both. The form lives inside the dialog's
 * content: each opening starts afresh, and a successful creation closes and resets it.
 */
import { RotateCcw } from 'lucide-react';
import { useId, type ChangeEvent, type ReactElement } from 'react';
import { useForm } from 'react-hook-form';
import { calendarProviders } from '../../../shared/constants.ts';
import { api, read } from '../../../lib/api-client.ts';
import { useAdminMutation } from '../admin-api.ts';
import { Button } from '../../ui/button.tsx';
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '../../ui/dialog.tsx';
import { Field, Input, RequiredFieldsNote, Select, Textarea } from '../../ui/form.tsx';
import {
  calendarProviderLabels,
  checkCalendarForm,
  configAfterProviderChange,
  customNeedsSigning,
  integrationKeys,
  REQUIRED_FIELDS_MESSAGE,
  templateText,
  type CalendarFormValues,
  type CalendarIntegration,
  type CalendarPayload,
  type CalendarProvider,
} from './integrations.ts';
import { CALENDLY_WEBHOOK_PATH, SIGNATURE_HEADER } from './provider-help.ts';
import { CalendarProviderHelp } from './ProviderHelp.tsx';
import { submitChecked } from './submit-checked.ts';

const fieldNames = ['provider', 'name', 'config', 'webhookUrl', 'apiKey'] as const;

export const calendarListKeys = [integrationKeys.calendarSettings, integrationKeys.activeCalendar] as const;

export default function CalendarIntegrationDialog({
  open,
  onOpenChange,
  trigger,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger: ReactElement;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent
        wide
        title="Add Calendar Integration"
        description="Consultations booked on the website are sent to the active calendar integration. A new integration starts inactive."
      >
        <CalendarIntegrationForm onSaved={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function CalendarIntegrationForm({ onSaved }: { onSaved: () => void }) {
  const form = useForm<CalendarFormValues>({ defaultValues: { provider: '', name: '', config: '', webhookUrl: '', apiKey: '' } });
  const errors = form.formState.errors;
  const provider = form.watch('provider');
  const config = form.watch('config');
  const failure = 'Failed to create calendar integration';
  const save = useAdminMutation<CalendarPayload, CalendarIntegration>({
    mutationFn: (payload) => read(api.admin['calendar-settings'].$post({ json: payload })),
    invalidates: calendarListKeys,
    success: 'Calendar integration created successfully',
    failure,
    onSuccess: onSaved,
  });

  const onSubmit = form.handleSubmit(async (values) => {
    form.clearErrors();
    await submitChecked(form, checkCalendarForm(values), { missingMessage: REQUIRED_FIELDS_MESSAGE, save: save.mutateAsync, fieldNames });
  });

  const helpId = useId();
  const signing = customNeedsSigning(provider);
  const webhookAddress = `${window.location.origin}${CALENDLY_WEBHOOK_PATH}`;

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <RequiredFieldsNote />
      <Field label="Provider" required error={errors.provider?.message}>
        <Select
          {...form.register('provider', {
            onChange: (e: ChangeEvent<HTMLSelectElement>) => {
              // SPEC §3: choosing a provider prefills its template (an admin's own text is kept).
              form.setValue('config', configAfterProviderChange(form.getValues('config'), e.target.value as CalendarProvider | ''));
            },
          })}
        >
          <option value="" disabled>
            Select a provider
          </option>
          {calendarProviders.map((p) => (
            <option key={p} value={p}>
              {calendarProviderLabels[p]}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Name" optional error={errors.name?.message} hint="To tell it apart from another of the same provider, such as “Intake calendar”.">
        <Input autoComplete="off" maxLength={80} {...form.register('name')} />
      </Field>
      {provider && <CalendarProviderHelp id={helpId} provider={provider} calendlyWebhookUrl={webhookAddress} />}
      <Field
        label="Configuration (JSON)"
        required
        error={errors.config?.message}
        hint={
          provider
            ? 'Prefilled with the provider’s keys: fill in the values. Secrets are stored, and never shown again in full.'
            : 'Choose a provider to prefill its keys.'
        }
      >
        <Textarea
          rows={provider === 'custom' ? 3 : 8}
          aria-describedby={provider ? helpId : undefined}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          className="font-mono text-sm"
          {...form.register('config')}
        />
      </Field>
      {provider && config !== templateText(provider) && (
        <div>
          <Button variant="outline" size="sm" className="h-10" onClick={() => form.setValue('config', templateText(provider))}>
            <RotateCcw aria-hidden="true" className="size-4" />
            Use the {calendarProviderLabels[provider]} template
          </Button>
        </div>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Webhook URL"
          required={signing}
          error={errors.webhookUrl?.message}
          hint={signing ? 'Where each booking, change and cancellation is POSTed as JSON.' : 'Optional.'}
        >
          <Input type="url" inputMode="url" autoComplete="off" spellCheck={false} placeholder="https://" {...form.register('webhookUrl')} />
        </Field>
        <Field
          label="API Key"
          required={signing}
          error={errors.apiKey?.message}
          hint={
            signing ? (
              <>
                The signing secret: every delivery carries an <code>{SIGNATURE_HEADER}</code> header, an HMAC-SHA256 made with it. Stored, never shown again in
                full.
              </>
            ) : (
              'Optional. Stored, never shown again in full.'
            )
          }
        >
          <Input type="password" autoComplete="off" spellCheck={false} {...form.register('apiKey')} />
        </Field>
      </div>
      <DialogFooter action="Add Integration" pending={save.isPending} error={save.error} failure={failure} />
    </form>
  );
}
