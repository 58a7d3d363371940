import type pg from 'pg';
import { serveCommands } from './commands/http-transport';
import { HttpCommandBus } from './commands/http-transport';
import type { CommandBus, CommandEnvelope } from './commands/transport';
import { openDatabase } from './db/database';
import { PostgresEventStore } from './event-store/postgres';
import type { EventStore } from './event-store/types';
import { createLogger } from './log';
import { migrate } from './db/migrate';
import { projectionMigrations } from './projections/migrations';

export interface ServiceDeps {
  store: EventStore;
  bus: CommandBus;
  pool: pg.Pool;
}

export interface ServiceHostOptions {
  name: 'identity' | 'catalog' | 'orders';
  databaseUrl: string;
  port: number;
  host?: string;
  token?: string | undefined;
  /** Where the other services take commands (orders asks catalog to record a sale). */
  endpoints?: Partial<Record<CommandEnvelope['service'], string>>;
  start: (deps: ServiceDeps) => Promise<{ stop(): Promise<void> }>;
}

/**
 * One domain service in its own process: its own pool on the shared PostgreSQL, its command
 * handlers served over HTTP (the gateway's HttpCommandBus calls them), its policies running as
 * subscriptions.
 */
export async function startServiceHost(opts: ServiceHostOptions) {
  const db = await openDatabase({ databaseUrl: opts.databaseUrl, dataDir: '' });
  await PostgresEventStore.migrate(db.pool);
  await migrate(db.pool, 'projections', projectionMigrations);
  const store = new PostgresEventStore(db.pool);
  const bus = new HttpCommandBus(opts.endpoints ?? {}, opts.token);
  const service = await opts.start({ store, bus, pool: db.pool });
  const server = await serveCommands(bus, { port: opts.port, host: opts.host, token: opts.token });
  return {
    url: server.url,
    async stop() {
      await server.close();
      await service.stop();
      await store.close();
      await db.close();
    },
  };
}

/** `main.ts` of a service: configuration from the environment, clean stop on SIGINT/SIGTERM. */
export async function runServiceMain(
  name: ServiceHostOptions['name'],
  defaultPort: number,
  start: ServiceHostOptions['start'],
): Promise<void> {
  const log = createLogger(name);
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    log.error(`${name} on its own needs DATABASE_URL (the PostgreSQL it shares with the gateway and projector)`);
    process.exit(2);
  }
  const host = await startServiceHost({
    name,
    databaseUrl,
    port: Number(process.env.PORT ?? defaultPort),
    host: process.env.HOST ?? '127.0.0.1',
    token: process.env.COMMAND_TOKEN,
    endpoints: Object.fromEntries(
      Object.entries({ identity: process.env.IDENTITY_URL, catalog: process.env.CATALOG_URL, orders: process.env.ORDERS_URL }).filter(
        ([service, url]) => url && service !== name,
      ),
    ),
    start,
  });
  log.info(`${name} takes commands at ${host.url}/commands`);
  const stop = async () => {
    await host.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}
