import path from 'node:path';
import type { Service } from './topology';

/**
 * The settings more than one process reads from its environment (the gateway, each service on its
 * own, the projector tool), each parsed here once so that a variable means the same thing, with
 * the same default, wherever it is read. A process's own settings stay in its own module (the
 * gateway's `config.ts`, `serviceConfigFromEnv` below for a service). A blank address or token is unset.
 */
type Env = NodeJS.ProcessEnv;

const given = (value: string | undefined): string | undefined => value?.trim() || undefined;

export const DEFAULT_DATA_DIR = './data';
export const DEFAULT_REDIS_CHANNEL = 'tvshop:changes';

/**
 * DATA_DIR (`./data`): the embedded PostgreSQL, the generated secrets, the uploads. A process
 * started by npm may run in a workspace's folder (`npm start -w <workspace>`), so a relative
 * DATA_DIR means relative to where npm was run (INIT_CWD).
 */
export const dataDirFromEnv = (env: Env = process.env): string =>
  path.resolve(env.INIT_CWD ?? process.cwd(), env.DATA_DIR ?? DEFAULT_DATA_DIR);

/** DATABASE_URL: the shared PostgreSQL; unset, the gateway and projector run an embedded one under the data dir. */
export const databaseUrlFromEnv = (env: Env = process.env): string | undefined => given(env.DATABASE_URL);

/** COMMAND_TOKEN: what guards the services' command endpoints; unset, one is kept in the data dir (`commandTokenFor`). */
export const commandTokenFromEnv = (env: Env = process.env): string | undefined => given(env.COMMAND_TOKEN);

/** REDIS_URL and REDIS_CHANNEL: change notices across processes (several gateways, a projector of its own). */
export const redisFromEnv = (env: Env = process.env): { url: string | undefined; channel: string } => ({
  url: given(env.REDIS_URL),
  channel: given(env.REDIS_CHANNEL) ?? DEFAULT_REDIS_CHANNEL,
});

/** KAFKA_BROKERS: the Kafka bootstrap brokers, comma-separated (`host:port,host:port`); unset or blank, no Kafka. */
export const kafkaBrokersFromEnv = (env: Env = process.env): string[] | undefined => {
  const brokers = (given(env.KAFKA_BROKERS) ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  return brokers.length > 0 ? brokers : undefined;
};

/** IDENTITY_URL, CATALOG_URL, ORDERS_URL: the services that run as processes of their own, by name. */
export const serviceUrlsFromEnv = (env: Env = process.env): Partial<Record<Service, string>> =>
  Object.fromEntries(
    Object.entries({ identity: given(env.IDENTITY_URL), catalog: given(env.CATALOG_URL), orders: given(env.ORDERS_URL) }).filter(
      ([, url]) => url,
    ),
  );

/** LOG_LEVEL; unset, `info`, or `error` under tests (VITEST) so that a passing run is quiet. */
export const logLevelFromEnv = (env: Env = process.env): string => env.LOG_LEVEL ?? (env.VITEST ? 'error' : 'info');

/** NODE_ENV=production: secrets come from the deployment, never generated into the data dir. */
export const isProductionEnv = (env: Env = process.env): boolean => env.NODE_ENV === 'production';

/** A service in its own process (`runServiceMain`): where it listens, what it shares with the others (the rest is its topology). */
export interface ServiceConfig {
  databaseUrl: string | undefined;
  port: number;
  host: string;
  commandToken: string | undefined;
  dataDir: string;
}

/** PORT (the service's own default), HOST (127.0.0.1) and the shared settings above. */
export function serviceConfigFromEnv(defaultPort: number, env: Env = process.env): ServiceConfig {
  return {
    databaseUrl: databaseUrlFromEnv(env),
    port: Number(env.PORT ?? defaultPort),
    host: env.HOST ?? '127.0.0.1',
    commandToken: commandTokenFromEnv(env),
    dataDir: dataDirFromEnv(env),
  };
}
