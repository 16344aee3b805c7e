/**
 * The environment, validated at start (STYLE §4). A bad value stops the server with a message that
 * names the variable and says how to fix it. Every variable is listed, with a comment, in .env.example.
 */
import { z } from 'zod';

const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const envSchema = z
  .object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), 'must be a postgres:// or postgresql:// URL, or unset to use the embedded SQLite file'),
  SQLITE_PATH: z.string().min(1).default('data/site.db'),
  SITE_URL: z.url().default('http://localhost:4321'),
  SEED_SAMPLE_CONTENT: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  // Identity (Cognito user pool). Unset: the admin API stays locked until one is configured.
  COGNITO_REGION: z.string().optional(),
  COGNITO_USER_POOL_ID: z.string().optional(),
  COGNITO_CLIENT_ID: z.string().optional(),
  ADMIN_EMAILS: z.string().default(''),
  // The embedded identity service (used when no user pool is configured).
  IDENTITY_DATA_DIR: z.string().min(1).default('data/identity'),
  IDENTITY_LOCAL_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  // Where mail with nowhere else to go is kept (development outbox).
  OUTBOX_DIR: z.string().min(1).default('data/outbox'),
  // DynamoDB migration target.
  AWS_REGION: z.string().optional(),
  AWS_ACCESS_KEY_ID: z.string().optional(),
  AWS_SECRET_ACCESS_KEY: z.string().optional(),
  DYNAMODB_ENDPOINT: z.url().optional(),
  LOG_QUIET: flag,
  })
  .superRefine((env, ctx) => {
    const pool = [env.COGNITO_REGION, env.COGNITO_USER_POOL_ID, env.COGNITO_CLIENT_ID];
    if (pool.some(Boolean) && !pool.every(Boolean)) {
      for (const name of ['COGNITO_REGION', 'COGNITO_USER_POOL_ID', 'COGNITO_CLIENT_ID'] as const) {
        if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when a Cognito user pool is configured' });
      }
    }
  });

export type Env = z.output<typeof envSchema>;

const hints: Record<string, string> = {
  PORT: 'set PORT to a number from 1 to 65535, or unset it for 4321',
  DATABASE_URL: 'for example DATABASE_URL=postgres://postgres@127.0.0.1:5432/firm',
  NODE_ENV: 'use development, production or test',
  DYNAMODB_ENDPOINT: 'for example DYNAMODB_ENDPOINT=http://127.0.0.1:8000, or unset it to use AWS',
  SEED_SAMPLE_CONTENT: 'use true or false',
  SITE_URL: 'the public origin, for example https://www.example-firm.com',
  COGNITO_REGION: 'set COGNITO_REGION, COGNITO_USER_POOL_ID and COGNITO_CLIENT_ID together, or none of them for the embedded identity service',
  COGNITO_USER_POOL_ID: 'for example us-west-2_AbCdEf123',
  COGNITO_CLIENT_ID: "the app client id (no client secret; USER_PASSWORD_AUTH or USER_SRP_AUTH enabled)",
};

export class EnvError extends Error {}

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? '?');
    return `  ${name}: ${issue.message}${hints[name] ? ` (${hints[name]})` : ''}`;
  });
  throw new EnvError(`The environment is not valid; fix these variables (see .env.example):\n${lines.join('\n')}`);
}

export function migrationSettings(env: Env) {
  const credentials = Boolean(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY);
  return {
    awsRegion: env.AWS_REGION ?? null,
    awsConfigured: Boolean(env.AWS_REGION && (credentials || env.DYNAMODB_ENDPOINT)),
  };
}
