import type { OrdersCommand } from '@tv-shop/contracts';
import { allOf, anyone, isSystem, naming, oneOf, orTheShop, type SenderRule, type SenderRules } from '@tv-shop/platform';

const buyers = oneOf('Buyer');
/** A buyer's command, naming the buyer who sends it (the shop may name any buyer). */
const buyerNaming = <C>(pick: (command: C) => string | null): SenderRule<C> => allOf(buyers, orTheShop(naming(pick)));

/** Who may send each of orders' commands (checked on what arrives, before anything is decided). */
export const ordersSenders: SenderRules<OrdersCommand> = {
  PlaceBooking: buyerNaming((command) => command.data.buyer.id),
  CreatePaymentIntent: buyerNaming((command) => command.data.buyerId),
  CancelBooking: buyerNaming((command) => command.data.buyerId),
  // `buyerId` null pays for whoever booked: the shop's own word that the provider was paid (Stripe's signed webhook).
  PayBooking: (command, env) =>
    command.data.buyerId === null
      ? isSystem(env.actor)
        ? null
        : 'Only the shop records a payment for whoever booked'
      : buyerNaming((c: typeof command) => c.data.buyerId)(command, env),
  // Whoever holds an intent's client secret may confirm a card for it, as with Stripe's servers.
  ConfirmSandboxCard: anyone,
};
