/**
 * Completed and cancelled are final (SPEC §4: terminal in the UI, and the server refuses to move an
 * appointment out of them), so choosing one from the status dropdown asks first: a slip of the
 * finger would otherwise cancel a client's consultation with no way back but a new booking.
 */
import type { AppointmentStatus } from '../../../shared/constants.ts';
import { Dialog, DialogContent, DialogFooter } from '../../ui/dialog.tsx';
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
  onConfirm: (target: FinalStatusTarget) => void;
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
          <DialogFooter
            cancelLabel="Keep Current Status"
            action={`Mark as ${label}`}
            variant={target.status === 'cancelled' ? 'destructive' : 'default'}
            pending={pending}
            pendingLabel="Updating..."
            onAction={() => onConfirm(target)}
          />
        </DialogContent>
      )}
    </Dialog>
  );
}
