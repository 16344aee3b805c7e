/**
 * SPEC §2 shared chrome: the side menu below the md breakpoint, with the same links as the header.
 * A Radix dialog shown as a sheet: focus moves into it and stays there, Escape or the close button
 * closes it, and focus returns to the Menu button. Hydrated only where it is shown (client:media).
 */
import * as Dialog from '@radix-ui/react-dialog';
import { CalendarDays, Menu, Phone, X } from 'lucide-react';
import { useState } from 'react';
import { buttonClass } from '../ui/button-class.ts';
import { mainNav, navCurrent } from './nav.ts';

interface Props {
  pathname: string;
  firmName: string;
  phone: string;
  phoneHref: string;
}

export default function MobileMenu({ pathname, firmName, phone, phoneHref }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger className="inline-flex size-10 items-center justify-center rounded-md border border-border bg-background text-foreground hover:bg-accent hover:text-accent-foreground">
        <Menu aria-hidden="true" className="size-5" />
        <span className="sr-only">Open menu</span>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60 motion-safe:transition-opacity motion-safe:starting:opacity-0" />
        <Dialog.Content className="fixed inset-y-0 right-0 z-50 flex w-[min(20rem,85vw)] flex-col gap-6 overflow-y-auto border-l border-border bg-background p-6 text-foreground shadow-xl motion-safe:transition-transform motion-safe:starting:translate-x-full">
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="text-lg font-semibold">Menu</Dialog.Title>
            <Dialog.Close className="-mr-2 -mt-1 inline-flex size-10 items-center justify-center rounded-md hover:bg-accent hover:text-accent-foreground">
              <X aria-hidden="true" className="size-5" />
              <span className="sr-only">Close menu</span>
            </Dialog.Close>
          </div>
          <Dialog.Description className="sr-only">Site navigation for {firmName}</Dialog.Description>
          <nav aria-label="Mobile">
            <ul className="grid gap-1">
              {mainNav.map((link) => {
                const current = navCurrent(link.href, pathname);
                return (
                  <li key={link.href}>
                    <a
                      href={link.href}
                      aria-current={current}
                      className="block rounded-md px-3 py-2.5 text-base font-medium hover:bg-accent hover:text-accent-foreground aria-[current]:bg-secondary aria-[current]:text-secondary-foreground aria-[current]:underline aria-[current]:underline-offset-4"
                    >
                      {link.label}
                    </a>
                  </li>
                );
              })}
            </ul>
          </nav>
          <div className="mt-auto grid gap-3 border-t border-border pt-6">
            <a href={phoneHref} className="inline-flex items-center gap-2 font-semibold text-primary underline-offset-4 hover:underline">
              <Phone aria-hidden="true" className="size-4" />
              {phone}
            </a>
            <a
              href="/contact"
              data-booking-trigger=""
              data-component="consultation_booking"
              // The menu closes as the booking modal opens (src/components/booking/booking-loader.ts).
              onClick={() => setOpen(false)}
              className={buttonClass('default', 'xl')}
            >
              <CalendarDays aria-hidden="true" className="size-4" />
              Schedule Consultation
            </a>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
