/**
 * /admin/admins (docs/decisions/030 and 041): who can administer the site, and who may become an
 * admin. Requests to be one (confirmed sign-ups on ADMIN_EMAILS) with Approve and Refuse; the user
 * pool's admin group, one row per member (you marked, without Remove); invitations (Invite an Admin,
 * the pending ones with Revoke); the ADMIN_EMAILS entries (configuration: who may sign up and ask);
 * and the operator's commands. Every change asks first, naming the person and what happens.
 * Rows are cards on a phone and a table's columns from md up.
 */
import { useQuery } from '@tanstack/react-query';
import { ShieldCheck, Trash, UsersRound } from 'lucide-react';
import { useState } from 'react';
import { api, read } from '../../../lib/api-client.ts';
import { formatFirmDate, formatFirmDateTime } from '../../../shared/firm-time.ts';
import { Button } from '../../ui/button.tsx';
import { Badge, Card, CardContent, CardHeader } from '../../ui/card.tsx';
import { ConfirmDialog } from '../../ui/dialog.tsx';
import { useReturnFocus } from '../../ui/return-focus.ts';
import { EmptyState, LoadingState } from '../../ui/states.tsx';
import AdminPage from '../AdminPage.tsx';
import { useAdminMutation } from '../admin-api.ts';
import AdminInvitations from './AdminInvitations.tsx';
import AdminRequests from './AdminRequests.tsx';
import {
  type AdminRow,
  type AdminsList,
  adminsQuery,
  allowlistEntryLabel,
  commands,
  memberBadges,
  refusalMessage,
  removalConsequences,
  removedMessage,
} from './admins.ts';
import { Code, Field } from './admins-parts.tsx';

export default function AdminsScreen() {
  const list = useQuery(adminsQuery);
  const [removing, setRemoving] = useState<AdminRow | null>(null);
  const focus = useReturnFocus();
  const remove = useAdminMutation({
    mutationFn: (row: AdminRow) => read(api.admin.admins[':username'].$delete({ param: { username: encodeURIComponent(row.username) } })),
    invalidates: [adminsQuery.queryKey],
    success: removedMessage,
    failure: (error) => refusalMessage(error, 'Failed to remove admin'),
  });

  return (
    <AdminPage title="Admins" description="Who can use this admin portal, and who asks to. Only an admin makes another admin.">
      {list.isPending ? (
        <LoadingState />
      ) : list.isError ? (
        <ListFailed error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <div className="space-y-8">
          <AdminRequests service={list.data.service} />
          <Members
            data={list.data}
            pendingFor={remove.isPending ? remove.variables?.username : undefined}
            onRemove={(row, opener) => {
              focus.remember(opener);
              setRemoving(row);
            }}
          />
          <AdminInvitations />
          <Allowlist entries={list.data.allowlist} />
          <AddingAdmins service={list.data.service} />
          <ConfirmDialog
            open={removing !== null}
            onOpenChange={(open) => !open && setRemoving(null)}
            title={removing ? `Remove ${removing.username} as an admin?` : 'Remove this admin?'}
            description={removing ? removalConsequences(removing, list.data.service) : ''}
            confirmLabel="Remove"
            pendingLabel="Removing..."
            pending={remove.isPending}
            onConfirm={() => removing && remove.mutate(removing, { onSettled: () => setRemoving(null) })}
            // The Remove button is gone with its row: the focus goes to the screen's heading.
            onCloseAutoFocus={(event) => focus.restore(event, () => document.querySelector<HTMLElement>('main h1'))}
          />
        </div>
      )}
    </AdminPage>
  );
}

function Members({ data, pendingFor, onRemove }: { data: AdminsList; pendingFor: string | undefined; onRemove: (row: AdminRow, opener: HTMLElement) => void }) {
  const rows = data.admins;
  if (rows.length === 0) {
    return <EmptyState icon={UsersRound} title="No one is in the admin group" description="Add one as described under Adding an admin below." />;
  }
  return (
    <section aria-labelledby="admin-group-title" className="space-y-3">
      <div>
        <h2 id="admin-group-title" className="text-lg font-semibold">
          Admin group
        </h2>
        <p className="text-sm text-muted-foreground">
          {rows.length} member{rows.length === 1 ? '' : 's'} of the user pool's <Code>admin</Code> group.
        </p>
      </div>
      {/* Column headings from md up, where each card becomes a table row; hidden from assistive tech (each row names its fields). */}
      <div
        aria-hidden="true"
        className="hidden gap-4 px-4 text-xs font-medium uppercase tracking-wide text-muted-foreground md:grid md:grid-cols-[minmax(0,1.2fr)_minmax(0,1.6fr)_minmax(0,1fr)_minmax(0,1.2fr)_minmax(0,0.9fr)_7rem]"
      >
        <span>Admin</span>
        <span>E-mail</span>
        <span>Added</span>
        <span>Last sign-in</span>
        <span>Two-step</span>
        <span className="sr-only">Actions</span>
      </div>
      <ul className="space-y-3" aria-labelledby="admin-group-title">
        {rows.map((row) => {
          const pending = pendingFor === row.username;
          return (
            <li key={row.username}>
              <Card className="grid gap-3 p-4 md:grid-cols-[minmax(0,1.2fr)_minmax(0,1.6fr)_minmax(0,1fr)_minmax(0,1.2fr)_minmax(0,0.9fr)_7rem] md:items-center md:gap-4">
                <div className="min-w-0 space-y-1">
                  <h3 className="break-words font-semibold">{row.username}</h3>
                  <div className="flex flex-wrap gap-1">
                    {memberBadges(row).map((b) => (
                      <Badge key={b} variant={b === 'You' ? 'default' : b === 'Disabled' ? 'warning' : 'outline'}>
                        {b}
                      </Badge>
                    ))}
                  </div>
                </div>
                <Field label="E-mail">
                  <span className="break-words">{row.email ?? 'None'}</span>{' '}
                  <span className="text-muted-foreground">{row.email ? (row.emailVerified ? '(verified)' : '(not verified)') : ''}</span>
                </Field>
                <Field label="Added">{row.createdAt ? formatFirmDate(row.createdAt) : 'Not known'}</Field>
                <Field label="Last sign-in">{row.lastSignInAt ? formatFirmDateTime(row.lastSignInAt) : 'Not known'}</Field>
                <Field label="Two-step verification">{row.mfa === null ? 'Not known' : row.mfa ? 'On' : 'Off'}</Field>
                {/* You are not removed from here (the server refuses it too): no button to press. */}
                {!row.isYou && (
                  <div className="border-t border-border pt-3 md:border-0 md:pt-0 md:text-right">
                    <Button
                      variant="outline"
                      size="sm"
                      className="h-10 text-destructive"
                      disabled={pending}
                      aria-busy={pending || undefined}
                      onClick={(e) => onRemove(row, e.currentTarget)}
                    >
                      <Trash aria-hidden="true" className="size-4" />
                      Remove<span className="sr-only"> {row.username}</span>
                    </Button>
                  </div>
                )}
              </Card>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Allowlist({ entries }: { entries: string[] }) {
  return (
    <Card>
      <CardHeader
        title="Who may sign up and ask (ADMIN_EMAILS)"
        description="Set on the server, so it cannot be changed here: change ADMIN_EMAILS and restart the server."
      />
      <CardContent>
        {entries.length === 0 ? (
          <p className="text-sm text-muted-foreground">ADMIN_EMAILS is empty: no one can sign up. Invite colleagues instead.</p>
        ) : (
          <>
            <p className="mb-2 text-sm text-muted-foreground">
              These addresses may sign up at /login. Signing up makes no one an admin: a confirmed sign-up is listed under Requests until an admin approves or
              refuses it.
            </p>
            <ul className="space-y-1 text-sm">
              {entries.map((entry) => (
                <li key={entry} className="flex items-start gap-2">
                  <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
                  <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
                    <span className="min-w-0 break-words">{allowlistEntryLabel(entry)}</span>
                    <Badge variant="secondary">Configuration</Badge>
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function AddingAdmins({ service }: { service: AdminsList['service'] | null }) {
  return (
    <Card>
      <CardHeader title="Adding an admin" description="Only an admin, or whoever runs the server, makes another admin." />
      <CardContent className="space-y-2 text-sm">
        {service !== 'cognito' && (
          <p>
            Invite them under Invitations above. On the server, <Code>{commands.invite}</Code> sends the same invitation; <Code>{commands.create}</Code> makes
            an admin account with a password you choose; <Code>{commands.add()}</Code> puts an existing account (one removed here) back in the group.
          </p>
        )}
        {service !== 'embedded' && (
          <p>
            With a Cognito user pool, create the user in the AWS Cognito console (with an invitation e-mail) and add them to the pool's <Code>admin</Code>{' '}
            group, or run <Code>{commands.create}</Code> on a machine with AWS credentials for the pool.
          </p>
        )}
      </CardContent>
    </Card>
  );
}

/** The list could not load: the server's reason (missing AWS credentials, say) and what works meanwhile. */
function ListFailed({ error, onRetry }: { error: Error; onRetry: () => void }) {
  return (
    <div className="space-y-6">
      <div role="alert" className="space-y-3 rounded-lg border border-destructive p-4 sm:p-6">
        <p className="font-semibold">The admins could not be loaded.</p>
        <p className="break-words text-sm">{refusalMessage(error, 'Please check your connection and try again.')}</p>
        <p className="text-sm text-muted-foreground">
          From the server's command line, <Code>{commands.list}</Code> lists the admins and <Code>{commands.remove}</Code> removes one.
        </p>
        <Button variant="outline" onClick={onRetry}>
          Try Again
        </Button>
      </div>
      <AddingAdmins service={null} />
    </div>
  );
}
