/**
 * /admin/contact-submissions (SPEC §2): the inbox of the contact form. Search, a status filter and a
 * practice-area filter over the list; each submission with New/Read and Pending/Resolved badges;
 * a details dialog that marks the submission read as it opens (SPEC §4 Contact submission); Mark as
 * Read and Mark as Resolved, neither reversible; Delete (after confirming) for a visitor's deletion
 * request, with every copy the site keeps. The filters live in the address bar.
 */
import { Inbox, SearchX, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, read } from '../../../lib/api-client.ts';
import AdminPage from '../AdminPage.tsx';
import { adminQueries, adminKeys, useAdminList, useAdminMutation } from '../admin-api.ts';
import { Button, buttonClass } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { EmailLink, PhoneLink } from '../../ui/contact-links.tsx';
import { formatFirmDateTime } from '../../../shared/firm-time.ts';
import { ConfirmDialog } from '../../ui/dialog.tsx';
import { Field, Input, Select } from '../../ui/form.tsx';
import { useReturnFocus } from '../../ui/return-focus.ts';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states.tsx';
import {
  excerpt,
  filtersFromSearch,
  filtersToSearch,
  filterSubmissions,
  fullName,
  hasFilters,
  noFilters,
  practiceAreaFilters,
  practiceAreaLabel,
  statusFilters,
  type ContactSubmission,
  type StatusFilter,
  type SubmissionFilters,
} from './contact-submissions.ts';
import { ReadBadge, ResolvedBadge } from './SubmissionBadges.tsx';
import SubmissionDetailsDialog from './SubmissionDetailsDialog.tsx';

const submission = api.admin['contact-submissions'][':id'];

export default function ContactSubmissionsScreen() {
  const list = useAdminList(adminQueries.contactSubmissions);
  const [filters, setFilters] = useState<SubmissionFilters>(() => filtersFromSearch(window.location.search));
  const [openId, setOpenId] = useState<string | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const lastOpened = useRef<string | null>(null);
  const detailsFocus = useReturnFocus();

  useEffect(() => {
    const { pathname, hash } = window.location;
    window.history.replaceState(window.history.state, '', `${pathname}${filtersToSearch(filters)}${hash}`);
  }, [filters]);

  // A button that did its job disappears (a read submission has no Mark as Read); keep the keyboard
  // user's place by moving the focus to the same submission's View Details.
  const keepFocusOn = useCallback((id: string) => {
    requestAnimationFrame(() => {
      if (document.activeElement && document.activeElement !== document.body) return;
      document.querySelector<HTMLElement>(`[data-details-for="${CSS.escape(id)}"]`)?.focus();
    });
  }, []);

  const markRead = useAdminMutation({
    mutationFn: (id: string) => read(submission.read.$put({ param: { id } })),
    invalidates: [adminKeys.contactSubmissions],
    success: 'Contact marked as read',
    failure: 'Failed to mark contact as read',
    onSuccess: (_result, id) => keepFocusOn(id),
  });
  const markResolved = useAdminMutation({
    mutationFn: (id: string) => read(submission.resolved.$put({ param: { id } })),
    invalidates: [adminKeys.contactSubmissions],
    success: 'Contact marked as resolved',
    failure: 'Failed to mark contact as resolved',
    onSuccess: (_result, id) => keepFocusOn(id),
  });

  // A visitor's deletion request (issue 19): the message and every copy the site keeps, after confirming.
  const [deleting, setDeleting] = useState<ContactSubmission | null>(null);
  const deleteFocus = useReturnFocus();
  const remove = useAdminMutation({
    mutationFn: (id: string) => read(submission.$delete({ param: { id } })),
    invalidates: [adminKeys.contactSubmissions],
    success: 'Contact submission deleted',
    failure: 'Failed to delete contact submission',
  });

  const rows = list.data ?? [];
  const open = rows.find((s) => s.id === openId) ?? null;

  // SPEC §4: opening the details marks the submission read, once (not again while that call runs).
  function openDetails(s: ContactSubmission, opener: HTMLElement) {
    detailsFocus.remember(opener);
    lastOpened.current = s.id;
    setOpenId(s.id);
    if (!s.isRead && !(markRead.isPending && markRead.variables === s.id)) markRead.mutate(s.id);
  }

  const update = (changes: Partial<SubmissionFilters>) => setFilters((f) => ({ ...f, ...changes }));
  const clearFilters = () => {
    setFilters(noFilters);
    searchRef.current?.focus();
  };

  let body;
  if (list.isPending) body = <LoadingState />;
  else if (list.isError) body = <ErrorState message="The contact submissions could not be loaded." onRetry={() => void list.refetch()} />;
  else if (rows.length === 0)
    body = (
      <EmptyState
        icon={Inbox}
        title="No contact submissions yet"
        description="Messages sent through the contact form on the website will appear here."
        action={
          <a href="/contact" className={buttonClass('outline')}>
            View Contact Form
          </a>
        }
      />
    );
  else {
    const shown = filterSubmissions(rows, filters);
    const unread = rows.filter((s) => !s.isRead).length;
    const pending = rows.filter((s) => !s.isResolved).length;
    body = (
      <>
        <Card className="p-4 sm:p-6">
          <form role="search" aria-label="Filter submissions" className="grid gap-4 sm:grid-cols-[2fr_1fr_1fr]" onSubmit={(e) => e.preventDefault()}>
            <Field label="Search" hint="Name, email or message">
              <Input ref={searchRef} type="search" value={filters.search} onChange={(e) => update({ search: e.target.value })} autoComplete="off" />
            </Field>
            <Field label="Status">
              <Select value={filters.status} onChange={(e) => update({ status: e.target.value as StatusFilter })} options={statusFilters} />
            </Field>
            <Field label="Practice area">
              <Select value={filters.practiceArea} onChange={(e) => update({ practiceArea: e.target.value })} options={practiceAreaFilters} />
            </Field>
          </form>
        </Card>

        <section aria-labelledby="submissions-heading" className="space-y-3">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 ref={headingRef} tabIndex={-1} id="submissions-heading" className="text-lg font-semibold">
              Submissions
            </h2>
            <p role="status" className="text-sm text-muted-foreground">
              {hasFilters(filters) ? `Showing ${shown.length} of ${rows.length}` : `${rows.length} in total`} · {unread} new · {pending} pending
            </p>
          </div>
          {shown.length === 0 ? (
            <EmptyState
              icon={SearchX}
              title="No Submissions Found"
              description="No submission matches this search and these filters."
              action={
                <Button variant="outline" onClick={clearFilters}>
                  Clear All Filters
                </Button>
              }
            />
          ) : (
            <ul className="space-y-3" aria-labelledby="submissions-heading">
              {shown.map((s) => (
                <SubmissionItem
                  key={s.id}
                  submission={s}
                  onOpen={(opener) => openDetails(s, opener)}
                  onMarkRead={() => markRead.mutate(s.id)}
                  onMarkResolved={() => markResolved.mutate(s.id)}
                  onDelete={(opener) => {
                    deleteFocus.remember(opener);
                    setDeleting(s);
                  }}
                  markingRead={markRead.isPending && markRead.variables === s.id}
                  markingResolved={markResolved.isPending && markResolved.variables === s.id}
                />
              ))}
            </ul>
          )}
        </section>
      </>
    );
  }

  return (
    <AdminPage title="Contact Submissions" description="Consultation requests sent through the contact form.">
      {body}
      <SubmissionDetailsDialog
        submission={open}
        onClose={() => setOpenId(null)}
        // Back to View Details; when a filter has hidden the row meanwhile (New, and now read), to the list.
        onCloseAutoFocus={(event) =>
          detailsFocus.restore(event, () =>
            lastOpened.current
              ? (document.querySelector<HTMLElement>(`[data-details-for="${CSS.escape(lastOpened.current)}"]`) ?? headingRef.current)
              : headingRef.current,
          )
        }
        onMarkRead={(id) => markRead.mutate(id)}
        onMarkResolved={(id) => markResolved.mutate(id)}
        markingRead={open !== null && markRead.isPending && markRead.variables === open.id}
        markingResolved={open !== null && markResolved.isPending && markResolved.variables === open.id}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(next) => !next && setDeleting(null)}
        title="Delete this message for good?"
        description={
          deleting
            ? `The message from ${fullName(deleting)} is deleted, with its notification in the delivery log and any copy held in the development outbox. A notification already delivered to the firm’s inbox, or a copy exported to DynamoDB by the migration, stays there. This cannot be undone.`
            : ''
        }
        confirmLabel="Delete Message"
        pending={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id, { onSettled: () => setDeleting(null) });
        }}
        // Kept (Cancel, Escape, a failed delete): back to its Delete button. Deleted: its buttons are
        // gone, so to the list's heading (or the page's, when the list is empty now).
        onCloseAutoFocus={(event) => deleteFocus.restore(event, () => headingRef.current ?? document.querySelector<HTMLElement>('h1'))}
      />
    </AdminPage>
  );
}

function SubmissionItem({
  submission: s,
  onOpen,
  onMarkRead,
  onMarkResolved,
  onDelete,
  markingRead,
  markingResolved,
}: {
  submission: ContactSubmission;
  onOpen: (opener: HTMLElement) => void;
  onMarkRead: () => void;
  onMarkResolved: () => void;
  onDelete: (opener: HTMLElement) => void;
  markingRead: boolean;
  markingResolved: boolean;
}) {
  const name = fullName(s);
  return (
    <li>
      <Card className={`p-4 sm:p-5 ${s.isRead ? '' : 'border-l-4 border-l-primary'}`} data-testid="submission" data-submission-id={s.id}>
        <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
          <div className="flex min-w-0 flex-wrap items-center gap-2">
            <h3 className={`min-w-0 break-words text-base ${s.isRead ? 'font-medium' : 'font-bold'}`}>{name}</h3>
            <ReadBadge isRead={s.isRead} />
            <ResolvedBadge isResolved={s.isResolved} />
          </div>
          <p className="text-sm text-muted-foreground">
            <span className="sr-only">Received </span>
            <time dateTime={s.createdAt}>{formatFirmDateTime(s.createdAt)}</time>
          </p>
        </div>
        <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm">
          <div className="flex min-w-0 gap-1.5">
            <dt className="sr-only">Email</dt>
            <dd className="min-w-0">
              <EmailLink email={s.email} />
            </dd>
          </div>
          {s.phone && (
            <div className="flex gap-1.5">
              <dt className="sr-only">Phone</dt>
              <dd>
                <PhoneLink phone={s.phone} />
              </dd>
            </div>
          )}
          <div className="flex gap-1.5">
            <dt className="text-muted-foreground">Practice area:</dt>
            <dd className="font-medium">{practiceAreaLabel(s.practiceArea)}</dd>
          </div>
        </dl>
        <p className="mt-2 break-words text-sm text-muted-foreground">{excerpt(s.message)}</p>
        <div className="mt-3 flex flex-wrap gap-2">
          <Button variant="outline" onClick={(e) => onOpen(e.currentTarget)} data-details-for={s.id}>
            View Details<span className="sr-only"> for {name}</span>
          </Button>
          {!s.isRead && (
            <Button variant="secondary" onClick={onMarkRead} disabled={markingRead}>
              {markingRead ? 'Marking...' : 'Mark as Read'}
              <span className="sr-only"> for {name}</span>
            </Button>
          )}
          {!s.isResolved && (
            <Button onClick={onMarkResolved} disabled={markingResolved}>
              {markingResolved ? 'Marking...' : 'Mark as Resolved'}
              <span className="sr-only"> for {name}</span>
            </Button>
          )}
          <Button variant="ghost" className="text-destructive sm:ml-auto" onClick={(e) => onDelete(e.currentTarget)}>
            <Trash2 aria-hidden="true" className="size-4" />
            Delete<span className="sr-only"> message from {name}</span>
          </Button>
        </div>
      </Card>
    </li>
  );
}
