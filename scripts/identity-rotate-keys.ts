/**
 * npm run identity:rotate-keys [-- --revoke-old]
 *
 * The embedded identity service gets a new signing key, which signs every token from now on (every
 * container reads the signer when it signs). Tokens signed by the old key keep working until they
 * expire (an hour), so nobody is signed out. With --revoke-old (a key that leaked), the old keys are
 * deleted at once: every access token is refused, and admins' browsers fetch new tokens with their
 * refresh tokens, which do not depend on the key.
 */
import { loadEnv } from '../api/env.ts';
import { openEmbeddedIdentity } from './open-embedded-identity.ts';

const env = loadEnv();
if (env.COGNITO_USER_POOL_ID) {
  process.stderr.write('identity:rotate-keys: a Cognito user pool is configured; Cognito manages its own keys.\n');
  process.exit(1);
}
const revokeOld = process.argv.includes('--revoke-old');
const { identity, database } = await openEmbeddedIdentity(env);
try {
  const kid = await identity.rotateKeys({ revokeOld });
  console.log(
    `New signing key ${kid}. ${revokeOld ? 'Old keys deleted: every access token issued before now is refused.' : 'Old keys verify the tokens they signed for one more hour.'}`,
  );
} finally {
  await database.close();
}
