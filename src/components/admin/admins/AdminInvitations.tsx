/**
 * The Admins screen's invitations (docs/decisions/041): Invite an admin (an e-mail address; the server
 * mails a single-use link valid 7 days, or, with no e-mail configured, the dialog shows the link once
 * to pass on), and the invitations not yet accepted, with who invited and until when, each with Revoke.
 * With a Cognito pool the portal does not invite: the section says what to do instead.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Copy, MailPlus, Trash } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { api, read } from '../../../lib/api-client.ts';
import { toast } from '../../../lib/toast.ts';
import { invitationInput } from '../../../shared/schemas/admins.ts';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { ConfirmDialog, Dialog, DialogContent, DialogFooter } from '../../ui/dialog.tsx';
import { Field as FormField, Input } from '../../ui/form.tsx';
import { useReturnFocus } from '../../ui/return-focus.ts';
import { showServerFieldErrors } from '../../ui/server-errors.tsx';
import { useAdminMutation } from '../admin-api.ts';
import { expiryLabel, type Invited, type InvitationRow, invitationsQuery, invitedMessage, refusalMessage, revokeConsequences } from './admins.ts';
import { Field, ListFailure } from './admins-parts.tsx';

const columns = 'md:grid-cols-[minmax(0,1.8fr)_minmax(0,1fr)_minmax(0,1.4fr)_7rem]';

export default function AdminInvitations() {
  const list = useQuery(invitationsQuery);
  const [inviting, setInviting] = useState(false);
  const [revoking, setRevoking] = useState<InvitationRow | null>(null);
  const focus = useReturnFocus();
  const revoke = useAdminMutation({
    mutationFn: (row: InvitationRow) => read(api.admin['admin-invitations'][':id'].$delete({ param: { id: row.id } })),
    invalidates: [invitationsQuery.queryKey],
    success: 'Invitation revoked: its link no longer works.',
    failure: (error) => refusalMessage(error, 'Failed to revoke the invitation'),
  });
  const rows = list.data?.invitations ?? [];

  return (
    <section aria-labelledby="admin-invitations-title" className="space-y-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="admin-invitations-title" className="text-lg font-semibold">
            Invitations
          </h2>
          <p className="text-sm text-muted-foreground">
            An invited colleague chooses a username and a password from the e-mailed link, and is an admin. A link works once, for 7 days.
          </p>
        </div>
        {list.data?.canInvite && (
          <Button className="shrink-0" onClick={() => setInviting(true)}>
            <MailPlus aria-hidden="true" className="size-4" />
            Invite an Admin
          </Button>
        )}
      </div>
      {list.isPending ? (
        <p role="status" className="text-sm text-muted-foreground">
          Loading invitations...
        </p>
      ) : list.isError ? (
        <ListFailure what="The invitations" error={list.error} onRetry={() => void list.refetch()} />
      ) : !list.data.canInvite ? (
        <p className="rounded-lg border border-dashed border-border p-4 text-sm">{list.data.unavailable}</p>
      ) : rows.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border p-4 text-sm text-muted-foreground">No invitation is waiting to be accepted.</p>
      ) : (
        <>
          <div aria-hidden="true" className={`hidden gap-4 px-4 text-xs font-medium uppercase tracking-wide text-muted-foreground md:grid ${columns}`}>
            <span>E-mail</span>
            <span>Invited by</span>
            <span>Expires</span>
            <span className="sr-only">Actions</span>
          </div>
          <ul className="space-y-3" aria-labelledby="admin-invitations-title">
            {rows.map((row) => {
              const pending = revoke.isPending && revoke.variables?.id === row.id;
              return (
                <li key={row.id}>
                  <Card className={`grid gap-3 p-4 md:items-center md:gap-4 ${columns}`}>
                    <h3 className="min-w-0 break-words font-semibold">{row.email}</h3>
                    <Field label="Invited by">
                      <span className="break-words">{row.invitedBy}</span>
                    </Field>
                    <Field label="Expires">{expiryLabel(row.expiresAt).replace(/^Expires /, '')}</Field>
                    <div className="border-t border-border pt-3 md:border-0 md:pt-0 md:text-right">
                      <Button
                        variant="outline"
                        size="sm"
                        className="h-10 text-destructive"
                        disabled={pending}
                        aria-busy={pending || undefined}
                        onClick={(e) => {
                          focus.remember(e.currentTarget);
                          setRevoking(row);
                        }}
                      >
                        <Trash aria-hidden="true" className="size-4" />
                        Revoke<span className="sr-only"> the invitation to {row.email}</span>
                      </Button>
                    </div>
                  </Card>
                </li>
              );
            })}
          </ul>
        </>
      )}
      <InviteDialog open={inviting} onOpenChange={setInviting} />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={revoking ? `Revoke the invitation to ${revoking.email}?` : 'Revoke this invitation?'}
        description={revoking ? revokeConsequences(revoking) : ''}
        confirmLabel="Revoke"
        pendingLabel="Revoking..."
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking, { onSettled: () => setRevoking(null) })}
        onCloseAutoFocus={(event) => focus.restore(event, () => document.querySelector<HTMLElement>('main h1'))}
      />
    </section>
  );
}

type InviteValues = z.input<typeof invitationInput>;

/** The address, then what happened: e-mailed (the dialog closes), or held with the link to copy, once. */
function InviteDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [held, setHeld] = useState<Invited | null>(null);
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) setHeld(null);
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      {open && (
        <DialogContent
          title={held ? 'Send this invitation yourself' : 'Invite an admin'}
          description={held ? invitedMessage(held) : 'They get an e-mail with a link to choose a username and a password. They are an admin once they do.'}
        >
          {held ? <HeldLink invited={held} /> : <InviteForm onSent={(result) => (result.link ? setHeld(result) : close(false))} />}
        </DialogContent>
      )}
    </Dialog>
  );
}

function InviteForm({ onSent }: { onSent: (result: Invited) => void }) {
  const form = useForm<InviteValues>({ resolver: zodResolver(invitationInput), defaultValues: { email: '' } });
  const failure = 'Failed to invite';
  const invite = useAdminMutation({
    mutationFn: (values: InviteValues) => read(api.admin['admin-invitations'].$post({ json: values })),
    invalidates: [invitationsQuery.queryKey],
    // E-mailed: said in a toast as the dialog closes. Held: the dialog itself says it, with the link.
    success: (result) => (result.delivered === 'sent' ? invitedMessage(result) : ''),
    failure: (error) => refusalMessage(error, failure),
    onSuccess: onSent,
  });
  const onSubmit = form.handleSubmit(async (values) => {
    await invite.mutateAsync(values).catch((err: unknown) => showServerFieldErrors(err, form.setError, ['email']));
  });
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <FormField label="E-mail address" error={form.formState.errors.email?.message} hint="Their work address. Only they should be able to read its mail.">
        <Input type="email" autoComplete="off" spellCheck={false} {...form.register('email')} />
      </FormField>
      <DialogFooter action="Send Invitation" pending={invite.isPending} pendingLabel="Sending..." error={invite.error} failure={failure} />
    </form>
  );
}

function HeldLink({ invited }: { invited: Invited }) {
  const link = invited.link ?? '';
  // The form that had the focus is gone: the link takes it, selected, ready to copy.
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast({ title: 'Success', description: 'Invitation link copied' });
    } catch {
      toast({ title: 'Error', description: 'The link could not be copied: select it and copy it yourself.', variant: 'destructive' });
    }
  };
  return (
    <>
      <Input ref={input} readOnly value={link} aria-label="Invitation link" className="font-mono" onFocus={(e) => e.currentTarget.select()} />
      <DialogFooter cancelLabel="Done">
        <Button variant="outline" onClick={copy}>
          <Copy aria-hidden="true" className="size-4" />
          Copy Link
        </Button>
      </DialogFooter>
    </>
  );
}
