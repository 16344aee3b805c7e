/**
 * Completed and cancelled are final (SPEC §4: terminal in the UI, and the server refuses to move an
 * appointment out of them), so choosing one from the status dropdown asks first: a slip of the
 * finger would otherwise cancel a client's consultation with no way back but a new booking.
 */
import { useState } from 'react';
import type { AppointmentStatus } from '../../../shared/constants.ts';
import { Dialog, DialogContent, DialogFooter } from '../../ui/dialog.tsx';
import { Field, Textarea } from '../../ui/form.tsx';
import { formatFirmDateTime } from '../../../shared/firm-time.ts';
import { consultationTypeLabel, fullName, statusLabel, type Appointment } from './appointments.ts';

export interface FinalStatusTarget {
  appointment: Appointment;
  status: AppointmentStatus;
}

export default function FinalStatusDialog({
  target,
  pending,
  onConfirm,
  onCancel,
  onCloseAutoFocus,
  notice,
}: {
  target: FinalStatusTarget | null;
  /** What the client hears of it (a cancellation's e-mail), said in the dialog. */
  notice: string | null;
  pending: boolean;
  /** `reason`: with a cancellation, why (told to the client; blank for none). */
  onConfirm: (target: FinalStatusTarget, reason?: string) => void;
  onCancel: () => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  const label = target ? statusLabel(target.status) : '';
  return (
    <Dialog open={target !== null} onOpenChange={(open) => !open && onCancel()}>
      {target && (
        <DialogContent
          role="alertdialog"
          onCloseAutoFocus={onCloseAutoFocus}
          title={`Mark this appointment as ${label.toLowerCase()}?`}
          description={`${fullName(target.appointment)}: ${consultationTypeLabel(target.appointment.consultationType)} on ${formatFirmDateTime(target.appointment.scheduledDate)}. Once ${label.toLowerCase()}, its status cannot be changed again.${notice ? ` ${notice}` : ''}`}
        >
          <FinalStatusForm key={`${target.appointment.id}:${target.status}`} target={target} label={label} pending={pending} onConfirm={onConfirm} />
        </DialogContent>
      )}
    </Dialog>
  );
}

/** The dialog's end: for a cancellation, an optional reason the client reads in the e-mail (issue 19). */
function FinalStatusForm({
  target,
  label,
  pending,
  onConfirm,
}: {
  target: FinalStatusTarget;
  label: string;
  pending: boolean;
  onConfirm: (target: FinalStatusTarget, reason?: string) => void;
}) {
  const [reason, setReason] = useState('');
  const cancelling = target.status === 'cancelled';
  const tooLong = reason.trim().length > 500;
  return (
    <>
      {cancelling && (
        <Field
          label="Reason"
          optional
          hint="Told to the client in the cancellation e-mail, as written."
          error={tooLong ? 'Reason must be at most 500 characters' : undefined}
        >
          <Textarea rows={3} value={reason} onChange={(e) => setReason(e.target.value)} />
        </Field>
      )}
      <DialogFooter
        cancelLabel="Keep Current Status"
        action={`Mark as ${label}`}
        variant={cancelling ? 'destructive' : 'default'}
        pending={pending}
        pendingLabel="Updating..."
        onAction={() => {
          if (tooLong) return;
          onConfirm(target, cancelling && reason.trim() ? reason.trim() : undefined);
        }}
      />
    </>
  );
}
