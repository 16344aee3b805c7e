/**
 * /accept-invitation#<token> (docs/decisions/041): an admin's invitation, opened from its e-mail. The
 * token stays in the fragment (no request carries it in a URL: not the log, not the CDN, not a
 * Referer); the island sends it in a header. The holder sees the address and who invited them,
 * chooses a username and a password (sign-up's rules and SPEC §5 messages; the server's password
 * policy after), and is then a confirmed admin, taken to /login with the username filled. A link
 * that cannot be used (expired, used, withdrawn, mistyped) says so in one sentence.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { CircleAlert, LoaderCircle, MailCheck, RotateCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { firm } from '../../config/firm.ts';
import { ApiError, type ApiData, api, read } from '../../lib/api-client.ts';
import { signOut } from '../../lib/auth/auth.ts';
import { type AcceptInvitationValues, acceptInvitationSchema } from '../../lib/auth/auth.schemas.ts';
import { handOffToLogin } from '../../lib/auth/login-handoff.ts';
import { formatFirmDateTime } from '../../shared/firm-time.ts';
import { INVITATION_TOKEN_HEADER } from '../../shared/schemas/admins.ts';
import { buttonClass } from '../ui/button-class.ts';
import { useFragment } from '../ui/use-fragment.ts';
import { AuthForm, FailureAlert, NewPasswordFields, SubmitButton, UsernameField } from './LoginPage.tsx';

type Invitation = ApiData<typeof api.identity.invitation.$get>;
type PageState = { status: 'loading' } | { status: 'ready'; invitation: Invitation } | { status: 'refused'; message: string } | { status: 'error' };

/** SPEC §8: the identity wrapper's words for a password the server's policy refuses. */
const POLICY_MESSAGE = 'Password does not meet requirements. Please check your user pool password policy.';
const NOT_SENT = 'Your account could not be created. Please check your connection and try again.';
const NO_LINK = 'This page opens from the link in your invitation e-mail. Please open that link again.';

const withToken = (token: string) => ({ headers: { [INVITATION_TOKEN_HEADER]: token } });

export default function AcceptInvitationPage() {
  const token = useFragment();
  const [state, setState] = useState<PageState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the trigger to load again
  useEffect(() => {
    if (token === null) return;
    if (!token) {
      setState({ status: 'refused', message: NO_LINK });
      return;
    }
    let current = true;
    read(api.identity.invitation.$get({}, withToken(token))).then(
      (invitation) => current && setState({ status: 'ready', invitation }),
      (err: unknown) => {
        if (!current) return;
        const message = err instanceof ApiError && err.status < 500 ? err.details.error : undefined;
        setState(message ? { status: 'refused', message } : { status: 'error' });
      },
    );
    return () => {
      current = false;
    };
  }, [token, attempt]);

  if (state.status === 'loading' || token === null)
    return (
      <p role="status" className="flex items-center justify-center gap-2 text-muted-foreground">
        <LoaderCircle aria-hidden="true" className="size-5 animate-spin motion-reduce:animate-none" />
        Opening your invitation...
      </p>
    );
  if (state.status === 'error')
    return (
      <div role="alert" className="space-y-3 rounded-md border border-destructive p-4">
        <p className="font-medium">Your invitation could not be opened. Please check your connection and try again.</p>
        <button type="button" className={buttonClass('outline', 'md')} onClick={() => setAttempt((n) => n + 1)}>
          <RotateCw aria-hidden="true" className="size-4" />
          Try Again
        </button>
      </div>
    );
  if (state.status === 'refused')
    return (
      <p role="alert" className="flex items-start gap-2 rounded-md border border-destructive p-4 font-medium">
        <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-destructive" />
        {state.message}
      </p>
    );
  return <AcceptForm token={token} invitation={state.invitation} onUnusable={(message) => setState({ status: 'refused', message })} />;
}

function AcceptForm({ token, invitation, onUnusable }: { token: string; invitation: Invitation; onUnusable: (message: string) => void }) {
  const form = useForm<AcceptInvitationValues>({
    resolver: zodResolver(acceptInvitationSchema),
    defaultValues: { username: '', password: '', confirmPassword: '' },
  });
  const [failure, setFailure] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(async ({ username, password }) => {
    setFailure(null);
    try {
      const created = await read(api.identity.invitation.accept.$post({ json: { username, password } }, withToken(token)));
      setLeaving(true);
      // Whoever was signed in in this browser is not the new admin: /login must not send them on.
      await signOut().catch(() => undefined);
      handOffToLogin({ username: created.username, notice: 'Your admin account is ready. Sign in with your new password.' });
      window.location.assign('/login');
    } catch (err) {
      if (!(err instanceof ApiError) || err.status >= 500) return setFailure(NOT_SENT);
      const { error, fields } = err.details;
      if (err.status === 404) return onUnusable(error ?? NO_LINK);
      if (fields?.username) form.setError('username', { type: 'server', message: fields.username }, { shouldFocus: true });
      if (fields?.password) {
        // The server's reason beside the field ("too common", "contains the username"), SPEC's words above the button.
        form.setError('password', { type: 'server', message: fields.password.replace(/^Password did not conform with policy: /, '') }, { shouldFocus: true });
        return setFailure(POLICY_MESSAGE);
      }
      setFailure(error ?? NOT_SENT);
    }
  });

  return (
    <div className="rounded-lg border border-border bg-background p-6 shadow-sm sm:p-8">
      <div className="mb-6 text-center">
        <span className="mx-auto mb-3 inline-flex size-12 items-center justify-center rounded-full bg-muted text-primary">
          <MailCheck aria-hidden="true" className="size-6" />
        </span>
        <h2 className="text-xl font-bold">Create your admin account</h2>
      </div>
      <dl className="mb-6 grid gap-1 rounded-md bg-muted p-3 text-sm">
        <div>
          <dt className="inline font-medium">Invited: </dt>
          <dd className="inline break-words">{invitation.email}</dd>
        </div>
        <div>
          <dt className="inline font-medium">By: </dt>
          <dd className="inline break-words">{invitation.invitedBy}</dd>
        </div>
        <div>
          <dt className="inline font-medium">Link valid until: </dt>
          <dd className="inline">{formatFirmDateTime(invitation.expiresAt)}</dd>
        </div>
      </dl>
      <AuthForm
        onSubmit={onSubmit}
        description={`Choose the username and password you will sign in with. Your account is an admin of ${firm.name}'s website at once; the link then stops working.`}
      >
        <UsernameField registration={form.register('username')} error={errors.username?.message} />
        <NewPasswordFields
          label="Password"
          password={form.register('password')}
          passwordError={errors.password?.message}
          confirm={form.register('confirmPassword')}
          confirmError={errors.confirmPassword?.message}
        />
        <FailureAlert message={failure} />
        <SubmitButton ready pending={form.formState.isSubmitting || leaving} pendingLabel="Creating account...">
          Create Admin Account
        </SubmitButton>
      </AuthForm>
    </div>
  );
}
