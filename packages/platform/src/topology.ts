import { kafkaBrokersFromEnv, redisFromEnv, serviceUrlsFromEnv } from './config';

/** The services that take commands: the one list the topology, the transports and the service host share. */
export const SERVICES = ['identity', 'catalog', 'orders'] as const;
export type Service = (typeof SERVICES)[number];

/**
 * What runs in a process and how it reaches the rest, decided once from the configuration: the
 * one place that says which services, projections and adapters make up each mode (README, "Modes
 * of running"; docs/architecture.md). The one-process host (`npm start`), each service's own
 * main, the projector host, `npm run stack` and the compose file's environment all go through it.
 */
export interface Topology {
  /** Services whose deciders and policies run here; the others are reached over the command bus. */
  servicesHere: Service[];
  /** The services that run apart: their URL (HTTP commands), or `kafka`. */
  servicesElsewhere: Partial<Record<Service, string>>;
  /** Commands: in this process, over HTTP to the services that run apart, or over Kafka topics. */
  commandBus: 'in-process' | 'http' | 'kafka';
  /** Change notices: in this process, or over Redis between gateways and a projector of their own. */
  changeFeed: 'in-process' | 'redis';
  /** Where projections and policies read the log: the store's own subscription, or Kafka. */
  events: 'store' | 'kafka';
  /** The event store: PostgreSQL, or EventStoreDB (EVENT_STORE=eventstoredb, EVENTSTORE_URL). */
  eventStore: 'postgres' | 'eventstoredb';
  /** The read-model projections run here, or in the projector host (PROJECTOR=external). */
  projectionsHere: boolean;
  /** This process relays the log to Kafka (one relay leads; the others stand by). */
  relayHere: boolean;
  kafkaBrokers: string[];
  /**
   * KAFKA_TOPIC_PREFIX (`tvshop`): the topics, consumer groups and relay of one shop's log. Two
   * shops (two databases) sharing a broker must each have their own, or one would consume the
   * other's events.
   */
  kafkaTopicPrefix: string;
}

/** What the topology is decided from (the environment, read by `topologyFromEnv`). */
export interface TopologySettings {
  /** Services running as their own processes, by URL (IDENTITY_URL, CATALOG_URL, ORDERS_URL). */
  remoteServices: Partial<Record<Service, string>>;
  /** SERVICES_APART: services running as their own processes, reached over Kafka (names, or `all`). */
  servicesApart?: Service[];
  redisUrl: string | undefined;
  /** PROJECTOR: `external` when another process runs the projections. */
  projector: 'in-process' | 'external';
  /** COMMAND_BUS: `kafka` sends commands over Kafka; otherwise HTTP to the URLs. */
  commandBus?: 'http' | 'kafka';
  /** EVENT_BUS: `kafka` has projections and policies read the log from Kafka. */
  eventBus?: 'store' | 'kafka';
  eventStore?: 'postgres' | 'eventstoredb';
  kafkaBrokers?: string[] | undefined;
  kafkaTopicPrefix?: string | undefined;
}

/** The kinds of process TV Shop has: the gateway host (with whatever runs beside it), one service, the projector host. */
export type ProcessRole = 'gateway' | Service | 'projector';

export function topologyFor(settings: TopologySettings, role: ProcessRole = 'gateway'): Topology {
  const kafkaCommands = settings.commandBus === 'kafka';
  const apart: Partial<Record<Service, string>> = { ...settings.remoteServices };
  for (const s of settings.servicesApart ?? []) apart[s] = kafkaCommands ? 'kafka' : (apart[s] ?? '');
  const elsewhere = Object.fromEntries(
    Object.entries(apart).filter(([s, where]) => s !== role && where !== '' && (kafkaCommands ? true : where !== 'kafka')),
  ) as Topology['servicesElsewhere'];
  if (kafkaCommands) for (const s of Object.keys(elsewhere) as Service[]) elsewhere[s] = 'kafka';
  const servicesHere: Service[] = role === 'gateway' ? SERVICES.filter((s) => !elsewhere[s]) : role === 'projector' ? [] : [role];
  const isService = role !== 'gateway' && role !== 'projector';
  const kafkaBrokers = settings.kafkaBrokers ?? [];
  const events = settings.eventBus === 'kafka' ? 'kafka' : 'store';
  if ((events === 'kafka' || kafkaCommands) && kafkaBrokers.length === 0)
    throw new Error('EVENT_BUS=kafka and COMMAND_BUS=kafka need KAFKA_BROKERS (host:port,...)');
  const projectionsHere = role === 'projector' || (role === 'gateway' && settings.projector === 'in-process');
  return {
    servicesHere,
    servicesElsewhere: elsewhere,
    // A service on its own takes commands from others; the gateway host only sends when some run apart.
    // The projector host sends no commands.
    commandBus:
      role === 'projector'
        ? 'in-process'
        : kafkaCommands
          ? 'kafka'
          : isService || Object.keys(elsewhere).length > 0
            ? 'http'
            : 'in-process',
    changeFeed: settings.redisUrl ? 'redis' : 'in-process',
    events,
    eventStore: settings.eventStore ?? 'postgres',
    projectionsHere,
    relayHere: events === 'kafka' && projectionsHere,
    kafkaBrokers,
    kafkaTopicPrefix: settings.kafkaTopicPrefix ?? 'tvshop',
  };
}

const choice = <T extends string>(value: string | undefined, allowed: readonly T[], name: string): T | undefined => {
  const v = value?.trim().toLowerCase();
  if (!v) return undefined;
  if (!(allowed as readonly string[]).includes(v))
    throw new Error(`Invalid environment variable ${name}: must be one of ${allowed.join(', ')}`);
  return v as T;
};

const topicPrefix = (value: string | undefined): string | undefined => {
  const v = value?.trim();
  if (!v) return undefined;
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(v))
    throw new Error('Invalid environment variable KAFKA_TOPIC_PREFIX: letters, digits, ".", "_" and "-" only');
  return v;
};

export function topologySettingsFromEnv(env: NodeJS.ProcessEnv = process.env): TopologySettings {
  const apart = env.SERVICES_APART?.trim();
  const servicesApart =
    apart === 'all'
      ? [...SERVICES]
      : (apart ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .map((s) => choice(s, SERVICES, 'SERVICES_APART')!);
  return {
    remoteServices: serviceUrlsFromEnv(env),
    servicesApart,
    redisUrl: redisFromEnv(env).url,
    projector: choice(env.PROJECTOR, ['in-process', 'external'] as const, 'PROJECTOR') ?? 'in-process',
    commandBus: choice(env.COMMAND_BUS, ['http', 'kafka'] as const, 'COMMAND_BUS') ?? 'http',
    eventBus: choice(env.EVENT_BUS, ['store', 'kafka'] as const, 'EVENT_BUS') ?? 'store',
    eventStore: choice(env.EVENT_STORE, ['postgres', 'eventstoredb'] as const, 'EVENT_STORE') ?? 'postgres',
    kafkaBrokers: kafkaBrokersFromEnv(env),
    kafkaTopicPrefix: topicPrefix(env.KAFKA_TOPIC_PREFIX),
  };
}

export function topologyFromEnv(role: ProcessRole, env: NodeJS.ProcessEnv = process.env): Topology {
  return topologyFor(topologySettingsFromEnv(env), role);
}

/** One line for the start log: what this process hosts. */
export const describeTopology = (t: Topology): string =>
  [
    `services here: ${t.servicesHere.join(', ') || 'none'}`,
    ...Object.entries(t.servicesElsewhere).map(([s, where]) => `${s} at ${where}`),
    `projections ${t.projectionsHere ? 'here' : 'elsewhere'}`,
    `commands ${t.commandBus}`,
    `changes ${t.changeFeed}`,
    `log from ${t.events}${t.relayHere ? ' (relayed to Kafka from here)' : ''}`,
    `store ${t.eventStore}`,
  ].join('; ');
