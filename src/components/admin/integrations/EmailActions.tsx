/**
 * What the Email tab does besides configuring (issue 19): send a test e-mail through the active
 * setting, remove the setting, and send the messages held while e-mail was not configured. Each
 * says what the server answered, never more: a test is "sent" when the provider accepted it.
 */
import { useQueryClient } from '@tanstack/react-query';
import { MailCheck, Send, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { ApiError, api, read } from '../../../lib/api-client.ts';
import { useAdminSession } from '../AdminGuard.tsx';
import { useAdminMutation } from '../admin-api.ts';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { ConfirmDialog, Dialog, DialogContent, DialogFooter, DialogTrigger } from '../../ui/dialog.tsx';
import { Field, Input } from '../../ui/form.tsx';
import { emailListKeys } from './EmailSettingsDialog.tsx';
import { isDeliveriesKey, messagesAre } from './integrations.ts';

/** The server's own sentence for a refused call (it names the problem and the fix), or `fallback`. */
const serverMessage = (error: Error, fallback: string) => (error instanceof ApiError && error.details.error) || fallback;

/** Send Test Email: to the signed-in admin's address unless another is typed. */
export function SendTestEmail() {
  const { email } = useAdminSession();
  const [open, setOpen] = useState(false);
  const [to, setTo] = useState(email ?? '');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const send = useAdminMutation<string, { sentTo: string; provider: string }>({
    mutationFn: (address) => read(api.admin['email-settings'].test.$post({ json: { to: address } })),
    invalidates: [],
    success: (result) => ({ title: 'Test e-mail sent', description: `Accepted for delivery to ${result.sentTo}. Check that inbox (and its spam folder).` }),
    failure: (error) => serverMessage(error, 'The test e-mail could not be sent.'),
    onSuccess: () => setOpen(false),
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const address = to.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)) {
      setFieldError('Please enter a valid email address');
      return;
    }
    setFieldError(undefined);
    send.mutate(address);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) send.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" className="h-10">
          <MailCheck aria-hidden="true" className="size-4" />
          Send Test Email
        </Button>
      </DialogTrigger>
      <DialogContent title="Send a test e-mail" description="Sent at once through the configured provider, to check that e-mail reaches its readers.">
        <form noValidate onSubmit={onSubmit} className="grid gap-4">
          <Field label="Send to" required error={fieldError}>
            <Input type="email" autoComplete="email" value={to} onChange={(e) => setTo(e.target.value)} />
          </Field>
          <DialogFooter action="Send Test Email" pending={send.isPending} pendingLabel="Sending..." error={send.error} failure="The test e-mail was not sent" />
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Remove: after confirming; from then on mail is held in the development outbox. */
export function RemoveEmailSetting({ provider }: { provider: string }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useAdminMutation({
    mutationFn: () => read(api.admin['email-settings'].$delete()),
    invalidates: emailListKeys,
    success: 'Email setting removed: messages are held until e-mail is configured again',
    failure: 'Failed to remove the email setting',
  });
  return (
    <>
      <Button variant="outline" size="sm" className="h-10" onClick={() => setConfirming(true)}>
        <Trash2 aria-hidden="true" className="size-4" />
        Remove
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Remove the email setting?"
        description={`E-mail will no longer be sent through ${provider}: confirmations, reminders and the firm’s notifications are held in the development outbox until e-mail is configured again.`}
        confirmLabel="Remove Email Setting"
        pendingLabel="Removing..."
        pending={remove.isPending}
        onConfirm={() => remove.mutate(undefined, { onSettled: () => setConfirming(false) })}
      />
    </>
  );
}

/** With e-mail configured and messages held from before: Send held messages queues them, in their first order. */
export function HeldMessages({ held }: { held: number }) {
  const queryClient = useQueryClient();
  const sendHeld = useAdminMutation<void, { queued: number }>({
    mutationFn: () => read(api.admin['email-settings']['send-held'].$post()),
    invalidates: emailListKeys,
    // Queued, not yet sent: the log says how each one went.
    success: (result) =>
      result.queued === 0
        ? { title: 'Nothing to send', description: 'No held messages were waiting.' }
        : {
            title: 'Success',
            description: `${result.queued === 1 ? '1 held message' : `${result.queued} held messages`} queued to send: the log below shows how each went`,
          },
    failure: (error) => serverMessage(error, 'Failed to send the held messages'),
    onSuccess: () => void queryClient.invalidateQueries({ predicate: (q) => isDeliveriesKey(q.queryKey) }),
  });
  return (
    <Card className="flex flex-wrap items-start gap-3 border-2 border-amber-600 p-4 sm:p-5" data-testid="held-messages">
      <div className="min-w-0 flex-1 space-y-1">
        <h3 className="text-lg font-semibold">Held, not sent</h3>
        <p className="text-sm">
          {messagesAre(held)} held, never sent: their readers have not received them. Each is sent as it would have been then, except a visitor’s message about
          a consultation that has already begun. Send a test e-mail first to check the setting.
        </p>
      </div>
      <Button className="h-10" disabled={sendHeld.isPending} aria-busy={sendHeld.isPending || undefined} onClick={() => sendHeld.mutate()}>
        <Send aria-hidden="true" className="size-4" />
        {sendHeld.isPending ? 'Sending...' : 'Send Held Messages'}
      </Button>
    </Card>
  );
}
