/**
 * /login (SPEC §2, §4 Authentication, §5 Sign in / Sign up / Verification, §8 Authentication
 * screens): tabs Sign In, Sign Up and Verify Email. Sign up -> Verify Email with the username
 * filled -> Sign In with the username prefilled -> /admin. Field messages come from the zod schemas;
 * the identity service's failures show in an alert above the submit button.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import * as Tabs from '@radix-ui/react-tabs';
import { ArrowLeft, CircleAlert, LoaderCircle, LockKeyhole } from 'lucide-react';
import { useEffect, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { useForm, type FieldValues, type Path, type UseFormRegisterReturn, type UseFormSetFocus } from 'react-hook-form';
import { confirmSignUp, resendCode, signIn, signUp } from '../../lib/auth/auth.ts';
import { signInSchema, signUpSchema, verifyEmailSchema, type SignInValues, type SignUpValues, type VerifyEmailValues } from '../../lib/auth/auth.schemas.ts';
import { toast, toastOnNextPage } from '../../lib/toast.ts';
import { buttonClass } from '../ui/button-class.ts';
import { Field, Input } from '../ui/form.tsx';

type Tab = 'sign-in' | 'sign-up' | 'verify';

/** SPEC §8 fallbacks, used when the service gives no message of its own. */
const fallback = {
  signIn: 'Failed to sign in. Please check your credentials.',
  signUp: 'Failed to create account. Please try again.',
  verify: 'Invalid verification code. Please try again.',
  resend: 'Failed to resend code',
} as const;

const messageOf = (err: unknown, otherwise: string) => (err instanceof Error && err.message ? err.message : otherwise);

/** Where a programmatic tab switch lands: the username to fill and the field to focus. */
interface Handoff {
  username: string;
  focus?: 'password' | 'code';
  notice?: string;
}

export default function LoginPage() {
  const [tab, setTab] = useState<Tab>('sign-in');
  const [handoff, setHandoff] = useState<Handoff>({ username: '' });
  // Submitting before React has taken over would send the form natively: buttons wait for it.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);

  const go = (next: Tab, to: Handoff) => {
    setHandoff(to);
    setTab(next);
  };

  return (
    <div className="mx-auto w-full max-w-md">
      <div className="rounded-lg border border-border bg-background p-6 shadow-sm sm:p-8">
        <div className="mb-6 text-center">
          <span className="mx-auto mb-3 inline-flex size-12 items-center justify-center rounded-full bg-muted text-primary">
            <LockKeyhole aria-hidden="true" className="size-6" />
          </span>
          <h1 className="text-2xl font-bold">Admin Portal Access</h1>
          <p className="mt-1 text-sm text-muted-foreground">For the firm's staff: sign in to manage the website.</p>
        </div>
        <Tabs.Root
          value={tab}
          onValueChange={(value) => {
            setHandoff((h) => ({ username: h.username }));
            setTab(value as Tab);
          }}
        >
          <Tabs.List aria-label="Admin account" className="grid grid-cols-3 gap-1 rounded-md bg-muted p-1">
            <TabTrigger value="sign-in">Sign In</TabTrigger>
            <TabTrigger value="sign-up">Sign Up</TabTrigger>
            <TabTrigger value="verify">Verify Email</TabTrigger>
          </Tabs.List>
          <Tabs.Content value="sign-in" className="mt-6 rounded-sm">
            <SignInForm
              ready={ready}
              handoff={handoff}
              onNeedsVerification={(username) =>
                go('verify', { username, focus: 'code', notice: 'Your email address is not verified yet. Enter the code we sent you.' })
              }
            />
          </Tabs.Content>
          <Tabs.Content value="sign-up" className="mt-6 rounded-sm">
            <SignUpForm
              ready={ready}
              onCreated={(username, confirmed) => go(confirmed ? 'sign-in' : 'verify', { username, focus: confirmed ? 'password' : 'code' })}
            />
          </Tabs.Content>
          <Tabs.Content value="verify" className="mt-6 rounded-sm">
            <VerifyEmailForm ready={ready} handoff={handoff} onVerified={(username) => go('sign-in', { username, focus: 'password' })} />
          </Tabs.Content>
        </Tabs.Root>
      </div>
      <p className="mt-6 text-center text-sm">
        <a href="/" className="inline-flex items-center gap-1 rounded-sm text-primary underline underline-offset-4">
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to website
        </a>
      </p>
    </div>
  );
}

function TabTrigger({ value, children }: { value: Tab; children: ReactNode }) {
  return (
    <Tabs.Trigger
      value={value}
      className="whitespace-nowrap rounded-sm px-1 py-2 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground data-[state=active]:bg-background data-[state=active]:font-semibold data-[state=active]:text-foreground data-[state=active]:shadow-sm"
    >
      {children}
    </Tabs.Trigger>
  );
}

function SignInForm({ ready, handoff, onNeedsVerification }: { ready: boolean; handoff: Handoff; onNeedsVerification: (username: string) => void }) {
  const form = useForm<SignInValues>({ resolver: zodResolver(signInSchema), defaultValues: { username: handoff.username, password: '' } });
  const [failure, setFailure] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  useFocusOnArrival(form.setFocus, handoff.focus === 'password' ? 'password' : undefined);
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(async ({ username, password }) => {
    setFailure(null);
    try {
      const result = await signIn(username, password);
      if (result.isSignedIn) {
        setLeaving(true);
        // The toast is shown by /admin's Toaster: this page is about to go.
        toastOnNextPage({ title: 'Welcome back!', description: 'You have been successfully signed in' });
        window.location.assign('/admin');
      } else if (result.nextStep.signInStep === 'CONFIRM_SIGN_UP') {
        onNeedsVerification(username);
      } else {
        // SPEC §4: the wrapper does not handle the other steps (MFA, new password...).
        setFailure(fallback.signIn);
      }
    } catch (err) {
      setFailure(messageOf(err, fallback.signIn));
    }
  });
  const pending = form.formState.isSubmitting || leaving;

  return (
    <AuthForm onSubmit={onSubmit} description="Sign in with your admin username and password.">
      <TextField
        label="Username"
        registration={form.register('username')}
        error={errors.username?.message}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
      />
      <TextField label="Password" type="password" registration={form.register('password')} error={errors.password?.message} autoComplete="current-password" />
      <FailureAlert message={failure} />
      <SubmitButton ready={ready} pending={pending} pendingLabel="Signing in...">
        Sign In
      </SubmitButton>
    </AuthForm>
  );
}

function SignUpForm({ ready, onCreated }: { ready: boolean; onCreated: (username: string, confirmed: boolean) => void }) {
  const form = useForm<SignUpValues>({
    resolver: zodResolver(signUpSchema),
    defaultValues: { username: '', email: '', password: '', confirmPassword: '' },
  });
  const [failure, setFailure] = useState<string | null>(null);
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(async ({ username, email, password }) => {
    setFailure(null);
    try {
      const result = await signUp({ username, email, password });
      const confirmed = result.nextStep.signUpStep === 'DONE';
      toast({
        title: 'Account created!',
        description: confirmed ? 'You can now sign in.' : 'Please check your email for a verification code',
      });
      onCreated(username, confirmed);
    } catch (err) {
      setFailure(messageOf(err, fallback.signUp));
    }
  });

  return (
    <AuthForm onSubmit={onSubmit} description="Create an admin account. We will email you a code to verify your address.">
      <TextField
        label="Username"
        registration={form.register('username')}
        error={errors.username?.message}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
      />
      <TextField label="Email" type="email" registration={form.register('email')} error={errors.email?.message} autoComplete="email" spellCheck={false} />
      <TextField
        label="Password"
        type="password"
        registration={form.register('password')}
        error={errors.password?.message}
        hint="At least 8 characters."
        autoComplete="new-password"
      />
      <TextField
        label="Confirm Password"
        type="password"
        registration={form.register('confirmPassword')}
        error={errors.confirmPassword?.message}
        autoComplete="new-password"
      />
      <FailureAlert message={failure} />
      <SubmitButton ready={ready} pending={form.formState.isSubmitting} pendingLabel="Creating account...">
        Create Account
      </SubmitButton>
    </AuthForm>
  );
}

function VerifyEmailForm({ ready, handoff, onVerified }: { ready: boolean; handoff: Handoff; onVerified: (username: string) => void }) {
  const form = useForm<VerifyEmailValues>({ resolver: zodResolver(verifyEmailSchema), defaultValues: { username: handoff.username, code: '' } });
  const [failure, setFailure] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  useFocusOnArrival(form.setFocus, handoff.focus === 'code' ? 'code' : undefined);
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(async ({ username, code }) => {
    setFailure(null);
    try {
      await confirmSignUp(username, code);
      toast({ title: 'Email verified!', description: 'Your account has been activated. You can now sign in.' });
      onVerified(username);
    } catch (err) {
      setFailure(messageOf(err, fallback.verify));
    }
  });

  const onResend = async () => {
    setFailure(null);
    if (!(await form.trigger('username'))) return;
    setResending(true);
    try {
      await resendCode(form.getValues('username'));
      toast({ title: 'Code sent!', description: 'A new verification code has been sent to your email' });
    } catch (err) {
      setFailure(messageOf(err, fallback.resend));
    } finally {
      setResending(false);
    }
  };

  return (
    <AuthForm onSubmit={onSubmit} description="Enter the 6-digit code we emailed you to activate your account.">
      {handoff.notice && (
        <p role="status" className="rounded-md border border-border bg-muted p-3 text-sm">
          {handoff.notice}
        </p>
      )}
      <TextField
        label="Username"
        registration={form.register('username')}
        error={errors.username?.message}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
      />
      <TextField
        label="Verification Code"
        registration={form.register('code')}
        error={errors.code?.message}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={12}
        spellCheck={false}
      />
      <FailureAlert message={failure} />
      <SubmitButton ready={ready} pending={form.formState.isSubmitting} pendingLabel="Verifying...">
        Verify Email
      </SubmitButton>
      <button
        type="button"
        onClick={onResend}
        disabled={!ready || resending}
        aria-busy={resending || undefined}
        className={buttonClass('outline', 'md', 'w-full')}
      >
        {resending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
        {resending ? 'Sending...' : 'Resend code'}
      </button>
    </AuthForm>
  );
}

/** After a programmatic tab switch, put the keyboard where the user continues (not on page load). */
function useFocusOnArrival<T extends FieldValues>(setFocus: UseFormSetFocus<T>, field: Path<T> | undefined) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the form mounts (its tab opened); later changes must not move the focus
  useEffect(() => {
    if (field) setFocus(field);
  }, []); // once: the form mounts when its tab opens
}

function AuthForm({ onSubmit, description, children }: { onSubmit: () => void; description: string; children: ReactNode }) {
  return (
    // method="post": should the form ever be sent without JavaScript, no password lands in a URL.
    <form method="post" noValidate onSubmit={onSubmit} className="space-y-4">
      <p className="text-sm text-muted-foreground">{description}</p>
      {children}
    </form>
  );
}

type TextFieldProps = {
  label: string;
  registration: UseFormRegisterReturn;
  error: string | undefined;
  hint?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name' | 'size'>;

function TextField({ label, registration, error, hint, type = 'text', ...input }: TextFieldProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      <Input type={type} {...input} {...registration} />
    </Field>
  );
}

function FailureAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div
      role="alert"
      className="flex items-start gap-2 rounded-md border border-[hsl(var(--destructive,0_72%_42%))] p-3 text-sm text-[hsl(var(--destructive,0_72%_42%))]"
    >
      <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <p>{message}</p>
    </div>
  );
}

function SubmitButton({ ready, pending, pendingLabel, children }: { ready: boolean; pending: boolean; pendingLabel: string; children: ReactNode }) {
  return (
    <button type="submit" disabled={!ready || pending} aria-busy={pending || undefined} className={buttonClass('default', 'md', 'w-full')}>
      {pending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
      {pending ? pendingLabel : children}
    </button>
  );
}
