/**
 * Configure Email (SPEC §2 Email Settings, §3 templates, §4 Email setting, §5, §7 POST
 * /api/admin/email-settings, §8 toasts): a provider (SendGrid by default, or SMTP) and its
 * configuration, prefilled with the provider's template. Saved active at once, replacing any
 * existing configuration (the dialog says so). An empty configuration gives 'Validation Error' /
 * 'Please provide configuration settings.' and sends nothing; the shared schema wants a JSON object.
 */
import { RotateCcw } from 'lucide-react';
import { useId, type ChangeEvent, type ReactElement } from 'react';
import { useForm } from 'react-hook-form';
import { emailProviderLabels, emailProviders } from '../../../shared/constants.ts';
import { api, read } from '../../../lib/api-client.ts';
import { useAdminMutation } from '../admin-api.ts';
import { Button } from '../../ui/button.tsx';
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '../../ui/dialog.tsx';
import { Field, Select, Textarea } from '../../ui/form.tsx';
import {
  checkEmailForm,
  configAfterProviderChange,
  EMAIL_CONFIG_REQUIRED_MESSAGE,
  integrationKeys,
  templateText,
  type EmailFormValues,
  type EmailPayload,
  type EmailProvider,
} from './integrations.ts';
import { EmailProviderHelp } from './ProviderHelp.tsx';
import { submitChecked } from './submit-checked.ts';

const fieldNames = ['provider', 'config'] as const;

export const emailListKeys = [
  integrationKeys.activeEmail,
  integrationKeys.emailSetting,
  integrationKeys.emailOutbox,
  integrationKeys.emailOutboxSummary,
  integrationKeys.deliveryAttention,
] as const;

export default function EmailSettingsDialog({
  open,
  onOpenChange,
  trigger,
  current,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger: ReactElement;
  /** The provider configured now, if any (said in the dialog: saving replaces it). */
  current: string | null;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent
        wide
        title="Configure Email"
        description={
          current
            ? `Saving replaces the existing email configuration (${current}). The new one is active at once.`
            : 'Saving replaces any existing email configuration. The new one is active at once.'
        }
      >
        <EmailSettingsForm onSaved={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function EmailSettingsForm({ onSaved }: { onSaved: () => void }) {
  const form = useForm<EmailFormValues>({ defaultValues: { provider: 'sendgrid', config: templateText('sendgrid') } });
  const errors = form.formState.errors;
  const provider = form.watch('provider');
  const config = form.watch('config');
  const helpId = useId();
  const failure = 'Failed to create email integration';
  const save = useAdminMutation<EmailPayload>({
    mutationFn: (payload) => read(api.admin['email-settings'].$post({ json: payload })),
    invalidates: emailListKeys,
    success: 'Email integration created successfully',
    failure,
    onSuccess: onSaved,
  });

  const onSubmit = form.handleSubmit(async (values) => {
    form.clearErrors();
    await submitChecked(form, checkEmailForm(values), { missingMessage: EMAIL_CONFIG_REQUIRED_MESSAGE, save: save.mutateAsync, fieldNames });
  });

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <Field label="Provider" required error={errors.provider?.message}>
        <Select
          {...form.register('provider', {
            onChange: (e: ChangeEvent<HTMLSelectElement>) =>
              form.setValue('config', configAfterProviderChange(form.getValues('config'), e.target.value as EmailProvider)),
          })}
        >
          {emailProviders.map((p) => (
            <option key={p} value={p}>
              {emailProviderLabels[p]}
            </option>
          ))}
        </Select>
      </Field>
      <EmailProviderHelp id={helpId} provider={provider} />
      <Field label="Configuration (JSON)" required error={errors.config?.message} hint="Secrets are stored, and never shown again in full.">
        <Textarea
          rows={9}
          aria-describedby={helpId}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          className="font-mono text-sm"
          {...form.register('config')}
        />
      </Field>
      {config !== templateText(provider) && (
        <div>
          <Button variant="outline" size="sm" className="h-10" onClick={() => form.setValue('config', templateText(provider))}>
            <RotateCcw aria-hidden="true" className="size-4" />
            Use the {emailProviderLabels[provider]} template
          </Button>
        </div>
      )}
      <DialogFooter action="Save Configuration" pending={save.isPending} error={save.error} failure={failure} />
    </form>
  );
}
