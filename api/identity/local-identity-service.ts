/**
 * The embedded identity service (issue 3 "Embedded default"): cognito-local, started in-process on a
 * loopback port, with our own pre-sign-up check (the ADMIN_EMAILS allowlist) and our own message
 * sender (verification codes go to the server log and the development outbox). The user pool and
 * app client are created on first run and their ids kept in `<dataDir>/identity.json`, so accounts
 * survive restarts. Development only: cognito-local keeps its users in JSON files under `<dataDir>`.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type { EmailAllowlist } from '../auth/admin-allowlist.ts';
import type { Logger } from '../logger.ts';

const require = createRequire(import.meta.url);
// cognito-local loads the AWS SDK v2 (for Lambda triggers we replace); its end-of-support notice is noise here.
process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
const lib = (path: string) => require(`cognito-local/lib/${path}`);

/** Tokens carry this issuer whatever port the service listens on (ports may change between runs). */
export const LOCAL_ISSUER_DOMAIN = 'http://cognito-local.invalid';
const POOL_NAME = 'firm-admins';
const CLIENT_NAME = 'firm-site';

export interface LocalIdentityService {
  /** Where the server (and admin:create) talks to it: http://127.0.0.1:<port> */
  endpoint: string;
  userPoolId: string;
  clientId: string;
  issuer: string;
  jwksUrl: string;
  stop(): Promise<void>;
}

export interface LocalIdentityOptions {
  dataDir: string;
  port?: number;
  allowlist: EmailAllowlist;
  /** Receives every code the service sends (sign-up verification, resend, password reset). */
  onMessage(message: { username: string; to: string; subject: string; text: string; code: string | undefined }): void;
  log: Logger;
}

/** cognito-local's pino logger interface, kept quiet: its request logs could carry identifiers. */
function quietLogger(log: Logger): unknown {
  const noop = () => {};
  const logger: Record<string, unknown> = {
    level: 'silent',
    trace: noop,
    debug: noop,
    info: noop,
    warn: (...args: unknown[]) => log.warn('identity service', { detail: String(args.at(-1)) }),
    error: (...args: unknown[]) => log.error('identity service', { detail: String(args.at(-1)) }),
    fatal: noop,
    silent: noop,
    isLevelEnabled: () => false,
  };
  logger.child = () => logger;
  return logger;
}

export async function startLocalIdentityService(options: LocalIdentityOptions): Promise<LocalIdentityService> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(join(dataDir, 'db'), { recursive: true });
  const { createServer } = lib('server/server.js');
  const { Router } = lib('server/Router.js');
  const { DateClock, TriggersService, MessagesService } = lib('services/index.js');
  const { CognitoServiceFactoryImpl } = lib('services/cognitoService.js');
  const { UserPoolServiceFactoryImpl } = lib('services/userPoolService.js');
  const { StormDBDataStoreFactory } = lib('services/dataStore/stormDb.js');
  const { MessageDeliveryService } = lib('services/messageDelivery/messageDelivery.js');
  const { JwtTokenGenerator } = lib('services/tokenGenerator.js');
  const { CryptoService } = lib('services/crypto.js');
  const { otp } = lib('services/otp.js');
  const { UserLambdaValidationError } = lib('errors.js');

  const logger = quietLogger(options.log);
  const ctx = { logger };
  const config = {
    LambdaClient: { credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, region: 'local' },
    TriggerFunctions: {},
    UserPoolDefaults: {},
    TokenConfig: { IssuerDomain: LOCAL_ISSUER_DOMAIN },
    KMSConfig: { credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, region: 'local' },
    ServerConfig: { port: options.port ?? 0, hostname: '127.0.0.1', development: false },
  };
  const clock = new DateClock();
  const dataStoreFactory = new StormDBDataStoreFactory(join(dataDir, 'db'));
  const cognitoServiceFactory = new CognitoServiceFactoryImpl(join(dataDir, 'db'), dataStoreFactory, new UserPoolServiceFactoryImpl(clock, dataStoreFactory));
  const cognitoClient = await cognitoServiceFactory.create(ctx, config.UserPoolDefaults);

  // The pre-sign-up "lambda": only allow-listed addresses may create an account.
  const lambda = {
    enabled: (trigger: string) => trigger === 'PreSignUp',
    async invoke(_ctx: unknown, trigger: string, event: { userAttributes?: Record<string, string> }) {
      if (trigger === 'PreSignUp' && !options.allowlist.allows(event.userAttributes?.email)) {
        throw new UserLambdaValidationError('PreSignUp failed with error This address may not create an admin account.');
      }
      return {};
    },
  };
  const triggers = new TriggersService(clock, cognitoClient, lambda, new CryptoService(config.KMSConfig));
  const sender = {
    async sendEmail(_ctx: unknown, user: { Username: string }, destination: string, message: Record<string, string | undefined>) {
      const code = message.__code;
      options.onMessage({
        username: user.Username,
        to: destination,
        subject: message.emailSubject ?? 'Your verification code',
        text: message.emailMessage ?? `Your verification code is ${code}`,
        code,
      });
    },
    async sendSms(c: unknown, user: { Username: string }, destination: string, message: Record<string, string | undefined>) {
      return this.sendEmail(c, user, destination, message);
    },
  };
  const services = {
    clock,
    cognito: cognitoClient,
    config,
    messages: new MessagesService(triggers, new MessageDeliveryService(sender)),
    otp,
    tokenGenerator: new JwtTokenGenerator(clock, triggers, config.TokenConfig),
    triggers,
  };
  const { application } = createServer(Router(services), logger, config.ServerConfig, services) as { application: (req: IncomingMessage, res: ServerResponse) => void };

  /**
   * ResendConfirmationCode, which cognito-local lacks: a fresh code for an unconfirmed user,
   * delivered like the first one (the Resend button of the verify tab depends on it).
   */
  async function resendConfirmationCode(req: IncomingMessage, res: ServerResponse) {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify(body));
    };
    let body = '';
    for await (const chunk of req) body += chunk;
    try {
      const { ClientId, Username } = JSON.parse(body) as { ClientId?: string; Username?: string };
      if (!ClientId || !Username) return answer(400, { __type: 'InvalidParameterException', message: 'ClientId and Username are required' });
      const userPool = await cognitoClient.getUserPoolForClientId(ctx, ClientId);
      const user = await userPool.getUserByUsername(ctx, Username);
      if (!user) return answer(400, { __type: 'UserNotFoundException', message: 'User does not exist.' });
      if (user.UserStatus === 'CONFIRMED') return answer(400, { __type: 'InvalidParameterException', message: 'User is already confirmed.' });
      const destination = (user.Attributes as { Name: string; Value: string }[]).find((a) => a.Name === 'email')?.Value;
      if (!destination) return answer(400, { __type: 'InvalidParameterException', message: 'User has no e-mail address.' });
      const code: string = otp();
      await userPool.saveUser(ctx, { ...user, ConfirmationCode: code, UserLastModifiedDate: clock.get() });
      await sender.sendEmail(ctx, user, destination, { __code: code, emailSubject: 'Your new verification code', emailMessage: `Your verification code is ${code}` });
      return answer(200, { CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: destination } });
    } catch (err) {
      const e = err as { code?: string; name?: string; message?: string };
      return answer(400, { __type: e.code ?? e.name ?? 'InvalidParameterException', message: e.message ?? 'Could not resend the code' });
    }
  }

  const server: Server = createHttpServer((req, res) => {
    if (req.method === 'POST' && req.headers['x-amz-target'] === 'AWSCognitoIdentityProviderService.ResendConfirmationCode') {
      void resendConfirmationCode(req, res);
      return;
    }
    application(req, res);
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(config.ServerConfig.port, config.ServerConfig.hostname, () => done());
  });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { userPoolId, clientId } = await ensurePoolAndClient(endpoint, join(dataDir, 'identity.json'));
  // cognito-local keeps users in JSON files that one process at a time may write: tell other
  // processes (npm run admin:create) where the running instance listens.
  const runningFile = join(dataDir, 'running.json');
  writeFileSync(runningFile, JSON.stringify({ endpoint, pid: process.pid }));
  return {
    endpoint,
    userPoolId,
    clientId,
    issuer: `${LOCAL_ISSUER_DOMAIN}/${userPoolId}`,
    jwksUrl: `${endpoint}/${userPoolId}/.well-known/jwks.json`,
    stop: () =>
      new Promise<void>((done) => {
        rmSync(runningFile, { force: true });
        server.close(() => done());
      }),
  };
}

/** The endpoint of an embedded identity service another live process runs on this data, if any. */
export async function findRunningIdentityService(dataDir: string): Promise<{ endpoint: string; userPoolId: string } | null> {
  const runningFile = join(resolve(dataDir), 'running.json');
  const idsFile = join(resolve(dataDir), 'identity.json');
  if (!existsSync(runningFile) || !existsSync(idsFile)) return null;
  const { endpoint, pid } = JSON.parse(readFileSync(runningFile, 'utf8')) as { endpoint: string; pid: number };
  try {
    process.kill(pid, 0);
  } catch {
    return null;
  }
  const { userPoolId } = JSON.parse(readFileSync(idsFile, 'utf8')) as { userPoolId: string };
  const alive = await cognitoCall(endpoint, 'DescribeUserPool', { UserPoolId: userPoolId }).catch(() => null);
  return alive ? { endpoint, userPoolId } : null;
}

/** Calls the service's own JSON API, as any Cognito client would. */
export async function cognitoCall<T = Record<string, unknown>>(endpoint: string, action: string, body: unknown): Promise<T> {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${action}` },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) {
    const err = new Error(`${action}: ${text}`) as Error & { name: string };
    try {
      err.name = (JSON.parse(text) as { __type?: string; code?: string }).__type ?? err.name;
    } catch {
      /* not JSON */
    }
    throw err;
  }
  return (text ? JSON.parse(text) : {}) as T;
}

async function ensurePoolAndClient(endpoint: string, file: string): Promise<{ userPoolId: string; clientId: string }> {
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { userPoolId: string; clientId: string };
    const pool = await cognitoCall(endpoint, 'DescribeUserPool', { UserPoolId: saved.userPoolId }).catch(() => null);
    if (pool) return saved;
  }
  const { UserPool } = await cognitoCall<{ UserPool: { Id: string } }>(endpoint, 'CreateUserPool', {
    PoolName: POOL_NAME,
    AutoVerifiedAttributes: ['email'],
    Policies: { PasswordPolicy: { MinimumLength: 8 } },
  });
  const { UserPoolClient } = await cognitoCall<{ UserPoolClient: { ClientId: string } }>(endpoint, 'CreateUserPoolClient', {
    UserPoolId: UserPool.Id,
    ClientName: CLIENT_NAME,
    ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
  });
  await cognitoCall(endpoint, 'CreateGroup', { UserPoolId: UserPool.Id, GroupName: 'admin', Description: 'Firm administrators' });
  const ids = { userPoolId: UserPool.Id, clientId: UserPoolClient.ClientId };
  writeFileSync(file, JSON.stringify(ids, null, 2));
  return ids;
}
