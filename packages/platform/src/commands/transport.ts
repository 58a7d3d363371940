import { AppError } from '../errors';
import type { Actor } from './handler';

/** A command on its way from the gateway to the service that owns the aggregate. */
export interface CommandEnvelope<T extends string = string, D = unknown> {
  service: 'identity' | 'catalog' | 'orders';
  type: T;
  data: D;
  /** Aggregate id: the Kafka adapter keys messages by it so one aggregate's commands stay in order. */
  aggregateId: string;
  commandId: string;
  actor: Actor;
  correlationId: string;
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
