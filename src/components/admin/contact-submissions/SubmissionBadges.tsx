/** SPEC §4 Contact submission badges: the words say the state; colour only repeats it. */
import { Badge } from '../../ui/card.tsx';

export function ReadBadge({ isRead }: { isRead: boolean }) {
  return isRead ? <Badge variant="outline">Read</Badge> : <Badge>New</Badge>;
}

export function ResolvedBadge({ isResolved }: { isResolved: boolean }) {
  return isResolved ? <Badge variant="success">Resolved</Badge> : <Badge variant="warning">Pending</Badge>;
}
