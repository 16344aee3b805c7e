/**
 * The guard around every admin screen (SPEC §2 Admin routes). The check: refresh() (the current-user
 * lookup), then GET /api/admin/session, which the server answers only for an admin.
 * - while it runs: 'Checking authentication...';
 * - no user: the `fallback` when one is given (and no redirect: the caller chose what to show),
 *   otherwise a redirect to /login with 'Access Restricted' on screen until the page goes;
 * - a user the server refuses (403): 'Access Restricted', with a Sign Out button to switch accounts;
 * - a user who asked to be an admin and waits for approval (403 approval-pending, docs/decisions/041):
 *   'Waiting for approval' in plain words, Check Again and Sign Out; never an admin screen;
 * - a user whose token the server does not accept (401): signed out locally, then as "no user";
 * - the check itself failing (network, 5xx): a message and Try Again.
 * Children read the server's view of the admin with useAdminSession().
 */
import { Hourglass, LoaderCircle, RotateCw, ShieldAlert } from 'lucide-react';
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { type ApiData, ApiError, api, read } from '../../lib/api-client.ts';
import { refresh, renewTokens, signOut } from '../../lib/auth/auth.ts';
import { APPROVAL_PENDING } from '../../shared/schemas/admins.ts';
import SignOutButton from './SignOutButton.tsx';
import { Button } from '../ui/button.tsx';

/** GET /api/admin/session: who the guard let in. */
export type AdminSession = ApiData<typeof api.admin.session.$get>;

type GuardState =
  | { status: 'checking' }
  | { status: 'signed-out' }
  | { status: 'forbidden'; username: string }
  | { status: 'pending'; username: string }
  | { status: 'failed' }
  | { status: 'allowed'; session: AdminSession };

const AdminSessionContext = createContext<AdminSession | null>(null);

export function useAdminSession(): AdminSession {
  const session = useContext(AdminSessionContext);
  if (!session) throw new Error('useAdminSession() is only available inside <AdminGuard>.');
  return session;
}

export const LOGIN_PATH = '/login';

/**
 * Who is signed in, as the server sees it (tokens it no longer accepts are dropped). /login asks it too.
 * `renew`: fresh tokens first (checking again whether a request was approved: with a Cognito pool the
 * group is in the token).
 */
export async function checkAdmin({ renew = false } = {}): Promise<GuardState> {
  const user = await refresh();
  if (!user) return { status: 'signed-out' };
  try {
    if (renew) await renewTokens().catch(() => undefined);
    return { status: 'allowed', session: await read(api.admin.session.$get()) };
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) {
      return err.details.code === APPROVAL_PENDING ? { status: 'pending', username: user.username } : { status: 'forbidden', username: user.username };
    }
    if (err instanceof ApiError && err.status === 401) {
      // Tokens the server no longer accepts: drop them, or /login would answer "already signed in".
      await signOut().catch(() => undefined);
      return { status: 'signed-out' };
    }
    return { status: 'failed' };
  }
}

export default function AdminGuard({ children, fallback }: { children: ReactNode; fallback?: ReactNode }) {
  const [state, setState] = useState<GuardState>({ status: 'checking' });
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => {
    setState({ status: 'checking' });
    setAttempt((n) => n + 1);
  }, []);
  // Check Again while waiting for approval asks with fresh tokens (every later check does too: harmless).
  const [renew, setRenew] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the Try Again trigger: each bump checks again
  useEffect(() => {
    let current = true;
    checkAdmin({ renew }).then(
      (next) => current && setState(next),
      () => current && setState({ status: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [attempt]);

  const redirect = state.status === 'signed-out' && fallback === undefined;
  useEffect(() => {
    if (redirect) window.location.replace(LOGIN_PATH);
  }, [redirect]);

  switch (state.status) {
    case 'checking':
      return (
        <CenteredPanel>
          <p role="status" className="flex items-center gap-2 text-muted-foreground">
            <LoaderCircle aria-hidden="true" className="size-5 animate-spin motion-reduce:animate-none" />
            Checking authentication...
          </p>
        </CenteredPanel>
      );
    case 'signed-out':
      return fallback !== undefined ? <>{fallback}</> : <AccessRestricted />;
    case 'forbidden':
      return (
        <AccessRestricted>
          <p className="text-sm text-muted-foreground">
            You are signed in as <strong className="text-foreground">{state.username}</strong>, which is not an admin account.
          </p>
          <SignOutButton />
        </AccessRestricted>
      );
    case 'pending':
      return (
        <CenteredPanel>
          <div className="w-full max-w-md space-y-4 rounded-lg border border-border bg-background p-6 text-center shadow-sm">
            <Hourglass aria-hidden="true" className="mx-auto size-10 text-primary" />
            <h1 className="text-xl font-bold">Waiting for approval</h1>
            <p>
              You are signed in as <strong>{state.username}</strong>. Your request to use the admin portal has been received, and an admin of the firm has not
              approved it yet.
            </p>
            <p className="text-sm text-muted-foreground">
              Until then you cannot see or change anything here. If it takes long, ask an admin at the firm to approve you on the Admins screen.
            </p>
            <div className="flex flex-col justify-center gap-2 sm:flex-row">
              <Button
                variant="outline"
                onClick={() => {
                  setRenew(true);
                  retry();
                }}
              >
                <RotateCw aria-hidden="true" className="size-4" />
                Check Again
              </Button>
              <SignOutButton />
            </div>
          </div>
        </CenteredPanel>
      );
    case 'failed':
      return (
        <CenteredPanel>
          <div role="alert" className="space-y-4 text-center">
            <p>We could not check your sign-in. Please check your connection and try again.</p>
            <Button onClick={retry}>Try Again</Button>
          </div>
        </CenteredPanel>
      );
    case 'allowed':
      return <AdminSessionContext.Provider value={state.session}>{children}</AdminSessionContext.Provider>;
  }
}

function AccessRestricted({ children }: { children?: ReactNode }) {
  return (
    <CenteredPanel>
      <div className="w-full max-w-md space-y-4 rounded-lg border border-border bg-background p-6 text-center shadow-sm">
        <ShieldAlert aria-hidden="true" className="mx-auto size-10 text-primary" />
        <h1 className="text-xl font-bold">Access Restricted</h1>
        <p>Please sign in to access this area.</p>
        {children ?? (
          <a href={LOGIN_PATH} className="inline-block text-primary underline underline-offset-4">
            Go to sign in
          </a>
        )}
      </div>
    </CenteredPanel>
  );
}

function CenteredPanel({ children }: { children: ReactNode }) {
  return <div className="flex min-h-[60vh] items-center justify-center px-4 py-10">{children}</div>;
}
