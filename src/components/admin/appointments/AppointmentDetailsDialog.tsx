/**
 * One appointment in full (SPEC §2 details dialog, every field of SPEC §3 an office uses): status,
 * consultation type and duration, date and time in the firm's zone, practice area, how to reach the
 * client, notes, reminder, when it was booked and last changed. The same actions as the list row:
 * Confirm while scheduled, the status dropdown while not final, Delete.
 */
import { Check, Trash2 } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import type { AppointmentStatus } from '../../../shared/constants.ts';
import { Button } from '../../ui/button.tsx';
import { EmailLink, PhoneLink } from '../../ui/contact-links.tsx';
import { Dialog, DialogContent, DialogFooter } from '../../ui/dialog.tsx';
import { formatFirmDate, formatFirmDateTime, formatFirmTimeRange } from '../../../shared/firm-time.ts';
import AppointmentStatusBadge from './AppointmentStatusBadge.tsx';
import { canChangeStatus, canComplete, canConfirm, consultationTypeLabel, fullName, practiceAreaLabel, type Appointment } from './appointments.ts';
import StatusMenu from './StatusMenu.tsx';

export default function AppointmentDetailsDialog({
  appointment: a,
  busy,
  onClose,
  onStatusChange,
  onDelete,
  onCloseAutoFocus,
}: {
  appointment: Appointment | null;
  busy: boolean;
  onClose: () => void;
  onStatusChange: (appointment: Appointment, status: AppointmentStatus, opener: HTMLElement | null) => void;
  onDelete: (appointment: Appointment, opener: HTMLElement) => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const lastStatus = useRef<string | null>(null);

  // Confirm or the status dropdown go away once the status moves on: the focus moves to Close rather
  // than to nowhere.
  useEffect(() => {
    const status = a?.status ?? null;
    if (status && lastStatus.current && status !== lastStatus.current) {
      const active = document.activeElement;
      if (!active || active === document.body || active.getAttribute('role') === 'dialog') closeRef.current?.focus();
    }
    lastStatus.current = status;
  }, [a?.status]);

  return (
    <Dialog open={a !== null} onOpenChange={(open) => !open && onClose()}>
      {a && (
        <DialogContent
          wide
          onCloseAutoFocus={onCloseAutoFocus}
          title={fullName(a)}
          description={`${consultationTypeLabel(a.consultationType)} on ${formatFirmDateTime(a.scheduledDate)}`}
        >
          <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-sm sm:gap-x-6">
            <Item term="Status">
              <AppointmentStatusBadge status={a.status} />
            </Item>
            <Item term="Consultation type">{consultationTypeLabel(a.consultationType)}</Item>
            <Item term="Date">
              <time dateTime={a.scheduledDate}>{formatFirmDate(a.scheduledDate)}</time>
            </Item>
            <Item term="Time">{formatFirmTimeRange(a.scheduledDate, a.duration)}</Item>
            <Item term="Duration">{a.duration} minutes</Item>
            <Item term="Practice area">{practiceAreaLabel(a.practiceArea)}</Item>
            {a.cancellationReason && <Item term="Cancellation reason">{a.cancellationReason}</Item>}
            <Item term="Email" wide="phone">
              <EmailLink email={a.email} subject={`Your ${consultationTypeLabel(a.consultationType)} on ${formatFirmDateTime(a.scheduledDate)}`} />
            </Item>
            <Item term="Phone">{a.phone ? <PhoneLink phone={a.phone} /> : 'Not given'}</Item>
            <Item term="Reminder sent">{a.reminderSent ? 'Yes' : 'No'}</Item>
            <Item term="Booked">
              <time dateTime={a.createdAt}>{formatFirmDateTime(a.createdAt)}</time>
            </Item>
            <Item term="Last updated">
              <time dateTime={a.updatedAt}>{formatFirmDateTime(a.updatedAt)}</time>
            </Item>
            <Item term="Notes" wide>
              {a.notes ? <p className="whitespace-pre-wrap break-words rounded-md border border-border bg-muted/40 p-3">{a.notes}</p> : 'None'}
            </Item>
          </dl>
          <DialogFooter cancelLabel="Close" cancel={{ ref: closeRef, 'data-details-close': true }}>
            <Button variant="outline" className="text-destructive" disabled={busy} onClick={(e) => onDelete(a, e.currentTarget)}>
              <Trash2 aria-hidden="true" className="size-4" />
              Delete
            </Button>
            {canChangeStatus(a) && (
              <StatusMenu
                status={a.status}
                name={fullName(a)}
                disabled={busy}
                completable={canComplete(a, new Date())}
                onChange={(status, trigger) => onStatusChange(a, status, trigger)}
              />
            )}
            {canConfirm(a) && (
              <Button disabled={busy} onClick={(e) => onStatusChange(a, 'confirmed', e.currentTarget)}>
                <Check aria-hidden="true" className="size-4" />
                Confirm
              </Button>
            )}
          </DialogFooter>
        </DialogContent>
      )}
    </Dialog>
  );
}

/** Two columns even on a phone, so the dialog stays short; `wide` spans both (always, or on phones only). */
function Item({ term, wide = false, children }: { term: string; wide?: boolean | 'phone'; children: ReactNode }) {
  const span = wide === 'phone' ? 'col-span-2 sm:col-span-1' : wide ? 'col-span-2' : '';
  return (
    <div className={`min-w-0 ${span}`}>
      <dt className="font-medium text-muted-foreground">{term}</dt>
      <dd className="mt-0.5">{children}</dd>
    </div>
  );
}
