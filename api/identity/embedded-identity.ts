/**
 * The embedded identity service (docs/decisions/014): the part of Cognito's user-pool API that
 * aws-amplify uses, written for this site and kept in its database, demanding what Cognito demands.
 *
 * - Tokens are RS256 JWTs with Cognito's claims, signed by keys generated per install; access and ID
 *   tokens last 1 hour; the refresh token is an opaque secret, stored hashed, one per sign-in (its
 *   session id is the access token's `origin_jti`). Revoking it, or signing out everywhere, ends the
 *   session, and every token of a revoked session is refused at once.
 * - Passwords are scrypt hashes; one-time codes are random, single-use, expire, allow 5 tries and
 *   are stored as keyed digests.
 * - Guessing is throttled per username and per client address, counted before the secret is checked
 *   (Cognito's lockout: 5 free attempts, then one try per growing delay, up to 15 minutes).
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
import { signInSteps, type AuthAnswer } from './challenges.ts';
import { fail, IdentityError } from './identity-error.ts';
import { identityRepository, type CodePurpose, type IdentityUser } from './identity.repository.ts';
import { passwordProblem } from './password-policy.ts';
import { ACCESS_TOKEN_SECONDS, signingKeys } from './signing-keys.ts';

export const ISSUER_PREFIX = 'urn:firm-site:identity:';
const REFRESH_TOKEN_DAYS = 30;
const SIGN_UP_CODE_MS = 24 * 3600_000; // Cognito: a sign-up code is valid for 24 hours
const RESET_CODE_MS = 3600_000; // Cognito: a reset code is valid for 1 hour
const CODE_TRIES = 5;
/** Cognito's lockout: 5 free attempts, then delays doubling from 1 s up to 15 minutes. */
export const THROTTLE = {
  user: { free: 5, maxDelayMs: 15 * 60_000 },
  address: { free: 20, maxDelayMs: 15 * 60_000 },
  codeSends: { free: 5, maxDelayMs: 60 * 60_000 },
  quietMs: 15 * 60_000,
};

export type Message = { username: string; to: string; subject: string; text: string; code: string };

export interface EmbeddedIdentityOptions {
  database: Database;
  secrets: SecretBox;
  clock: Clock;
  allowlist: EmailAllowlist;
  /** Delivers a verification or reset code to the user's address. */
  sendCode(message: Message): Promise<void> | void;
  /** ADMIN_MFA: `required` makes every admin set up TOTP at the next sign-in. Unset: optional. */
  adminMfa?: AdminMfa;
}

export type AdminMfa = 'required' | 'optional';

export { IdentityError };
const incorrect = () => fail('NotAuthorizedException', 'Incorrect username or password.');
const codeMismatch = () => fail('CodeMismatchException', 'Invalid verification code provided, please try again.');
const tooManyCodes = () => fail('LimitExceededException', 'Attempt limit exceeded, please try after some time.');
const invalidParameter = (message: string) => fail('InvalidParameterException', message);

export interface CallContext {
  /** The caller's address (api/http/rate-limit.ts clientOf), for the per-address throttle. */
  clientAddress: string;
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

const keyOf = (username: string) => username.normalize('NFKC').toLowerCase();
const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** a***@f*** */
const maskAddress = (email: string) => {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain.slice(0, 1)}***`;
};

export async function startEmbeddedIdentity(options: EmbeddedIdentityOptions) {
  const { database, secrets, clock, allowlist } = options;
  const repo = identityRepository(database);
  const keys = signingKeys(repo, secrets);

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
    countClaim: (ctx) => throttle(`address:${ctx.clientAddress}`, THROTTLE.address, attemptsExceeded),
    claimRight: (ctx) => repo.uncountAttempt(`address:${ctx.clientAddress}`),
    countCodeTry: (user) => throttle(`mfa:${user.usernameKey}`, THROTTLE.user, tooManyCodes),
    codeRight: (user) => repo.clearAttempts(`mfa:${user.usernameKey}`),
    signedIn: async (user) => {
      const session = await newSession(user);
      return issueTokens(user, session.id, session.refreshToken);
    },
    verifyAccessToken: (token) => verifyAccessToken(token),
  });

  /** The password (or its SRP proof) was right: the throttles forget the tries, then MFA or tokens. */
  async function passwordRight(user: IdentityUser, ctx: CallContext): Promise<AuthAnswer> {
    await repo.clearAttempts(`user:${user.usernameKey}`);
    await repo.uncountAttempt(`address:${ctx.clientAddress}`);
    if (!user.enabled) fail('NotAuthorizedException', 'User is disabled.');
    if (user.status !== 'CONFIRMED') fail('UserNotConfirmedException', 'User is not confirmed.');
    return steps.afterPassword(user);
  }

  function checkClient(given: string) {
    if (given !== clientId) fail('ResourceNotFoundException', 'User pool client does not exist.');
  }
  const codeDigest = (userId: string, purpose: CodePurpose, code: string) => secrets.digest(`${userId}:${code}`, `identity-code:${purpose}`);

  /**
   * One attempt under a throttle key, counted before the secret is checked. Within the free
   * attempts it passes; past them one attempt at a time passes, each after a doubling delay.
   */
  async function throttle(key: string, rule: { free: number; maxDelayMs: number }, refuse: () => never) {
    const at = now();
    const { failures, lockedUntil } = await repo.countAttempt(key, at, THROTTLE.quietMs);
    if (lockedUntil && lockedUntil > at) refuse();
    if (failures <= rule.free) return;
    const delay = Math.min(1000 * 2 ** (failures - rule.free - 1), rule.maxDelayMs);
    if (!(await repo.claimTurn(key, at, new Date(at.getTime() + delay)))) refuse();
  }
  const attemptsExceeded = () => fail('NotAuthorizedException', 'Password attempts exceeded');

  /**
   * The code-sending actions' common part, for a real user or not: the same limit on sends per username
   * (so the limit tells nothing), and a fresh count of tries at the code. Only a real user gets a code.
   */
  async function sendCodeFor(username: string, user: IdentityUser | null, purpose: CodePurpose) {
    const key = keyOf(username);
    await throttle(`send:${key}`, THROTTLE.codeSends, tooManyCodes);
    await repo.clearAttempts(codeTriesKey(purpose, key));
    if (user) await sendCode(user, purpose);
  }

  async function sendCode(user: IdentityUser, purpose: CodePurpose) {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const ttl = purpose === 'confirm-sign-up' ? SIGN_UP_CODE_MS : RESET_CODE_MS;
    await repo.putCode({ userId: user.id, purpose, codeHash: codeDigest(user.id, purpose, code), expiresAt: new Date(now().getTime() + ttl) });
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
  const codeTriesKey = (purpose: CodePurpose, usernameKey: string) => `code:${purpose}:${usernameKey}`;
  const madeUpDestination = (username: string) => {
    const letters = secrets.digest(keyOf(username), 'identity-fake-destination').replace(/[^a-z]/g, '');
    return `${letters[0] ?? 'a'}***@${letters[1] ?? 'g'}***`;
  };

  /**
   * Checks a one-time code: tries are counted first, per username whether or not it exists or has a
   * code (so the sixth try answers the same for everyone); after CODE_TRIES the code is gone. A right
   * code is taken only if `accept` (checks that need the account) passes, so a refused new password
   * does not spend it.
   */
  async function spendCode(
    username: string,
    user: IdentityUser | null,
    purpose: CodePurpose,
    code: string,
    clientAddress: string,
    accept: () => void | Promise<void> = () => {},
  ) {
    await throttle(`address:${clientAddress}`, THROTTLE.address, tooManyCodes);
    const triesKey = codeTriesKey(purpose, keyOf(username));
    const { failures } = await repo.countAttempt(triesKey, now(), THROTTLE.quietMs);
    if (failures > CODE_TRIES) {
      if (user) await repo.deleteCode(user.id, purpose);
      return tooManyCodes();
    }
    if (!user) return codeMismatch();
    const stored = await repo.code(user.id, purpose);
    const digest = codeDigest(user.id, purpose, code.trim());
    if (!stored || !sameText(stored.codeHash, digest)) return codeMismatch();
    if (stored.expiresAt <= now()) {
      await repo.deleteCode(user.id, purpose);
      return fail('ExpiredCodeException', 'Invalid code provided, please request a code again.');
    }
    await accept();
    if (!(await repo.takeCode(user.id, purpose, digest))) codeMismatch(); // used by a parallel request
    await repo.clearAttempts(triesKey);
    await repo.uncountAttempt(`address:${clientAddress}`);
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
    return {
      ChallengeParameters: {},
      AuthenticationResult: {
        AccessToken: accessToken,
        ExpiresIn: ACCESS_TOKEN_SECONDS,
        TokenType: 'Bearer',
        IdToken: idToken,
        ...(withRefresh ? { RefreshToken: withRefresh } : {}),
      },
    };
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
      // A confirmed user has no sign-up code: the same answer as an unknown one.
      await spendCode(body.Username, user?.status === 'UNCONFIRMED' ? user : null, 'confirm-sign-up', body.ConfirmationCode, ctx.clientAddress);
      await repo.updateUser(user!.id, { status: 'CONFIRMED', emailVerified: true });
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
      await throttle(`address:${ctx.clientAddress}`, THROTTLE.address, attemptsExceeded);
      await throttle(`user:${usernameKey}`, THROTTLE.user, attemptsExceeded);
      const user = await repo.userByName(usernameKey);
      // SRP: the PASSWORD_VERIFIER challenge; the password is proved in RespondToAuthChallenge.
      if (srp) return steps.startSrp(params.USERNAME!, user, params.SRP_A!);
      const ok = user ? await verifyPassword(params.PASSWORD!, user.passwordHash) : await verifyNothing(params.PASSWORD!);
      if (!user || !ok) return incorrect();
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
      await spendCode(body.Username, user, 'reset-password', body.ConfirmationCode, ctx.clientAddress, async () => {
        const withAddress = await passwordProblem(body.Password, { username: body.Username, email: user?.email });
        if (withAddress) fail('InvalidPasswordException', withAddress);
      });
      await repo.updateUser(user!.id, await steps.passwordFields(user!.id, body.Password));
      // A reset ends every session: whoever knew the old password is signed out too.
      await repo.revokeUserSessions(user!.id, now());
      await repo.clearAttempts(`user:${user!.usernameKey}`);
      return {};
    },

    async ChangePassword(body) {
      const { user, sessionId } = await verifyAccessToken(body.AccessToken);
      await throttle(`user:${user.usernameKey}`, THROTTLE.user, () => fail('LimitExceededException', 'Attempt limit exceeded, please try after some time.'));
      if (!(await verifyPassword(body.PreviousPassword, user.passwordHash))) return incorrect();
      await repo.clearAttempts(`user:${user.usernameKey}`);
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

  /** One call of the user-pool API, as the gateway receives it. Errors come back as Cognito's. */
  async function call(action: string, body: unknown, ctx: CallContext): Promise<{ status: number; body: unknown }> {
    if (!Object.hasOwn(schemas, action))
      return { status: 400, body: { __type: 'UnknownOperationException', message: 'This identity action is not available.' } };
    const parsed = schemas[action as IdentityAction].safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { status: 400, body: { __type: 'InvalidParameterException', message: `Invalid or missing parameter ${issue?.path.join('.') || ''}`.trim() } };
    }
    try {
      const result = await (actions[action as IdentityAction] as (b: unknown, c: CallContext) => Promise<unknown>)(parsed.data, ctx);
      return { status: 200, body: result };
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
      const principal: AdminPrincipal = {
        sub: user.id,
        username: user.username,
        email: user.email,
        groups: user.isAdmin ? ['admin'] : [],
        // Read from the database on every call: removing an admin takes effect at once.
        isAdmin: user.status === 'CONFIRMED' && (user.isAdmin || (user.emailVerified && allow.allows(user.email))),
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
      const existing = await repo.userByName(usernameKey);
      if (existing) return fail('UsernameExistsException', `a user named "${account.username}" already exists`);
      const id = crypto.randomUUID();
      const user = await repo.insertUser({
        id,
        username: account.username,
        usernameKey,
        email: account.email,
        emailVerified: true,
        ...(await steps.passwordFields(id, account.password)),
        status: 'CONFIRMED',
        isAdmin: true,
      });
      if (!user) return fail('UsernameExistsException', `a user named "${account.username}" already exists`);
      return user;
    },
    async list() {
      return (await repo.listUsers()).map((user) => ({
        username: user.username,
        email: user.email,
        status: user.status,
        enabled: user.enabled,
        admin: user.isAdmin ? 'admin group' : user.emailVerified && allowlist.allows(user.email) ? 'ADMIN_EMAILS' : 'no',
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
      await repo.updateUser(user.id, { isAdmin: true, enabled: true });
      return user;
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
    async removeFromGroup(username: string): Promise<{ outcome: 'removed'; stillAdminByEmail: boolean } | { outcome: 'not-a-member' | 'last-member' }> {
      const user = await repo.userByName(keyOf(username));
      if (!user?.isAdmin) return { outcome: 'not-a-member' };
      if (await repo.takeOutOfAdminGroupUnlessLast(user.id)) return { outcome: 'removed', ...(await signedOut(user)) };
      const after = await repo.userByName(user.usernameKey);
      return { outcome: after?.isAdmin ? 'last-member' : 'not-a-member' };
    },
  };
  /** Every session of a user taken out of the group ends now: the admin API refuses its tokens at once. */
  async function signedOut(user: IdentityUser) {
    await repo.revokeUserSessions(user.id, now());
    const current = await repo.userByName(user.usernameKey);
    return { stillAdminByEmail: Boolean(current?.enabled && current.status === 'CONFIRMED' && current.emailVerified && allowlist.allows(current.email)) };
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
    /** Housekeeping: sessions that expired or were revoked over a day ago, and quiet lockout counters. */
    async sweep() {
      const at = now();
      const sessions = await repo.deleteSessionsBefore(new Date(at.getTime() - 86_400_000));
      const throttles = await repo.deleteQuietThrottles(new Date(at.getTime() - THROTTLE.quietMs), at);
      const challenges = await steps.sweep();
      return sessions.length + throttles.length + challenges.length;
    },
  };
}

export type EmbeddedIdentity = Awaited<ReturnType<typeof startEmbeddedIdentity>>;
