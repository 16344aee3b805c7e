/**
 * Shows the toast queue of `src/lib/toast.ts` (the one toast system). Mount it once per page: as its
 * own island on Astro pages (`<Toaster client:load />`), or inside the admin SPA. Radix gives the
 * live-region announcements, the F8 hotkey to reach the viewport, swipe to dismiss and pause on
 * hover/focus. A destructive toast is announced assertively (type "foreground").
 *
 * The booking modal, loaded on demand on any page, mounts one too, for pages without one. So that a
 * page never shows a toast twice, only the first Toaster mounted on the page renders; the others
 * render nothing (and take over if it goes).
 */
import * as ToastPrimitive from '@radix-ui/react-toast';
import { useStore } from '@nanostores/react';
import { CircleAlert, X } from 'lucide-react';
import { atom } from 'nanostores';
import { useEffect, useState } from 'react';
import { $toasts, dismiss, showPendingToast, TOAST_DURATION, TOAST_HOTKEY, TOAST_SWIPE_THRESHOLD } from '../../lib/toast.ts';

const base =
  'group pointer-events-auto relative flex w-full items-start gap-3 overflow-hidden rounded-lg border p-4 pr-12 shadow-lg ' +
  'data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform ' +
  'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=move]:transition-none ' +
  'data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)] ' +
  'motion-safe:transition-opacity motion-safe:starting:opacity-0';

// --destructive is a theme token (SPEC §3 theme variables); the fallback is used until a theme sets it.
const variants = {
  default: 'border-border bg-background text-foreground',
  destructive: 'border-transparent bg-[hsl(var(--destructive,0_72%_42%))] text-[hsl(var(--destructive-foreground,0_0%_100%))]',
} as const;

/** The mounted Toasters, oldest first: the first one renders. */
const $mounted = atom<number[]>([]);
let counter = 0;

export default function Toaster() {
  const [id] = useState(() => ++counter);
  const toasts = useStore($toasts);
  const mounted = useStore($mounted);
  useEffect(() => {
    $mounted.set([...$mounted.get(), id]);
    return () => $mounted.set($mounted.get().filter((m) => m !== id));
  }, [id]);
  useEffect(() => showPendingToast(), []);
  if (mounted[0] !== id) return null;

  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION} swipeThreshold={TOAST_SWIPE_THRESHOLD} swipeDirection="right">
      {toasts.map((t) => {
        const destructive = t.variant === 'destructive';
        return (
          <ToastPrimitive.Root
            key={t.id}
            open={t.open}
            onOpenChange={(open) => {
              if (!open) dismiss(t.id);
            }}
            duration={t.duration}
            type={destructive ? 'foreground' : 'background'}
            className={`${base} ${variants[destructive ? 'destructive' : 'default']}`}
          >
            {destructive && <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />}
            <div className="grid gap-1">
              <ToastPrimitive.Title className="text-sm font-semibold">{t.title}</ToastPrimitive.Title>
              {t.description && <ToastPrimitive.Description className="text-sm">{t.description}</ToastPrimitive.Description>}
            </div>
            <ToastPrimitive.Close
              aria-label="Close notification"
              className="absolute right-2 top-2 inline-flex size-8 items-center justify-center rounded-md opacity-80 hover:opacity-100 focus-visible:opacity-100"
            >
              <X aria-hidden="true" className="size-4" />
            </ToastPrimitive.Close>
          </ToastPrimitive.Root>
        );
      })}
      <ToastPrimitive.Viewport hotkey={TOAST_HOTKEY} className="fixed bottom-0 right-0 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 md:max-w-[420px]" />
    </ToastPrimitive.Provider>
  );
}
