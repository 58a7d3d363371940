import { forbidden } from '../errors';
import type { Actor } from './handler';
import type { CommandEnvelope } from './transport';

/** The shop's own processes (bootstrap, seed, policies, a verified provider's webhook): trusted to send any command. */
export const SYSTEM_ACTOR: Actor = { id: 'system', role: 'System' };

export const isSystem = (actor: Actor) => actor.role === 'System';

/**
 * Who may send one command: null if `env.actor` may, else why not (the 403's message). The
 * gateway checks the caller's role before it sends; the service checks again, on what it
 * receives, so that no route, policy or transport can ask it for what its sender may not do.
 */
export type SenderRule<C> = (command: C, env: CommandEnvelope) => string | null;

/** One rule for each of a service's command types: a new command cannot be added without saying who may send it. */
export type SenderRules<C extends { type: string }> = { [T in C['type']]: SenderRule<Extract<C, { type: T }>> };

/** Refuses (403) a command its sender may not send. */
export function checkSender<C extends { type: string }>(rules: SenderRules<C>, command: C, env: CommandEnvelope): void {
  const rule = rules[command.type as C['type']] as SenderRule<C>;
  const refusal = rule(command, env);
  if (refusal !== null) throw forbidden(refusal);
}

/** Common rules. */
export const anyone: SenderRule<unknown> = () => null;
export const oneOf =
  (...roles: string[]): SenderRule<unknown> =>
  (_command, env) =>
    isSystem(env.actor) || roles.includes(env.actor.role) ? null : `Only ${roles.join(' or ')} accounts may do this`;
/** The rules one after the other: the first refusal, or null when every one allows. */
export const allOf =
  <C>(...rules: NoInfer<SenderRule<C>>[]): SenderRule<C> =>
  (command, env) => {
    for (const rule of rules) {
      const refusal = rule(command, env);
      if (refusal !== null) return refusal;
    }
    return null;
  };
/** `rule`, except that the shop's own processes pass it (they act for whoever a command names). */
export const orTheShop =
  <C>(rule: SenderRule<C>): SenderRule<C> =>
  (command, env) =>
    isSystem(env.actor) ? null : rule(command, env);
/** The command names its sender (the account `pick` reads from it): it must be who sent it. */
export const naming =
  <C>(pick: (command: C) => string | null): SenderRule<C> =>
  (command, env) =>
    pick(command) === env.actor.id ? null : 'The command names someone other than who sent it';
/** The account in `data.actorId`, as the deciders' ownership checks read it, must be who sent it. */
export const namesItsSender: SenderRule<{ data: { actorId: string } }> = naming((command) => command.data.actorId);
