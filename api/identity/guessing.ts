/**
 * Bounded guessing in the embedded identity service (docs/decisions/039-bounded-guessing.md). Every
 * password and code check passes these gates first; each gate counts the attempt in the database
 * before the secret is looked at (so a burst of parallel guesses counts every one), and an attempt a
 * later gate refuses is given back to the gates it had passed (it checked nothing).
 *
 * - A code dies after CODE_TRIES wrong tries in its lifetime, counted on the code's own row; a code
 *   that does not exist (unknown username, or no code asked for) is stood in for by a count kept as
 *   long as a code would be, so every username answers alike, also at the sixth try.
 * - Per client group (an IPv4 address; an IPv6 /64 and, WIDE_BLOCK_FACTOR times as much, its /56).
 * - Passwords per (username, client group), Cognito's lockout: a stranger's guesses slow the stranger,
 *   not the owner on their own address. Per username from unknown devices, with a higher threshold
 *   (a stranger spread over several addresses). Pool-wide, failed password and code checks, each with
 *   growing delays once past a threshold no honest firm meets (Cognito's per-pool quotas).
 * - A known device (a signed cookie the gateway sets after a sign-in, naming the username) passes the
 *   per-username and pool-wide gates for that username; the per-(username, client) gate still counts.
 * - Code sends are limited per username; the code is stored and mailed after the answer, so a real
 *   username's answer is made exactly as an unknown one's.
 */
import { setImmediate } from 'node:timers';
import type { Clock } from '../clock.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { addressGroups, WIDE_BLOCK_FACTOR } from '../http/rate-limit.ts';
import type { CodePurpose, IdentityRepository } from './identity.repository.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * A gate: `free` attempts, then one attempt at a time after a delay doubling from 1 s up to
 * `maxDelayMs`. The count is forgotten after `quietMs` without attempts, or (`windowMs`) when the
 * window its first attempt opened is over; never while a delay is in force.
 */
export interface GuessRule {
  free: number;
  maxDelayMs: number;
  quietMs?: number;
  windowMs?: number;
}

/** The numbers, and why, are in docs/decisions/039-bounded-guessing.md. */
export const GUESSING = {
  /** Wrong tries a code allows in its lifetime (decision 014). */
  codeTries: 5,
  /** One client group, whatever the username (passwords and codes). */
  address: { free: 20, maxDelayMs: 15 * MINUTE, quietMs: 15 * MINUTE },
  /** An IPv6 client's /56. */
  addressWide: { free: 20 * WIDE_BLOCK_FACTOR, maxDelayMs: 15 * MINUTE, quietMs: 15 * MINUTE },
  /** One username from one client group: Cognito's lockout, 5 free attempts then up to 15 minutes. */
  pair: { free: 5, maxDelayMs: 15 * MINUTE, quietMs: 15 * MINUTE },
  /**
   * One username from every unknown device. Forgotten after 10 quiet minutes, shorter than the pair's
   * longest delay: one client group alone reaches at most 16 here (5 free, then 11 turns less than 10
   * minutes apart), so it never locks the owner out from another address.
   */
  user: { free: 20, maxDelayMs: 15 * MINUTE, quietMs: 10 * MINUTE },
  /** Failed password checks from unknown devices, pool-wide, per hour. */
  poolPasswords: { free: 100, maxDelayMs: 15 * MINUTE, windowMs: HOUR },
  /** Failed code checks, pool-wide, per day: 6-digit codes are the weaker secret. */
  poolCodes: { free: 50, maxDelayMs: HOUR, windowMs: DAY },
  /** Codes sent to one username. */
  codeSends: { free: 5, maxDelayMs: HOUR, quietMs: 15 * MINUTE },
  /** The usual quiet period (sweeping). */
  quietMs: 15 * MINUTE,
} as const satisfies Record<string, GuessRule | number>;

/** How each gate refuses, in Cognito's words (the service's own errors). */
export interface Refusals {
  /** A password gate: NotAuthorizedException 'Password attempts exceeded'. */
  attemptsExceeded(): never;
  /** A code gate, or a dead code: LimitExceededException. */
  tooManyCodes(): never;
  /** The pool's password quota: TooManyRequestsException. */
  tooManyRequests(): never;
}

/** Who is guessing: the client's address (clientOf) and, from a known-device cookie, whose device it is. */
export interface Guesser {
  usernameKey: string;
  clientAddress: string;
  /** The username key a valid device cookie names, if the request carried one. */
  deviceUser?: string | null;
}

const standInKey = (purpose: CodePurpose, usernameKey: string) => `tries:${purpose}:${usernameKey}`;
/** A user id no account has (ids are random UUIDs): what an unknown username's try is counted on. */
const NO_USER = '00000000-0000-0000-0000-000000000000';
/** The group comes first and holds no '|': no username can make another client's key. */
const pairKey = (group: string, usernameKey: string) => `pair:${group}|${usernameKey}`;

export function guessingGates({ repo, clock, refusals }: { repo: IdentityRepository; clock: Clock; refusals: Refusals }) {
  const now = () => clock.now();

  /** One attempt under `key`, counted before the secret is checked; refused while spaced out. */
  async function gate(key: string, rule: GuessRule, refuse: () => never) {
    const at = now();
    const { failures, lockedUntil } = await repo.countAttempt(key, at, rule.windowMs ? { windowMs: rule.windowMs } : (rule.quietMs ?? GUESSING.quietMs));
    if (lockedUntil && lockedUntil > at) refuse();
    if (failures <= rule.free) return;
    const delay = Math.min(1000 * 2 ** (failures - rule.free - 1), rule.maxDelayMs);
    if (!(await repo.claimTurn(key, at, new Date(at.getTime() + delay)))) refuse();
  }

  type Step = { key: string; rule: GuessRule; refuse: () => never };
  /** Passes every gate in order; when one refuses, the ones passed get their attempt back. */
  async function passAll(steps: Step[], passed: string[] = []) {
    try {
      for (const step of steps) {
        await gate(step.key, step.rule, step.refuse);
        passed.push(step.key);
      }
    } catch (err) {
      await giveBack(passed);
      throw err;
    }
    return passed;
  }
  async function giveBack(keys: readonly string[]) {
    for (const key of keys) await repo.uncountAttempt(key);
  }
  const addressSteps = (clientAddress: string, refuse: () => never): Step[] =>
    addressGroups(clientAddress).map((group, i) => ({ key: `address:${group}`, rule: i === 0 ? GUESSING.address : GUESSING.addressWide, refuse }));

  return {
    /** One attempt under a key of the caller's (an SRP answer per client, a TOTP code per user), counted before it is checked. */
    count: (key: string, rule: GuessRule, refuse: () => never) => gate(key, rule, refuse),
    /** A right answer under that key: its attempt back, or the whole count cleared. */
    forgive: (key: string) => repo.uncountAttempt(key),
    clear: (key: string) => repo.clearAttempts(key),
    /**
     * Before a password is checked. Refused with `refuse` (or the pool's TooManyRequestsException);
     * call `succeeded` once the password was right: the guesser's own count is cleared, the others
     * get their attempt back (they count failures).
     */
    async password(guesser: Guesser, refuse: () => never = refusals.attemptsExceeded) {
      const groups = addressGroups(guesser.clientAddress);
      const pair = pairKey(groups.at(-1)!, guesser.usernameKey);
      const known = guesser.deviceUser === guesser.usernameKey;
      const passed = await passAll([
        ...addressSteps(guesser.clientAddress, refuse),
        { key: pair, rule: GUESSING.pair, refuse },
        ...(known
          ? []
          : [
              { key: `user:${guesser.usernameKey}`, rule: GUESSING.user, refuse },
              { key: 'pool:passwords', rule: GUESSING.poolPasswords, refuse: refusals.tooManyRequests },
            ]),
      ]);
      return {
        async succeeded() {
          await repo.clearAttempts(pair);
          await giveBack(passed.filter((key) => key !== pair));
        },
      };
    },

    /**
     * Before a code is compared: the client's gates, then a try on the code (or its stand-in), then
     * the pool's (which a known device of this username passes: the code's own tries still bound it).
     * A dead code keeps its count, so every later try is refused alike until a new code is sent.
     * Returns the stored code (null: none, compare nothing) and `right`, to call when it matched: a
     * right code is no guess, so every count gets its attempt back.
     */
    async code(guesser: Guesser & { userId: string | null; purpose: CodePurpose; ttlMs: number }) {
      const { tooManyCodes } = refusals;
      const at = now();
      const passed = await passAll(addressSteps(guesser.clientAddress, tooManyCodes));
      const standIn = standInKey(guesser.purpose, guesser.usernameKey);
      // The same statements for every username, with a code or not (their time tells nothing): the try
      // is counted on the code (none for an unknown username: no row changes) and on the stand-in,
      // which a send resets with the code, so the two agree until the code is used.
      const userId = guesser.userId ?? NO_USER;
      let code: Awaited<ReturnType<IdentityRepository['countCodeTry']>>;
      let standInTries: number;
      try {
        code = await repo.countCodeTry(userId, guesser.purpose);
        standInTries = await repo.countStandInTry(standIn, at, new Date(at.getTime() + guesser.ttlMs));
      } catch (err) {
        await giveBack(passed);
        throw err;
      }
      const tries = code ? code.attempts : standInTries;
      const giveBackTry = async () => {
        await repo.giveBackCodeTry(userId, guesser.purpose);
        await repo.uncountAttempt(standIn);
      };
      if (tries > GUESSING.codeTries) {
        await giveBack(passed);
        return tooManyCodes();
      }
      if (guesser.deviceUser !== guesser.usernameKey) {
        try {
          await passAll([{ key: 'pool:codes', rule: GUESSING.poolCodes, refuse: tooManyCodes }], passed);
        } catch (err) {
          await giveBackTry();
          throw err;
        }
      }
      return {
        code,
        async right() {
          await giveBack(passed);
          await giveBackTry();
        },
      };
    },

    /** Before a code is sent (to a real user or not): the per-username limit on sends. */
    async send(usernameKey: string) {
      await gate(`send:${usernameKey}`, GUESSING.codeSends, refusals.tooManyCodes);
    },
    /** What every send does for the username, real or not: the stand-in count starts again. */
    async sent(usernameKey: string, purpose: CodePurpose, at: Date, ttlMs: number) {
      await repo.resetStandInTries(standInKey(purpose, usernameKey), at, new Date(at.getTime() + ttlMs));
    },
    /** A password reset was made with the mailbox: unknown devices' count for the username starts again. */
    async passwordReset(usernameKey: string) {
      await repo.clearAttempts(`user:${usernameKey}`);
    },
    /**
     * Housekeeping: quiet counters, and codes and stand-ins a day after their time (both alike, so an
     * unknown username's count goes when a real one's code would; the day keeps "expired, ask again"
     * for a late right code).
     */
    async sweep(at: Date) {
      const dayAgo = new Date(at.getTime() - DAY);
      const codes = await repo.deleteCodesExpiredBefore(dayAgo);
      const standIns = await repo.deleteStandInsBefore('tries:', dayAgo);
      const quiet = await repo.deleteQuietThrottles(new Date(at.getTime() - GUESSING.quietMs), at);
      return codes.length + standIns.length + quiet.length;
    },
  };
}

export type GuessingGates = ReturnType<typeof guessingGates>;

/**
 * Work a code-sending action does after its answer (storing and mailing the code, starting the tries
 * again): the answer is then made the same way for every username. Tracked, so tests and a shutdown
 * can wait for it (`settled`); a failure is reported, never thrown at the caller who was answered.
 */
export function afterAnswer(onError: (err: unknown) => void, schedule?: (work: () => Promise<void>) => void) {
  const pending = new Set<Promise<void>>();
  return {
    later(work: () => Promise<void>) {
      if (schedule) return schedule(work);
      // setImmediate: after the answer is written (the handler's promise chain ends first).
      const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(work)
        .catch(onError)
        .finally(() => pending.delete(task));
      pending.add(task);
    },
    /** Resolves once everything deferred so far (and anything it deferred) is done. */
    async settled() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
    get pending() {
      return pending.size;
    },
  };
}

/** The known-device cookie: HttpOnly, SameSite=Strict, only sent to the identity gateway. */
export const DEVICE_COOKIE = 'firm_device';
export const DEVICE_COOKIE_PATH = '/api/identity';
/** A device stays known this long after its last sign-in (each sign-in issues a fresh cookie). */
export const DEVICE_DAYS = 180;
const DEVICE_CONTEXT = 'identity-known-device';

/**
 * Signs and reads known-device cookies: `v1.<username key>.<issued, epoch s>.<HMAC>` under a key
 * derived from the install's secrets key (a previous key still verifies, so a key rotation does not
 * forget devices). The cookie proves only that this browser signed in as that username lately.
 */
export function knownDevices(secrets: SecretBox, clock: Clock) {
  return {
    issue(usernameKey: string): string {
      const body = `v1.${Buffer.from(usernameKey).toString('base64url')}.${Math.floor(clock.now().getTime() / 1000)}`;
      return `${body}.${secrets.digest(body, DEVICE_CONTEXT)}`;
    },
    /** The username key a valid, unexpired cookie names; null for anything else. */
    read(value: string | undefined | null): string | null {
      if (!value || value.length > 1024) return null;
      const parts = value.split('.');
      if (parts.length !== 4 || parts[0] !== 'v1' || !/^\d{1,12}$/.test(parts[2]!)) return null;
      const body = parts.slice(0, 3).join('.');
      if (!secrets.matchesDigest(body, DEVICE_CONTEXT, parts[3]!)) return null;
      const ageMs = clock.now().getTime() - Number(parts[2]) * 1000;
      if (ageMs < -60_000 || ageMs > DEVICE_DAYS * DAY) return null;
      return Buffer.from(parts[1]!, 'base64url').toString('utf8');
    },
  };
}
