import { streams } from '@tv-shop/contracts';
import { handleCommand, type CommandBus, type CommandEnvelope, type EventStore } from '@tv-shop/platform';
import { userDecider, type UserCommand } from './user/decide';

export interface IdentityDeps {
  store: EventStore;
  bus: CommandBus;
  now?: () => Date;
}

/** Identity: registration, profiles, seller verification and deletion of users. */
export function startIdentity({ store, bus, now = () => new Date() }: IdentityDeps) {
  bus.register('identity', async (env: CommandEnvelope) => {
    const command = { type: env.type, data: env.data } as UserCommand;
    const out = await handleCommand(store, userDecider, streams.user(env.aggregateId), command, {
      commandId: env.commandId,
      actor: env.actor,
      correlationId: env.correlationId,
      now,
    });
    return { position: out.position, result: { userId: env.aggregateId, changed: out.events.length > 0 } };
  });
  return { stop: async () => {} };
}
