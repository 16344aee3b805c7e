/**
 * The consultation request form of /contact (SPEC §2, §5 Contact form, §7 POST /api/contact, §8).
 * Validation is the payload schema plus the consent (./contact-form.schema.ts, loaded on demand). On
 * success the form resets; on failure nothing the visitor typed is lost. `?service=` preselects the practice area: the page is
 * static, so the island reads it in the browser.
 */
import { CircleAlert, LoaderCircle, Send } from 'lucide-react';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useForm, type Resolver, type UseFormRegisterReturn } from 'react-hook-form';
import { ApiError, api, read, submissionKey } from '../../lib/api-client.ts';
import { toast } from '../../lib/toast.ts';
import { buttonClass } from '../ui/button-class.ts';
import { Field, FieldError, Input, RequiredFieldsNote, RequiredMark, Select, Textarea } from '../ui/form.tsx';
import { Honeypot, honeypotOf } from '../ui/Honeypot.tsx';
import type { ContactFormOutput } from './contact-form.schema.ts';
import { typedBeforeHydration } from '../ui/typed-before-hydration.ts';
import { emptyContactForm, fieldErrorsFrom, practiceAreaOptions, serviceFromQuery, toContactPayload, type ContactFormValues } from './contact-form.ts';

/** The validation (zod) is fetched when the visitor first focuses a field, or at the latest on submit. */
let schemaModule: Promise<typeof import('./contact-form.schema.ts')> | undefined;
const loadSchema = () =>
  (schemaModule ??= import('./contact-form.schema.ts').catch((err: unknown) => {
    schemaModule = undefined; // a failed download may be retried
    throw err;
  }));

const LOAD_FAILED = 'The form could not be checked. Please check your connection and try again, or call us.';

const resolver: Resolver<ContactFormValues, unknown, ContactFormOutput> = async (values, context, options) => {
  try {
    return await (await loadSchema()).contactFormResolver(values, context, options);
  } catch {
    return { values: {}, errors: { root: { type: 'load', message: LOAD_FAILED } } };
  }
};

export default function ContactForm() {
  const id = useId();
  const defaults = useRef(emptyContactForm());
  // What the visitor typed before this island hydrated: read before react-hook-form clears the fields.
  const [typed] = useState(() => typedBeforeHydration(`${id}-form`));
  const form = useForm<ContactFormValues, unknown, ContactFormOutput>({ resolver, defaultValues: defaults.current });
  const errors = form.formState.errors;
  // Until React has taken over, a click would send the form natively: the button waits for it.
  const [ready, setReady] = useState(false);
  // Decision 016: "Send" again after a failure reuses the key, so a message stored before its answer was lost is not stored twice.
  const [submission] = useState(submissionKey);

  useLayoutEffect(() => {
    // ?service= preselects the practice area (and is what a reset after sending goes back to), unless
    // the visitor already chose one; nothing else they typed is touched.
    const service = serviceFromQuery(window.location.search);
    if (service) defaults.current = emptyContactForm(service);
    for (const [name, value] of Object.entries(typed))
      if (name in defaults.current) form.setValue(name as keyof ContactFormValues, value as never, { shouldDirty: true });
    if (service && !('practiceArea' in typed)) form.setValue('practiceArea', service);
  }, [form, typed]);
  useEffect(() => setReady(true), []);

  const onSubmit = form.handleSubmit(async (values, event) => {
    try {
      // The honeypot goes along only if something filled it in.
      const body = { ...toContactPayload(values), ...honeypotOf(event?.target) };
      await read(api.contact.$post({ json: body }, { headers: { 'Idempotency-Key': submission.for(body) } }));
      submission.succeeded();
      toast({ title: 'Message Sent Successfully', description: "Thank you for contacting us. We'll get back to you within 24 hours." });
      form.reset(defaults.current);
    } catch (err) {
      // The form keeps everything typed; field messages from the server, if any, show beside the fields.
      if (err instanceof ApiError) {
        fieldErrorsFrom(err.details.fields).forEach(([name, message], i) => form.setError(name, { message }, { shouldFocus: i === 0 }));
      }
      toast({ title: 'Submission Failed', description: 'Please try again or call us directly at the office phone number.', variant: 'destructive' });
    }
  });
  const pending = form.formState.isSubmitting;
  // Registered here, in the order of the form: the first invalid field in this order takes the focus.
  const field = {
    firstName: form.register('firstName'),
    lastName: form.register('lastName'),
    email: form.register('email'),
    phone: form.register('phone'),
    practiceArea: form.register('practiceArea'),
    message: form.register('message'),
    consent: form.register('consent'),
  };

  return (
    <section
      data-component="contact_form"
      aria-labelledby={`${id}-title`}
      className="rounded-xl border border-border bg-card text-card-foreground p-4 shadow-sm sm:p-6"
    >
      <h2 id={`${id}-title`} className="text-xl font-bold sm:text-2xl">
        Request a Consultation
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">Tell us briefly how we can help. We reply within 24 hours.</p>

      <form
        id={`${id}-form`}
        method="post"
        noValidate
        onSubmit={onSubmit}
        onFocus={() => void loadSchema().catch(() => undefined)}
        aria-labelledby={`${id}-title`}
        className="mt-6 space-y-4"
      >
        <RequiredFieldsNote />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="First Name" required error={errors.firstName?.message}>
            <Input size="lg" type="text" autoComplete="given-name" {...field.firstName} />
          </Field>
          <Field label="Last Name" required error={errors.lastName?.message}>
            <Input size="lg" type="text" autoComplete="family-name" {...field.lastName} />
          </Field>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Email" required error={errors.email?.message}>
            <Input size="lg" type="email" autoComplete="email" spellCheck={false} {...field.email} />
          </Field>
          <Field label="Phone" optional error={errors.phone?.message}>
            <Input size="lg" type="tel" autoComplete="tel" {...field.phone} />
          </Field>
        </div>
        <Field label="Practice Area" required error={errors.practiceArea?.message}>
          <Select size="lg" placeholder="Select a practice area" options={practiceAreaOptions} {...field.practiceArea} />
        </Field>
        <Field label="Message" required error={errors.message?.message}>
          <Textarea rows={5} {...field.message} />
        </Field>

        <Honeypot />
        <Consent registration={field.consent} error={errors.consent?.message} />

        <p className="rounded-md border border-border bg-muted p-3 text-sm text-muted-foreground">
          Sending this form does not create an attorney-client relationship. Please do not include confidential information until we have agreed to represent
          you.
        </p>

        {errors.root?.message && (
          <p role="alert" className="flex items-start gap-2 rounded-md border border-destructive p-3 text-sm font-medium text-destructive">
            <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            {errors.root.message}
          </p>
        )}
        <button type="submit" disabled={!ready || pending} aria-busy={pending || undefined} className={buttonClass('default', 'lg', 'w-full sm:w-auto')}>
          {pending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <Send aria-hidden="true" className="size-4" />}
          {pending ? 'Sending...' : 'Send Message'}
        </button>
      </form>
    </section>
  );
}

function Consent({ registration, error }: { registration: UseFormRegisterReturn; error?: string }) {
  const controlId = useId();
  const errorId = error ? `${controlId}-error` : undefined;
  return (
    <div className="space-y-1.5">
      <div className="flex items-start gap-3">
        <input
          id={controlId}
          type="checkbox"
          aria-required="true"
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
          className="mt-0.5 size-5 shrink-0 accent-primary"
          {...registration}
        />
        <label htmlFor={controlId} className="text-sm">
          I agree to the{' '}
          <a href="/privacy" target="_blank" rel="noopener" className="underline underline-offset-4">
            privacy policy<span className="sr-only"> (opens in a new tab)</span>
          </a>{' '}
          and to being contacted about my inquiry.
          <RequiredMark />
        </label>
      </div>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
