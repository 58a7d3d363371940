import path from 'node:path';
import type pg from 'pg';
import { MIN_COMMAND_TOKEN_LENGTH, serveCommands } from './commands/http-transport';
import type { CommandBus, CommandEnvelope } from './commands/transport';
import { serviceConfigFromEnv } from './config';
import { secretInDataDir } from './secrets';
import { describeTopology, topologyFor, topologyFromEnv, type Service, type Topology } from './topology';
import { openAdapters } from './adapters';
import { KafkaCommandBus } from './kafka/command-bus';
import { openDatabase } from './db/database';
import type { LogSource, EventStore } from './event-store/types';
import { createLogger } from './log';
import { guardProcess } from './process-guard';
import { migrate } from './db/migrate';
import { projectionMigrations } from './projections/checkpoints';

export interface ServiceDeps {
  store: EventStore;
  bus: CommandBus;
  pool: pg.Pool;
  /** Where the service's policies read the log: the store (default) or Kafka (EVENT_BUS=kafka). */
  events?: LogSource | undefined;
}

export interface ServiceHostOptions {
  name: Service;
  databaseUrl: string;
  port: number;
  host?: string;
  token?: string | undefined;
  /** What runs where (`topologyFromEnv(name)`); unset: commands over HTTP to `endpoints`. */
  topology?: Topology;
  /** Where the other services take commands over HTTP (orders asks catalog to record a sale). */
  endpoints?: Partial<Record<CommandEnvelope['service'], string>>;
  start: (deps: ServiceDeps) => Promise<{ stop(): Promise<void> }>;
}

/**
 * One domain service in its own process: its own pool on the shared PostgreSQL, its command
 * handlers served over HTTP (the gateway's HttpCommandBus calls them) and, with COMMAND_BUS=kafka,
 * taken from its Kafka topic too; its policies read the log from the store or from Kafka.
 */
export async function startServiceHost(opts: ServiceHostOptions) {
  if (!opts.token || opts.token.length < MIN_COMMAND_TOKEN_LENGTH)
    throw new Error(`${opts.name} needs COMMAND_TOKEN (at least ${MIN_COMMAND_TOKEN_LENGTH} characters) to take commands over HTTP`);
  const db = await openDatabase({ databaseUrl: opts.databaseUrl, dataDir: '' });
  await migrate(db.pool, 'projections', projectionMigrations);
  const topology =
    opts.topology ?? topologyFor({ remoteServices: opts.endpoints ?? {}, redisUrl: undefined, projector: 'external' }, opts.name);
  const adapters = await openAdapters(topology, {
    role: opts.name,
    pool: db.pool,
    commandToken: opts.token,
    log: createLogger(opts.name),
  }).catch(async (err: unknown) => {
    await db.close();
    throw err;
  });
  const { store, bus, events } = adapters;
  let service: Awaited<ReturnType<ServiceHostOptions['start']>> | undefined;
  let server: Awaited<ReturnType<typeof serveCommands>>;
  try {
    service = await opts.start({ store, bus, pool: db.pool, events });
    if (bus instanceof KafkaCommandBus) await bus.ready();
    // With Kafka, commands come through its consumers rather than this server: its /health says whether they still do.
    const health = bus instanceof KafkaCommandBus ? () => bus.health() : undefined;
    server = await serveCommands(bus, { port: opts.port, host: opts.host, token: opts.token, health });
  } catch (err) {
    // A start that fails closes what it opened: a supervisor restarting it in a loop must not
    // leave a Kafka reply topic and consumer group (`tvshop.replies.<instance>`) behind each time.
    await service?.stop().catch(() => {});
    await adapters.close();
    await db.close();
    throw err;
  }
  const started = service;
  return {
    url: server.url,
    async stop() {
      await server.close();
      await started.stop();
      await adapters.close();
      await db.close();
    },
  };
}

/**
 * The token that guards the services' command endpoints: COMMAND_TOKEN, else (local modes, every
 * process on one machine sharing DATA_DIR) one generated once and kept in `<dataDir>/command-token`.
 */
export async function commandTokenFor(
  envToken: string | undefined,
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ token: string; source: 'env' | 'generated' | 'file'; file?: string }> {
  if (envToken) return { token: envToken, source: 'env' };
  const file = path.join(dataDir, 'command-token');
  const kept = await secretInDataDir(file, { env, name: 'COMMAND_TOKEN', minLength: MIN_COMMAND_TOKEN_LENGTH });
  return { token: kept.secret, source: kept.generated ? 'generated' : 'file', file };
}

/** How long a service's clean stop may take before it exits anyway. */
const STOP_LIMIT_MS = 20_000;

/** `main.ts` of a service: configuration from the environment (`serviceConfigFromEnv`), clean stop on SIGINT/SIGTERM. */
export async function runServiceMain(
  name: ServiceHostOptions['name'],
  defaultPort: number,
  start: ServiceHostOptions['start'],
): Promise<void> {
  const log = createLogger(name);
  const config = serviceConfigFromEnv(defaultPort);
  const topology = topologyFromEnv(name);
  const databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    log.error(`${name} on its own needs DATABASE_URL (the PostgreSQL it shares with the gateway and projector)`);
    process.exit(2);
  }
  let host: Awaited<ReturnType<typeof startServiceHost>>;
  try {
    const command = await commandTokenFor(config.commandToken, config.dataDir);
    if (command.source === 'generated')
      log.info(`generated a command token in ${command.file}; the gateway and other services read it there`);
    else if (command.source === 'file') log.info(`command token from ${command.file}`);
    host = await startServiceHost({
      name,
      databaseUrl,
      port: config.port,
      host: config.host,
      token: command.token,
      topology,
      start,
    });
  } catch (err) {
    log.error(`${name} could not start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  log.info(`${name} takes commands at ${host.url}/commands (${describeTopology(topology)})`);
  // Once, however many ask (Ctrl-C sends SIGINT, the stack then SIGTERM, and its end closes the channel).
  // Never longer than 20 s, as the gateway: a broker or database that stopped answering must
  // not keep a stopping service alive until its supervisor kills it.
  let stopping: Promise<never> | undefined;
  const stop = (code = 0) => {
    if (stopping) return stopping;
    setTimeout(() => {
      log.error(`${name}: stopping took longer than ${STOP_LIMIT_MS / 1000} s; exiting anyway`);
      process.exit(code || 1);
    }, STOP_LIMIT_MS).unref();
    return (stopping = host
      .stop()
      .catch((err: unknown) => log.warn(`${name} did not stop cleanly`, { error: String(err) }))
      .then(() => process.exit(code)));
  };
  // A database fault nobody awaited is ridden out; any other uncaught error stops the service
  // non-zero so its supervisor starts a fresh one.
  guardProcess(log, () => void stop(1));
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  // Started by `npm run stack` with an IPC channel: if that process dies, even by kill -9, the
  // channel closes and this one stops too rather than live on as an orphan.
  if (process.send) process.once('disconnect', () => void stop());
}
