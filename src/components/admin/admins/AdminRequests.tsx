/**
 * The Admins screen's requests (docs/decisions/041): people who signed up with an address on
 * ADMIN_EMAILS and confirmed it, waiting for an admin. Each row says who, which address and when, with
 * Approve (into the admin group) and Refuse (the account disabled and signed out); both ask first.
 * Cards on a phone, a table's columns from md up.
 */
import { useQuery } from '@tanstack/react-query';
import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { api, read } from '../../../lib/api-client.ts';
import { formatFirmDateTime } from '../../../shared/firm-time.ts';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { Dialog, DialogContent, DialogFooter } from '../../ui/dialog.tsx';
import { useReturnFocus } from '../../ui/return-focus.ts';
import { useAdminMutation } from '../admin-api.ts';
import {
  type AdminRequestRow,
  adminsQuery,
  type Decision,
  decidedMessage,
  decisionConsequences,
  type PoolService,
  refusalMessage,
  requestsQuery,
} from './admins.ts';
import { Field, ListFailure } from './admins-parts.tsx';

const columns = 'md:grid-cols-[minmax(0,1.2fr)_minmax(0,1.6fr)_minmax(0,1fr)_15rem]';

export default function AdminRequests({ service }: { service: PoolService | undefined }) {
  const list = useQuery(requestsQuery);
  const [deciding, setDeciding] = useState<{ row: AdminRequestRow; decision: Decision } | null>(null);
  const focus = useReturnFocus();
  const decide = useAdminMutation({
    mutationFn: ({ row, decision }: { row: AdminRequestRow; decision: Decision }) => {
      const route = api.admin['admin-requests'][':username'];
      const param = { param: { username: encodeURIComponent(row.username) } };
      return read(decision === 'approve' ? route.approve.$post(param) : route.refuse.$post(param));
    },
    invalidates: [requestsQuery.queryKey, adminsQuery.queryKey],
    success: decidedMessage,
    failure: (error) => refusalMessage(error, 'Failed to decide the request'),
  });
  const rows = list.data?.requests ?? [];

  return (
    <section aria-labelledby="admin-requests-title" className="space-y-3">
      <div>
        <h2 id="admin-requests-title" className="text-lg font-semibold">
          Requests to be an admin
        </h2>
        <p className="text-sm text-muted-foreground">
          People who signed up with an address on ADMIN_EMAILS. They cannot use the admin portal until an admin approves them.
        </p>
      </div>
      {list.isPending ? (
        <p role="status" className="text-sm text-muted-foreground">
          Loading requests...
        </p>
      ) : list.isError ? (
        <ListFailure what="The requests" error={list.error} onRetry={() => void list.refetch()} />
      ) : rows.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border p-4 text-sm text-muted-foreground">No one is waiting for approval.</p>
      ) : (
        <>
          <div aria-hidden="true" className={`hidden gap-4 px-4 text-xs font-medium uppercase tracking-wide text-muted-foreground md:grid ${columns}`}>
            <span>Name</span>
            <span>E-mail</span>
            <span>Asked</span>
            <span className="sr-only">Actions</span>
          </div>
          <ul className="space-y-3" aria-labelledby="admin-requests-title">
            {rows.map((row) => {
              const pending = decide.isPending && decide.variables?.row.username === row.username;
              return (
                <li key={row.username}>
                  <Card className={`grid gap-3 p-4 md:items-center md:gap-4 ${columns}`}>
                    <h3 className="min-w-0 break-words font-semibold">{row.username}</h3>
                    <Field label="E-mail">
                      <span className="break-words">{row.email ?? 'None'}</span>
                    </Field>
                    <Field label="Asked">{row.requestedAt ? formatFirmDateTime(row.requestedAt) : 'Not known'}</Field>
                    <div className="flex flex-wrap gap-2 border-t border-border pt-3 md:flex-nowrap md:justify-end md:border-0 md:pt-0">
                      <Button
                        size="sm"
                        className="h-10"
                        disabled={pending}
                        aria-busy={pending || undefined}
                        onClick={(e) => {
                          focus.remember(e.currentTarget);
                          setDeciding({ row, decision: 'approve' });
                        }}
                      >
                        <Check aria-hidden="true" className="size-4" />
                        Approve<span className="sr-only"> {row.username}</span>
                      </Button>
                      <Button
                        variant="outline"
                        size="sm"
                        className="h-10 text-destructive"
                        disabled={pending}
                        aria-busy={pending || undefined}
                        onClick={(e) => {
                          focus.remember(e.currentTarget);
                          setDeciding({ row, decision: 'refuse' });
                        }}
                      >
                        <X aria-hidden="true" className="size-4" />
                        Refuse<span className="sr-only"> {row.username}</span>
                      </Button>
                    </div>
                  </Card>
                </li>
              );
            })}
          </ul>
        </>
      )}
      <Dialog open={deciding !== null} onOpenChange={(open) => !open && setDeciding(null)}>
        {deciding && (
          <DialogContent
            role="alertdialog"
            title={deciding.decision === 'approve' ? `Make ${deciding.row.username} an admin?` : `Refuse ${deciding.row.username}?`}
            description={decisionConsequences(deciding.row, deciding.decision, service)}
            // The row is gone once decided: the focus goes to the screen's heading.
            onCloseAutoFocus={(event) => focus.restore(event, () => document.querySelector<HTMLElement>('main h1'))}
          >
            <DialogFooter
              action={deciding.decision === 'approve' ? 'Approve' : 'Refuse'}
              variant={deciding.decision === 'approve' ? 'default' : 'destructive'}
              pending={decide.isPending}
              pendingLabel={deciding.decision === 'approve' ? 'Approving...' : 'Refusing...'}
              onAction={() => decide.mutate(deciding, { onSettled: () => setDeciding(null) })}
            />
          </DialogContent>
        )}
      </Dialog>
    </section>
  );
}
