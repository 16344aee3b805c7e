/**
 * The one way to open a dialog in the admin (STYLE §11): Radix Dialog, which traps focus, restores it
 * to the opener, closes on Escape and labels the dialog by its title and description.
 */
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './button.tsx';
import { SaveFailed } from './server-errors.tsx';

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

export function DialogContent({
  title,
  description,
  children,
  wide = false,
  role,
  onCloseAutoFocus,
}: {
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  wide?: boolean;
  /** 'alertdialog' for confirmations. */
  role?: 'dialog' | 'alertdialog';
  /** Where focus goes on close when the opener is gone (a deleted row's button): preventDefault, then focus. */
  onCloseAutoFocus?: (event: Event) => void;
}) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/60 motion-safe:starting:opacity-0 motion-safe:transition-opacity" />
      <DialogPrimitive.Content
        role={role ?? 'dialog'}
        onCloseAutoFocus={onCloseAutoFocus}
        {...(description ? {} : { 'aria-describedby': undefined })}
        className={`fixed left-1/2 top-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100vw-1.5rem)] -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-lg border border-border bg-background p-4 text-foreground shadow-lg sm:p-6 ${wide ? 'max-w-3xl' : 'max-w-lg'}`}
      >
        <div className="space-y-1.5 pr-8">
          <DialogPrimitive.Title className="break-words text-lg font-semibold leading-tight">{title}</DialogPrimitive.Title>
          {description && <DialogPrimitive.Description className="break-words text-sm text-muted-foreground">{description}</DialogPrimitive.Description>}
        </div>
        {children}
        <DialogPrimitive.Close asChild>
          <Button variant="ghost" size="icon" aria-label="Close" className="absolute right-2 top-2">
            <X aria-hidden="true" className="size-4" />
          </Button>
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogFooter({ children }: { children: ReactNode }) {
  return <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{children}</div>;
}

/**
 * The end of a form in a dialog: a failed save said inside the form (SaveFailed), then Cancel, which
 * closes the dialog, and the submit button, busy and showing 'Saving...' while `save` runs.
 */
export function DialogFormFooter({ save, failure, submitLabel }: { save: { isPending: boolean; error: Error | null }; failure: string; submitLabel: string }) {
  return (
    <>
      <SaveFailed error={save.error} message={failure} />
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={save.isPending} aria-busy={save.isPending || undefined}>
          {save.isPending ? 'Saving...' : submitLabel}
        </Button>
      </DialogFooter>
    </>
  );
}

/**
 * SPEC §5: deleting asks for confirmation. Controlled: `open` is the thing to delete (or null).
 * The confirm button shows `pendingLabel` while the delete runs; the dialog closes when it settles.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel = 'Delete',
  pending = false,
  onConfirm,
  onCloseAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel?: string;
  pending?: boolean;
  onConfirm: () => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent role="alertdialog" title={title} description={description} onCloseAutoFocus={onCloseAutoFocus}>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button variant="destructive" disabled={pending} onClick={onConfirm}>
            {pending ? 'Deleting...' : confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
