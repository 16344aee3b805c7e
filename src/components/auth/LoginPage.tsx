/**
 * /login (SPEC §2, §4 Authentication, §5 Sign in / Sign up / Verification, §8 Authentication
 * screens): tabs Sign In, Sign Up and Verify Email. Sign up -> Verify Email with the username
 * filled -> Sign In with the username prefilled -> /admin. Forgot password? under Sign In: a code to
 * the account's address, then a new password. An admin already signed in goes straight to /admin. Field messages come from the zod schemas;
 * the identity service's failures show in an alert above the submit button.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import * as Tabs from '@radix-ui/react-tabs';
import { ArrowLeft, CircleAlert, LoaderCircle, LockKeyhole } from 'lucide-react';
import { useEffect, useMemo, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import type { SignInOutput } from 'aws-amplify/auth';
import { renderSVG } from 'uqr';
import { useForm, type FieldValues, type Path, type UseFormRegisterReturn, type UseFormSetFocus } from 'react-hook-form';
import { confirmForgotPassword, confirmSignUp, continueSignIn, forgotPassword, resendCode, signIn, signOut, signUp } from '../../lib/auth/auth.ts';
import { takeLoginHandoff } from '../../lib/auth/login-handoff.ts';
import { checkAdmin } from '../admin/AdminGuard.tsx';
import {
  authenticatorCodeSchema,
  resetPasswordSchema,
  resetRequestSchema,
  signInSchema,
  signUpSchema,
  verifyEmailSchema,
  type AuthenticatorCodeValues,
  type ResetPasswordValues,
  type ResetRequestValues,
  type SignInValues,
  type SignUpValues,
  type VerifyEmailValues,
} from '../../lib/auth/auth.schemas.ts';
import { toast, toastOnNextPage } from '../../lib/toast.ts';
import { buttonClass } from '../ui/button-class.ts';
import { Field, Input } from '../ui/form.tsx';

/**
 * 'reset' (Forgot password) and 'two-step' (the code from an authenticator app, or setting one up,
 * after the password) have no tab of their own: Sign In leads to them, and they lead back there.
 */
type Tab = 'sign-in' | 'sign-up' | 'verify' | 'reset' | 'two-step';

/** SPEC §4 sign-in steps this page answers after the password: TOTP, and TOTP set-up (MFA setup). */
type SecondStep = { kind: 'code'; username: string } | { kind: 'set-up'; username: string; setupUri: string; secret: string };

/** The issuer an authenticator app lists the account under. */
const AUTHENTICATOR_ISSUER = 'Pacific Crest Law Group';

/** SPEC §8 fallbacks, used when the service gives no message of its own. */
const fallback = {
  signIn: 'Failed to sign in. Please check your credentials.',
  signUp: 'Failed to create account. Please try again.',
  verify: 'Invalid verification code. Please try again.',
  resend: 'Failed to resend code',
  resetRequest: 'The reset code could not be sent. Please try again.',
  reset: 'Failed to reset password. Please try again.',
  twoStep: 'That code was not accepted. Wait for the next code and try again.',
} as const;

const messageOf = (err: unknown, otherwise: string) => (err instanceof Error && err.message ? err.message : otherwise);

/** Where a programmatic tab switch lands: the username to fill and the field to focus. */
interface Handoff {
  username: string;
  focus?: 'password' | 'code' | 'username';
  notice?: string;
}

export default function LoginPage() {
  const [tab, setTab] = useState<Tab>('sign-in');
  const [handoff, setHandoff] = useState<Handoff>({ username: '' });
  const [secondStep, setSecondStep] = useState<SecondStep | null>(null);
  // Bumped by every hand-off, so a form already open starts again from it (its fields are read once).
  const [arrival, setArrival] = useState(0);
  // Submitting before React has taken over would send the form natively: buttons wait for it.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  // Signed in already (issue 19: /login was a dead end): an admin goes on to the portal; anyone else
  // is signed out here, so that signing in as an admin works.
  useEffect(() => {
    void checkAdmin().then(
      (state) => {
        // Waiting for approval: /admin says so, with Sign Out.
        if (state.status === 'allowed' || state.status === 'pending') window.location.replace('/admin');
        else if (state.status === 'forbidden') void signOut().catch(() => undefined);
      },
      () => undefined,
    );
  }, []);

  const go = (next: Tab, to: Handoff) => {
    setHandoff(to);
    setTab(next);
    setArrival((n) => n + 1);
  };
  // Sent here by another page (an accepted invitation): Sign In with the username filled.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on arrival
  useEffect(() => {
    const from = takeLoginHandoff();
    if (from) go('sign-in', { username: from.username, focus: 'password', notice: from.notice });
  }, []);

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
              key={arrival}
              ready={ready}
              handoff={handoff}
              onNeedsVerification={(username) =>
                go('verify', { username, focus: 'code', notice: 'Your email address is not verified yet. Enter the code we sent you.' })
              }
              onForgot={(username) => go('reset', { username, focus: 'username' })}
              onSecondStep={(step) => {
                setSecondStep(step);
                setTab('two-step');
              }}
            />
          </Tabs.Content>
          <Tabs.Content value="two-step" className="mt-6 rounded-sm">
            {secondStep && (
              <TwoStepForm
                key={`${secondStep.kind}:${secondStep.username}`}
                ready={ready}
                step={secondStep}
                onSecondStep={setSecondStep}
                onBack={(username) => go('sign-in', { username, focus: 'password' })}
              />
            )}
          </Tabs.Content>
          <Tabs.Content value="reset" className="mt-6 rounded-sm">
            <ResetPasswordForm
              ready={ready}
              handoff={handoff}
              onReset={(username) => go('sign-in', { username, focus: 'password', notice: 'Your password has been reset. Sign in with the new one.' })}
              onBack={(username) => go('sign-in', { username, focus: 'password' })}
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

function SignInForm({
  ready,
  handoff,
  onNeedsVerification,
  onForgot,
  onSecondStep,
}: {
  ready: boolean;
  handoff: Handoff;
  onNeedsVerification: (username: string) => void;
  onForgot: (username: string) => void;
  onSecondStep: (step: SecondStep) => void;
}) {
  const form = useForm<SignInValues>({ resolver: zodResolver(signInSchema), defaultValues: { username: handoff.username, password: '' } });
  const [failure, setFailure] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  useFocusOnArrival(form.setFocus, handoff.focus === 'password' ? 'password' : undefined);
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(async ({ username, password }) => {
    setFailure(null);
    try {
      const result = await signIn(username, password);
      const second = await secondStepOf(result, username);
      if (result.isSignedIn) {
        setLeaving(true);
        enterPortal();
      } else if (result.nextStep.signInStep === 'CONFIRM_SIGN_UP') {
        onNeedsVerification(username);
      } else if (second) {
        onSecondStep(second);
      } else {
        // Steps no admin of this site meets (SMS, a custom challenge, a new password required...).
        setFailure(fallback.signIn);
      }
    } catch (err) {
      setFailure(messageOf(err, fallback.signIn));
    }
  });
  const pending = form.formState.isSubmitting || leaving;

  return (
    <AuthForm onSubmit={onSubmit} description="Sign in with your admin username and password.">
      {handoff.notice && (
        <p role="status" className="rounded-md border border-border bg-muted p-3 text-sm">
          {handoff.notice}
        </p>
      )}
      <UsernameField registration={form.register('username')} error={errors.username?.message} />
      <TextField label="Password" type="password" registration={form.register('password')} error={errors.password?.message} autoComplete="current-password" />
      <FailureAlert message={failure} />
      <SubmitButton ready={ready} pending={pending} pendingLabel="Signing in...">
        Sign In
      </SubmitButton>
      <p className="text-center text-sm">
        <button
          type="button"
          disabled={!ready}
          onClick={() => onForgot(form.getValues('username').trim())}
          className="inline-flex min-h-10 items-center rounded-sm font-medium text-primary underline underline-offset-4"
        >
          Forgot password?
        </button>
      </p>
    </AuthForm>
  );
}

/** Signed in: on to the portal. The toast is shown by /admin's Toaster: this page is about to go. */
function enterPortal() {
  toastOnNextPage({ title: 'Welcome back!', description: 'You have been successfully signed in' });
  window.location.assign('/admin');
}

/**
 * The two-step verification the service asks for, if that is its next step: a TOTP code, or setting
 * up an authenticator app (choosing TOTP first when the service offers a choice of types to set up).
 */
async function secondStepOf(result: SignInOutput, username: string): Promise<SecondStep | null> {
  const next = result.nextStep;
  if (next.signInStep === 'CONFIRM_SIGN_IN_WITH_TOTP_CODE') return { kind: 'code', username };
  if (next.signInStep === 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP') {
    const { sharedSecret } = next.totpSetupDetails;
    return { kind: 'set-up', username, secret: sharedSecret, setupUri: next.totpSetupDetails.getSetupUri(AUTHENTICATOR_ISSUER, username).href };
  }
  if (next.signInStep === 'CONTINUE_SIGN_IN_WITH_MFA_SETUP_SELECTION' && next.allowedMFATypes?.includes('TOTP')) {
    return secondStepOf(await continueSignIn('TOTP'), username);
  }
  return null;
}

/** The key as authenticator apps ask it to be typed: groups of four. */
const groupedSecret = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * Two-step verification after the password: the code from the authenticator app, or, for an admin
 * who must set one up first, the QR code and the key to type, then the first code.
 */
function TwoStepForm({
  ready,
  step,
  onSecondStep,
  onBack,
}: {
  ready: boolean;
  step: SecondStep;
  onSecondStep: (step: SecondStep) => void;
  onBack: (username: string) => void;
}) {
  const form = useForm<AuthenticatorCodeValues>({ resolver: zodResolver(authenticatorCodeSchema), defaultValues: { code: '' } });
  const [failure, setFailure] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  useFocusOnArrival(form.setFocus, 'code');
  const qr = useMemo(
    () => (step.kind === 'set-up' ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(step.setupUri, { border: 2 }))}` : null),
    [step],
  );

  const onSubmit = form.handleSubmit(async ({ code }) => {
    setFailure(null);
    try {
      const result = await continueSignIn(code);
      if (result.isSignedIn) {
        setLeaving(true);
        enterPortal();
        return;
      }
      const next = await secondStepOf(result, step.username);
      if (next) onSecondStep(next);
      else setFailure(fallback.signIn);
    } catch (err) {
      form.setValue('code', '');
      setFailure(messageOf(err, fallback.twoStep));
    }
  });
  const pending = form.formState.isSubmitting || leaving;

  return (
    <AuthForm
      onSubmit={onSubmit}
      description={
        step.kind === 'code'
          ? 'Two-step verification: enter the 6-digit code your authenticator app shows for this account.'
          : 'Your account needs two-step verification. Scan the QR code with an authenticator app (such as Google Authenticator, Microsoft Authenticator or 1Password), or type the key into it, then enter the 6-digit code it shows.'
      }
    >
      {step.kind === 'set-up' && qr && (
        <figure className="flex flex-col items-center gap-3">
          <img src={qr} alt="QR code for your authenticator app" width={192} height={192} className="size-48 rounded-md bg-white" />
          <figcaption className="w-full text-center text-sm">
            <span className="text-muted-foreground">Or type this key:</span>{' '}
            <code className="break-all rounded bg-muted px-1.5 py-0.5 font-mono text-sm">{groupedSecret(step.secret)}</code>
          </figcaption>
        </figure>
      )}
      <TextField
        label="Authentication Code"
        registration={form.register('code')}
        error={form.formState.errors.code?.message}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={9}
        spellCheck={false}
      />
      <FailureAlert message={failure} />
      <SubmitButton ready={ready} pending={pending} pendingLabel="Verifying...">
        {step.kind === 'code' ? 'Verify' : 'Verify and Sign In'}
      </SubmitButton>
      <button type="button" onClick={() => onBack(step.username)} className={buttonClass('outline', 'md', 'w-full')}>
        Back to Sign In
      </button>
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
      <UsernameField registration={form.register('username')} error={errors.username?.message} />
      <TextField label="Email" type="email" registration={form.register('email')} error={errors.email?.message} autoComplete="email" spellCheck={false} />
      <NewPasswordFields
        label="Password"
        password={form.register('password')}
        passwordError={errors.password?.message}
        confirm={form.register('confirmPassword')}
        confirmError={errors.confirmPassword?.message}
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
      <UsernameField registration={form.register('username')} error={errors.username?.message} />
      <CodeField registration={form.register('code')} error={errors.code?.message} />
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

/**
 * Forgot password: the username, then the code the identity service e-mails to that account's
 * verified address with the new password. The first answer is the same for every username (the
 * service never says whether an account exists), and so is this page's.
 */
function ResetPasswordForm({
  ready,
  handoff,
  onReset,
  onBack,
}: {
  ready: boolean;
  handoff: Handoff;
  onReset: (username: string) => void;
  onBack: (username: string) => void;
}) {
  const [codeSent, setCodeSent] = useState(false);
  const request = useForm<ResetRequestValues>({ resolver: zodResolver(resetRequestSchema), defaultValues: { username: handoff.username } });
  const reset = useForm<ResetPasswordValues>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { username: handoff.username, code: '', password: '', confirmPassword: '' },
  });
  const [failure, setFailure] = useState<string | null>(null);
  useFocusOnArrival(request.setFocus, handoff.focus === 'username' ? 'username' : undefined);
  useEffect(() => {
    if (codeSent) reset.setFocus('code');
  }, [codeSent, reset]);

  const onRequest = request.handleSubmit(async ({ username }) => {
    setFailure(null);
    try {
      await forgotPassword(username);
      reset.setValue('username', username);
      setCodeSent(true);
    } catch (err) {
      setFailure(messageOf(err, fallback.resetRequest));
    }
  });
  const onConfirm = reset.handleSubmit(async ({ username, code, password }) => {
    setFailure(null);
    try {
      await confirmForgotPassword(username, code, password);
      toast({ title: 'Password reset', description: 'You can now sign in with your new password.' });
      onReset(username);
    } catch (err) {
      setFailure(messageOf(err, fallback.reset));
    }
  });
  const back = (
    <button
      type="button"
      onClick={() => onBack((codeSent ? reset.getValues('username') : request.getValues('username')).trim())}
      className={buttonClass('outline', 'md', 'w-full')}
    >
      Back to Sign In
    </button>
  );

  if (!codeSent) {
    return (
      <AuthForm onSubmit={onRequest} description="Forgot your password? Enter your username: we will email a code to the address on the account.">
        <UsernameField registration={request.register('username')} error={request.formState.errors.username?.message} />
        <FailureAlert message={failure} />
        <SubmitButton ready={ready} pending={request.formState.isSubmitting} pendingLabel="Sending...">
          Send Reset Code
        </SubmitButton>
        {back}
      </AuthForm>
    );
  }
  const errors = reset.formState.errors;
  return (
    <AuthForm onSubmit={onConfirm} description="Enter the code and choose a new password. Signing in again is needed everywhere after a reset.">
      <p role="status" className="rounded-md border border-border bg-muted p-3 text-sm">
        If an account with a verified address has that username, a code is on its way there.
      </p>
      <UsernameField registration={reset.register('username')} error={errors.username?.message} />
      <CodeField registration={reset.register('code')} error={errors.code?.message} />
      <NewPasswordFields
        label="New Password"
        password={reset.register('password')}
        passwordError={errors.password?.message}
        confirm={reset.register('confirmPassword')}
        confirmError={errors.confirmPassword?.message}
      />
      <FailureAlert message={failure} />
      <SubmitButton ready={ready} pending={reset.formState.isSubmitting} pendingLabel="Resetting...">
        Reset Password
      </SubmitButton>
      {back}
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

export function AuthForm({ onSubmit, description, children }: { onSubmit: () => void; description: string; children: ReactNode }) {
  return (
    // method="post": should the form ever be sent without JavaScript, no password lands in a URL.
    <form method="post" noValidate onSubmit={onSubmit} className="space-y-4">
      <p className="text-sm text-muted-foreground">{description}</p>
      {children}
    </form>
  );
}

/** A username, as every form here asks it. */
export function UsernameField({ registration, error }: { registration: UseFormRegisterReturn; error: string | undefined }) {
  return <TextField label="Username" registration={registration} error={error} autoComplete="username" autoCapitalize="none" spellCheck={false} />;
}

/** The 6-digit code the identity service e-mails. */
function CodeField({ registration, error }: { registration: UseFormRegisterReturn; error: string | undefined }) {
  return (
    <TextField
      label="Verification Code"
      registration={registration}
      error={error}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={12}
      spellCheck={false}
    />
  );
}

/** A new password and its confirmation ('Password' at sign-up, 'New Password' at a reset). */
export function NewPasswordFields({
  label,
  password,
  passwordError,
  confirm,
  confirmError,
}: {
  label: 'Password' | 'New Password';
  password: UseFormRegisterReturn;
  passwordError: string | undefined;
  confirm: UseFormRegisterReturn;
  confirmError: string | undefined;
}) {
  return (
    <>
      <TextField label={label} type="password" registration={password} error={passwordError} hint="At least 8 characters." autoComplete="new-password" />
      <TextField label={`Confirm ${label}`} type="password" registration={confirm} error={confirmError} autoComplete="new-password" />
    </>
  );
}

type TextFieldProps = {
  label: string;
  registration: UseFormRegisterReturn;
  error: string | undefined;
  hint?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name' | 'size'>;

export function TextField({ label, registration, error, hint, type = 'text', ...input }: TextFieldProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      <Input type={type} {...input} {...registration} />
    </Field>
  );
}

export function FailureAlert({ message }: { message: string | null }) {
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

export function SubmitButton({ ready, pending, pendingLabel, children }: { ready: boolean; pending: boolean; pendingLabel: string; children: ReactNode }) {
  return (
    <button type="submit" disabled={!ready || pending} aria-busy={pending || undefined} className={buttonClass('default', 'md', 'w-full')}>
      {pending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
      {pending ? pendingLabel : children}
    </button>
  );
}
