/**
 * One contact submission in full (SPEC §2 details dialog): who, how to reach them (a reply by e-mail
 * and a call, as links), the practice area, when it came in and the whole message. The screen marks
 * the submission read as this opens (SPEC §4); Mark as Read stays here only if that call failed.
 * Resolving cannot be undone (SPEC §4): once resolved, the badge says so and the button is gone.
 */
import { Mail, Phone } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { firm } from '../../../config/firm.ts';
import { Button, buttonClass } from '../../ui/button.tsx';
import { mailtoHref, telHref, EmailLink, PhoneLink } from '../../ui/contact-links.tsx';
import { Dialog, DialogContent, DialogFooter } from '../../ui/dialog.tsx';
import { formatFirmDateTime } from '../../../shared/firm-time.ts';
import { fullName, practiceAreaLabel, type ContactSubmission } from './contact-submissions.ts';
import { ReadBadge, ResolvedBadge } from './SubmissionBadges.tsx';

export default function SubmissionDetailsDialog({
  submission: s,
  onClose,
  onMarkRead,
  onMarkResolved,
  markingRead,
  markingResolved,
  onCloseAutoFocus,
}: {
  submission: ContactSubmission | null;
  onClose: () => void;
  onMarkRead: (id: string) => void;
  onMarkResolved: (id: string) => void;
  markingRead: boolean;
  markingResolved: boolean;
  onCloseAutoFocus: (event: Event) => void;
}) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const wasResolved = useRef<boolean | null>(null);

  // Mark as Resolved goes away once it worked; the focus moves to Close rather than to nowhere.
  useEffect(() => {
    if (s && wasResolved.current === false && s.isResolved) closeRef.current?.focus();
    wasResolved.current = s ? s.isResolved : null;
  }, [s, s?.isResolved]);

  return (
    <Dialog open={s !== null} onOpenChange={(open) => !open && onClose()}>
      {s && (
        <DialogContent
          wide
          onCloseAutoFocus={onCloseAutoFocus}
          title={fullName(s)}
          description={`Contact submission received ${formatFirmDateTime(s.createdAt)}`}
        >
          <div className="flex flex-wrap gap-2">
            <ReadBadge isRead={s.isRead} />
            <ResolvedBadge isResolved={s.isResolved} />
          </div>
          <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
            <div className="min-w-0">
              <dt className="font-medium text-muted-foreground">Email</dt>
              <dd>
                <EmailLink email={s.email} />
              </dd>
            </div>
            <div>
              <dt className="font-medium text-muted-foreground">Phone</dt>
              <dd>{s.phone ? <PhoneLink phone={s.phone} /> : 'Not given'}</dd>
            </div>
            <div>
              <dt className="font-medium text-muted-foreground">Practice area</dt>
              <dd>{practiceAreaLabel(s.practiceArea)}</dd>
            </div>
            <div>
              <dt className="font-medium text-muted-foreground">Received</dt>
              <dd>
                <time dateTime={s.createdAt}>{formatFirmDateTime(s.createdAt)}</time>
              </dd>
            </div>
          </dl>
          <div className="space-y-1.5">
            <h3 className="text-sm font-medium text-muted-foreground">Message</h3>
            <p className="whitespace-pre-wrap break-words rounded-md border border-border bg-muted/40 p-3 text-sm">{s.message}</p>
          </div>
          <DialogFooter cancelLabel="Close" cancel={{ ref: closeRef }}>
            <a href={mailtoHref(s.email, `Your ${practiceAreaLabel(s.practiceArea)} inquiry with ${firm.name}`)} className={buttonClass('outline')}>
              <Mail aria-hidden="true" className="size-4" />
              Reply by Email
            </a>
            {s.phone && telHref(s.phone) && (
              <a href={telHref(s.phone)!} className={buttonClass('outline')}>
                <Phone aria-hidden="true" className="size-4" />
                Call {s.phone}
              </a>
            )}
            {!s.isRead && (
              <Button variant="secondary" disabled={markingRead} onClick={() => onMarkRead(s.id)}>
                {markingRead ? 'Marking...' : 'Mark as Read'}
              </Button>
            )}
            {!s.isResolved && (
              <Button disabled={markingResolved} onClick={() => onMarkResolved(s.id)}>
                {markingResolved ? 'Marking...' : 'Mark as Resolved'}
              </Button>
            )}
          </DialogFooter>
        </DialogContent>
      )}
    </Dialog>
  );
}
