/**
 * The /blog newsletter box (SPEC §1, §2: email field plus Subscribe button). SPEC gives it no
 * behaviour and there is no subscribe call (§7), so nothing is sent or stored. Since nothing a
 * visitor submits may be lost silently, submitting says so plainly and points to the ways that do
 * reach the firm.
 */
import { useEffect, useId, useState } from 'react';
import { firm } from '../../config/firm.ts';
import { buttonClass } from '../ui/button-class.ts';

export default function NewsletterSignup() {
  const id = useId();
  const [submitted, setSubmitted] = useState(false);
  // Before hydration a click would submit the form natively (a reload that loses the address).
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);

  return (
    <div>
      <form
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          setSubmitted(true);
        }}
      >
        <div className="flex-1">
          <label htmlFor={`${id}-email`} className="mb-1 block text-sm font-medium">
            Email address
          </label>
          <input
            id={`${id}-email`}
            type="email"
            name="email"
            required
            autoComplete="email"
            placeholder="you@example.com"
            className="min-h-11 w-full rounded-lg border border-input bg-background px-3 py-2 text-base placeholder:text-muted-foreground"
          />
        </div>
        <button type="submit" disabled={!ready} className={buttonClass('default', 'lg')}>
          Subscribe
        </button>
      </form>
      <div role="status" aria-live="polite" className="mt-3 text-sm">
        {submitted && (
          <p className="rounded-lg border border-border bg-background p-3">
            Thank you for your interest. Newsletter sign-up is not available yet, so your email address has not been saved. To stay in touch, call us at{' '}
            <a className="font-medium text-primary underline" href={firm.phoneHref}>
              {firm.phone}
            </a>{' '}
            or send us a message through our{' '}
            <a className="font-medium text-primary underline" href="/contact">
              contact page
            </a>
            .
          </p>
        )}
      </div>
    </div>
  );
}
