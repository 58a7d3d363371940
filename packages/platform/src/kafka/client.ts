import { Kafka, logLevel, type Admin, type KafkaConfig, type LogEntry, type SASLOptions } from 'kafkajs';
import type { ConnectionOptions } from 'node:tls';
import { kafkaBrokersFromEnv, logLevelFromEnv } from '../config';
import { createLogger, type Logger } from '../log';

export interface KafkaClientOptions {
  brokers: string[];
  /** Names this process in the broker's logs and quotas (`tvshop-gateway`, `tvshop-catalog`, ...). */
  clientId: string;
  /** TLS and SASL for a broker beyond this machine: Kafka's own authentication is the trust boundary (ADR 0031). */
  ssl?: ConnectionOptions | boolean;
  sasl?: SASLOptions;
  connectionTimeoutMs?: number;
  requestTimeoutMs?: number;
}

/**
 * kafkajs logs through our logger, one JSON line like everything else. It reports normal events
 * (a group rebalancing, a broker connection being re-opened) as errors and retries them itself,
 * so its errors are our warnings: a failure that matters reaches the caller as a rejected call.
 * Its info and debug lines are debug here, and only built when LOG_LEVEL=debug.
 */
export function kafkaLogCreator(log: Logger = createLogger('kafka')) {
  return () =>
    ({ namespace, level, log: entry }: LogEntry): void => {
      const { message, timestamp: _t, logger: _l, ...extra } = entry;
      const line = `${namespace ? `${namespace}: ` : ''}${message}`;
      if (level <= logLevel.WARN && !EXPECTED_WARNINGS.some((w) => message.startsWith(w))) log.warn(line, extra);
      else log.debug(line, extra);
    };
}

/**
 * kafkajs warnings about choices made on purpose, which would otherwise come with every producer
 * made (the relay makes one per restart). Our idempotent producers have bounded retries
 * (`PRODUCER_RETRY`), which kafkajs warns may break exactly once; see there why it does not.
 */
const EXPECTED_WARNINGS = ['Limiting retries for the idempotent producer'];

/**
 * The retries of our idempotent producers. kafkajs retries an idempotent producer's sends forever
 * unless told otherwise: with the broker gone, a send then never fails, so nothing notices (the
 * relay keeps its leader lock and a standby cannot take over; the command bus's queue grows).
 * A send that gives up is safe: the relay's transaction is aborted (or fenced by the next
 * producer of its transactional id) and republished from the checkpoint; a command is answered
 * 503 and, if it landed anyway, its handler's command id makes a retry land once (ADR 0031).
 * Five retries is about ten seconds of backoff (kafkajs's 300 ms doubling).
 */
export const PRODUCER_RETRY = { retries: 5 } as const;

/**
 * `work`, or a rejection once `ms` passed without it settling. kafkajs retries each request for
 * as long as its retry settings say, and a broker that stops answering (rather than refusing)
 * costs the request timeout per try: the callers that must not wait that long bound it here.
 * `work` goes on meanwhile; its outcome is then ignored.
 */
export function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** A kafkajs client for these brokers with the project's logging. Connections are opened by its producers, consumers and admins. */
export function createKafka(opts: KafkaClientOptions): Kafka {
  if (opts.brokers.length === 0) throw new Error('Kafka needs at least one broker (KAFKA_BROKERS=host:port,...)');
  const config: KafkaConfig = {
    clientId: opts.clientId,
    brokers: opts.brokers,
    connectionTimeout: opts.connectionTimeoutMs ?? 3000,
    requestTimeout: opts.requestTimeoutMs ?? 30_000,
    logLevel: logLevelFromEnv() === 'debug' ? logLevel.DEBUG : logLevel.WARN,
    logCreator: kafkaLogCreator(),
    ...(opts.ssl !== undefined ? { ssl: opts.ssl } : {}),
    ...(opts.sasl ? { sasl: opts.sasl } : {}),
  };
  return new Kafka(config);
}

/** KAFKA_BROKERS as a client, or undefined when it is unset (this process then uses no Kafka). */
export function kafkaFromEnv(clientId: string, env: NodeJS.ProcessEnv = process.env): Kafka | undefined {
  const brokers = kafkaBrokersFromEnv(env);
  return brokers ? createKafka({ brokers, clientId }) : undefined;
}

/**
 * Waits until every partition of `topics` has a leader. `createTopics` answers at once when the
 * topic already exists, as when several processes start together and another one made it a
 * moment ago; a consumer subscribing before the broker's metadata has the topic fails with
 * "This server does not host this topic-partition".
 */
export async function topicsReady(admin: Admin, topics: string[], timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ready = await admin
      .fetchTopicMetadata({ topics })
      .then(
        (m) =>
          m.topics.length === topics.length && m.topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0)),
      )
      .catch(() => false);
    if (ready) return;
    if (Date.now() > until) throw new Error(`Kafka topics ${topics.join(', ')} have no leader after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
