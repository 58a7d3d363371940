import type { CatalogCommand } from '@tv-shop/contracts';
import { isSystem, namesItsSender, oneOf, type SenderRules } from '@tv-shop/platform';

const sellers = oneOf('Seller');
const admins = oneOf('Admin');

/**
 * Who may send each of catalog's commands (checked on what arrives, before anything is decided).
 * Whose product it is stays the product's stream's to say (the decider's `owned`).
 */
export const catalogSenders: SenderRules<CatalogCommand> = {
  // A seller lists their own TVs; the admin and the shop's seed may list for a seller.
  ListProduct: (command, env) =>
    isSystem(env.actor) || env.actor.role === 'Admin' || (env.actor.role === 'Seller' && command.data.sellerId === env.actor.id)
      ? null
      : 'Only a seller may list a TV, and only as themself',
  MarkProductSold: namesItsSender,
  MarkProductAvailable: namesItsSender,
  AdvertiseProduct: namesItsSender,
  RemoveAdvertising: namesItsSender,
  ReportProduct: namesItsSender,
  RemoveProduct: (command, env) => {
    switch (command.data.reason) {
      case 'admin':
        return admins(command, env);
      case 'seller-deleted':
        return isSystem(env.actor) ? null : "Only the shop removes a deleted seller's listings";
      case 'withdrawn':
        return sellers(command, env) ?? namesItsSender(command as { data: { actorId: string } }, env);
    }
  },
  // Sent by orders' payment, for the buyer who paid (or the shop, for Stripe's webhook).
  RecordSale: oneOf('Buyer'),
};
