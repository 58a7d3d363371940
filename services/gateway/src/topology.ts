import type { GatewayConfig } from './config';

export const SERVICES = ['identity', 'catalog', 'orders'] as const;
export type Service = (typeof SERVICES)[number];

/**
 * What runs in this process and how the rest is reached, decided once from the configuration:
 * the one place that says which services, projections, policies and adapters make up each mode
 * (README, "Modes of running"; docs/architecture.md).
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

export function topologyFor(config: Pick<GatewayConfig, 'remoteServices' | 'redisUrl' | 'projector'>): Topology {
  const elsewhere = config.remoteServices;
  return {
    servicesHere: SERVICES.filter((s) => !elsewhere[s]),
    servicesElsewhere: elsewhere,
    commandBus: Object.keys(elsewhere).length > 0 ? 'http' : 'in-process',
    changeFeed: config.redisUrl ? 'redis' : 'in-process',
    projectionsHere: config.projector === 'in-process',
  };
}

/** One line for the start log: what this process hosts. */
export const describeTopology = (t: Topology): string =>
  [
    `services here: ${t.servicesHere.join(', ') || 'none'}`,
    ...Object.entries(t.servicesElsewhere).map(([s, url]) => `${s} at ${url}`),
    `projections ${t.projectionsHere ? 'here' : 'in the projector process'}`,
    `commands ${t.commandBus}`,
    `changes ${t.changeFeed}`,
  ].join('; ');

/**
 * The policies whose reactions belong to a write, so its answer waits for them too: deleting a
 * user withdraws their listings (catalog) and cancels their open bookings (orders).
 */
export const REACTIONS_OF = {
  DeleteUser: ['catalog', 'orders'],
} as const satisfies Record<string, readonly Service[]>;
