/**
 * The operator's admin accounts, in whichever user pool is configured: the real Cognito pool of
 * COGNITO_* (AWS credentials from the usual chain), or the embedded identity service in the site's
 * database (the same database the server uses: SQLITE_PATH or DATABASE_URL, and the same SECRETS_KEY).
 *
 *   npm run admin:create -- --username <u> --email <e> --password <p>
 *   npm run admin:add -- --username <u>
 *   npm run admin:list
 *   npm run admin:remove -- --username <u> [--disable]
 *   npm run admin:invite -- --email <e> [--invited-by <name>]
 *   npm run admin:reset-mfa -- --username <u>
 *
 * Creating one admin never touches another. Removing one takes it out of the `admin` group and signs
 * it out everywhere: the admin API refuses its tokens at once (embedded) or within a minute (Cognito,
 * whose GetUser refuses signed-out tokens). --disable also stops the account signing in again.
 * Adding puts an existing account (one removed from the group, or made by sign-up) back in the group.
 * Inviting e-mails a single-use link, valid 7 days, whose holder chooses a username and a password and
 * is an admin (docs/decisions/041); with no email setting it is kept in the development outbox and the
 * link is printed here, once (only its digest is stored).
 * Resetting MFA (a lost authenticator) removes the user's TOTP and signs them out everywhere; with
 * ADMIN_MFA=required they set it up again at their next sign-in (docs/decisions/040).
 */
import { parseArgs } from 'node:util';
import {
  AdminAddUserToGroupCommand,
  AdminSetUserMFAPreferenceCommand,
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
import { COGNITO_INVITATIONS_UNAVAILABLE } from '../api/admins/cognito-admin-directory.ts';
import { systemClock } from '../api/clock.ts';
import { integrationSettings, loadEnv } from '../api/env.ts';
import { embeddedInvitations } from '../api/identity/admission.ts';
import { IdentityError } from '../api/identity/embedded-identity.ts';
import { deliverIdentityMail } from '../api/identity/identity.ts';
import { formatFirmDateTime } from '../src/shared/firm-time.ts';
import { openEmbeddedIdentity } from './open-embedded-identity.ts';

const usage = `Usage:
  npm run admin:create -- --username <u> --email <e> --password <p>
  npm run admin:add -- --username <u>
  npm run admin:list
  npm run admin:remove -- --username <u> [--disable]
  npm run admin:invite -- --email <e> [--invited-by <name>]
  npm run admin:reset-mfa -- --username <u>`;

function fail(message: string): never {
  process.stderr.write(`admin: ${message}\n`);
  process.exit(1);
}

const [command, ...rest] = process.argv.slice(2);
const { values } = parseArgs({
  args: rest,
  options: {
    username: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    disable: { type: 'boolean' },
    'invited-by': { type: 'string' },
  },
});
const createArgs = z.object({
  username: z.string().trim().min(3, 'Username must be at least 3 characters'),
  email: z.email('Please enter a valid email address'),
  password: z.string().min(8, 'Password must be at least 8 characters'),
});

const inviteArgs = z.object({
  email: z.email('Please enter a valid email address').max(254),
  'invited-by': z.string().trim().min(1).max(128).default('the operator'),
});

const env = loadEnv();

async function withCognito(poolId: string, region: string) {
  const client = new CognitoIdentityProviderClient({ region });
  if (command === 'invite') fail(COGNITO_INVITATIONS_UNAVAILABLE);
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
    if (env.ADMIN_EMAILS)
      console.log(
        `Users with a verified e-mail matching ADMIN_EMAILS (${env.ADMIN_EMAILS}) outside the group ask to be admins: approve them on the Admins screen.`,
      );
  } else if (command === 'reset-mfa') {
    const username = parseUsername();
    await client.send(
      new AdminSetUserMFAPreferenceCommand({ UserPoolId: poolId, Username: username, SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false } }),
    );
    await client.send(new AdminUserGlobalSignOutCommand({ UserPoolId: poolId, Username: username }));
    console.log(`"${username}" no longer signs in with TOTP and is signed out everywhere.`);
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
  const { identity, database, secrets, outbox } = await openEmbeddedIdentity(env);
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
    } else if (command === 'reset-mfa') {
      const { username } = await identity.admins.resetMfa(parseUsername());
      console.log(`"${username}"'s two-step verification is reset and they are signed out everywhere; they set it up again at their next sign-in.`);
    } else if (command === 'remove') {
      const username = parseUsername();
      const { mayAskAgain } = await identity.admins.remove(username, { disable: values.disable });
      console.log(`"${username}" is no longer in the admin group and is signed out everywhere${values.disable ? '; the account is disabled' : ''}.`);
      if (mayAskAgain)
        console.log(
          `Note: its verified e-mail is on ADMIN_EMAILS, so signing in again asks to be an admin again (an admin refuses it on the Admins screen), unless you run again with --disable.`,
        );
    } else {
      const { email, 'invited-by': invitedBy } = parseInvite();
      const log = {
        info: () => {},
        warn: () => {},
        error: (msg: string, fields?: object) => process.stderr.write(`admin: ${msg} ${JSON.stringify(fields ?? {})}\n`),
      };
      const mail = { database, secrets, clock: systemClock, log, outbox, integrations: integrationSettings(env) };
      const invitations = embeddedInvitations({
        database,
        clock: systemClock,
        siteUrl: env.SITE_URL,
        send: (message) => deliverIdentityMail(mail, message, { invitation: true }),
      });
      const result = await invitations.create({ email, invitedBy });
      if (result.outcome === 'address-taken')
        fail(`${email} already has an account: it cannot be invited (npm run admin:add -- --username <its name> makes it an admin).`);
      if (result.outcome === 'too-many') fail('there are too many pending invitations: revoke some on the Admins screen first.');
      if (result.outcome !== 'invited') return;
      const expires = formatFirmDateTime(result.invitation.expiresAt);
      if (result.superseded) console.log(`The earlier pending invitation to ${result.invitation.email} no longer works.`);
      if (result.delivered === 'sent') console.log(`Invitation e-mailed to ${result.invitation.email}; the link works once, until ${expires}.`);
      else
        console.log(
          `No e-mail is configured, so the invitation was kept in the development outbox. Send ${result.invitation.email} this link yourself; it works once, until ${expires}, and is not shown again:\n${result.link}`,
        );
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
function parseInvite() {
  const parsed = inviteArgs.safeParse(values);
  if (!parsed.success) fail(`${parsed.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`).join('; ')}\n${usage}`);
  return parsed.data;
}
function parseUsername() {
  if (!values.username) fail(`--username is required\n${usage}`);
  return values.username;
}

if (!['create', 'add', 'list', 'remove', 'invite', 'reset-mfa'].includes(command ?? '')) fail(usage);
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
