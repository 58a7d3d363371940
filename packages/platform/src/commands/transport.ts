import { AppError, validation } from '../errors';
import { SERVICES, type Service } from '../topology';
import type { Actor } from './handler';

/** A command on its way from the gateway to the service that owns the aggregate. */
export interface CommandEnvelope<T extends string = string, D = unknown> {
  service: Service;
  type: T;
  data: D;
  /** Aggregate id: the Kafka adapter keys messages by it so one aggregate's commands stay in order. */
  aggregateId: string;
  commandId: string;
  actor: Actor;
  correlationId: string;
}

/**
 * The envelope of a command that arrived over a transport, checked for shape (400 naming the
 * field if not). The command itself (`type`, `data`) is the receiving service's to check.
 */
export function readEnvelope(raw: unknown): CommandEnvelope {
  const env = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const text = (field: string) => {
    if (typeof env[field] !== 'string' || env[field] === '') throw validation(field, 'must be a non-empty string');
  };
  if (typeof env.service !== 'string' || !(SERVICES as readonly string[]).includes(env.service))
    throw validation('service', `must be one of ${SERVICES.join(', ')}`);
  for (const field of ['type', 'aggregateId', 'commandId', 'correlationId']) text(field);
  const actor = env.actor as Record<string, unknown> | undefined;
  if (typeof actor?.id !== 'string' || typeof actor.role !== 'string') throw validation('actor', 'must have an id and a role');
  return env as unknown as CommandEnvelope;
}

/** What a service answers: the log position its events reached and a small result. */
export interface CommandReply {
  position: number;
  result: Record<string, unknown>;
}

export type CommandHandlerFn = (envelope: CommandEnvelope) => Promise<CommandReply>;

/** The command-transport port. In-process now; Kafka (request/reply topics) in the cluster. */
export interface CommandBus {
  register(service: CommandEnvelope['service'], handler: CommandHandlerFn): void;
  send(envelope: CommandEnvelope): Promise<CommandReply>;
}

export class InProcessCommandBus implements CommandBus {
  private readonly handlers = new Map<string, CommandHandlerFn>();
  register(service: CommandEnvelope['service'], handler: CommandHandlerFn): void {
    this.handlers.set(service, handler);
  }
  async send(envelope: CommandEnvelope): Promise<CommandReply> {
    const handler = this.handlers.get(envelope.service);
    if (!handler) throw new AppError('not_configured', `No handler for service ${envelope.service}`);
    // A copy through JSON keeps the in-process path honest about what a remote transport carries.
    return handler(JSON.parse(JSON.stringify(envelope)) as CommandEnvelope);
  }
}
