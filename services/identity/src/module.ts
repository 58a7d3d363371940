import { parseCommand, streams } from '@tv-shop/contracts';
import { checkSender, handleCommand, validation, type CommandBus, type CommandEnvelope, type EventStore } from '@tv-shop/platform';
import { handleSignInWithGoogle } from './google-sign-in';
import { identitySenders } from './senders';
import { userDecider } from './user/decide';

export interface IdentityDeps {
  store: EventStore;
  bus: CommandBus;
  now?: () => Date;
}

/** Identity: registration (with a password or Google), profiles, seller verification and deletion of users. */
export function startIdentity({ store, bus, now = () => new Date() }: IdentityDeps) {
  bus.register('identity', async (env: CommandEnvelope) => {
    const command = parseCommand('identity', env, validation);
    checkSender(identitySenders, command, env);
    if (command.type === 'SignInWithGoogle') return handleSignInWithGoogle(store, env, command.data, now);
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
