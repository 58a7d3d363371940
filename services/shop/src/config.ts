import { z } from 'zod';
import {
  commandTokenFromEnv,
  dataDirFromEnv,
  databaseUrlFromEnv,
  metricsListenerFromEnv,
  type MetricsListenerConfig,
  redisFromEnv,
  topologySettingsFromEnv,
  type TopologySettings,
} from '@tv-shop/platform';

/** What the host itself reads (the gateway reads its own, `loadConfig` in @tv-shop/gateway). */
const Env = z.object({
  ADMIN_EMAIL: z.string().trim().toLowerCase().pipe(z.email()).default('admin@tvshop.local'),
  // Unset: generated on the first start and kept in DATA_DIR/admin-password (identity's bootstrap).
  ADMIN_PASSWORD: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(8, 'must be at least 8 characters').optional()),
  SEED_DEMO: z.enum(['0', '1']).default('0'),
  // Uploads that no product, user or booking refers to are removed once older than this.
  UPLOAD_RETENTION_HOURS: z.coerce.number().min(0).default(24),
  UPLOAD_SWEEP_MINUTES: z.coerce.number().min(0.01).default(60),
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(120_000).default(0),
});

export interface HostConfig {
  databaseUrl: string | undefined;
  dataDir: string;
  adminEmail: string;
  /** Unset: generated once and kept under the data dir. */
  adminPassword: string | undefined;
  seedDemo: boolean;
  /** What runs in this process and how the rest is reached (PROJECTOR, *_URL, SERVICES_APART, COMMAND_BUS, EVENT_BUS, EVENT_STORE, KAFKA_BROKERS). */
  topology: TopologySettings;
  commandToken: string | undefined;
  /** Change notices across processes (several gateways, a projector of its own). */
  redisUrl: string | undefined;
  redisChannel: string;
  uploads: { retentionHours: number; sweepMinutes: number };
  /** How long /api/ready answers 503 before a stop closes the server (a load balancer's check interval). */
  shutdownDrainMs: number;
  /** The internal listener for /metrics and the detailed /health (METRICS_PORT, METRICS_HOST); port 0: none. */
  metrics: MetricsListenerConfig;
}

/**
 * Reads and checks the host's settings once at start; a bad value stops the start with its name.
 * `defaultMetricsPort` is the internal listener's port when METRICS_PORT is unset: `npm start`
 * gives one, while a shop started by a test or a tool serves none unless asked.
 */
export function hostConfigFromEnv(env: NodeJS.ProcessEnv, overrides: Partial<HostConfig> = {}, defaultMetricsPort = 0): HostConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Invalid environment variable ${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  const redis = redisFromEnv(env);
  return {
    databaseUrl: databaseUrlFromEnv(env),
    dataDir: dataDirFromEnv(env),
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    seedDemo: e.SEED_DEMO === '1',
    topology: topologySettingsFromEnv(env),
    commandToken: commandTokenFromEnv(env),
    redisUrl: redis.url,
    redisChannel: redis.channel,
    uploads: { retentionHours: e.UPLOAD_RETENTION_HOURS, sweepMinutes: e.UPLOAD_SWEEP_MINUTES },
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    metrics: metricsListenerFromEnv(env, defaultMetricsPort),
    ...overrides,
  };
}
