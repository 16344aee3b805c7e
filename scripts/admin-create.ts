/**
 * npm run admin:create -- --username <u> --email <e> --password <p>
 *
 * Creates a confirmed admin (verified e-mail, permanent password, member of the `admin` group) in
 * whichever user pool is configured: the real Cognito pool of COGNITO_* (AWS credentials from the
 * usual chain), or the embedded identity service (the running server's, or one started here).
 * So a fresh install has a way in.
 */
import { parseArgs } from 'node:util';
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  CreateGroupCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { z } from 'zod';
import { parseAllowlist } from '../api/auth/admin-allowlist.ts';
import { loadEnv } from '../api/env.ts';
import { findRunningIdentityService, startLocalIdentityService } from '../api/identity/local-identity-service.ts';
import { createLogger } from '../api/logger.ts';
import { createDevOutbox } from '../api/mail/dev-outbox.ts';

const args = z.object({
  username: z.string().trim().min(3, 'Username must be at least 3 characters'),
  email: z.email('Please enter a valid email address'),
  password: z.string().min(8, 'Password must be at least 8 characters'),
});

function fail(message: string): never {
  process.stderr.write(`admin:create: ${message}\n`);
  process.exit(1);
}

const { values } = parseArgs({ options: { username: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' } } });
const parsed = args.safeParse(values);
if (!parsed.success) {
  fail(`${parsed.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`).join('; ')}\nUsage: npm run admin:create -- --username <u> --email <e> --password <p>`);
}
const { username, email, password } = parsed.data;
const env = loadEnv();
const log = createLogger({ silent: true });

let client: CognitoIdentityProviderClient;
let userPoolId: string;
let stop = async () => {};
if (env.COGNITO_USER_POOL_ID && env.COGNITO_REGION) {
  client = new CognitoIdentityProviderClient({ region: env.COGNITO_REGION });
  userPoolId = env.COGNITO_USER_POOL_ID;
} else {
  const running = await findRunningIdentityService(env.IDENTITY_DATA_DIR);
  let endpoint: string;
  if (running) {
    ({ endpoint, userPoolId } = running);
  } else {
    const local = await startLocalIdentityService({
      dataDir: env.IDENTITY_DATA_DIR,
      allowlist: parseAllowlist(env.ADMIN_EMAILS),
      log,
      onMessage: (m) => createDevOutbox(env.OUTBOX_DIR).deliver({ to: m.to, subject: m.subject, text: m.text }),
    });
    ({ endpoint, userPoolId } = local);
    stop = local.stop;
  }
  client = new CognitoIdentityProviderClient({ region: 'local', endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

try {
  await client.send(
    new AdminCreateUserCommand({
      UserPoolId: userPoolId,
      Username: username,
      MessageAction: 'SUPPRESS',
      TemporaryPassword: `T-${crypto.randomUUID()}`,
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'email_verified', Value: 'true' },
      ],
    }),
  );
  await client.send(new AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: username, Password: password, Permanent: true }));
  await client.send(new CreateGroupCommand({ UserPoolId: userPoolId, GroupName: 'admin', Description: 'Firm administrators' })).catch((err: Error) => {
    if (err.name !== 'GroupExistsException') throw err;
  });
  await client.send(new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: username, GroupName: 'admin' }));
  console.log(`Admin "${username}" created in user pool ${userPoolId}. Sign in at /login.`);
} catch (err) {
  const e = err as Error;
  if (e.name === 'UsernameExistsException') fail(`a user named "${username}" already exists in user pool ${userPoolId}.`);
  if (e.name === 'InvalidPasswordException') fail(`the password does not meet the pool's policy: ${e.message}`);
  fail(`${e.name}: ${e.message}`);
} finally {
  await stop();
}
