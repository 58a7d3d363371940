export * from './errors';
export * from './ids';
export * from './log';
export { guardProcess } from './process-guard';
export * from './change-feed/port';
export { InProcessChangeFeed } from './change-feed/in-process';
export * from './event-store/types';
export { PostgresEventStore, isUniqueViolation } from './event-store/postgres';
export { CatchUpSubscription } from './event-store/subscription';
export * from './db/migrate';
export * from './db/database';
export * from './retry';
export { RecentlyUsed } from './recently-used';
export { startEmbeddedPostgres, stopOrphanedPostmaster, freePort, type EmbeddedServer, type EmbeddedOptions } from './db/embedded';
export * from './projections/types';
export { LastChanges, RowSet, insertRows } from './projections/row-set';
export { KeptRows } from './projections/kept-rows';
export * from './projections/runner';
export * from './projections/checkpoints';
export * from './commands/decider';
export * from './commands/handler';
export * from './commands/transport';
export * from './commands/senders';
export * from './commands/http-transport';
export * from './policies';
export * from './service-host';
export * from './config';
export { SECRET_NAME, secretInDataDir, type SecretInDataDirOptions } from './secrets';
export { RedisChangeFeed, type RedisChangeFeedOptions } from './change-feed/redis';
export * from './topology';
export { PositionTracker } from './projections/position-tracker';
export * from './kafka/client';
export * from './kafka/relay';
export * from './kafka/command-bus';
export { openAdapters, type Adapters, type AdapterOptions } from './adapters';
export { KafkaLogSource, LOG_TOPIC } from './kafka/log-source';
export {
  COLLECT_TIMEOUT_MS,
  DEFAULT_METRICS_PORTS,
  STALL_MS,
  bearerTokenMatches,
  checkHealth,
  createMetrics,
  gaugeOnScrape,
  httpRequestHistogram,
  instrumentEventStore,
  instrumentLogSource,
  metricsListenerFromEnv,
  readLag,
  serveMetrics,
  watchLag,
  withServiceMetrics,
  withTransportHealth,
  type ConsumerLag,
  type HealthReport,
  type Metrics,
  type MetricsListenerConfig,
} from './metrics';
