/**
 * Sign-in's challenges, as Cognito runs them (docs/decisions/040): USER_SRP_AUTH's PASSWORD_VERIFIER,
 * then SOFTWARE_TOKEN_MFA or MFA_SETUP when the user has or needs TOTP, and the TOTP actions
 * (AssociateSoftwareToken, VerifySoftwareToken, SetUserMFAPreference) they lead to.
 *
 * A challenge under way is a row of identity_challenges: its state sealed (bound to the row), alive a
 * few minutes, attempts counted on the row before anything is checked, spent by the one answer that
 * deletes it. What the client holds (Session, SECRET_BLOCK) is 256 random bits; the row's id is their
 * SHA-256, so the table alone answers no challenge.
 *
 * Nothing tells a user the pool knows from one it does not: an unknown username, and a known one with
 * no SRP verifier yet, get a salt and verifier made up from the name (stable, as real ones are), an id
 * shaped like a real one, the same computations and the same database writes (a challenge row, marked
 * made-up); their claims fail as a wrong password does. identity_challenges.user_id is required, so an
 * unknown user's row is filed under some other user of the pool (it can never sign anyone in: its state
 * says it is made up); were the column nullable, it would be null.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../../db/client.ts';
import { hashPassword } from '../crypto/password-hash.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Clock } from '../clock.ts';
import type { IdentityUser } from './identity.repository.ts';
import { fail } from './identity-error.ts';
import { newTotpSecret, totpStep } from './mfa.ts';
import { signInRepository } from './sign-in.repository.ts';
import { checkPasswordClaim, decoyVerifier, g, makeVerifier, modPow, N, parseClientPublic, serverEphemeral, type SrpVerifier } from './srp.ts';

/** Cognito's AuthSessionValidity is 3 to 15 minutes: the short end to answer, the long one to set up an app. */
export const CHALLENGE_RULES = {
  passwordVerifierMs: 3 * 60_000,
  softwareTokenMs: 5 * 60_000,
  setupMs: 15 * 60_000,
  /** Wrong TOTP codes one challenge takes; then it is dead and the password is asked again. */
  codeTries: 3,
};

export type AuthAnswer = Record<string, unknown>;

export interface SignInStepsOptions<Ctx> {
  database: Database;
  secrets: SecretBox;
  clock: Clock;
  userPoolId: string;
  usernameKey(username: string): string;
  /** Whether the user must have TOTP (ADMIN_MFA=required and an admin). */
  mfaRequired(user: IdentityUser): boolean;
  /** The password, or its SRP proof, was right: what follows (throttles forgotten, status checked, then `afterPassword`). */
  passwordRight(user: IdentityUser, ctx: Ctx): Promise<AuthAnswer>;
  /**
   * One PASSWORD_VERIFIER answer, counted per client address before the claim is checked (throws when
   * refused): each costs two 3072-bit exponentiations, whether a challenge stands behind it or not.
   */
  countClaim(ctx: Ctx): Promise<void>;
  /** A right claim: the count above is given back (a sign-in is not a failure). */
  claimRight(ctx: Ctx): Promise<void>;
  /** One TOTP try, counted per user across challenges before the code is checked; throws when refused. */
  countCodeTry(user: IdentityUser): Promise<void>;
  /** A right TOTP code: the count above is forgotten. */
  codeRight(user: IdentityUser): Promise<void>;
  /** Every factor is through: a new session and its tokens. */
  signedIn(user: IdentityUser): Promise<AuthAnswer>;
  verifyAccessToken(token: string): Promise<{ user: IdentityUser }>;
}

const invalidSession = () => fail('NotAuthorizedException', 'Invalid session for the user, session is expired.');
const incorrect = () => fail('NotAuthorizedException', 'Incorrect username or password.');
const codeMismatch = () => fail('CodeMismatchException', 'Invalid code received for user');
const setupMismatch = () => fail('EnableSoftwareTokenMFAException', 'Code mismatch and fail enable Software Token MFA');
const missing = (name: string) => fail('InvalidParameterException', `Missing required parameter ${name}`);

const verifierContext = (userId: string) => `identity-srp-verifier:${userId}`;
/** One context for the pending and the verified secret: confirming moves the sealed value as it is. */
const totpContext = (userId: string) => `identity-totp-secret:${userId}`;
const challengeContext = (id: string) => `identity-challenge:${id}`;

const idOf = (ref: Buffer) => createHash('sha256').update(ref).digest('base64url');
const asSession = (ref: Buffer) => ref.toString('base64url');
/** A Session or SECRET_BLOCK as handed out (base64url or base64 of 32 bytes), or null. */
function refOf(text: unknown): Buffer | null {
  if (typeof text !== 'string' || !/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === 32 ? bytes : null;
}

/** A UUID (version 4 in form, as user ids are) made from a keyed digest: the made-up user's USER_ID_FOR_SRP. */
function uuidFrom(digest: string) {
  const b = createHash('sha256').update(digest).digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

interface VerifierState {
  userId: string;
  salt: string;
  verifier: string;
  A: string;
  b: string;
  B: string;
  /** The user has no verifier yet: no claim can be right. */
  decoy: boolean;
}

/** Numbers of the right size for the claim check of a challenge that does not exist (made once). */
let standInState: VerifierState | null = null;
function standIn(): VerifierState {
  if (standInState) return standInState;
  const decoy = decoyVerifier(randomBytes(32));
  const { b, B } = serverEphemeral(decoy.verifier);
  const A = modPow(g, BigInt(`0x${randomBytes(128).toString('hex')}`), N).toString(16);
  standInState = { userId: crypto.randomUUID(), ...decoy, A, b, B, decoy: true };
  return standInState;
}

export function signInSteps<Ctx>(o: SignInStepsOptions<Ctx>) {
  const repo = signInRepository(o.database);
  const { secrets } = o;
  const now = () => o.clock.now();
  // What aws-amplify calls the pool name: the pool id after its '_' (local_Ab12 -> Ab12).
  const poolName = o.userPoolId.split('_')[1] ?? '';

  const sealVerifier = (userId: string, verifier: SrpVerifier) => secrets.seal(JSON.stringify(verifier), verifierContext(userId));
  function openVerifier(user: IdentityUser): SrpVerifier | null {
    if (!user.srpVerifier) return null;
    try {
      return JSON.parse(secrets.open(user.srpVerifier, verifierContext(user.id))) as SrpVerifier;
    } catch {
      return null; // sealed under a key no longer known: made again at the next password sign-in
    }
  }
  function openTotp(userId: string, sealed: string | null): string | null {
    if (!sealed) return null;
    try {
      return secrets.open(sealed, totpContext(userId));
    } catch {
      return null;
    }
  }

  async function openChallenge(name: string, userId: string, state: object, ttlMs: number) {
    const ref = randomBytes(32);
    const id = idOf(ref);
    await repo.insertChallenge({
      id,
      userId,
      name,
      state: secrets.seal(JSON.stringify(state), challengeContext(id)),
      expiresAt: new Date(now().getTime() + ttlMs),
    });
    return ref;
  }
  /** One attempt at a live challenge named `name`; null when there is none to attempt. */
  async function claim<S>(given: unknown, name: string, tries: number) {
    const ref = refOf(given);
    if (!ref) return null;
    const id = idOf(ref);
    const row = await repo.claimChallenge(id, name, now(), tries);
    if (!row) return null;
    try {
      return { id, ref, userId: row.userId, state: JSON.parse(secrets.open(row.state, challengeContext(id))) as S, last: row.attempts >= tries };
    } catch {
      await repo.takeChallenge(id);
      return null;
    }
  }
  /** The challenge's user, when the name the client gives is theirs (the id it was told, or the username). */
  async function userOf(userId: string, given: string | undefined) {
    const user = await repo.userById(userId);
    if (!user || !given || (given !== user.id && o.usernameKey(given) !== user.usernameKey)) return null;
    return user;
  }
  /**
   * Whom an unknown user's made-up challenge is filed under: some user of the pool, looked up once.
   * A write it must be (an answer that writes nothing returns faster than one that commits).
   */
  let decoyOwner: string | null = null;
  async function openDecoyChallenge(state: VerifierState): Promise<Buffer> {
    for (let attempt = 0; attempt < 2; attempt++) {
      decoyOwner ??= await repo.anyUserId();
      if (!decoyOwner) break; // no user at all: there is nobody to tell apart from anybody
      try {
        return await openChallenge('PASSWORD_VERIFIER', decoyOwner, state, CHALLENGE_RULES.passwordVerifierMs);
      } catch (err) {
        if (attempt) throw err;
        decoyOwner = null; // that user is gone: look again
      }
    }
    return randomBytes(32);
  }

  /** The last step: the account is read again, as it is now. */
  async function finish(userId: string) {
    const user = await repo.userById(userId);
    if (!user?.enabled || user.status !== 'CONFIRMED') return invalidSession();
    return o.signedIn(user);
  }

  async function afterPassword(user: IdentityUser): Promise<AuthAnswer> {
    if (user.mfaSecret && (user.mfaEnabled || o.mfaRequired(user))) {
      const ref = await openChallenge('SOFTWARE_TOKEN_MFA', user.id, {}, CHALLENGE_RULES.softwareTokenMs);
      return { ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: asSession(ref), ChallengeParameters: {} };
    }
    if (o.mfaRequired(user)) {
      const ref = await openChallenge('MFA_SETUP', user.id, {}, CHALLENGE_RULES.setupMs);
      return { ChallengeName: 'MFA_SETUP', Session: asSession(ref), ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]' } };
    }
    return o.signedIn(user);
  }

  /** InitiateAuth USER_SRP_AUTH, once the throttles let it through: the PASSWORD_VERIFIER challenge. */
  async function startSrp(username: string, user: IdentityUser | null, srpA: string): Promise<AuthAnswer> {
    const A = parseClientPublic(srpA);
    if (!A) return fail('InvalidParameterException', 'SRP_A is not a valid SRP public value.');
    const key = o.usernameKey(username);
    const stored = user ? openVerifier(user) : null;
    const decoy = decoyVerifier(Buffer.from(secrets.digest(key, 'identity-srp-decoy')));
    const { salt, verifier } = stored ?? decoy;
    const userId = user ? user.id : uuidFrom(secrets.digest(key, 'identity-srp-decoy-id'));
    const { b, B } = serverEphemeral(verifier);
    const state: VerifierState = { userId, salt, verifier, A, b, B, decoy: !stored };
    const ref = user ? await openChallenge('PASSWORD_VERIFIER', user.id, state, CHALLENGE_RULES.passwordVerifierMs) : await openDecoyChallenge(state);
    return {
      ChallengeName: 'PASSWORD_VERIFIER',
      ChallengeParameters: { SALT: salt, SRP_B: B, SECRET_BLOCK: ref.toString('base64'), USERNAME: userId, USER_ID_FOR_SRP: userId },
    };
  }

  async function answerPasswordVerifier(responses: Record<string, string>, ctx: Ctx) {
    for (const name of ['USERNAME', 'PASSWORD_CLAIM_SECRET_BLOCK', 'PASSWORD_CLAIM_SIGNATURE', 'TIMESTAMP']) if (!responses[name]) missing(name);
    await o.countClaim(ctx);
    // One answer per challenge: a wrong claim spends it, as a wrong password does.
    const found = await claim<VerifierState>(responses.PASSWORD_CLAIM_SECRET_BLOCK, 'PASSWORD_VERIFIER', 1);
    if (found) await repo.takeChallenge(found.id);
    const state = found?.state ?? standIn();
    // The whole computation whether or not there was a challenge: the time taken tells nothing.
    const right = checkPasswordClaim({
      poolName,
      userId: state.userId,
      salt: state.salt,
      verifier: state.verifier,
      A: state.A,
      b: state.b,
      B: state.B,
      secretBlock: found?.ref ?? randomBytes(32),
      timestamp: responses.TIMESTAMP!,
      signature: responses.PASSWORD_CLAIM_SIGNATURE!,
    });
    const user = found ? await userOf(found.userId, responses.USERNAME) : null;
    if (!found || !user || state.decoy || !right) return incorrect();
    await o.claimRight(ctx);
    return o.passwordRight(user, ctx);
  }

  async function answerSoftwareToken(session: string | undefined, responses: Record<string, string>) {
    if (!responses.USERNAME) missing('USERNAME');
    if (!responses.SOFTWARE_TOKEN_MFA_CODE) missing('SOFTWARE_TOKEN_MFA_CODE');
    const found = await claim(session, 'SOFTWARE_TOKEN_MFA', CHALLENGE_RULES.codeTries);
    if (!found) return invalidSession();
    const user = await userOf(found.userId, responses.USERNAME);
    const secret = user && openTotp(user.id, user.mfaSecret);
    if (!user || !secret) {
      await repo.takeChallenge(found.id);
      return invalidSession();
    }
    await o.countCodeTry(user);
    const step = totpStep(secret, responses.SOFTWARE_TOKEN_MFA_CODE!.trim(), now(), user.mfaLastStep);
    if (step === null || !(await repo.takeTotpStep(user.id, step))) {
      if (found.last) await repo.takeChallenge(found.id);
      return codeMismatch();
    }
    await o.codeRight(user);
    if (!(await repo.takeChallenge(found.id))) return invalidSession(); // a parallel answer took it
    return finish(user.id);
  }

  async function answerMfaSetup(session: string | undefined, responses: Record<string, string>) {
    if (!responses.USERNAME) missing('USERNAME');
    const found = await claim(session, 'MFA_SETUP:verified', 1);
    if (!found || !(await repo.takeChallenge(found.id))) return invalidSession();
    if (!(await userOf(found.userId, responses.USERNAME))) return invalidSession();
    return finish(found.userId);
  }

  const sealTotp = (userId: string, secret: string) => secrets.seal(secret, totpContext(userId));

  return {
    afterPassword,
    startSrp,

    /** What a new password is stored as: its scrypt hash and its SRP verifier, written together. */
    async passwordFields(userId: string, password: string) {
      return { passwordHash: await hashPassword(password), srpVerifier: sealVerifier(userId, makeVerifier(poolName, userId, password)) };
    },
    /** After a right password: the SRP verifier for a user who has none (made before SRP was offered). */
    async keepVerifier(user: IdentityUser, password: string) {
      if (!openVerifier(user)) await repo.setSrpVerifier(user.id, sealVerifier(user.id, makeVerifier(poolName, user.id, password)));
    },

    /** RespondToAuthChallenge. */
    async answer(body: { ChallengeName: string; Session?: string; ChallengeResponses?: Record<string, string> }, ctx: Ctx): Promise<AuthAnswer> {
      const responses = body.ChallengeResponses ?? {};
      switch (body.ChallengeName) {
        case 'PASSWORD_VERIFIER':
          return answerPasswordVerifier(responses, ctx);
        case 'SOFTWARE_TOKEN_MFA':
          return answerSoftwareToken(body.Session, responses);
        case 'MFA_SETUP':
          return answerMfaSetup(body.Session, responses);
        default:
          return invalidSession();
      }
    },

    /** A new TOTP secret, pending until a code from it is verified: for the signed-in user, or in MFA_SETUP. */
    async associateSoftwareToken(body: { AccessToken?: string; Session?: string }) {
      const secret = newTotpSecret();
      if (body.AccessToken) {
        const { user } = await o.verifyAccessToken(body.AccessToken);
        await repo.setPendingTotpSecret(user.id, sealTotp(user.id, secret));
        return { SecretCode: secret };
      }
      if (!body.Session) return missing('AccessToken or Session');
      const found = await claim(body.Session, 'MFA_SETUP', 1);
      if (!found || !(await repo.takeChallenge(found.id))) return invalidSession();
      await repo.setPendingTotpSecret(found.userId, sealTotp(found.userId, secret));
      const ref = await openChallenge('MFA_SETUP:associated', found.userId, {}, CHALLENGE_RULES.setupMs);
      return { SecretCode: secret, Session: asSession(ref) };
    },

    /** A code from the pending secret makes it the user's; in MFA_SETUP, TOTP is then their MFA too. */
    async verifySoftwareToken(body: { AccessToken?: string; Session?: string; UserCode: string }) {
      const code = body.UserCode.trim();
      if (body.AccessToken) {
        const { user } = await o.verifyAccessToken(body.AccessToken);
        const pending = openTotp(user.id, user.mfaPendingSecret);
        if (!pending) return fail('InvalidParameterException', 'User has not set up software token mfa');
        const step = totpStep(pending, code, now(), null);
        if (step === null || !(await repo.confirmPendingTotpSecret(user.id, user.mfaPendingSecret!, step, false))) return setupMismatch();
        return { Status: 'SUCCESS' };
      }
      if (!body.Session) return missing('AccessToken or Session');
      const found = await claim(body.Session, 'MFA_SETUP:associated', CHALLENGE_RULES.codeTries);
      if (!found) return invalidSession();
      const user = await repo.userById(found.userId);
      const pending = user && openTotp(user.id, user.mfaPendingSecret);
      if (!user || !pending) {
        await repo.takeChallenge(found.id);
        return invalidSession();
      }
      await o.countCodeTry(user);
      const step = totpStep(pending, code, now(), null);
      if (step === null) {
        if (found.last) await repo.takeChallenge(found.id);
        return setupMismatch();
      }
      if (!(await repo.takeChallenge(found.id))) return invalidSession();
      if (!(await repo.confirmPendingTotpSecret(user.id, user.mfaPendingSecret!, step, true))) return setupMismatch();
      await o.codeRight(user);
      const ref = await openChallenge('MFA_SETUP:verified', user.id, {}, CHALLENGE_RULES.setupMs);
      return { Status: 'SUCCESS', Session: asSession(ref) };
    },

    /** TOTP on or off for the signed-in user (SMS and e-mail MFA are not offered). */
    async setUserMfaPreference(body: {
      AccessToken: string;
      SoftwareTokenMfaSettings?: { Enabled?: boolean; PreferredMfa?: boolean };
      SMSMfaSettings?: { Enabled?: boolean; PreferredMfa?: boolean };
      EmailMfaSettings?: { Enabled?: boolean; PreferredMfa?: boolean };
    }) {
      const { user } = await o.verifyAccessToken(body.AccessToken);
      if (body.SMSMfaSettings?.Enabled || body.SMSMfaSettings?.PreferredMfa)
        return fail('InvalidParameterException', 'SMS MFA is not enabled for this user pool.');
      if (body.EmailMfaSettings?.Enabled || body.EmailMfaSettings?.PreferredMfa)
        return fail('InvalidParameterException', 'Email MFA is not enabled for this user pool.');
      const totp = body.SoftwareTokenMfaSettings;
      if (!totp || totp.Enabled === undefined) {
        if (totp?.PreferredMfa && !user.mfaEnabled) return fail('InvalidParameterException', 'Software token MFA must be enabled to be preferred.');
        return {};
      }
      if (!totp.Enabled && totp.PreferredMfa) return fail('InvalidParameterException', 'Software token MFA must be enabled to be preferred.');
      if (totp.Enabled && !user.mfaSecret) return fail('InvalidParameterException', 'User has not verified software token mfa');
      await repo.setMfaEnabled(user.id, totp.Enabled);
      return {};
    },

    /** GetUser's MFA members. */
    mfaSettings(user: IdentityUser) {
      return user.mfaEnabled && user.mfaSecret ? { UserMFASettingList: ['SOFTWARE_TOKEN_MFA'], PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA' } : {};
    },
    /** An admin ADMIN_MFA=required covers who has no TOTP yet: the admin API refuses them until they sign in and set it up. */
    mustSetUpMfa: (user: IdentityUser) => o.mfaRequired(user) && !user.mfaSecret,
    /** The recovery (a lost phone): no secret, no preference; the caller signs the user out. */
    clearMfa: (userId: string) => repo.clearMfa(userId),
    sweep: () => repo.deleteChallengesExpiredBy(now()),
  };
}

export type SignInSteps = ReturnType<typeof signInSteps>;

/** For `npm run secrets:rotate`: re-seals SRP verifiers, TOTP secrets and challenges with the current key. */
export async function resealSignInSecrets(database: Database, secrets: SecretBox): Promise<number> {
  const repo = signInRepository(database);
  let count = 0;
  for (const user of await repo.usersWithSealedSecrets()) {
    for (const [column, context] of [
      ['srpVerifier', verifierContext(user.id)],
      ['mfaSecret', totpContext(user.id)],
      ['mfaPendingSecret', totpContext(user.id)],
    ] as const) {
      const value = user[column];
      if (!value || secrets.isCurrent(value)) continue;
      await repo.resealUserSecret(user.id, column, value, secrets.seal(secrets.open(value, context), context));
      count++;
    }
  }
  for (const row of await repo.allChallenges()) {
    if (secrets.isCurrent(row.state)) continue;
    await repo.resealChallenge(row.id, secrets.seal(secrets.open(row.state, challengeContext(row.id)), challengeContext(row.id)));
    count++;
  }
  return count;
}
