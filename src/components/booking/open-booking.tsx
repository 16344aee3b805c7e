/**
 * The booking modal's entry point, imported by ./booking-loader.ts only when a visitor first asks for
 * it (a Schedule Consultation button): mounts the modal once, in its own React root at the end of
 * <body>, and opens it; later clicks reopen the same modal. The modal says its outcomes itself, in
 * SPEC §8's words (no toast covers its buttons).
 */
import { useStore } from '@nanostores/react';
import { atom } from 'nanostores';
import { createRoot, type Root } from 'react-dom/client';
import { createReturnFocus } from '../ui/return-focus.ts';
import BookingModal from './BookingModal.tsx';

const $open = atom(false);
/** Where the focus goes back on close: the button, or, when it has gone (a menu that closed), what had the focus at opening. */
const returnFocus = createReturnFocus();
let root: Root | undefined;

function Booking() {
  const open = useStore($open);
  return <BookingModal open={open} onOpenChange={(next) => $open.set(next)} returnFocus={returnFocus} />;
}

export function openBooking(from: HTMLElement | null) {
  if (!$open.get()) returnFocus.remember(from);
  if (!root) {
    const container = document.createElement('div');
    container.setAttribute('data-booking-root', '');
    document.body.append(container);
    root = createRoot(container);
    root.render(<Booking />);
  }
  $open.set(true);
}
