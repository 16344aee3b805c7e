/**
 * The honeypot of the public forms (src/shared/honeypot.ts, docs/decisions/013): a text
 * field a script filling in every input fills, and a person never meets. It is moved off-screen
 * (not display:none, which scripts look for), out of the Tab order, hidden from screen readers and
 * never autofilled. Place it between the form's other children, not last (space-y spacing is unchanged).
 */
import { useId } from 'react';
import { HONEYPOT_FIELD, honeypotValue } from '../../shared/honeypot.ts';

export function Honeypot() {
  const id = useId();
  return (
    <div aria-hidden="true" data-honeypot className="pointer-events-none absolute -left-[10000px] top-auto size-px overflow-hidden">
      <label htmlFor={id}>Website</label>
      <input id={id} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

/** What the submitted form's honeypot holds, for the request body: `{}` when empty, as a person leaves it. */
export function honeypotOf(form: EventTarget | null | undefined): ReturnType<typeof honeypotValue> {
  const field = form instanceof HTMLFormElement ? form.elements.namedItem(HONEYPOT_FIELD) : null;
  return honeypotValue(field instanceof HTMLInputElement ? field.value : null);
}
