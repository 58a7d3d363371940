import type { OrdersCommand } from '@tv-shop/contracts';
import { anyone, isSystem, oneOf, type SenderRules } from '@tv-shop/platform';

const buyers = oneOf('Buyer');
/** The buyer a command names must be who sent it. */
const asThemself = (buyerId: string | null, actorId: string) =>
  buyerId === actorId ? null : 'The command names someone other than who sent it';

/** Who may send each of orders' commands (checked on what arrives, before anything is decided). */
export const ordersSenders: SenderRules<OrdersCommand> = {
  PlaceBooking: (command, env) => buyers(command, env) ?? (isSystem(env.actor) ? null : asThemself(command.data.buyer.id, env.actor.id)),
  CreatePaymentIntent: (command, env) =>
    buyers(command, env) ?? (isSystem(env.actor) ? null : asThemself(command.data.buyerId, env.actor.id)),
  // `buyerId` null pays for whoever booked: the shop's own word that the provider was paid (Stripe's signed webhook).
  PayBooking: (command, env) =>
    command.data.buyerId === null
      ? isSystem(env.actor)
        ? null
        : 'Only the shop records a payment for whoever booked'
      : (buyers(command, env) ?? (isSystem(env.actor) ? null : asThemself(command.data.buyerId, env.actor.id))),
  // Whoever holds an intent's client secret may confirm a card for it, as with Stripe's servers.
  ConfirmSandboxCard: anyone,
};
