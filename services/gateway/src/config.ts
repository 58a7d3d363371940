import path from 'node:path';
import { z } from 'zod';
import { dataDirFromEnv, logLevelFromEnv } from '@tv-shop/platform';
import { MIN_JWT_SECRET_LENGTH } from './auth/tokens';
import { DEFAULT_SOCKET_LIMITS, type SocketLimits } from './sockets';

const optional = z.string().trim().min(1).optional().catch(undefined);
const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // Set, it must be long enough not to be guessed: it signs every token. A bad one stops the start
  // (left unset, one is generated): turned into "unset", a short secret would be replaced silently.
  JWT_SECRET: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z
      .string()
      .trim()
      .min(
        MIN_JWT_SECRET_LENGTH,
        `must be at least ${MIN_JWT_SECRET_LENGTH} characters: it signs every token, and a short one can be guessed`,
      )
      .optional(),
  ),
  GOOGLE_CLIENT_ID: optional,
  GOOGLE_JWKS_URL: z.string().url().default('https://www.googleapis.com/oauth2/v3/certs'),
  GOOGLE_ISSUER: z.string().default('https://accounts.google.com,accounts.google.com'),
  WEB_DIST: optional,
  // ADMIN_*, SEED_DEMO, UPLOAD_RETENTION_HOURS, UPLOAD_SWEEP_MINUTES, SHUTDOWN_DRAIN_MS, DATABASE_URL, the topology's:
  // read by the host (services/shop's config.ts). DATA_DIR, LOG_LEVEL: read as every
  // process reads them (platform's config.ts); STRIPE_*: read by orders, which owns payments (paymentProviderFromEnv; the edge's part, edgePaymentsFromEnv).
  // Writes worked on at once in this process; more are refused with 503 and Retry-After (0: no limit).
  MAX_WRITES_IN_FLIGHT: z.coerce.number().int().min(0).default(128),
  // Sign-in and signup limits (per AUTH_RATE_WINDOW_MS): per client address and per account (email).
  AUTH_RATE_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(15 * 60_000),
  // Failed sign-ins for one account from one client address; and for it from every address at once
  // (ADR 0020: a guesser elsewhere does not lock its owner out, many together do).
  LOGIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  LOGIN_FAILURES_PER_ACCOUNT_ANYWHERE: z.coerce.number().int().min(1).default(100),
  LOGIN_FAILURES_PER_CLIENT: z.coerce.number().int().min(1).default(50),
  SIGNUP_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  SIGNUP_PER_CLIENT: z.coerce.number().int().min(1).default(100),
  // Image uploads per UPLOAD_RATE_WINDOW_MS: per account and per client address.
  UPLOAD_RATE_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(10 * 60_000),
  UPLOADS_PER_ACCOUNT: z.coerce.number().int().min(1).default(60),
  UPLOADS_PER_CLIENT: z.coerce.number().int().min(1).default(120),
  /**
   * Which proxies in front may name the client in X-Forwarded-For (Express's `trust proxy`): a
   * hop count (`1`), or addresses and ranges (`loopback`, `10.0.0.0/8`). Unset: none, so the
   * client is the connection's own address and the header cannot be spoofed.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .default('')
    .transform((v): boolean | number | string =>
      v === '' || v === 'false' ? false : v === 'true' ? true : /^\d+$/.test(v) ? Number(v) : v,
    ),
  /** Other origins whose pages may call the API and the socket (comma-separated; `*` for any). */
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim().replace(/\/$/, '').toLowerCase())
        .filter(Boolean),
    )
    .refine(
      (list) =>
        list.every(
          (o) => o === '*' || /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(o) || /^https?:\/\/\[[0-9a-fA-F:]+\](:\d{1,5})?$/.test(o),
        ),
      {
        message: 'must be a comma-separated list of origins such as https://shop.example or http://localhost:5173, or *',
      },
    ),
  // Socket.IO catch_up: changes per answer, and per socket (and per client address) and minute the
  // calls and changes allowed. Unset: the defaults that sockets.ts keeps beside what they limit.
  CATCH_UP_PAGE: z.coerce.number().int().min(1).max(5000).default(DEFAULT_SOCKET_LIMITS.catchUpPage),
  /** How often each open socket's token is checked against its account's password (ADR 0060). */
  SOCKET_SESSION_CHECK_MS: z.coerce.number().int().min(100).max(2_147_483_647).default(30_000),
  /** How often the checkpoints are read for a read model rebuilt elsewhere, whose pages then read their lists again (ADR 0065). */
  REBUILD_CHECK_MS: z.coerce.number().int().min(100).max(2_147_483_647).default(5_000),
  CATCH_UP_CALLS_PER_MINUTE: z.coerce.number().int().min(1).default(DEFAULT_SOCKET_LIMITS.catchUpCallsPerMinute),
  CATCH_UP_CHANGES_PER_MINUTE: z.coerce.number().int().min(1).default(DEFAULT_SOCKET_LIMITS.catchUpChangesPerMinute),
  CATCH_UP_CALLS_PER_CLIENT_PER_MINUTE: z.coerce.number().int().min(1).default(DEFAULT_SOCKET_LIMITS.catchUpCallsPerClientPerMinute),
  CATCH_UP_CHANGES_PER_CLIENT_PER_MINUTE: z.coerce.number().int().min(1).default(DEFAULT_SOCKET_LIMITS.catchUpChangesPerClientPerMinute),
  // Sockets one client address may hold open, and its sockets' `views` calls per minute together (ADR 0072).
  SOCKETS_PER_CLIENT: z.coerce.number().int().min(1).default(DEFAULT_SOCKET_LIMITS.socketsPerClient),
  VIEWS_CALLS_PER_CLIENT_PER_MINUTE: z.coerce.number().int().min(1).default(DEFAULT_SOCKET_LIMITS.viewsCallsPerClientPerMinute),
  // Unset: GET /metrics on the public port answers 404 (the internal listener, METRICS_PORT, is the host's).
  METRICS_TOKEN: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string().trim().min(16, 'must be at least 16 characters').optional(),
  ),
});

export interface GatewayConfig {
  port: number;
  dataDir: string;
  jwtSecret: string | undefined;
  google: { clientId: string; jwksUrl: string; issuers: string[] } | null;
  webDist: string;
  limits: {
    auth: {
      windowMs: number;
      /** Failed sign-ins for one account from one client address. */
      loginFailuresPerAccount: number;
      /** Failed sign-ins for one account from every address together. */
      loginFailuresPerAccountAnywhere: number;
      loginFailuresPerClient: number;
      signupPerAccount: number;
      signupPerClient: number;
    };
    uploads: { windowMs: number; perAccount: number; perClient: number };
  };
  sockets: SocketLimits;
  /** How often open sockets are checked against their account's password (ms). */
  socketSessionCheckMs: number;
  rebuildCheckMs: number;
  /**
   * Request logs (pino): trace, debug, info, warn, error, fatal or silent (LOG_LEVEL). Unset:
   * undefined, and the app follows the process's own (`logLevelFromEnv()`: info, error under tests).
   */
  logLevel: string | undefined;
  /** Express's `trust proxy`: which proxies may say who the client is (TRUST_PROXY). */
  trustProxy: boolean | number | string;
  /** Origins allowed to call the API and open sockets from their pages; empty: same origin only. */
  corsOrigins: string[];
  /** What a scraper sends as `Authorization: Bearer` for GET /metrics on the public port; unset: 404 there. */
  metricsToken: string | undefined;
  /** Writes worked on at once in this process before more are refused with 503 (MAX_WRITES_IN_FLIGHT; 0: no limit). */
  maxWritesInFlight: number;
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
    // `npm start -w <workspace>` runs in the workspace's folder; a relative DATA_DIR means where npm was run.
    dataDir: dataDirFromEnv(env),
    jwtSecret: e.JWT_SECRET,
    google: e.GOOGLE_CLIENT_ID ? { clientId: e.GOOGLE_CLIENT_ID, jwksUrl: e.GOOGLE_JWKS_URL, issuers: e.GOOGLE_ISSUER.split(',') } : null,
    webDist: path.resolve(e.WEB_DIST ?? path.join(import.meta.dirname, '../../../web/dist')),
    limits: {
      auth: {
        windowMs: e.AUTH_RATE_WINDOW_MS,
        loginFailuresPerAccount: e.LOGIN_FAILURES_PER_ACCOUNT,
        loginFailuresPerAccountAnywhere: e.LOGIN_FAILURES_PER_ACCOUNT_ANYWHERE,
        loginFailuresPerClient: e.LOGIN_FAILURES_PER_CLIENT,
        signupPerAccount: e.SIGNUP_PER_ACCOUNT,
        signupPerClient: e.SIGNUP_PER_CLIENT,
      },
      uploads: { windowMs: e.UPLOAD_RATE_WINDOW_MS, perAccount: e.UPLOADS_PER_ACCOUNT, perClient: e.UPLOADS_PER_CLIENT },
    },
    logLevel: env.LOG_LEVEL === undefined ? undefined : logLevelFromEnv(env),
    corsOrigins: e.CORS_ORIGINS,
    trustProxy: e.TRUST_PROXY,
    metricsToken: e.METRICS_TOKEN,
    maxWritesInFlight: e.MAX_WRITES_IN_FLIGHT,
    socketSessionCheckMs: e.SOCKET_SESSION_CHECK_MS,
    rebuildCheckMs: e.REBUILD_CHECK_MS,
    sockets: {
      catchUpPage: e.CATCH_UP_PAGE,
      catchUpCallsPerMinute: e.CATCH_UP_CALLS_PER_MINUTE,
      catchUpChangesPerMinute: e.CATCH_UP_CHANGES_PER_MINUTE,
      catchUpCallsPerClientPerMinute: e.CATCH_UP_CALLS_PER_CLIENT_PER_MINUTE,
      catchUpChangesPerClientPerMinute: e.CATCH_UP_CHANGES_PER_CLIENT_PER_MINUTE,
      socketsPerClient: e.SOCKETS_PER_CLIENT,
      viewsCallsPerClientPerMinute: e.VIEWS_CALLS_PER_CLIENT_PER_MINUTE,
    },
  };
  return { ...base, ...overrides };
}
