/** An appointment's status as a badge: the word carries the meaning, the colour only repeats it. */
import { Badge, type BadgeVariant } from '../../ui/card.tsx';
import { statusLabel } from './appointments.ts';

const variants: Record<string, BadgeVariant> = { scheduled: 'warning', confirmed: 'default', completed: 'success', cancelled: 'secondary' };

export default function AppointmentStatusBadge({ status }: { status: string }) {
  return <Badge variant={variants[status] ?? 'outline'}>{statusLabel(status)}</Badge>;
}
