/**
 * SRP-6a as Cognito computes it for USER_SRP_AUTH (docs/decisions/040), the server's half: the 3072-bit
 * group of RFC 5054 (generator 2), SHA-256, k = H(N | g), u = H(A | B),
 * x = H(salt | H(poolName | userId | ':' | password)), the session key through HKDF ('Caldera Derived
 * Key'), and the claim an HMAC of poolName | userId | secret block | timestamp under it. Every number is
 * hashed in the same two's-complement hex padding aws-amplify's client uses (its srp folder), byte for
 * byte, or no stock client could sign in.
 *
 * Pure maths: no state, no I/O. Exponentiation is BigInt square-and-multiply (about 11 ms for a 256-bit
 * exponent); node:crypto's Diffie-Hellman would be faster per call but checks the prime for seconds
 * whenever a group is made from it.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const N_HEX =
  'FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD' +
  'EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED' +
  'EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F' +
  '83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B' +
  'E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510' +
  '15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7' +
  'ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C' +
  'BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF';
export const N = BigInt(`0x${N_HEX}`);
export const g = 2n;

/** Java's BigInteger.toByteArray() in hex, as the client pads: even length, a 00 before a set top bit. */
export function padHex(value: bigint): string {
  if (value < 0n) throw new Error('SRP numbers are never negative here');
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return /^[89a-f]/i.test(hex) ? `00${hex}` : hex;
}
const hashHex = (hex: string) => createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');
const hashText = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const big = (hex: string) => BigInt(`0x${hex}`);

export function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}

export const k = big(hashHex(padHex(N) + padHex(g)));

/** x of SRP: what the password contributes. `salt` is hex, read as a number the way the client reads it. */
function privateValue(poolName: string, userId: string, password: string, salt: string) {
  return big(hashHex(padHex(big(salt)) + hashText(`${poolName}${userId}:${password}`)));
}

export interface SrpVerifier {
  /** Hex, as sent in SALT. */
  salt: string;
  /** g^x mod N, hex. */
  verifier: string;
}

/** What the server keeps for a password (never the password): a fresh 128-bit salt and v = g^x. */
export function makeVerifier(poolName: string, userId: string, password: string): SrpVerifier {
  const salt = randomBytes(16).toString('hex');
  return { salt, verifier: modPow(g, privateValue(poolName, userId, password, salt), N).toString(16) };
}

/**
 * A salt and verifier that no password matches, for a user the pool does not know or one with no
 * verifier yet: derived from `seed` (a keyed digest of the username), so the same name always gets the
 * same salt, as a real user does. v is a number whose discrete log nobody knows.
 */
export function decoyVerifier(seed: Buffer): SrpVerifier {
  const expand = (label: string, bytes: number) => {
    const out: Buffer[] = [];
    for (let i = 0; out.length * 32 < bytes; i++) out.push(createHmac('sha256', seed).update(`${label}:${i}`).digest());
    return Buffer.concat(out).subarray(0, bytes);
  };
  const salt = expand('salt', 16).toString('hex');
  const verifier = (big(expand('verifier', 384).toString('hex')) % (N - 2n)) + 2n;
  return { salt, verifier: verifier.toString(16) };
}

/** The server's ephemeral pair: b secret, B = k·v + g^b, never 0 mod N. */
export function serverEphemeral(verifier: string): { b: string; B: string } {
  for (;;) {
    const b = big(randomBytes(32).toString('hex'));
    const B = (k * big(verifier) + modPow(g, b, N)) % N;
    if (B !== 0n) return { b: b.toString(16), B: B.toString(16) };
  }
}

/** The client's SRP_A as sent (hex, A mod N not 0, at most the group's size), or null. */
export function parseClientPublic(hex: string): string | null {
  if (!/^[0-9a-fA-F]{1,770}$/.test(hex)) return null;
  const A = big(hex);
  return A % N === 0n ? null : A.toString(16);
}

/** Cognito's TIMESTAMP: 'ddd MMM D HH:mm:ss UTC YYYY', the day not padded. */
export const SRP_TIMESTAMP =
  /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ([1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d UTC \d{4}$/;

export interface PasswordClaim {
  poolName: string;
  /** USER_ID_FOR_SRP as the challenge named it. */
  userId: string;
  salt: string;
  verifier: string;
  /** The client's A, and the server's b and B, hex. */
  A: string;
  b: string;
  B: string;
  /** The SECRET_BLOCK bytes the challenge sent. */
  secretBlock: Buffer;
  timestamp: string;
  /** PASSWORD_CLAIM_SIGNATURE, base64. */
  signature: string;
}

/**
 * Whether the client proved it knows the password behind `verifier`: S = (A·v^u)^b, the HKDF key from
 * S and u, and the HMAC it must have sent. Always does the whole computation, so a refusal takes as long
 * as an acceptance.
 */
export function checkPasswordClaim(claim: PasswordClaim): boolean {
  const A = big(claim.A);
  const B = big(claim.B);
  const u = big(hashHex(padHex(A) + padHex(B)));
  const S = modPow((A * modPow(big(claim.verifier), u, N)) % N, big(claim.b), N);
  const prk = createHmac('sha256', Buffer.from(padHex(u), 'hex'))
    .update(Buffer.from(padHex(S), 'hex'))
    .digest();
  const key = createHmac('sha256', prk)
    .update(Buffer.concat([Buffer.from('Caldera Derived Key', 'utf8'), Buffer.from([1])]))
    .digest()
    .subarray(0, 16);
  const expected = createHmac('sha256', key)
    .update(Buffer.concat([Buffer.from(claim.poolName, 'utf8'), Buffer.from(claim.userId, 'utf8'), claim.secretBlock, Buffer.from(claim.timestamp, 'utf8')]))
    .digest();
  const given = Buffer.from(claim.signature, 'base64');
  const timestampOk = SRP_TIMESTAMP.test(claim.timestamp);
  const sameLength = given.length === expected.length;
  const same = timingSafeEqual(expected, sameLength ? given : expected) && sameLength;
  return u !== 0n && timestampOk && same;
}
