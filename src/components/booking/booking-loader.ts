/**
 * On every public page (BaseLayout): a click on any Schedule Consultation button
 * (`[data-booking-trigger]`, a link to /contact, which stays the way in without JavaScript) opens the
 * booking modal instead. The modal's code is fetched on that first click, or a little earlier when a
 * pointer or the keyboard focus reaches a button, so pages do not pay for it up front. A
 * failed download falls back to the link.
 */
const TRIGGER = '[data-booking-trigger]';

let modal: Promise<typeof import('./open-booking.tsx')> | undefined;
const load = () =>
  (modal ??= import('./open-booking.tsx').catch((err: unknown) => {
    modal = undefined; // a later click may try again
    throw err;
  }));

const triggerOf = (event: Event) => (event.target instanceof Element ? event.target.closest<HTMLAnchorElement>(TRIGGER) : null);

document.addEventListener('click', (event) => {
  const trigger = triggerOf(event);
  // A modified click (new tab, new window) keeps doing what the visitor asked for.
  if (!trigger || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  // Said at once while the modal's code arrives (up to seconds on a slow phone): the button shows it
  // is opening (global.css) and a second tap does not queue a second modal.
  if (trigger.getAttribute('aria-busy') === 'true') return;
  trigger.setAttribute('aria-busy', 'true');
  const done = () => trigger.removeAttribute('aria-busy');
  load().then(
    // After the click's other handlers have run (a menu that closes on this click gives the focus back first).
    (m) =>
      setTimeout(() => {
        done();
        m.openBooking(trigger);
      }),
    () => {
      done();
      window.location.assign(trigger.href);
    },
  );
});

for (const type of ['pointerover', 'focusin']) {
  document.addEventListener(type, (event) => {
    if (triggerOf(event)) load().catch(() => undefined);
  });
}
