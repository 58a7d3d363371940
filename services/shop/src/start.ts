import { listingLimitsFromEnv, startCatalog } from '@tv-shop/catalog';
import { ensureAdmin, startIdentity } from '@tv-shop/identity';
import { SandboxPaymentProvider, edgePaymentsFromEnv, paymentProviderFromEnv, startOrders } from '@tv-shop/orders';
import {
  checkHealth,
  withTransportHealth,
  commandTokenFor,
  createMetrics,
  InProcessChangeFeed,
  instrumentEventStore,
  instrumentLogSource,
  KafkaCommandBus,
  RedisChangeFeed,
  createLogger,
  describeTopology,
  migrate,
  openAdapters,
  openDatabase,
  PositionTracker,
  projectionMigrations,
  serveMetrics,
  topologyFor,
  watchLag,
  type Metrics,
} from '@tv-shop/platform';
import { imageStoreFromEnv, startImageSweeper } from '@tv-shop/images';
import { projectionVerifier, projections, startProjector } from '@tv-shop/projector';
import path from 'node:path';
import { loadConfig, ReadModels, serveGateway, type GatewayConfig } from '@tv-shop/gateway';
import { hostConfigFromEnv, type HostConfig } from './config';
import { seedDemo } from './demo-seed';

export interface StartOptions {
  port?: number;
  databaseUrl?: string;
  dataDir?: string;
  adminEmail?: string;
  adminPassword?: string;
  webDist?: string;
  seedDemo?: boolean;
  env?: NodeJS.ProcessEnv;
  /** The internal metrics listener's port when METRICS_PORT is unset (`npm start`: 9464); unset: none. */
  defaultMetricsPort?: number;
}

export interface Running {
  url: string;
  /** The gateway's settings and the host's. */
  config: GatewayConfig & HostConfig;
  /** Where this shop's database is, embedded or not (for benchmarks and operator tools). */
  databaseUrl: string;
  /** The internal listener serving /metrics and the detailed /health; null when there is none (METRICS_PORT). */
  metricsUrl: string | null;
  /** 'ready' once serving; 'stopping' from the moment stop() begins (GET /api/ready answers 503). */
  readonly state: 'starting' | 'ready' | 'stopping';
  stop(): Promise<void>;
}

/**
 * One process, every service: PostgreSQL (embedded unless DATABASE_URL), the event store, the
 * projector, identity / catalog / orders, and the gateway with Socket.IO.
 */
export async function startAll(opts: StartOptions = {}): Promise<Running> {
  const log = createLogger('tv-shop');
  const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
  const env = opts.env ?? process.env;
  const dataDir = opts.dataDir && path.resolve(opts.dataDir);
  const host = hostConfigFromEnv(
    env,
    defined({
      databaseUrl: opts.databaseUrl,
      dataDir,
      adminEmail: opts.adminEmail,
      adminPassword: opts.adminPassword,
      seedDemo: opts.seedDemo,
    }),
    opts.defaultMetricsPort,
  );
  const config = loadConfig(env, defined({ port: opts.port, dataDir, webDist: opts.webDist }));
  const stack: (() => Promise<unknown>)[] = [];
  let state: Running['state'] = 'starting';
  const stop = async () => {
    const wasServing = state === 'ready';
    state = 'stopping';
    // Drain: /api/ready answers 503 for a moment first, so a load balancer stops sending new
    // requests before the server closes (SHUTDOWN_DRAIN_MS; 0 by default, e.g. 5000 behind one).
    if (wasServing && host.shutdownDrainMs > 0) await new Promise((resolve) => setTimeout(resolve, host.shutdownDrainMs));
    for (const s of stack.splice(0).reverse()) await s().catch((err: unknown) => log.warn('stop step failed', { error: err }));
  };
  // One registry for everything this process hosts; named for what it is in a cluster.
  const metrics = createMetrics({ service: topologyFor(host.topology).servicesHere.length === 0 ? 'gateway' : 'shop' });
  stack.push(() => metrics.close());
  try {
    const { db, store, bus, feed, reads, positions, payments } = await startBackend(host, env, stack, metrics);
    // Served from here on, so a start that hangs (a broker, the admin's first write) can be watched.
    const served = await serveMetrics(metrics, {
      listener: host.metrics,
      log,
      health: async () =>
        withTransportHealth(
          await checkHealth(db.pool, { databaseMode: db.mode, log }),
          bus instanceof KafkaCommandBus ? bus.health() : undefined,
        ),
    });
    if (served) stack.push(() => served.close());
    await positions.waitFor(await ensureAdmin(store, bus, host.adminEmail, host.adminPassword, host.dataDir));
    const images = await imageStoreFromEnv(env, { pool: db.pool, dataDir: host.dataDir });
    const sweeper = startImageSweeper(images, reads, {
      retentionHours: host.uploads.retentionHours,
      everyMinutes: host.uploads.sweepMinutes,
    });
    stack.push(() => sweeper.stop());
    if (host.seedDemo) await positions.waitFor(await seedDemo(store, bus, images));
    await positions.waitFor(await store.headPosition());

    const gateway = await serveGateway({
      config,
      pool: db.pool,
      databaseMode: db.mode,
      store,
      bus,
      feed,
      reads,
      positions,
      payments,
      images,
      lifecycle: () => state,
      metrics,
      // Any host may verify: it reads the live tables and writes only scratch ones (no leadership).
      verifier: projectionVerifier(db.pool, store),
    });
    stack.push(() => gateway.close());
    const { url } = gateway;
    state = 'ready';
    log.info(`TV Shop is at ${url}`, {
      // Whom to sign in as to verify sellers and read the log (ADMIN_EMAIL; its password is never logged).
      admin: host.adminEmail,
      database: db.mode,
      payments: payments.name,
      ...(served ? { metrics: `${served.url}/metrics` } : {}),
    });
    return {
      url,
      config: { ...config, ...host },
      databaseUrl: db.url,
      metricsUrl: served?.url ?? null,
      get state() {
        return state;
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * Everything behind the edge that this process runs, as its topology says: the database, the
 * event store, bus and log source (`openAdapters`), the change feed, the projector and the
 * domain services that run here. Each piece's stop goes onto `stack`.
 */
async function startBackend(config: HostConfig, env: NodeJS.ProcessEnv, stack: (() => Promise<unknown>)[], metrics: Metrics) {
  const log = createLogger('tv-shop');
  // Read before anything opens, so that a bad LISTING_LIMIT_* stops the start at once, naming it.
  const listingLimits = listingLimitsFromEnv(env);
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, log: (m) => log.debug(m) });
  stack.push(() => db.close());
  await migrate(db.pool, 'projections', projectionMigrations);
  await migrate(db.pool, 'payment-sandbox', SandboxPaymentProvider.migrations);
  const topology = topologyFor(config.topology);
  log.info(`topology: ${describeTopology(topology)}`);
  const feed =
    topology.changeFeed === 'redis'
      ? await RedisChangeFeed.connect({ url: config.redisUrl!, channel: config.redisChannel })
      : new InProcessChangeFeed();
  stack.push(() => feed.close());
  // The HTTP command transport needs the token the services check; the other buses do not.
  const commandToken = topology.commandBus === 'http' ? (await commandTokenFor(config.commandToken, config.dataDir)).token : undefined;
  const adapters = await openAdapters(topology, { role: 'gateway', pool: db.pool, commandToken, env, log });
  stack.push(() => adapters.close());
  const { bus } = adapters;
  // Every append of this process is timed, and its consumers' Kafka lag read (EVENT_BUS=kafka).
  const store = instrumentEventStore(adapters.store, metrics);
  const events = instrumentLogSource(adapters.events, metrics, topology, { clientId: 'tvshop-gateway', log });
  watchLag(metrics, db.pool, { log });
  const reads = new ReadModels(db.pool);
  const positions = new PositionTracker(
    feed,
    // Read-your-writes: a write's answer waits for the read models shoppers read (not the admin's event log).
    projections.filter((p) => p.awaited !== false).map((p) => p.name),
    () => reads.projectionPositions(),
  );
  stack.push(async () => positions.close());
  // PROJECTOR=external: another process runs it and its notices arrive over Redis.
  if (topology.projectionsHere) {
    const projector = await startProjector({ pool: db.pool, store, feed, events });
    stack.push(() => projector.stop());
  }
  await positions.refresh();
  // The provider is orders' (here only when orders runs here); the edge gets what it needs of it.
  const payments = edgePaymentsFromEnv(env);
  // Each domain service runs here unless it runs as its own process (IDENTITY_URL, SERVICES_APART, ...).
  const here = new Set(topology.servicesHere);
  if (here.has('identity')) stack.push(startIdentity({ store, bus }).stop);
  if (here.has('catalog')) stack.push((await startCatalog({ store, bus, pool: db.pool, events, limits: listingLimits })).stop);
  if (here.has('orders'))
    stack.push((await startOrders({ store, bus, pool: db.pool, payments: paymentProviderFromEnv(db.pool, env), events })).stop);
  if (bus instanceof KafkaCommandBus) await bus.ready();
  return { db, store, bus, feed, reads, positions, payments };
}
