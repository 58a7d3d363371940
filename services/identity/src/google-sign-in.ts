import { streams, type CommandOf, type ResultOf } from '@tv-shop/contracts';
import { handleCommand, validation, type CommandEnvelope, type EventStore } from '@tv-shop/platform';
import { userDecider } from './user/decide';
import { userIdFor } from './user/ids';
import { decideGoogleSignIn } from './user/sign-in';
import { foldUser } from './user/user';

/**
 * Identity's SignInWithGoogle: the account a verified Google identity signs in to, opened (as a
 * Buyer) the first time. The stream, not the read model, says how the account was opened (ADR
 * 0021). The reply's position is the account's last event, so the caller's read of the account
 * waits until the read model has it.
 */
export async function handleSignInWithGoogle(
  store: EventStore,
  env: CommandEnvelope,
  who: CommandOf<'identity', 'SignInWithGoogle'>['data'],
  now: () => Date,
): Promise<{ position: number; result: ResultOf<'SignInWithGoogle'> }> {
  const userId = userIdFor(who.email);
  if (env.aggregateId !== userId) throw validation('aggregateId', 'is not the account id of this email');
  const history = await store.readStream(streams.user(userId));
  const { register } = decideGoogleSignIn(foldUser(history), who);
  if (!register) return { position: history[history.length - 1]?.position ?? 0, result: { userId } };
  // The registration's command id follows from the account, so two first sign-ins at once open it once.
  const out = await handleCommand(
    store,
    userDecider,
    streams.user(userId),
    { type: register.type, data: register.data },
    { commandId: register.commandId ?? env.commandId, actor: env.actor, correlationId: env.correlationId, now },
  );
  return { position: out.position, result: { userId } };
}
