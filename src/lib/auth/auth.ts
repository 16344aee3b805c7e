/**
 * The authentication wrapper over aws-amplify v6 (SPEC §4 Authentication, §5 Identity wrapper,
 * §7 Identity service, §8 Identity wrapper messages). State lives in a nanostore shared by islands:
 * { user, loading }. Every call maps the identity service's errors to SPEC's messages and rethrows.
 */
import { Amplify } from 'aws-amplify';
import {
  confirmResetPassword,
  confirmSignIn as amplifyConfirmSignIn,
  confirmSignUp as amplifyConfirmSignUp,
  fetchAuthSession,
  getCurrentUser,
  resendSignUpCode,
  resetPassword,
  signIn as amplifySignIn,
  signOut as amplifySignOut,
  signUp as amplifySignUp,
  type SignInOutput,
  type SignUpOutput,
} from 'aws-amplify/auth';
import { atom } from 'nanostores';
import { ApiError, api, read, setAccessTokenProvider } from '../api-client.ts';

/** SPEC §3 Current user: username; email (the login identifier used at sign in); attributes (the sign-in details). */
export interface CurrentUser {
  username: string;
  email: string | undefined;
  attributes: Record<string, unknown> | undefined;
}

export interface AuthState {
  user: CurrentUser | null;
  loading: boolean;
}

export const $auth = atom<AuthState>({ user: null, loading: true });

/** An error with the identity service's name kept (SPEC §8: "pass name and message through"). */
export class AuthError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

const knownMessages: Record<string, string> = {
  InvalidParameterException: 'Invalid user pool configuration. Please check your user pool settings.',
  UsernameExistsException: 'An account with this username already exists.',
  InvalidPasswordException: 'Password does not meet requirements. Please check your user pool password policy.',
  UserLambdaValidationException: 'User validation failed. Please check your input.',
  UserAlreadyAuthenticatedException: 'There is already a signed in user.',
};

export function toAuthError(err: unknown, fallback: string): AuthError {
  const name = (err as { name?: string })?.name ?? 'Error';
  const known = knownMessages[name];
  if (known) return new AuthError(name, known);
  const message = (err as { message?: string })?.message;
  return new AuthError(name, message || fallback);
}

function required(value: string, message: string) {
  if (!value || !value.trim()) throw new AuthError('ValidationError', message);
}

let configured: Promise<void> | null = null;

/** Configures Amplify from the server's identity settings, once per page. */
export function configureAuth(): Promise<void> {
  configured ??= (async () => {
    const config = await read(api.identity.config.$get()).catch((err: unknown) => {
      // The server answered, but not with the settings: sign-in is unavailable (a network failure is rethrown as it is).
      if (err instanceof ApiError) throw new AuthError('ConfigurationError', 'Sign-in is unavailable right now. Please try again later.');
      throw err;
    });
    Amplify.configure({
      Auth: {
        Cognito: {
          userPoolId: config.userPoolId,
          userPoolClientId: config.userPoolClientId,
          ...(config.userPoolEndpoint ? { userPoolEndpoint: new URL(config.userPoolEndpoint, window.location.origin).toString() } : {}),
          loginWith: { username: true },
          signUpVerificationMethod: 'code',
        },
      },
    });
    // Admin API calls carry the current access token (refreshed by Amplify when it expires).
    setAccessTokenProvider(async () => (await fetchAuthSession()).tokens?.accessToken?.toString() ?? null);
  })();
  return configured;
}

/** SPEC §4: loading until the current-user lookup finishes; failure means signed out. */
export async function refresh(): Promise<CurrentUser | null> {
  try {
    await configureAuth();
    const current = await getCurrentUser();
    const user: CurrentUser = {
      username: current.username,
      email: current.signInDetails?.loginId,
      attributes: current.signInDetails as Record<string, unknown> | undefined,
    };
    $auth.set({ user, loading: false });
    return user;
  } catch {
    $auth.set({ user: null, loading: false });
    return null;
  }
}

export async function signIn(username: string, password: string): Promise<SignInOutput> {
  required(username, 'Username is required');
  required(password, 'Password is required');
  $auth.set({ ...$auth.get(), loading: true });
  try {
    await configureAuth();
    const result = await amplifySignIn({ username: username.trim(), password, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
    if (result.isSignedIn) await refresh();
    else $auth.set({ ...$auth.get(), loading: false });
    return result;
  } catch (err) {
    $auth.set({ ...$auth.get(), loading: false });
    throw toAuthError(err, 'Failed to sign in');
  }
}

/**
 * Answers the sign-in step the identity service asked for after the password (SPEC §4 sign-in steps:
 * TOTP, MFA selection and setup): a code from the authenticator app, or the MFA type to set up.
 * Signed in when the service says so.
 */
export async function continueSignIn(challengeResponse: string): Promise<SignInOutput> {
  required(challengeResponse, 'Authentication code is required');
  $auth.set({ ...$auth.get(), loading: true });
  try {
    await configureAuth();
    const result = await amplifyConfirmSignIn({ challengeResponse: challengeResponse.trim() });
    if (result.isSignedIn) await refresh();
    else $auth.set({ ...$auth.get(), loading: false });
    return result;
  } catch (err) {
    $auth.set({ ...$auth.get(), loading: false });
    throw toAuthError(err, 'Failed to sign in');
  }
}

/** Sign-up only calls the service: it does not sign the user in (SPEC §4). */
export async function signUp(account: { username: string; email: string; password: string }): Promise<SignUpOutput> {
  required(account.username, 'Username is required');
  required(account.password, 'Password is required');
  try {
    await configureAuth();
    return await amplifySignUp({
      username: account.username.trim(),
      password: account.password,
      options: { userAttributes: { email: account.email.trim() } },
    });
  } catch (err) {
    throw toAuthError(err, 'Failed to sign up');
  }
}

export async function confirmSignUp(username: string, code: string, forceAliasCreation?: boolean) {
  required(username, 'Username is required');
  required(code, 'Verification code is required');
  try {
    await configureAuth();
    return await amplifyConfirmSignUp({ username: username.trim(), confirmationCode: code.trim(), options: { forceAliasCreation } });
  } catch (err) {
    throw toAuthError(err, 'Failed to confirm sign up');
  }
}

export async function resendCode(username: string) {
  required(username, 'Username is required');
  try {
    await configureAuth();
    return await resendSignUpCode({ username: username.trim() });
  } catch (err) {
    throw toAuthError(err, 'Failed to resend code');
  }
}

export async function forgotPassword(username: string) {
  required(username, 'Username is required');
  try {
    await configureAuth();
    return await resetPassword({ username: username.trim() });
  } catch (err) {
    throw toAuthError(err, 'Failed to reset password');
  }
}

export async function confirmForgotPassword(username: string, code: string, newPassword: string) {
  required(username, 'Username is required');
  required(newPassword, 'Password is required');
  required(code, 'Verification code is required');
  try {
    await configureAuth();
    return await confirmResetPassword({ username: username.trim(), confirmationCode: code.trim(), newPassword });
  } catch (err) {
    throw toAuthError(err, 'Failed to confirm password reset');
  }
}

/**
 * New tokens now, from the refresh token: a Cognito pool's group is in the token, so an approval made
 * since the last one shows only in a new one (the embedded service reads it on every call).
 */
export async function renewTokens(): Promise<void> {
  await configureAuth();
  await fetchAuthSession({ forceRefresh: true });
}

/** Sign-out revokes the refresh token at the identity service, then clears the user. */
export async function signOut(): Promise<void> {
  $auth.set({ ...$auth.get(), loading: true });
  try {
    await configureAuth();
    await amplifySignOut();
    $auth.set({ user: null, loading: false });
  } catch (err) {
    $auth.set({ ...$auth.get(), loading: false });
    throw toAuthError(err, 'Failed to sign out');
  }
}
