import type { Kafka } from 'kafkajs';
import type pg from 'pg';
import { HttpCommandBus } from './commands/http-transport';
import { InProcessCommandBus, type CommandBus } from './commands/transport';
import { PostgresEventStore } from './event-store/postgres';
import type { EventStore, LogSource } from './event-store/types';
import { createKafka } from './kafka/client';
import { KafkaCommandBus } from './kafka/command-bus';
import { KafkaLogSource } from './kafka/log-source';
import { KafkaRelay } from './kafka/relay';
import { describeError } from './errors';
import type { Logger } from './log';
import { backoffMs } from './retry';
import type { ProcessRole, Service, Topology } from './topology';

/** The adapters a process runs with, as its topology says: the one place each mode's are chosen. */
export interface Adapters {
  store: EventStore;
  bus: CommandBus;
  /** Where its projections and policies read the log; undefined: the store's own subscription. */
  events: LogSource | undefined;
  /** The relay of the log to Kafka, when this process runs one. */
  relay: KafkaRelay | null;
  close(): Promise<void>;
}

export interface AdapterOptions {
  role: ProcessRole;
  pool: pg.Pool;
  /** The token that guards the services' HTTP command endpoints (only for COMMAND_BUS=http with services apart). */
  commandToken?: string | undefined;
  env?: NodeJS.ProcessEnv;
  log: Logger;
}

/**
 * Opens the event store, the command bus, the log source and the relay for `topology`, and
 * closes them in reverse order. Anything that fails to open closes what was opened before it.
 */
export async function openAdapters(topology: Topology, opts: AdapterOptions): Promise<Adapters> {
  const env = opts.env ?? process.env;
  const opened: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const c of opened.splice(0).reverse())
      await c().catch((err: unknown) => opts.log.warn('closing an adapter failed', { error: err }));
  };
  try {
    const store = await openStore(topology, opts.pool, env);
    opened.push(() => store.close());
    const kafka: Kafka | null =
      topology.commandBus === 'kafka' || topology.events === 'kafka'
        ? createKafka({ brokers: topology.kafkaBrokers, clientId: `tvshop-${opts.role}` })
        : null;
    let bus: CommandBus;
    if (topology.commandBus === 'kafka') {
      const kafkaBus = await patiently('the Kafka command bus', opts.log, () =>
        KafkaCommandBus.start({
          kafka: kafka!,
          topicPrefix: topology.kafkaTopicPrefix,
          remote: Object.keys(topology.servicesElsewhere) as Service[],
        }),
      );
      opened.push(() => kafkaBus.stop());
      bus = kafkaBus;
    } else if (topology.commandBus === 'http') bus = new HttpCommandBus(topology.servicesElsewhere, opts.commandToken);
    else bus = new InProcessCommandBus();
    let relay: KafkaRelay | null = null;
    if (topology.relayHere) {
      await KafkaRelay.migrate(opts.pool);
      const prefix = topology.kafkaTopicPrefix;
      const r = new KafkaRelay({
        kafka: kafka!,
        pool: opts.pool,
        store,
        log: opts.log,
        name: prefix,
        topicPrefix: `${prefix}.events`,
        logTopic: `${prefix}.log`,
      });
      await patiently('the Kafka relay', opts.log, () => r.start());
      opened.push(() => r.stop());
      relay = r;
    }
    const events =
      topology.events === 'kafka'
        ? new KafkaLogSource(kafka!, store, {
            topic: `${topology.kafkaTopicPrefix}.log`,
            groupPrefix: topology.kafkaTopicPrefix,
            log: opts.log,
          })
        : undefined;
    return { store, bus, events, relay, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Starts something that needs a broker which may itself be starting (compose starts them
 * together; a new topic takes a moment to get a leader): a few tries over about half a minute,
 * then the error, so a process that truly cannot reach Kafka still says so and exits.
 */
async function patiently<T>(what: string, log: Logger, start: () => Promise<T>, tries = 12): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      if (attempt >= tries) throw err;
      log.warn(`${what} could not start (try ${attempt} of ${tries}); trying again`, { error: describeError(err) });
      await new Promise((r) => setTimeout(r, backoffMs(attempt)));
    }
  }
}

async function openStore(topology: Topology, pool: pg.Pool, env: NodeJS.ProcessEnv): Promise<EventStore> {
  if (topology.eventStore === 'postgres') {
    await PostgresEventStore.migrate(pool);
    return new PostgresEventStore(pool, { pollIntervalMs: 1000 });
  }
  const url = env.EVENTSTORE_URL?.trim();
  if (!url) throw new Error('EVENT_STORE=eventstoredb needs EVENTSTORE_URL (esdb://host:2113?tls=false)');
  // Loaded only here: a process on PostgreSQL never loads the gRPC client.
  const { EventStoreDbEventStore } = await import('./event-store/eventstoredb');
  return EventStoreDbEventStore.connect(url);
}
