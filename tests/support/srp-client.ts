/**
 * The client's half of USER_SRP_AUTH, written from aws-amplify's srp folder (AuthenticationHelper,
 * getPaddedHex, getHkdfKey, getSignatureString) independently of the server's api/identity/srp.ts: what
 * a program using the AWS SDK alone computes to answer PASSWORD_VERIFIER.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';

const N = BigInt(
  '0xFFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA051015728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200CBBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF',
);
const g = 2n;

const pad = (n: bigint) => {
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return /^[89a-f]/.test(hex) ? `00${hex}` : hex;
};
const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const shaHex = (hex: string) => sha(Buffer.from(hex, 'hex'));
function pow(base: bigint, exp: bigint, mod: bigint) {
  let r = 1n;
  let b = base % mod;
  for (let e = exp; e > 0n; e >>= 1n) {
    if (e & 1n) r = (r * b) % mod;
    b = (b * b) % mod;
  }
  return r;
}
const k = BigInt(`0x${shaHex(pad(N) + pad(g))}`);

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');
/** getNowString: 'ddd MMM D HH:mm:ss UTC YYYY'. */
export const srpTimestamp = (d = new Date()) =>
  `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;

/** A fresh client: A for InitiateAuth, then the ChallengeResponses for the PASSWORD_VERIFIER it gets. */
export function srpClient(userPoolId: string) {
  const poolName = userPoolId.split('_')[1] ?? '';
  const a = BigInt(`0x${randomBytes(128).toString('hex')}`);
  const A = pow(g, a, N);
  return {
    SRP_A: A.toString(16),
    answer(params: Record<string, string>, password: string, timestamp = srpTimestamp()) {
      const userId = params.USER_ID_FOR_SRP!;
      const B = BigInt(`0x${params.SRP_B}`);
      const salt = BigInt(`0x${params.SALT}`);
      const u = BigInt(`0x${shaHex(pad(A) + pad(B))}`);
      const x = BigInt(`0x${shaHex(pad(salt) + sha(`${poolName}${userId}:${password}`))}`);
      const S = pow((((B - k * pow(g, x, N)) % N) + N) % N, a + u * x, N);
      const prk = createHmac('sha256', Buffer.from(pad(u), 'hex'))
        .update(Buffer.from(pad(S), 'hex'))
        .digest();
      const hkdf = createHmac('sha256', prk).update(Buffer.from('Caldera Derived Key\u0001')).digest().subarray(0, 16);
      const signature = createHmac('sha256', hkdf)
        .update(Buffer.concat([Buffer.from(poolName), Buffer.from(userId), Buffer.from(params.SECRET_BLOCK!, 'base64'), Buffer.from(timestamp)]))
        .digest('base64');
      return { USERNAME: userId, PASSWORD_CLAIM_SECRET_BLOCK: params.SECRET_BLOCK!, PASSWORD_CLAIM_SIGNATURE: signature, TIMESTAMP: timestamp };
    },
  };
}
