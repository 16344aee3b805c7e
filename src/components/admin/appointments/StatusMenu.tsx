/**
 * SPEC §4 Appointment status: the status dropdown with all four values, offered only while the status
 * is neither completed nor cancelled. A menu button (Radix): nothing changes while the keyboard moves
 * through the values, only when one is chosen (a native select in Chrome changes on arrow keys alone).
 * The current value is a checked radio item, announced and marked with a check, not by colour alone.
 * Not modal: a modal menu hides the rest of the page from assistive tech (aria-hidden) while it stays
 * focusable; this one closes as soon as the focus leaves it, and works inside the details dialog.
 */
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Check, ChevronDown } from 'lucide-react';
import { useRef } from 'react';
import type { AppointmentStatus } from '../../../shared/constants.ts';
import { buttonClass } from '../../ui/button.tsx';
import { isAppointmentStatus, statusLabels, statusOrder } from './appointments.ts';

export default function StatusMenu({
  status,
  name,
  disabled,
  completable,
  onChange,
}: {
  status: string;
  name: string;
  disabled?: boolean;
  /** False before the consultation starts: Completed is offered, disabled, with why. */
  completable: boolean;
  onChange: (status: AppointmentStatus, trigger: HTMLElement | null) => void;
}) {
  const triggerRef = useRef<HTMLButtonElement>(null);
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger ref={triggerRef} disabled={disabled} className={buttonClass('outline')}>
        Change Status<span className="sr-only"> for {name}</span>
        <ChevronDown aria-hidden="true" className="size-4" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={6}
          className="z-50 min-w-44 rounded-md border border-border bg-popover p-1 text-popover-foreground shadow-lg"
        >
          <DropdownMenu.Label className="px-3 py-1.5 text-xs font-semibold text-muted-foreground">Status</DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            value={status}
            onValueChange={(value) => {
              if (value !== status && isAppointmentStatus(value)) onChange(value, triggerRef.current);
            }}
          >
            {statusOrder.map((s) => (
              <DropdownMenu.RadioItem
                key={s}
                value={s}
                disabled={s === 'completed' && !completable}
                className="relative flex min-h-10 cursor-pointer select-none items-center rounded-sm py-2 pl-3 pr-9 text-sm outline-none data-[highlighted]:outline-2 data-[highlighted]:-outline-offset-2 data-[highlighted]:outline-ring data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground data-[state=checked]:font-semibold data-[disabled]:cursor-not-allowed data-[disabled]:text-muted-foreground"
              >
                {statusLabels[s]}
                {s === 'completed' && !completable && ' (once it has started)'}
                <DropdownMenu.ItemIndicator className="absolute right-2 inline-flex items-center">
                  <Check aria-hidden="true" className="size-4" />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
