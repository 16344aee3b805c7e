/**
 * The embedded identity service (docs/decisions/014): the part of Cognito's user-pool API that
 * aws-amplify uses, written for this site and kept in its database, demanding what Cognito demands.
 *
 * - Tokens are RS256 JWTs with Cognito's claims, signed by keys generated per install; access and ID
 *   tokens last 1 hour; the refresh token is an opaque secret, stored hashed, one per sign-in (its
 *   session id is the access token's `origin_jti`). Revoking it, or signing out everywhere, ends the
 *   session, and every token of a revoked session is refused at once.
 * - Passwords are scrypt hashes; one-time codes are random, single-use, expire, allow 5 tries in
 *   their lifetime and are stored as keyed digests.
 * - Guessing is bounded (./guessing.ts, decision 039): per code, per client group, per username and
 *   client, per username from unknown devices, and pool-wide, counted before the secret is checked.
 * - Unknown users get the answers real ones get (Cognito's PreventUserExistenceErrors), and timing
 *   does not tell them apart.
 * - USER_SRP_AUTH, TOTP MFA and their challenges are Cognito's (challenges.ts, docs/decisions/040).
 * - `email_verified` and every attribute but `email` are the service's to set, never the caller's.
 */
import { randomBytes, randomInt, timingSafeEqual, createHash } from 'node:crypto';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { EmailAllowlist } from '../auth/admin-allowlist.ts';
import type { AccessTokenVerifier, AdminPrincipal } from '../auth/verifier.ts';
import { verifyNothing, verifyPassword } from '../crypto/password-hash.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Clock } from '../clock.ts';
import { admissionRepository, emailKeyOf } from './admission.repository.ts';
import { signInSteps, type AuthAnswer } from './challenges.ts';
import { fail, IdentityError } from './identity-error.ts';
import { identityRepository, type CodePurpose, type IdentityUser } from './identity.repository.ts';
import { afterAnswer, GUESSING, guessingGates, knownDevices } from './guessing.ts';
import { passwordProblem } from './password-policy.ts';
import { ACCESS_TOKEN_SECONDS, signingKeys } from './signing-keys.ts';

export const ISSUER_PREFIX = 'urn:firm-site:identity:';
const REFRESH_TOKEN_DAYS = 30;
const SIGN_UP_CODE_MS = 24 * 3600_000; // Cognito: a sign-up code is valid for 24 hours
const RESET_CODE_MS = 3600_000; // Cognito: a reset code is valid for 1 hour
const codeLifetime = (purpose: CodePurpose) => (purpose === 'confirm-sign-up' ? SIGN_UP_CODE_MS : RESET_CODE_MS);
/** The guessing rules (./guessing.ts), under the name the service's callers know them by. */
export const THROTTLE = GUESSING;

export type Message = { username: string; to: string; subject: string; text: string; code: string };

export interface EmbeddedIdentityOptions {
  database: Database;
  secrets: SecretBox;
  clock: Clock;
  allowlist: EmailAllowlist;
  /** Delivers a verification or reset code to the user's address. */
  sendCode(message: Message): Promise<void> | void;
  /** Where a failure of work done after an answer (a code stored and sent) is reported. */
  log?: { error(message: string, fields?: object): void };
  /** Runs work due after an answer; by default soon after it, tracked (`settled`). Tests hold it. */
  afterAnswer?: (work: () => Promise<void>) => void;
  /** ADMIN_MFA: `required` makes every admin set up TOTP at the next sign-in. Unset: optional. */
  adminMfa?: AdminMfa;
}

export type AdminMfa = 'required' | 'optional';

export { IdentityError };
const incorrect = () => fail('NotAuthorizedException', 'Incorrect username or password.');
const codeMismatch = () => fail('CodeMismatchException', 'Invalid verification code provided, please try again.');
const tooManyCodes = () => fail('LimitExceededException', 'Attempt limit exceeded, please try after some time.');
const tooManyRequests = () => fail('TooManyRequestsException', 'Too many requests, please try again later.');
const attemptsExceeded = () => fail('NotAuthorizedException', 'Password attempts exceeded');
const invalidParameter = (message: string) => fail('InvalidParameterException', message);

export interface CallContext {
  /** The caller's address (api/http/rate-limit.ts clientOf), for the per-address throttle. */
  clientAddress: string;
  /** The username key the caller's known-device cookie names, when it carried a valid one (./guessing.ts). */
  deviceUser?: string | null;
}

export interface VerifiedAccess {
  user: IdentityUser;
  sessionId: string;
  claims: Record<string, unknown>;
}

const str = z.string().max(2048);
const usernameSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[\p{L}\p{M}\p{S}\p{N}\p{P}]+$/u);
const attributes = z.array(z.object({ Name: str, Value: str.optional() })).max(50);
const mfaSettings = z.object({ Enabled: z.boolean().optional(), PreferredMfa: z.boolean().optional() });

/** Cognito's schemas for the actions the gateway passes (extra members are ignored, as Cognito does). */
const schemas = {
  SignUp: z.object({ ClientId: str, Username: str, Password: z.string().max(1024), UserAttributes: attributes.optional() }),
  ConfirmSignUp: z.object({ ClientId: str, Username: str, ConfirmationCode: str }),
  ResendConfirmationCode: z.object({ ClientId: str, Username: str }),
  InitiateAuth: z.object({ ClientId: str, AuthFlow: str, AuthParameters: z.record(z.string(), z.string().max(8192)).optional() }),
  GetTokensFromRefreshToken: z.object({ ClientId: str, RefreshToken: z.string().max(8192) }),
  GetUser: z.object({ AccessToken: z.string().max(8192) }),
  ForgotPassword: z.object({ ClientId: str, Username: str }),
  ConfirmForgotPassword: z.object({ ClientId: str, Username: str, ConfirmationCode: str, Password: z.string().max(1024) }),
  ChangePassword: z.object({ AccessToken: z.string().max(8192), PreviousPassword: z.string().max(1024), ProposedPassword: z.string().max(1024) }),
  RevokeToken: z.object({ ClientId: str, Token: z.string().max(8192) }),
  GlobalSignOut: z.object({ AccessToken: z.string().max(8192) }),
  RespondToAuthChallenge: z.object({
    ClientId: str,
    ChallengeName: str,
    Session: z.string().max(8192).optional(),
    ChallengeResponses: z.record(z.string(), z.string().max(8192)).optional(),
  }),
  AssociateSoftwareToken: z.object({ AccessToken: z.string().max(8192).optional(), Session: z.string().max(8192).optional() }),
  VerifySoftwareToken: z.object({
    AccessToken: z.string().max(8192).optional(),
    Session: z.string().max(8192).optional(),
    UserCode: z.string().max(16),
    FriendlyDeviceName: str.optional(),
  }),
  SetUserMFAPreference: z.object({
    AccessToken: z.string().max(8192),
    SoftwareTokenMfaSettings: mfaSettings.optional(),
    SMSMfaSettings: mfaSettings.optional(),
    EmailMfaSettings: mfaSettings.optional(),
  }),
};
export type IdentityAction = keyof typeof schemas;
export const identityActions = Object.keys(schemas) as IdentityAction[];

export const keyOf = (username: string) => username.normalize('NFKC').toLowerCase();
const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
/** Compared with when there is no code: a digest's length (base64url of 32 bytes), matching none. */
const NO_CODE = '-'.repeat(43);

/** a***@f*** */
const maskAddress = (email: string) => {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain.slice(0, 1)}***`;
};

export async function startEmbeddedIdentity(options: EmbeddedIdentityOptions) {
  const { database, secrets, clock, allowlist } = options;
  const repo = identityRepository(database);
  const admission = admissionRepository(database);
  const keys = signingKeys(repo, secrets);
  const guessing = guessingGates({ repo, clock, refusals: { attemptsExceeded, tooManyCodes, tooManyRequests } });
  const deferred = afterAnswer(
    (err) => (options.log ?? { error: (m: string, f?: object) => console.error(m, f) }).error('identity: sending a code failed', { err: String(err) }),
    options.afterAnswer,
  );
  const devices = knownDevices(secrets, clock);
  /** Sign-ins that issued a session: the gateway marks the device known (call's `signedIn`). */
  const signIns = new WeakMap<object, string>();

  let pool = await repo.pool();
  if (!pool) {
    const suffix = randomBytes(9).toString('base64url').replace(/[-_]/g, 'x');
    await repo.insertPool({ id: `local_${suffix}`, clientId: randomBytes(16).toString('hex').slice(0, 26) });
    pool = (await repo.pool())!; // the first row wins when containers start together
  }
  await keys.ensure();
  const { id: userPoolId, clientId } = pool;
  const issuer = `${ISSUER_PREFIX}${userPoolId}`;
  const now = () => clock.now();

  /** ADMIN_MFA=required covers every admin: in the group, or by a verified address on ADMIN_EMAILS. */
  const mfaRequired = (user: IdentityUser) =>
    options.adminMfa === 'required' && user.status === 'CONFIRMED' && (user.isAdmin || (user.emailVerified && allowlist.allows(user.email)));
  const steps = signInSteps<CallContext>({
    database,
    secrets,
    clock,
    userPoolId,
    usernameKey: keyOf,
    mfaRequired,
    passwordRight,
    // Each SRP answer costs two exponentiations: counted against the client, as a wrong password is.
    countClaim: (ctx) => guessing.count(`address:${ctx.clientAddress}`, GUESSING.address, attemptsExceeded),
    claimRight: (ctx) => guessing.forgive(`address:${ctx.clientAddress}`),
    countCodeTry: (user) => guessing.count(`mfa:${user.usernameKey}`, GUESSING.pair, tooManyCodes),
    codeRight: (user) => guessing.clear(`mfa:${user.usernameKey}`),
    signedIn: async (user) => {
      const session = await newSession(user);
      return issueTokens(user, session.id, session.refreshToken);
    },
    verifyAccessToken: (token) => verifyAccessToken(token),
  });

  /** The password (or its SRP proof) was right (the guessing gates already gave back its attempts): MFA or tokens. */
  async function passwordRight(user: IdentityUser, _ctx: CallContext): Promise<AuthAnswer> {
    if (!user.enabled) fail('NotAuthorizedException', 'User is disabled.');
    if (user.status !== 'CONFIRMED') fail('UserNotConfirmedException', 'User is not confirmed.');
    return steps.afterPassword(user);
  }

  function checkClient(given: string) {
    if (given !== clientId) fail('ResourceNotFoundException', 'User pool client does not exist.');
  }
  const codeDigest = (userId: string, purpose: CodePurpose, code: string) => secrets.digest(`${userId}:${code}`, `identity-code:${purpose}`);

  /**
   * The code-sending actions' common part, for a real user or not: the same limit on sends per username
   * (so the limit tells nothing) before the answer; after it, the same work for every username (the
   * tries at a code start again), and for a real one the code stored and mailed. So the answer is made
   * alike for all, and its time tells nothing.
   */
  async function sendCodeFor(username: string, user: IdentityUser | null, purpose: CodePurpose) {
    const usernameKey = keyOf(username);
    await guessing.send(usernameKey);
    const at = now();
    deferred.later(async () => {
      await guessing.sent(usernameKey, purpose, at, codeLifetime(purpose));
      if (user) await sendCode(user, purpose, at);
    });
  }

  async function sendCode(user: IdentityUser, purpose: CodePurpose, at: Date) {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await repo.putCode({ userId: user.id, purpose, codeHash: codeDigest(user.id, purpose, code), expiresAt: new Date(at.getTime() + codeLifetime(purpose)) });
    const subject = purpose === 'confirm-sign-up' ? 'Your verification code' : 'Your password reset code';
    const text =
      purpose === 'confirm-sign-up'
        ? `Your verification code is ${code}. It expires in 24 hours.`
        : `Your password reset code is ${code}. It expires in 1 hour. If you did not ask to reset your password, ignore this message.`;
    await options.sendCode({ username: user.username, to: user.email, subject, text, code });
  }

  /**
   * What a code-sending action answers. The destination is made up from the username alone, for real
   * users too: a masked real address would differ from the made-up one an unknown name gets (and the
   * admin screens never show it), so it would tell which usernames exist.
   */
  const delivery = (destination: string) => ({ CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: destination } });
  /** A stable made-up destination for an unknown username: it must look like a real one. */
  const madeUpDestination = (username: string) => {
    const letters = secrets.digest(keyOf(username), 'identity-fake-destination').replace(/[^a-z]/g, '');
    return `${letters[0] ?? 'a'}***@${letters[1] ?? 'g'}***`;
  };

  /**
   * Checks a one-time code. The gates come first (./guessing.ts): tries are counted on the code, or for
   * a username with none on a stand-in kept as long, so the sixth try answers the same for everyone,
   * and a dead code stays dead until a new one is sent. A right code is taken only if `accept` (checks
   * that need the account) passes, so a refused new password does not spend it.
   */
  async function spendCode(
    username: string,
    user: IdentityUser | null,
    purpose: CodePurpose,
    code: string,
    ctx: CallContext,
    accept: () => void | Promise<void> = () => {},
  ) {
    const attempt = await guessing.code({
      usernameKey: keyOf(username),
      clientAddress: ctx.clientAddress,
      deviceUser: ctx.deviceUser,
      userId: user?.id ?? null,
      purpose,
      ttlMs: codeLifetime(purpose),
    });
    const stored = attempt.code;
    // Digested and compared for every username, with a code or not: the same work either way.
    const digest = codeDigest(user?.id ?? '', purpose, code.trim());
    const matches = sameText(stored?.codeHash ?? NO_CODE, digest);
    if (!user || !stored || !matches) return codeMismatch();
    await attempt.right();
    if (stored.expiresAt <= now()) {
      await repo.deleteCode(user.id, purpose);
      return fail('ExpiredCodeException', 'Invalid code provided, please request a code again.');
    }
    await accept();
    if (!(await repo.takeCode(user.id, purpose, digest))) codeMismatch(); // used by a parallel request
  }

  async function issueTokens(user: IdentityUser, sessionId: string, withRefresh: string | null) {
    const at = now();
    const authTime = Math.floor(at.getTime() / 1000);
    const groups = user.isAdmin ? { 'cognito:groups': ['admin'] } : {};
    const common = { sub: user.id, origin_jti: sessionId, event_id: crypto.randomUUID(), auth_time: authTime, jti: crypto.randomUUID(), ...groups };
    const accessToken = await keys.sign(
      { ...common, token_use: 'access', scope: 'aws.cognito.signin.user.admin', client_id: clientId, username: user.username },
      { issuer, now: at },
    );
    const idToken = await keys.sign(
      { ...common, jti: crypto.randomUUID(), token_use: 'id', 'cognito:username': user.username, email: user.email, email_verified: user.emailVerified },
      { issuer, audience: clientId, now: at },
    );
    const result = {
      ChallengeParameters: {},
      AuthenticationResult: {
        AccessToken: accessToken,
        ExpiresIn: ACCESS_TOKEN_SECONDS,
        TokenType: 'Bearer',
        IdToken: idToken,
        ...(withRefresh ? { RefreshToken: withRefresh } : {}),
      },
    };
    // A new session is a sign-in: the gateway marks this device as known for the username.
    if (withRefresh) signIns.set(result, user.usernameKey);
    return result;
  }

  async function newSession(user: IdentityUser) {
    const id = crypto.randomUUID();
    const secret = randomBytes(32).toString('base64url');
    await repo.insertSession({
      id,
      userId: user.id,
      clientId,
      refreshHash: sha256(secret),
      expiresAt: new Date(now().getTime() + REFRESH_TOKEN_DAYS * 86_400_000),
    });
    return { id, refreshToken: `${id}.${secret}` };
  }

  /** The session a refresh token belongs to, if it is live; null for anything else. */
  async function refreshSession(token: string) {
    // Exactly "id.secret": a token with anything more (a trailing ".") is not the one handed out.
    const parts = token.split('.');
    const [id, secret] = parts;
    if (parts.length !== 2 || !id || !secret || !/^[0-9a-f-]{36}$/.test(id)) return null;
    const found = await repo.sessionWithUser(id);
    if (!found || !sameText(found.session.refreshHash, sha256(secret))) return null;
    return found;
  }

  async function refresh(token: string) {
    const found = await refreshSession(token);
    const { session, user } = found ?? {};
    // An admin ADMIN_MFA=required covers, without TOTP yet, signs in again to set it up.
    if (!session || !user || session.revokedAt || session.expiresAt <= now() || !user.enabled || user.status !== 'CONFIRMED' || steps.mustSetUpMfa(user)) {
      return fail('NotAuthorizedException', 'Invalid Refresh Token');
    }
    return issueTokens(user, session.id, null);
  }

  /** Every token-taking action and every admin API call: signature, claims, live session, live user. */
  async function verifyAccessToken(token: string): Promise<VerifiedAccess> {
    let claims: Record<string, unknown>;
    try {
      claims = (await keys.verify(token, { issuer, now: now() })) as Record<string, unknown>;
    } catch {
      return fail('NotAuthorizedException', 'Invalid Access Token');
    }
    if (claims.token_use !== 'access' || claims.client_id !== clientId || typeof claims.origin_jti !== 'string' || typeof claims.sub !== 'string') {
      return fail('NotAuthorizedException', 'Invalid Access Token');
    }
    const found = await repo.sessionWithUser(claims.origin_jti);
    if (!found || found.session.userId !== claims.sub || found.session.revokedAt) return fail('NotAuthorizedException', 'Access Token has been revoked');
    if (!found.user.enabled) return fail('NotAuthorizedException', 'User is disabled.');
    return { user: found.user, sessionId: found.session.id, claims };
  }

  const actions: { [A in IdentityAction]: (body: z.output<(typeof schemas)[A]>, ctx: CallContext) => Promise<unknown> } = {
    async SignUp(body) {
      checkClient(body.ClientId);
      const username = usernameSchema.safeParse(body.Username);
      if (!username.success || body.Username.length < 3)
        invalidParameter("1 validation error detected: Value at 'username' failed to satisfy constraint: Member must be 3 to 128 characters without spaces");
      const given = body.UserAttributes ?? [];
      const names = given.map((a) => a.Name);
      const duplicate = names.find((name, i) => names.indexOf(name) !== i);
      if (duplicate) invalidParameter(`Duplicate attribute name: ${duplicate.slice(0, 64)}`);
      const writable = new Set(['email']);
      const other = names.find((name) => !writable.has(name));
      if (other) fail('NotAuthorizedException', `A client attempted to write unauthorized attribute: ${other.slice(0, 64)}`);
      const email = given.find((a) => a.Name === 'email')?.Value?.trim() ?? '';
      if (!z.email().max(254).safeParse(email).success)
        invalidParameter('Attributes did not conform to the schema: email: The attribute is required and must be a valid e-mail address');
      const problem = await passwordProblem(body.Password, { username: body.Username, email });
      if (problem) fail('InvalidPasswordException', problem);
      if (!allowlist.allows(email)) fail('UserLambdaValidationException', 'PreSignUp failed with error This address may not create an admin account.');
      const id = crypto.randomUUID();
      const user = await repo.insertUser({
        id,
        username: body.Username,
        usernameKey: keyOf(body.Username),
        email,
        ...(await steps.passwordFields(id, body.Password)),
        status: 'UNCONFIRMED',
      });
      if (!user) return fail('UsernameExistsException', 'User already exists');
      await sendCodeFor(body.Username, user, 'confirm-sign-up');
      return { UserConfirmed: false, UserSub: user.id, ...delivery(maskAddress(email)) };
    },

    async ConfirmSignUp(body, ctx) {
      checkClient(body.ClientId);
      const user = await repo.userByName(keyOf(body.Username));
      // One confirmed account per address (ForceAliasCreation is not honoured: moving an address off
      // another account would hand a stranger that account's address). Checked once the code is
      // right, so it tells nothing to whoever lacks the mailbox, and the code is not spent.
      const addressTaken = () => fail('AliasExistsException', 'An account with the given email already exists.');
      const emailKey = user ? emailKeyOf(user.email) : '';
      // A confirmed user has no sign-up code: the same answer as an unknown one.
      await spendCode(body.Username, user?.status === 'UNCONFIRMED' ? user : null, 'confirm-sign-up', body.ConfirmationCode, ctx, async () => {
        if (await admission.confirmedAccountWith(emailKey)) addressTaken();
      });
      // A sign-up on ADMIN_EMAILS asks to be an admin; an admin approves it (docs/decisions/041).
      const adminRequestedAt = allowlist.allows(user!.email) ? now() : null;
      // Two confirmations of one address at once: the unique email_key lets one through.
      if ((await repo.confirmUser(user!.id, emailKey, adminRequestedAt)) === 'address-taken') addressTaken();
      return {};
    },

    async ResendConfirmationCode(body) {
      checkClient(body.ClientId);
      const user = await repo.userByName(keyOf(body.Username));
      await sendCodeFor(body.Username, user?.status === 'UNCONFIRMED' ? user : null, 'confirm-sign-up');
      return delivery(madeUpDestination(body.Username));
    },

    async InitiateAuth(body, ctx) {
      checkClient(body.ClientId);
      const params = body.AuthParameters ?? {};
      if (body.AuthFlow === 'REFRESH_TOKEN_AUTH' || body.AuthFlow === 'REFRESH_TOKEN') {
        if (!params.REFRESH_TOKEN) invalidParameter('Missing required parameter REFRESH_TOKEN');
        return refresh(params.REFRESH_TOKEN!);
      }
      const srp = body.AuthFlow === 'USER_SRP_AUTH';
      if (!srp && body.AuthFlow !== 'USER_PASSWORD_AUTH') invalidParameter(`${body.AuthFlow.slice(0, 64)} flow not enabled for this client`);
      if (!params.USERNAME) invalidParameter('Missing required parameter USERNAME');
      if (srp && !params.SRP_A) invalidParameter('Missing required parameter SRP_A');
      if (!srp && !params.PASSWORD) invalidParameter('Missing required parameter PASSWORD');
      const usernameKey = keyOf(params.USERNAME!);
      const attempt = await guessing.password({ usernameKey, clientAddress: ctx.clientAddress, deviceUser: ctx.deviceUser });
      const user = await repo.userByName(usernameKey);
      // SRP: the PASSWORD_VERIFIER challenge; the password is proved in RespondToAuthChallenge.
      if (srp) return steps.startSrp(params.USERNAME!, user, params.SRP_A!);
      const ok = user ? await verifyPassword(params.PASSWORD!, user.passwordHash) : await verifyNothing(params.PASSWORD!);
      if (!user || !ok) return incorrect();
      await attempt.succeeded();
      await steps.keepVerifier(user, params.PASSWORD!);
      return passwordRight(user, ctx);
    },

    async GetTokensFromRefreshToken(body) {
      checkClient(body.ClientId);
      return refresh(body.RefreshToken);
    },

    async GetUser(body) {
      const { user } = await verifyAccessToken(body.AccessToken);
      return {
        Username: user.username,
        UserAttributes: [
          { Name: 'sub', Value: user.id },
          { Name: 'email', Value: user.email },
          { Name: 'email_verified', Value: String(user.emailVerified) },
        ],
        ...steps.mfaSettings(user),
      };
    },

    async ForgotPassword(body) {
      checkClient(body.ClientId);
      const user = await repo.userByName(keyOf(body.Username));
      // Only a confirmed, enabled user with a verified address gets a code; everyone gets this answer.
      const eligible = user && user.status === 'CONFIRMED' && user.emailVerified && user.enabled ? user : null;
      await sendCodeFor(body.Username, eligible, 'reset-password');
      return delivery(madeUpDestination(body.Username));
    },

    async ConfirmForgotPassword(body, ctx) {
      checkClient(body.ClientId);
      if (!body.ConfirmationCode.trim()) invalidParameter('Missing required parameter ConfirmationCode');
      const user = await repo.userByName(keyOf(body.Username));
      // What needs no account is checked first; the e-mail rule only once the code is right, so the
      // answer before that is the same for every username (it would reveal the address otherwise).
      const problem = await passwordProblem(body.Password, { username: body.Username });
      if (problem) fail('InvalidPasswordException', problem);
      await spendCode(body.Username, user, 'reset-password', body.ConfirmationCode, ctx, async () => {
        const withAddress = await passwordProblem(body.Password, { username: body.Username, email: user?.email });
        if (withAddress) fail('InvalidPasswordException', withAddress);
      });
      await repo.updateUser(user!.id, await steps.passwordFields(user!.id, body.Password));
      // A reset ends every session: whoever knew the old password is signed out too.
      await repo.revokeUserSessions(user!.id, now());
      await guessing.passwordReset(user!.usernameKey);
      return {};
    },

    async ChangePassword(body, ctx) {
      const { user, sessionId } = await verifyAccessToken(body.AccessToken);
      // A live session vouches for the device as a known-device cookie would; the caller's own
      // per-(username, client) count still bounds a stolen token's guesses at the old password.
      const attempt = await guessing.password({ usernameKey: user.usernameKey, clientAddress: ctx.clientAddress, deviceUser: user.usernameKey }, tooManyCodes);
      if (!(await verifyPassword(body.PreviousPassword, user.passwordHash))) return incorrect();
      await attempt.succeeded();
      const problem = await passwordProblem(body.ProposedPassword, { username: user.username, email: user.email });
      if (problem) fail('InvalidPasswordException', problem);
      await repo.updateUser(user.id, await steps.passwordFields(user.id, body.ProposedPassword));
      await repo.revokeUserSessions(user.id, now(), sessionId);
      return {};
    },

    async RevokeToken(body) {
      checkClient(body.ClientId);
      const found = await refreshSession(body.Token);
      if (found) await repo.revokeSession(found.session.id, now());
      return {};
    },

    async GlobalSignOut(body) {
      const { user } = await verifyAccessToken(body.AccessToken);
      await repo.revokeUserSessions(user.id, now());
      return {};
    },

    async RespondToAuthChallenge(body, ctx) {
      checkClient(body.ClientId);
      return steps.answer(body, ctx);
    },

    async AssociateSoftwareToken(body) {
      return steps.associateSoftwareToken(body);
    },
    async VerifySoftwareToken(body) {
      return steps.verifySoftwareToken(body);
    },
    async SetUserMFAPreference(body) {
      return steps.setUserMfaPreference(body);
    },
  };

  /**
   * One call of the user-pool API, as the gateway receives it. Errors come back as Cognito's.
   * `signedIn`: the username key of a sign-in this call completed (the gateway sets the device cookie).
   */
  async function call(action: string, body: unknown, ctx: CallContext): Promise<{ status: number; body: unknown; signedIn?: string }> {
    if (!Object.hasOwn(schemas, action))
      return { status: 400, body: { __type: 'UnknownOperationException', message: 'This identity action is not available.' } };
    const parsed = schemas[action as IdentityAction].safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { status: 400, body: { __type: 'InvalidParameterException', message: `Invalid or missing parameter ${issue?.path.join('.') || ''}`.trim() } };
    }
    try {
      const result = await (actions[action as IdentityAction] as (b: unknown, c: CallContext) => Promise<unknown>)(parsed.data, ctx);
      const signedIn = result && typeof result === 'object' ? signIns.get(result) : undefined;
      return { status: 200, body: result, ...(signedIn ? { signedIn } : {}) };
    } catch (err) {
      if (err instanceof IdentityError) return { status: 400, body: { __type: err.type, message: err.message } };
      throw err;
    }
  }

  const verifier = (allow: EmailAllowlist): AccessTokenVerifier => ({
    async verify(token) {
      const access = await verifyAccessToken(token).catch(() => null);
      if (!access) return null;
      const { user } = access;
      // ADMIN_MFA=required: an admin without TOTP is sent to sign in again, where MFA_SETUP awaits.
      if (steps.mustSetUpMfa(user)) return null;
      // Read from the database on every call: removing an admin, or approving one, takes effect at once.
      // The group alone makes an admin (docs/decisions/041); ADMIN_EMAILS only lets an address ask.
      const isAdmin = user.status === 'CONFIRMED' && user.isAdmin;
      let approvalPending = !isAdmin && user.status === 'CONFIRMED' && user.adminRequestedAt !== null;
      if (!isAdmin && !approvalPending && user.status === 'CONFIRMED' && user.emailVerified && allow.allows(user.email)) {
        // Confirmed on ADMIN_EMAILS with no request: an account that was an admin through the list
        // alone (before requests), or one taken out of the group. It asks again, for an admin to decide.
        approvalPending = Boolean(await admission.markRequested(user.id, now()));
      }
      const principal: AdminPrincipal = {
        sub: user.id,
        username: user.username,
        email: user.email,
        groups: user.isAdmin ? ['admin'] : [],
        isAdmin,
        approvalPending,
      };
      return principal;
    },
  });

  /** The operator's commands (npm run admin:*): never reachable over HTTP. */
  const admins = {
    async create(account: { username: string; email: string; password: string }) {
      const problem = await passwordProblem(account.password, account);
      if (problem) fail('InvalidPasswordException', problem);
      const usernameKey = keyOf(account.username);
      if (await repo.userByName(usernameKey)) return fail('UsernameExistsException', `a user named "${account.username}" already exists`);
      const emailKey = emailKeyOf(account.email);
      const holder = await admission.confirmedAccountWith(emailKey);
      if (holder) return fail('AliasExistsException', `the account "${holder.username}" already has the address ${account.email} (one account per address)`);
      const id = crypto.randomUUID();
      const user = await repo.insertUser({
        id,
        username: account.username,
        usernameKey,
        email: account.email,
        emailKey,
        emailVerified: true,
        ...(await steps.passwordFields(id, account.password)),
        status: 'CONFIRMED',
        isAdmin: true,
      });
      // Made at the same moment by another command: whichever was taken says so.
      if (!user) {
        const now = await admission.confirmedAccountWith(emailKey);
        if (now) return fail('AliasExistsException', `the account "${now.username}" already has the address ${account.email} (one account per address)`);
        return fail('UsernameExistsException', `a user named "${account.username}" already exists`);
      }
      return user;
    },
    async list() {
      return (await repo.listUsers()).map((user) => ({
        username: user.username,
        email: user.email,
        status: user.status,
        enabled: user.enabled,
        admin: user.isAdmin ? 'admin group' : user.adminRequestedAt && user.enabled && user.status === 'CONFIRMED' ? 'asked, waiting for approval' : 'no',
        createdAt: user.createdAt,
      }));
    },
    /** Out of the admin group, every session ended; `disable` also stops the account signing in. */
    async remove(username: string, { disable = false } = {}) {
      const user = await repo.userByName(keyOf(username));
      if (!user) return fail('UserNotFoundException', `no user named "${username}"`);
      await repo.updateUser(user.id, { isAdmin: false, ...(disable ? { enabled: false } : {}) });
      return signedOut(user);
    },
    /** Back into the admin group (an account removed from it, or made by sign-up): `npm run admin:add`. */
    async add(username: string) {
      const user = await repo.userByName(keyOf(username));
      if (!user) return fail('UserNotFoundException', `no user named "${username}"`);
      if (user.status !== 'CONFIRMED') return fail('UserNotConfirmedException', `"${username}" has not confirmed the account yet`);
      await repo.updateUser(user.id, { isAdmin: true, enabled: true, adminRequestedAt: null });
      return user;
    },
    /** Confirmed sign-ups on ADMIN_EMAILS waiting for an admin (the Admins screen's requests), oldest first. */
    requests: () => admission.requests(),
    /** Into the admin group; 'not-a-request' unless the request was still open (decided once). */
    async approve(username: string): Promise<'approved' | 'not-a-request'> {
      const user = await repo.userByName(keyOf(username));
      return user && (await admission.approve(user.id)) ? 'approved' : 'not-a-request';
    },
    /** Disabled and signed out: the address stays taken, so it cannot ask again without an admin. */
    async refuse(username: string): Promise<'refused' | 'not-a-request'> {
      const user = await repo.userByName(keyOf(username));
      if (!user || !(await admission.refuse(user.id))) return 'not-a-request';
      await repo.revokeUserSessions(user.id, now());
      return 'refused';
    },
    /**
     * The admin group's members, with their last sign-in when known and whether they sign in with TOTP
     * (the admin portal's Admins screen).
     */
    members: async () => (await repo.adminMembers()).map((user) => ({ ...user, mfa: Boolean(user.mfaSecret) && (user.mfaEnabled || mfaRequired(user)) })),
    /**
     * The recovery for a lost authenticator: the user's TOTP secret and MFA preference go, and every
     * session and sign-in under way ends. With ADMIN_MFA=required an admin sets TOTP up again at the
     * next sign-in. `npm run admin:reset-mfa`, and DELETE /api/admin/admins/:username/mfa.
     */
    async resetMfa(username: string) {
      const user = await repo.userByName(keyOf(username));
      if (!user) return fail('UserNotFoundException', `no user named "${username}"`);
      await steps.clearMfa(user.id);
      await repo.revokeUserSessions(user.id, now());
      return { username: user.username };
    },
    /**
     * The Admins screen's removal: what `remove` does, but never of the group's last member who can
     * sign in (decided in the same statement as the change, so two admins removing each other at once
     * leave one). 'not-a-member' when the user is not in the group (any more).
     */
    async removeFromGroup(username: string): Promise<{ outcome: 'removed'; mayAskAgain: boolean } | { outcome: 'not-a-member' | 'last-member' }> {
      const user = await repo.userByName(keyOf(username));
      if (!user?.isAdmin) return { outcome: 'not-a-member' };
      if (await repo.takeOutOfAdminGroupUnlessLast(user.id)) return { outcome: 'removed', ...(await signedOut(user)) };
      const after = await repo.userByName(user.usernameKey);
      return { outcome: after?.isAdmin ? 'last-member' : 'not-a-member' };
    },
  };
  /**
   * Every session of a user taken out of the group ends now: the admin API refuses its tokens at once.
   * `mayAskAgain`: their address is on ADMIN_EMAILS, so signing in again asks to be an admin again.
   */
  async function signedOut(user: IdentityUser) {
    await repo.revokeUserSessions(user.id, now());
    const current = await repo.userByName(user.usernameKey);
    return { mayAskAgain: Boolean(current?.enabled && current.status === 'CONFIRMED' && current.emailVerified && allowlist.allows(current.email)) };
  }

  return {
    userPoolId,
    clientId,
    issuer,
    call,
    verifier,
    verifyAccessToken,
    jwks: () => keys.jwks(),
    rotateKeys: (opts: { revokeOld?: boolean } = {}) => keys.rotate({ now: now(), ...opts }),
    admins,
    /** Known-device cookies (./guessing.ts), signed with the install's secrets: the gateway sets and reads them. */
    devices,
    /** Resolves once the work done after answers (codes stored and sent) so far is done. */
    settled: () => deferred.settled(),
    /** Housekeeping: sessions that expired or were revoked over a day ago, quiet counters, codes past their time. */
    async sweep() {
      const at = now();
      const sessions = await repo.deleteSessionsBefore(new Date(at.getTime() - 86_400_000));
      return sessions.length + (await guessing.sweep(at)) + (await steps.sweep()).length;
    },
  };
}

export type EmbeddedIdentity = Awaited<ReturnType<typeof startEmbeddedIdentity>>;
