/**
 * Chooses the identity service (docs/decisions/014): a real Cognito user pool when COGNITO_* are set,
 * otherwise the embedded one, kept in the site's database. A production start without a pool needs
 * IDENTITY_EMBEDDED=true (api/env.ts); what runs is logged either way.
 */
import { existsSync } from 'node:fs';
import type { Database } from '../../db/client.ts';
import { type AdminDirectory, embeddedAdminDirectory } from '../admins/admin-directory.ts';
import { cognitoAdminDirectory } from '../admins/cognito-admin-directory.ts';
import { parseAllowlist } from '../auth/admin-allowlist.ts';
import { cognitoGetUser, createCognitoVerifier } from '../auth/cognito-verifier.ts';
import type { AccessTokenVerifier } from '../auth/verifier.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Clock } from '../clock.ts';
import { describeError } from '../deliveries/deliveries.ts';
import type { IdentityInfo, IntegrationSettings } from '../deps.ts';
import type { Env } from '../env.ts';
import type { Logger } from '../logger.ts';
import type { DevOutbox } from '../mail/dev-outbox.ts';
import { sendNow } from '../mail/mail.ts';
import { embeddedInvitations, type IdentityMail, type MailOutcome } from './admission.ts';
import { startEmbeddedIdentity, type EmbeddedIdentity } from './embedded-identity.ts';

export interface Identity {
  info: IdentityInfo;
  verifier: AccessTokenVerifier;
  /** The embedded service, served by the same-origin gateway; null with a real pool. */
  embedded: EmbeddedIdentity | null;
  /** Its admin group, for the Admins screen (api/admins). */
  admins: AdminDirectory;
}

export interface IdentityContext {
  env: Pick<Env, 'COGNITO_REGION' | 'COGNITO_USER_POOL_ID' | 'COGNITO_CLIENT_ID' | 'ADMIN_EMAILS' | 'NODE_ENV'> & Partial<Pick<Env, 'ADMIN_MFA'>>;
  database: Database;
  secrets: SecretBox;
  clock: Clock;
  log: Logger;
  outbox: DevOutbox;
  /** With them, codes go by e-mail once an email setting is configured (otherwise to the outbox). */
  integrations?: IntegrationSettings;
}

/**
 * The identity service's mail (codes, invitations): by e-mail through the email setting when there is
 * one, else kept in the development outbox (so is a message the provider refused). Says which.
 */
export async function deliverIdentityMail(
  { database, secrets, clock, log, outbox, integrations }: Pick<IdentityContext, 'database' | 'secrets' | 'clock' | 'log' | 'outbox' | 'integrations'>,
  message: IdentityMail,
  about: Record<string, unknown> = {},
): Promise<MailOutcome> {
  try {
    if (integrations && (await sendNow({ database, secrets, clock, integrations }, message))) return 'sent';
  } catch (err) {
    log.error('identity: the e-mail was refused; kept in the development outbox', { ...about, err: describeError(err) });
  }
  await outbox.deliver(message);
  return 'held';
}

export async function startIdentity({ env, database, secrets, clock, log, outbox, integrations }: IdentityContext): Promise<Identity> {
  const allowlist = parseAllowlist(env.ADMIN_EMAILS);
  if (env.COGNITO_USER_POOL_ID && env.COGNITO_CLIENT_ID && env.COGNITO_REGION) {
    const endpoint = `https://cognito-idp.${env.COGNITO_REGION}.amazonaws.com/`;
    const issuer = `https://cognito-idp.${env.COGNITO_REGION}.amazonaws.com/${env.COGNITO_USER_POOL_ID}`;
    log.info('identity: Cognito user pool', { userPoolId: env.COGNITO_USER_POOL_ID, region: env.COGNITO_REGION });
    return {
      info: { userPoolId: env.COGNITO_USER_POOL_ID, clientId: env.COGNITO_CLIENT_ID, region: env.COGNITO_REGION, embedded: false },
      verifier: createCognitoVerifier({
        issuer,
        jwksUrl: `${issuer}/.well-known/jwks.json`,
        clientId: env.COGNITO_CLIENT_ID,
        allowlist,
        getUser: cognitoGetUser(endpoint),
      }),
      embedded: null,
      // With the server's own AWS credentials (the SDK's chain), asked only when the screen is opened.
      admins: cognitoAdminDirectory({ region: env.COGNITO_REGION, userPoolId: env.COGNITO_USER_POOL_ID, allowlist }),
    };
  }
  const development = env.NODE_ENV !== 'production';
  const mailContext = { database, secrets, clock, log, outbox, integrations };
  const embedded = await startEmbeddedIdentity({
    database,
    secrets,
    clock,
    allowlist,
    log,
    adminMfa: env.ADMIN_MFA ?? (development ? 'optional' : 'required'),
    sendCode: ({ username, to, subject, text, code }) => {
      // Codes are secrets: in the log only while developing.
      if (development) log.info('identity: verification code (development only)', { username, code });
      // Not awaited: an account that exists must answer as fast as one that does not, which sends nothing.
      void deliverIdentityMail(mailContext, { to, subject, text }, { username }).catch((err) =>
        log.error('identity: the code could not be held', { username, err: describeError(err) }),
      );
    },
  });
  // The link's origin: SITE_URL (the server's integration settings), else this development default.
  const invitations = embeddedInvitations({
    database,
    clock,
    siteUrl: integrations?.siteUrl ?? 'http://localhost:4321',
    send: (message) => deliverIdentityMail(mailContext, message, { invitation: true }),
  });
  if (existsSync('data/identity/db')) {
    // cognito-local's files (before decision 014) hold passwords in plain text and are no longer read.
    log.warn(
      "identity: data/identity/ holds the old identity service's files, with passwords in plain text; nothing reads them now: delete the folder, and make admins again with npm run admin:create",
    );
  }
  log.info('identity: embedded identity service', {
    userPoolId: embedded.userPoolId,
    adminEmails: allowlist.entries.length,
    adminMfa: env.ADMIN_MFA ?? (development ? 'optional' : 'required'),
    codesInLog: development,
  });
  if (!allowlist.entries.length) log.warn('identity: ADMIN_EMAILS is empty, so sign-up is closed; create an admin with `npm run admin:create`');
  return {
    info: { userPoolId: embedded.userPoolId, clientId: embedded.clientId, region: null, embedded: true },
    verifier: embedded.verifier(allowlist),
    embedded,
    admins: embeddedAdminDirectory(embedded, allowlist, invitations),
  };
}
