/** An admin access token from the embedded identity service of a running server (sign-up allowed by ADMIN_EMAILS). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export async function adminToken(origin: string, outboxDir: string, domain: string): Promise<string> {
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
  const message = readdirSync(outboxDir)
    .map((f) => JSON.parse(readFileSync(join(outboxDir, f), 'utf8')) as { to: string; text: string })
    .find((m) => m.to === email);
  if (!message) throw new Error('no verification code in the outbox');
  await call('ConfirmSignUp', { Username: username, ConfirmationCode: /\b(\d{6})\b/.exec(message.text)![1] });
  const auth = await call('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: username, PASSWORD: password } });
  return auth.AuthenticationResult.AccessToken as string;
}
