/** Admin access tokens from the embedded identity service of a running server. */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { siteFiles } from './site.ts';

/**
 * Through sign-up, allowed by the server's ADMIN_EMAILS for `domain`, and the request approved as the
 * operator approves one (scripts/admins.ts add, on the site in `dir`): a sign-up alone is no admin
 * (docs/decisions/041).
 */
export async function adminToken(origin: string, dir: string, domain: string): Promise<string> {
  const { OUTBOX_DIR: outboxDir } = siteFiles(dir);
  const username = `bench-${Date.now()}`;
  const email = `${username}@${domain}`;
  const password = 'Bench-Password-1';
  const { userPoolClientId } = (await (await fetch(`${origin}/api/identity/config`)).json()) as { userPoolClientId: string };
  const call = async (action: string, body: object) => {
    const res = await fetch(`${origin}/api/identity/cognito`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${action}` },
      body: JSON.stringify({ ClientId: userPoolClientId, ...body }),
    });
    if (!res.ok) throw new Error(`${action}: ${await res.text()}`);
    return res.json() as Promise<Record<string, any>>;
  };
  await call('SignUp', { Username: username, Password: password, UserAttributes: [{ Name: 'email', Value: email }] });
  // The code is stored and mailed just after the answer (docs/decisions/039): wait for it a little.
  let message: { to: string; text: string } | undefined;
  for (let waited = 0; !message && waited < 5000; waited += 20) {
    if (waited) await new Promise((r) => setTimeout(r, 20));
    message = (existsSync(outboxDir) ? readdirSync(outboxDir) : [])
      .map((f) => JSON.parse(readFileSync(join(outboxDir, f), 'utf8')) as { to: string; text: string })
      .find((m) => m.to === email);
  }
  if (!message) throw new Error('no verification code in the outbox');
  await call('ConfirmSignUp', { Username: username, ConfirmationCode: /\b(\d{6})\b/.exec(message.text)![1] });
  execFileSync(process.execPath, ['scripts/admins.ts', 'add', '--username', username], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { ...process.env, ...siteFiles(dir), DATABASE_URL: '', LOG_QUIET: 'true' },
    stdio: 'pipe',
  });
  const auth = await call('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: username, PASSWORD: password } });
  return auth.AuthenticationResult.AccessToken as string;
}

/**
 * An admin made as the operator makes one (scripts/admins.ts create, in the database `env` names:
 * DATABASE_URL and SECRETS_KEY as the servers have them), signed in through `origin`.
 */
export async function operatorAdminToken(origin: string, env: Record<string, string>): Promise<string> {
  const root = new URL('..', import.meta.url).pathname;
  // The password policy refuses one that contains the username or the e-mail address.
  // One confirmed account per address: each call its own.
  const username = `bench-${Date.now()}`;
  const admin = { username, email: `${username}@example.com`, password: 'Measured-Publish-2026!' };
  try {
    execFileSync(process.execPath, ['scripts/admins.ts', 'create', '--username', admin.username, '--email', admin.email, '--password', admin.password], {
      cwd: root,
      env: { ...process.env, ...env, LOG_QUIET: 'true' },
      stdio: 'pipe',
    });
  } catch (err) {
    throw new Error(`scripts/admins.ts create failed: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`);
  }
  const { userPoolClientId } = (await (await fetch(`${origin}/api/identity/config`)).json()) as { userPoolClientId: string };
  const res = await fetch(`${origin}/api/identity/cognito`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
    body: JSON.stringify({
      ClientId: userPoolClientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: admin.username, PASSWORD: admin.password },
    }),
  });
  if (!res.ok) throw new Error(`admin sign-in answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { AuthenticationResult: { AccessToken: string } }).AuthenticationResult.AccessToken;
}
