import path from 'node:path';
import { z } from 'zod';

const optional = z.string().trim().min(1).optional().catch(undefined);
const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: optional,
  DATA_DIR: z.string().default('./data'),
  JWT_SECRET: optional,
  ADMIN_EMAIL: z.string().trim().toLowerCase().pipe(z.email()).default('admin@tvshop.local'),
  ADMIN_PASSWORD: z.string().min(8).default('admin-password'),
  GOOGLE_CLIENT_ID: optional,
  GOOGLE_JWKS_URL: z.string().url().default('https://www.googleapis.com/oauth2/v3/certs'),
  GOOGLE_ISSUER: z.string().default('https://accounts.google.com,accounts.google.com'),
  STRIPE_SECRET_KEY: optional,
  STRIPE_PUBLISHABLE_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  STRIPE_API_BASE: z.string().url().optional().catch(undefined),
  SEED_DEMO: z.enum(['0', '1']).default('0'),
  WEB_DIST: optional,
  IDENTITY_URL: optional,
  CATALOG_URL: optional,
  ORDERS_URL: optional,
  COMMAND_TOKEN: optional,
  REDIS_URL: optional,
  REDIS_CHANNEL: z.string().min(1).default('tvshop:changes'),
  PROJECTOR: z.enum(['in-process', 'external']).default('in-process'),
});

export interface GatewayConfig {
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  jwtSecret: string | undefined;
  adminEmail: string;
  adminPassword: string;
  google: { clientId: string; jwksUrl: string; issuers: string[] } | null;
  stripe: { secretKey: string; publishableKey: string | null; webhookSecret: string | null; apiBase: string | null } | null;
  seedDemo: boolean;
  webDist: string;
  /** Services running as their own processes, reached over HTTP; the rest run in this process. */
  remoteServices: Partial<Record<'identity' | 'catalog' | 'orders', string>>;
  commandToken: string | undefined;
  /** Change notices across processes (several gateways, a projector of its own). */
  redisUrl: string | undefined;
  redisChannel: string;
  /** `external`: another process runs the projector (`npm run projector -- run`). */
  projector: 'in-process' | 'external';
}

/** Reads and checks the environment once at start; a bad value stops the start with its name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<GatewayConfig> = {}): GatewayConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Invalid environment variable ${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  const base: GatewayConfig = {
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    jwtSecret: e.JWT_SECRET,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    google: e.GOOGLE_CLIENT_ID ? { clientId: e.GOOGLE_CLIENT_ID, jwksUrl: e.GOOGLE_JWKS_URL, issuers: e.GOOGLE_ISSUER.split(',') } : null,
    stripe: e.STRIPE_SECRET_KEY
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          publishableKey: e.STRIPE_PUBLISHABLE_KEY ?? null,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? null,
          apiBase: e.STRIPE_API_BASE ?? null,
        }
      : null,
    seedDemo: e.SEED_DEMO === '1',
    webDist: path.resolve(e.WEB_DIST ?? path.join(import.meta.dirname, '../../../web/dist')),
    remoteServices: Object.fromEntries(
      Object.entries({ identity: e.IDENTITY_URL, catalog: e.CATALOG_URL, orders: e.ORDERS_URL }).filter(([, url]) => url),
    ),
    commandToken: e.COMMAND_TOKEN,
    redisUrl: e.REDIS_URL,
    redisChannel: e.REDIS_CHANNEL,
    projector: e.PROJECTOR,
  };
  return { ...base, ...overrides };
}
