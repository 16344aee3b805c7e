/**
 * The one way to open a dialog (STYLE §11): Radix Dialog, which traps focus, restores it to the
 * opener (./return-focus.ts where it has no trigger), closes on Escape and labels the dialog by its
 * title and description; every dialog ends with DialogFooter. The booking modal, a whole-screen wizard
 * on phones, lays out its own Radix dialog, with the same buttons and return-focus.
 */
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode, Ref } from 'react';
import { Button, type ButtonProps, type ButtonVariant } from './button.tsx';
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
  onInteractOutside,
}: {
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  /** Room for a form of two columns; 'editor' for an editor beside its live preview (the theme form). */
  wide?: boolean | 'editor';
  /** 'alertdialog' for confirmations. */
  role?: 'dialog' | 'alertdialog';
  /** Where focus goes on close when the opener is gone (a deleted row's button): preventDefault, then focus. */
  onCloseAutoFocus?: (event: Event) => void;
  /** A click outside (the overlay): preventDefault keeps the dialog open (an editor with unsaved work). */
  onInteractOutside?: (event: Event) => void;
}) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/60 motion-safe:starting:opacity-0 motion-safe:transition-opacity" />
      <DialogPrimitive.Content
        role={role ?? 'dialog'}
        onCloseAutoFocus={onCloseAutoFocus}
        onInteractOutside={onInteractOutside}
        {...(description ? {} : { 'aria-describedby': undefined })}
        className={`fixed left-1/2 top-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100vw-1.5rem)] -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-lg border border-border bg-background p-4 text-foreground shadow-lg sm:p-6 ${wide === 'editor' ? 'max-w-3xl xl:max-w-7xl' : wide ? 'max-w-3xl' : 'max-w-lg'}`}
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

type CancelProps = Omit<ButtonProps, 'children'> & { ref?: Ref<HTMLButtonElement> } & { [data: `data-${string}`]: string | boolean | undefined };

/**
 * The end of every dialog: a failed save said inside the dialog (`failure`, shown when there is an
 * `error`: while a modal is open, the toast alone would not be heard), then Cancel, which closes the
 * dialog, the dialog's other actions (`children`), and its main action, disabled and busy, reading
 * `pendingLabel`, while `pending`. The main action submits the dialog's form, or, with `onAction`,
 * runs that. A dialog that only shows something has no `action`: its Close (`cancelLabel`) and actions.
 */
export function DialogFooter({
  action,
  onAction,
  variant = 'default',
  pending = false,
  pendingLabel = 'Saving...',
  cancelLabel = 'Cancel',
  cancel,
  error = null,
  failure,
  children,
}: {
  action?: ReactNode;
  onAction?: () => void;
  variant?: ButtonVariant;
  pending?: boolean;
  pendingLabel?: string;
  cancelLabel?: string;
  /** More for the Cancel button: a ref to focus it, a data attribute to find it. */
  cancel?: CancelProps;
  error?: Error | null;
  /** What failed, as SaveFailed says it ('The testimonial could not be saved'). */
  failure?: string;
  children?: ReactNode;
}) {
  return (
    <>
      {failure && <SaveFailed error={error} message={failure} />}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <DialogClose asChild>
          <Button variant="outline" {...cancel}>
            {cancelLabel}
          </Button>
        </DialogClose>
        {children}
        {action && (
          <Button type={onAction ? 'button' : 'submit'} variant={variant} disabled={pending} aria-busy={pending || undefined} onClick={onAction}>
            {pending ? pendingLabel : action}
          </Button>
        )}
      </div>
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
  cancelLabel = 'Cancel',
  pendingLabel = 'Deleting...',
  pending = false,
  onConfirm,
  onCloseAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  pendingLabel?: string;
  pending?: boolean;
  onConfirm: () => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent role="alertdialog" title={title} description={description} onCloseAutoFocus={onCloseAutoFocus}>
        <DialogFooter
          action={confirmLabel}
          cancelLabel={cancelLabel}
          variant="destructive"
          pending={pending}
          pendingLabel={pendingLabel}
          onAction={onConfirm}
        />
      </DialogContent>
    </Dialog>
  );
}
