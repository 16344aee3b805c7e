/**
 * A local Cognito user pool for the integration tests: an HTTP server on 127.0.0.1 speaking Cognito's
 * JSON protocol (POST /, `X-Amz-Target: AWSCognitoIdentityProviderService.<Action>`, JSON 1.1 in and
 * out, errors as 400 with `__type` and `message`, in AWS's documented shapes) for the calls the server
 * makes: GetUser (authorised by the access token itself), ListUsersInGroup (paginated with NextToken),
 * ListUsers (paginated with PaginationToken), AdminRemoveUserFromGroup, AdminAddUserToGroup, CreateGroup,
 * AdminDisableUser and AdminUserGlobalSignOut (signed with the caller's AWS credentials), and
 * the pool's JWKS. It mints access tokens as Cognito does (RS256, `cognito:groups`, `token_use`), and a
 * global sign-out revokes every token issued before it, as GetUser then says.
 *
 * AWS credentials: the Admin* and List* calls must carry an AWS4-HMAC-SHA256 Authorization header for
 * this region and the cognito-idp service (the SDK's signature itself is not recomputed); the access
 * key decides what is allowed, as an IAM policy would: an unknown key is UnrecognizedClientException,
 * a key without the action is AccessDeniedException.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK } from 'jose';

export const COGNITO_REGION = 'us-west-2';
export const COGNITO_POOL_ID = `${COGNITO_REGION}_LocalPool1`;
export const COGNITO_CLIENT_ID = 'local-app-client-0001';
export const COGNITO_ISSUER = `https://cognito-idp.${COGNITO_REGION}.amazonaws.com/${COGNITO_POOL_ID}`;

export interface PoolUser {
  username: string;
  sub: string;
  email: string;
  emailVerified: boolean;
  enabled: boolean;
  status: string;
  groups: Set<string>;
  createdAt: Date;
  /** The jti of every access token issued and not yet revoked. */
  liveTokens: Set<string>;
}

export interface CognitoPeer {
  url: string;
  users: Map<string, PoolUser>;
  /** Every admin call received: its action and the access key it was signed with. */
  calls: { action: string; accessKeyId: string | null }[];
  addUser(user: { username: string; email: string; admin?: boolean; enabled?: boolean; emailVerified?: boolean }): PoolUser;
  /** An access token for the user, as InitiateAuth would return it. */
  accessToken(username: string): Promise<string>;
  close(): Promise<void>;
}

type Handler = (body: Record<string, unknown>, accessKeyId: string | null) => Promise<unknown> | unknown;

class CognitoError extends Error {
  readonly type: string;
  constructor(type: string, message: string) {
    super(message);
    this.type = type;
  }
}

/**
 * `permissions`: access key id -> the actions it may call ('*' for all). `pageSize`: users per page of
 * ListUsersInGroup (Cognito's default is 60; small here to exercise NextToken).
 */
export async function startCognitoPeer({ permissions, pageSize = 2 }: { permissions: Record<string, string[]>; pageSize?: number }): Promise<CognitoPeer> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const kid = 'local-pool-key-1';
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const users = new Map<string, PoolUser>();
  const calls: CognitoPeer['calls'] = [];
  const groups = new Set(['admin']);
  let nextSub = 1;

  const userNamed = (name: unknown) => {
    const user = typeof name === 'string' ? users.get(name.toLowerCase()) : undefined;
    if (!user) throw new CognitoError('UserNotFoundException', 'User does not exist.');
    return user;
  };
  const checkPool = (body: Record<string, unknown>) => {
    if (body.UserPoolId !== COGNITO_POOL_ID) throw new CognitoError('ResourceNotFoundException', `User pool ${String(body.UserPoolId)} does not exist.`);
  };
  const userType = (u: PoolUser) => ({
    Username: u.username,
    Attributes: [
      { Name: 'sub', Value: u.sub },
      { Name: 'email', Value: u.email },
      { Name: 'email_verified', Value: String(u.emailVerified) },
    ],
    // AWS's JSON protocol: timestamps in epoch seconds.
    UserCreateDate: u.createdAt.getTime() / 1000,
    UserLastModifiedDate: u.createdAt.getTime() / 1000,
    Enabled: u.enabled,
    UserStatus: u.status,
  });

  const signed: Record<string, Handler> = {
    ListUsersInGroup(body) {
      checkPool(body);
      if (typeof body.GroupName !== 'string' || !groups.has(body.GroupName)) throw new CognitoError('ResourceNotFoundException', 'Group not found.');
      const members = [...users.values()].filter((u) => u.groups.has(body.GroupName as string)).sort((a, b) => a.username.localeCompare(b.username));
      const limit = Math.min(typeof body.Limit === 'number' ? body.Limit : pageSize, pageSize);
      const start = typeof body.NextToken === 'string' ? Number(Buffer.from(body.NextToken, 'base64url').toString()) : 0;
      if (!Number.isInteger(start) || start < 0) throw new CognitoError('InvalidParameterException', 'Invalid pagination token.');
      const page = members.slice(start, start + limit);
      const next = start + limit < members.length ? Buffer.from(String(start + limit)).toString('base64url') : undefined;
      return { Users: page.map(userType), ...(next ? { NextToken: next } : {}) };
    },
    ListUsers(body) {
      checkPool(body);
      const all = [...users.values()].sort((a, b) => a.username.localeCompare(b.username));
      const start = typeof body.PaginationToken === 'string' ? Number(Buffer.from(body.PaginationToken, 'base64url').toString()) : 0;
      if (!Number.isInteger(start) || start < 0) throw new CognitoError('InvalidParameterException', 'Invalid pagination token.');
      const page = all.slice(start, start + pageSize);
      const next = start + pageSize < all.length ? Buffer.from(String(start + pageSize)).toString('base64url') : undefined;
      return { Users: page.map(userType), ...(next ? { PaginationToken: next } : {}) };
    },
    CreateGroup(body) {
      checkPool(body);
      if (groups.has(String(body.GroupName))) throw new CognitoError('GroupExistsException', 'A group with the name already exists.');
      groups.add(String(body.GroupName));
      return { Group: { GroupName: body.GroupName } };
    },
    AdminAddUserToGroup(body) {
      checkPool(body);
      if (typeof body.GroupName !== 'string' || !groups.has(body.GroupName)) throw new CognitoError('ResourceNotFoundException', 'Group not found.');
      userNamed(body.Username).groups.add(body.GroupName);
      return {};
    },
    AdminDisableUser(body) {
      checkPool(body);
      userNamed(body.Username).enabled = false;
      return {};
    },
    AdminRemoveUserFromGroup(body) {
      checkPool(body);
      if (typeof body.GroupName !== 'string' || !groups.has(body.GroupName)) throw new CognitoError('ResourceNotFoundException', 'Group not found.');
      userNamed(body.Username).groups.delete(body.GroupName);
      return {};
    },
    AdminUserGlobalSignOut(body) {
      checkPool(body);
      userNamed(body.Username).liveTokens.clear();
      return {};
    },
  };

  async function getUser(body: Record<string, unknown>) {
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(String(body.AccessToken ?? ''), publicKey, { issuer: COGNITO_ISSUER }));
    } catch {
      throw new CognitoError('NotAuthorizedException', 'Invalid Access Token');
    }
    const user = [...users.values()].find((u) => u.sub === claims.sub);
    if (!user?.liveTokens.has(String(claims.jti))) throw new CognitoError('NotAuthorizedException', 'Access Token has been revoked');
    if (!user.enabled) throw new CognitoError('NotAuthorizedException', 'User is disabled.');
    return { Username: user.username, UserAttributes: userType(user).Attributes };
  }

  /** The access key of a SigV4 Authorization header for this region and service, or null. */
  function accessKeyOf(req: IncomingMessage): string | null {
    const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=[^,]+, ?Signature=[0-9a-f]{64}$/.exec(
      req.headers.authorization ?? '',
    );
    if (!match || match[2] !== COGNITO_REGION || match[3] !== 'cognito-idp') return null;
    return match[1]!;
  }

  function answer(res: ServerResponse, status: number, body: unknown, type?: string) {
    res.writeHead(status, {
      'content-type': 'application/x-amz-json-1.1',
      ...(type ? { 'x-amzn-errortype': type } : {}),
      'x-amzn-requestid': crypto.randomUUID(),
    });
    res.end(JSON.stringify(body));
  }

  const server = createServer(async (req, res) => {
    if (req.method === 'GET' && req.url === `/${COGNITO_POOL_ID}/.well-known/jwks.json`) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ keys: [jwk] }));
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const action = String(req.headers['x-amz-target'] ?? '').replace('AWSCognitoIdentityProviderService.', '');
    try {
      if (req.method !== 'POST' || req.url !== '/') throw new CognitoError('UnknownOperationException', 'Unknown operation.');
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown>;
      if (action === 'GetUser') return answer(res, 200, await getUser(body));
      const handler = signed[action];
      if (!handler) throw new CognitoError('UnknownOperationException', `Unknown operation ${action}.`);
      const accessKeyId = accessKeyOf(req);
      calls.push({ action, accessKeyId });
      if (!accessKeyId) throw new CognitoError('MissingAuthenticationTokenException', 'Missing Authentication Token');
      const allowed = permissions[accessKeyId];
      if (!allowed) throw new CognitoError('UnrecognizedClientException', 'The security token included in the request is invalid.');
      if (!allowed.includes('*') && !allowed.includes(action)) {
        throw new CognitoError(
          'AccessDeniedException',
          `User: arn:aws:iam::123456789012:user/${accessKeyId} is not authorized to perform: cognito-idp:${action} on resource: arn:aws:cognito-idp:${COGNITO_REGION}:123456789012:userpool/${COGNITO_POOL_ID}`,
        );
      }
      return answer(res, 200, await handler(body, accessKeyId));
    } catch (err) {
      if (err instanceof CognitoError) return answer(res, 400, { __type: err.type, message: err.message }, err.type);
      return answer(res, 400, { __type: 'SerializationException', message: String(err) }, 'SerializationException');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    users,
    calls,
    addUser({ username, email, admin = true, enabled = true, emailVerified = true }) {
      const user: PoolUser = {
        username,
        sub: `00000000-0000-4000-8000-${String(nextSub++).padStart(12, '0')}`,
        email,
        emailVerified,
        enabled,
        status: 'CONFIRMED',
        groups: new Set(admin ? ['admin'] : []),
        createdAt: new Date(Date.UTC(2026, 0, nextSub)),
        liveTokens: new Set(),
      };
      users.set(username.toLowerCase(), user);
      return user;
    },
    async accessToken(username) {
      const user = userNamed(username);
      const jti = crypto.randomUUID();
      user.liveTokens.add(jti);
      return new SignJWT({
        token_use: 'access',
        client_id: COGNITO_CLIENT_ID,
        username: user.username,
        scope: 'aws.cognito.signin.user.admin',
        ...(user.groups.size ? { 'cognito:groups': [...user.groups] } : {}),
      })
        .setProtectedHeader({ alg: 'RS256', kid })
        .setSubject(user.sub)
        .setIssuer(COGNITO_ISSUER)
        .setJti(jti)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
