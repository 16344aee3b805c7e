/**
 * The operator's admin accounts, in whichever user pool is configured: the real Cognito pool of
 * COGNITO_* (AWS credentials from the usual chain), or the embedded identity service in the site's
 * database (the same database the server uses: SQLITE_PATH or DATABASE_URL, and the same SECRETS_KEY).
 *
 *   npm run admin:create -- --username <u> --email <e> --password <p>
 *   npm run admin:add -- --username <u>
 *   npm run admin:list
 *   npm run admin:remove -- --username <u> [--disable]
 *
 * Creating one admin never touches another. Removing one takes it out of the `admin` group and signs
 * it out everywhere: the admin API refuses its tokens at once (embedded) or within a minute (Cognito,
 * whose GetUser refuses signed-out tokens). --disable also stops the account signing in again.
 * Adding puts an existing account (one removed from the group, or made by sign-up) back in the group.
 */
import { parseArgs } from 'node:util';
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminSetUserPasswordCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  ListUsersInGroupCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { z } from 'zod';
import { loadEnv } from '../api/env.ts';
import { IdentityError } from '../api/identity/embedded-identity.ts';
import { openEmbeddedIdentity } from './open-embedded-identity.ts';

const usage = `Usage:
  npm run admin:create -- --username <u> --email <e> --password <p>
  npm run admin:add -- --username <u>
  npm run admin:list
  npm run admin:remove -- --username <u> [--disable]`;

function fail(message: string): never {
  process.stderr.write(`admin: ${message}\n`);
  process.exit(1);
}

const [command, ...rest] = process.argv.slice(2);
const { values } = parseArgs({
  args: rest,
  options: { username: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' }, disable: { type: 'boolean' } },
});
const createArgs = z.object({
  username: z.string().trim().min(3, 'Username must be at least 3 characters'),
  email: z.email('Please enter a valid email address'),
  password: z.string().min(8, 'Password must be at least 8 characters'),
});

const env = loadEnv();

async function withCognito(poolId: string, region: string) {
  const client = new CognitoIdentityProviderClient({ region });
  if (command === 'create') {
    const { username, email, password } = parseCreate();
    await client.send(
      new AdminCreateUserCommand({
        UserPoolId: poolId,
        Username: username,
        MessageAction: 'SUPPRESS',
        TemporaryPassword: `T-${crypto.randomUUID()}`,
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
        ],
      }),
    );
    await client.send(new AdminSetUserPasswordCommand({ UserPoolId: poolId, Username: username, Password: password, Permanent: true }));
    // CreateGroup fails when the group exists: it never replaces the members already in it.
    await client.send(new CreateGroupCommand({ UserPoolId: poolId, GroupName: 'admin', Description: 'Firm administrators' })).catch((err: Error) => {
      if (err.name !== 'GroupExistsException') throw err;
    });
    await client.send(new AdminAddUserToGroupCommand({ UserPoolId: poolId, Username: username, GroupName: 'admin' }));
    console.log(`Admin "${username}" created in user pool ${poolId}. Sign in at /login.`);
  } else if (command === 'add') {
    const username = parseUsername();
    await client.send(new CreateGroupCommand({ UserPoolId: poolId, GroupName: 'admin', Description: 'Firm administrators' })).catch((err: Error) => {
      if (err.name !== 'GroupExistsException') throw err;
    });
    await client.send(new AdminAddUserToGroupCommand({ UserPoolId: poolId, Username: username, GroupName: 'admin' }));
    await client.send(new AdminEnableUserCommand({ UserPoolId: poolId, Username: username }));
    console.log(`"${username}" is an admin again in user pool ${poolId}.`);
  } else if (command === 'list') {
    let token: string | undefined;
    do {
      const page = await client.send(new ListUsersInGroupCommand({ UserPoolId: poolId, GroupName: 'admin', NextToken: token }));
      for (const user of page.Users ?? [])
        console.log(
          `${user.Username}\t${user.Attributes?.find((a) => a.Name === 'email')?.Value ?? ''}\t${user.UserStatus}\t${user.Enabled ? 'enabled' : 'disabled'}`,
        );
      token = page.NextToken;
    } while (token);
    if (env.ADMIN_EMAILS) console.log(`Also admins: users with a verified e-mail matching ADMIN_EMAILS (${env.ADMIN_EMAILS}).`);
  } else {
    const username = parseUsername();
    await client.send(new AdminRemoveUserFromGroupCommand({ UserPoolId: poolId, Username: username, GroupName: 'admin' }));
    if (values.disable) await client.send(new AdminDisableUserCommand({ UserPoolId: poolId, Username: username }));
    await client.send(new AdminUserGlobalSignOutCommand({ UserPoolId: poolId, Username: username }));
    console.log(`"${username}" is no longer an admin and is signed out everywhere${values.disable ? '; the account is disabled' : ''}.`);
  }
}

async function withEmbedded() {
  // What the pool mails is held as the server holds it (sealed in the database), read on the Email tab.
  const { identity, database } = await openEmbeddedIdentity(env);
  try {
    if (command === 'create') {
      const account = parseCreate();
      await identity.admins.create(account);
      console.log(`Admin "${account.username}" created in the embedded user pool ${identity.userPoolId}. Sign in at /login.`);
    } else if (command === 'add') {
      const username = parseUsername();
      await identity.admins.add(username);
      console.log(`"${username}" is an admin again. Sign in at /login.`);
    } else if (command === 'list') {
      const users = await identity.admins.list();
      if (!users.length) console.log('No accounts yet: npm run admin:create -- --username <u> --email <e> --password <p>');
      for (const u of users) console.log(`${u.username}\t${u.email}\t${u.status}\t${u.enabled ? 'enabled' : 'disabled'}\tadmin: ${u.admin}`);
    } else {
      const username = parseUsername();
      const { stillAdminByEmail } = await identity.admins.remove(username, { disable: values.disable });
      console.log(`"${username}" is no longer in the admin group and is signed out everywhere${values.disable ? '; the account is disabled' : ''}.`);
      if (stillAdminByEmail)
        console.log(`Note: its verified e-mail is on ADMIN_EMAILS, so it is still an admin: take it off ADMIN_EMAILS, or run again with --disable.`);
    }
  } finally {
    await database.close();
  }
}

function parseCreate() {
  const parsed = createArgs.safeParse(values);
  if (!parsed.success) fail(`${parsed.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`).join('; ')}\n${usage}`);
  return parsed.data;
}
function parseUsername() {
  if (!values.username) fail(`--username is required\n${usage}`);
  return values.username;
}

if (command !== 'create' && command !== 'add' && command !== 'list' && command !== 'remove') fail(usage);
try {
  if (env.COGNITO_USER_POOL_ID && env.COGNITO_REGION) await withCognito(env.COGNITO_USER_POOL_ID, env.COGNITO_REGION);
  else await withEmbedded();
} catch (err) {
  const e = err as Error;
  if (e instanceof IdentityError) fail(e.message);
  if (e.name === 'UsernameExistsException') fail(`a user named "${values.username}" already exists.`);
  if (e.name === 'UserNotFoundException') fail(`no user named "${values.username}".`);
  if (e.name === 'InvalidPasswordException') fail(`the password does not meet the pool's policy: ${e.message}`);
  fail(`${e.name}: ${e.message}`);
}
