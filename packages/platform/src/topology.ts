import type { CommandEnvelope } from './commands/transport';
import { redisFromEnv, serviceUrlsFromEnv } from './config';

export const SERVICES = ['identity', 'catalog', 'orders'] as const satisfies readonly CommandEnvelope['service'][];
export type Service = (typeof SERVICES)[number];

/**
 * What runs in a process and how it reaches the rest, decided once from the configuration: the
 * one place that says which services, projections and adapters make up each mode (README, "Modes
 * of running"; docs/architecture.md). The one-process host (`npm start`), each service's own
 * main, the projector host and the compose file's environment all go through it.
 */
export interface Topology {
  /** Services whose deciders and policies run here; the others are reached at their URL. */
  servicesHere: Service[];
  servicesElsewhere: Partial<Record<Service, string>>;
  /** Commands: in this process, or over HTTP to the services that run apart. */
  commandBus: 'in-process' | 'http';
  /** Change notices: in this process, or over Redis between gateways and a projector of their own. */
  changeFeed: 'in-process' | 'redis';
  /** The read-model projections run here, or in `npm run projector -- run` (PROJECTOR=external). */
  projectionsHere: boolean;
}

/** What the topology is decided from (the environment, read by `topologyFromEnv`). */
export interface TopologySettings {
  /** Services running as their own processes, by URL (IDENTITY_URL, CATALOG_URL, ORDERS_URL). */
  remoteServices: Partial<Record<Service, string>>;
  redisUrl: string | undefined;
  /** PROJECTOR: `external` when another process runs the projections. */
  projector: 'in-process' | 'external';
}

/** The kinds of process TV Shop has: the gateway host (with whatever runs beside it), one service, the projector. */
export type ProcessRole = 'gateway' | Service | 'projector';

export function topologyFor(settings: TopologySettings, role: ProcessRole = 'gateway'): Topology {
  const elsewhere = Object.fromEntries(
    Object.entries(settings.remoteServices).filter(([s]) => s !== role),
  ) as Topology['servicesElsewhere'];
  const servicesHere: Service[] = role === 'gateway' ? SERVICES.filter((s) => !elsewhere[s]) : role === 'projector' ? [] : [role];
  return {
    servicesHere,
    servicesElsewhere: elsewhere,
    // A service on its own always takes commands over HTTP; the gateway host only if some run apart.
    commandBus: role !== 'gateway' && role !== 'projector' ? 'http' : Object.keys(elsewhere).length > 0 ? 'http' : 'in-process',
    changeFeed: settings.redisUrl ? 'redis' : 'in-process',
    projectionsHere: role === 'projector' || (role === 'gateway' && settings.projector === 'in-process'),
  };
}

export const projectorFromEnv = (env: NodeJS.ProcessEnv = process.env): TopologySettings['projector'] =>
  env.PROJECTOR?.trim() === 'external' ? 'external' : 'in-process';

export function topologyFromEnv(role: ProcessRole, env: NodeJS.ProcessEnv = process.env): Topology {
  return topologyFor({ remoteServices: serviceUrlsFromEnv(env), redisUrl: redisFromEnv(env).url, projector: projectorFromEnv(env) }, role);
}

/** One line for the start log: what this process hosts. */
export const describeTopology = (t: Topology): string =>
  [
    `services here: ${t.servicesHere.join(', ') || 'none'}`,
    ...Object.entries(t.servicesElsewhere).map(([s, url]) => `${s} at ${url}`),
    `projections ${t.projectionsHere ? 'here' : 'elsewhere'}`,
    `commands ${t.commandBus}`,
    `changes ${t.changeFeed}`,
  ].join('; ');
