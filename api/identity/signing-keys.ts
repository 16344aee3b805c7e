/**
 * The embedded identity service's signing keys (docs/decisions/014): RS256 key pairs generated per
 * install, the private half sealed with the install's secrets key in the database, the public half
 * published as a JWKS. The newest unretired key signs; a retired key verifies the tokens it signed
 * until they expire, then goes. Every container reads the key set from the database at most
 * KEYSET_REFRESH_MS after it last did, so a rotation made anywhere (another container, the operator's
 * command) reaches all of them within that bound (docs/decisions/040).
 */
import { createLocalJWKSet, exportJWK, exportPKCS8, generateKeyPair, importPKCS8, jwtVerify, SignJWT, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { IdentityRepository } from './identity.repository.ts';

/** Cognito's default access and ID token lifetime. */
export const ACCESS_TOKEN_SECONDS = 3600;
/** A retired key keeps verifying this long: the longest token it signed, plus the 5 s tolerance. */
export const RETIRED_KEY_GRACE_MS = (ACCESS_TOKEN_SECONDS + 300) * 1000;
/**
 * How long a container trusts the key set it read: `identity:rotate-keys --revoke-old` must stop every
 * container admitting an old key's tokens within 2 s. One small query a second per container at most.
 */
export const KEYSET_REFRESH_MS = 1000;
/** A token naming a key not in the set (made by another container just now) reloads it, at most this often. */
const UNKNOWN_KID_RELOAD_MS = 250;
const ALG = 'RS256';
const sealContext = (kid: string) => `identity-signing-key:${kid}`;

export interface SigningKeys {
  sign(claims: JWTPayload, options: { issuer: string; audience?: string; now: Date }): Promise<string>;
  verify(token: string, options: { issuer: string; now: Date }): Promise<JWTPayload>;
  jwks(): Promise<JSONWebKeySet>;
  /** A new key signs from now on; with `revokeOld`, tokens signed by the old ones stop verifying at once. */
  rotate(options: { now: Date; revokeOld?: boolean }): Promise<string>;
  /** Makes the first key when there is none. */
  ensure(): Promise<void>;
}

export function signingKeys(repo: IdentityRepository, secrets: SecretBox): SigningKeys {
  let keyset: { jwks: JSONWebKeySet; verify: ReturnType<typeof createLocalJWKSet>; loadedAt: number; fingerprint: string } | null = null;
  /** Opened and imported once per key (a sign-in signs two tokens). */
  const privateKeys = new Map<string, CryptoKey>();

  async function load(now: Date) {
    const rows = await repo.signingKeys();
    const live = rows.filter((row) => !row.retiredAt || now.getTime() - row.retiredAt.getTime() < RETIRED_KEY_GRACE_MS);
    const fingerprint = live.map((row) => row.kid).join(',');
    // The same keys: the verifier (and the public keys jose imported into it) is kept.
    if (keyset?.fingerprint === fingerprint) keyset = { ...keyset, loadedAt: now.getTime() };
    else {
      const jwks = { keys: live.map((row) => JSON.parse(row.publicJwk)) };
      keyset = { jwks, verify: createLocalJWKSet(jwks), loadedAt: now.getTime(), fingerprint };
    }
    return { rows, keyset };
  }

  async function create() {
    const { publicKey, privateKey } = await generateKeyPair(ALG, { extractable: true, modulusLength: 2048 });
    const kid = crypto.randomUUID();
    const jwk = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' };
    await repo.insertSigningKey({ kid, publicJwk: JSON.stringify(jwk), privateKey: secrets.seal(await exportPKCS8(privateKey), sealContext(kid)) });
    keyset = null;
    return kid;
  }

  return {
    async ensure() {
      const rows = await repo.signingKeys();
      if (!rows.some((row) => !row.retiredAt)) await create();
    },
    async sign(claims, { issuer, audience, now }) {
      // The signer is read each time (sign-ins are rare): a rotation by any container applies at once.
      const rows = await repo.signingKeys();
      const current = rows.find((row) => !row.retiredAt);
      if (!current) throw new Error('the identity service has no signing key (run the server once, or npm run identity:rotate-keys)');
      // A signer this container's key set does not have yet (made elsewhere): read the set again at
      // the next verification, so the token signed here is admitted here at once.
      if (keyset && !keyset.fingerprint.split(',').includes(current.kid)) keyset = null;
      let key = privateKeys.get(current.kid);
      if (!key) privateKeys.set(current.kid, (key = await importPKCS8(secrets.open(current.privateKey, sealContext(current.kid)), ALG)));
      const iat = Math.floor(now.getTime() / 1000);
      const jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: ALG, kid: current.kid })
        .setIssuer(issuer)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ACCESS_TOKEN_SECONDS);
      if (audience) jwt.setAudience(audience);
      return jwt.sign(key);
    },
    async verify(token, { issuer, now }) {
      // Read again once older than the bound (or when the clock went back: an injected one may).
      const age = keyset ? now.getTime() - keyset.loadedAt : Number.POSITIVE_INFINITY;
      let current = keyset && age >= 0 && age < KEYSET_REFRESH_MS ? keyset : (await load(now)).keyset;
      const check = (set: NonNullable<typeof keyset>) => jwtVerify(token, set.verify, { issuer, algorithms: [ALG], clockTolerance: 5, currentDate: now });
      try {
        return (await check(current)).payload;
      } catch (err) {
        // Unknown `kid`: another container may have rotated since; reload, spaced.
        if ((err as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY' || now.getTime() - current.loadedAt < UNKNOWN_KID_RELOAD_MS) throw err;
        current = (await load(now)).keyset;
        return (await check(current)).payload;
      }
    },
    async jwks() {
      return (await load(new Date())).keyset.jwks;
    },
    async rotate({ now, revokeOld }) {
      const kid = await create();
      await repo.retireKeysExcept(kid, now);
      if (revokeOld) await repo.deleteKeysExcept(kid);
      else await repo.deleteKeysRetiredBefore(new Date(now.getTime() - RETIRED_KEY_GRACE_MS));
      keyset = null;
      return kid;
    },
  };
}

/** For `npm run secrets:rotate`: re-seals every private key with the current secrets key. */
export async function resealSigningKeys(repo: IdentityRepository, secrets: SecretBox): Promise<number> {
  let count = 0;
  for (const row of await repo.signingKeys()) {
    if (secrets.isCurrent(row.privateKey)) continue;
    await repo.resealSigningKey(row.kid, secrets.seal(secrets.open(row.privateKey, sealContext(row.kid)), sealContext(row.kid)));
    count++;
  }
  return count;
}
