import type { CatalogCommand } from '@tv-shop/contracts';
import { allOf, isSystem, namesItsSender, oneOf, type SenderRule, type SenderRules } from '@tv-shop/platform';

const sellers = oneOf('Seller');
const buyers = oneOf('Buyer');
const admins = oneOf('Admin');
/** A seller's action on a TV, naming that seller: whether it is their TV is the product's stream's to say (`owned`). */
const sellerAsThemself: SenderRule<{ data: { actorId: string } }> = allOf(sellers, namesItsSender);

/**
 * Who may send each of catalog's commands (checked on what arrives, before anything is decided).
 * Whose product it is stays the product's stream's to say (the decider's `owned`).
 */
export const catalogSenders: SenderRules<CatalogCommand> = {
  // A seller lists their own TVs; the admin and the shop's seed may list for a seller (such a
  // listing holds the seller's slot but is never refused: ADR 0035).
  ListProduct: (command, env) =>
    isSystem(env.actor) || env.actor.role === 'Admin' || (env.actor.role === 'Seller' && command.data.sellerId === env.actor.id)
      ? null
      : 'Only a seller may list a TV, and only as themself',
  // A seller edits their own listing (the product's stream checks it is theirs).
  EditListing: sellerAsThemself,
  MarkProductSold: sellerAsThemself,
  MarkProductAvailable: sellerAsThemself,
  AdvertiseProduct: sellerAsThemself,
  RemoveAdvertising: sellerAsThemself,
  // Buyers report (a seller may not report a rival's TV); the product refuses a buyer's second report.
  ReportProduct: allOf(buyers, namesItsSender),
  DismissReports: admins,
  RemoveProduct: (command, env) => {
    switch (command.data.reason) {
      case 'admin':
        return admins(command, env);
      case 'seller-deleted':
        return isSystem(env.actor) ? null : "Only the shop removes a deleted seller's listings";
      case 'withdrawn':
        return sellerAsThemself(command as { data: { actorId: string } }, env);
    }
  },
  // Sent only by orders' payment workflow, as the payment's sender: the buyer who paid, or the
  // shop for Stripe's webhook. That a payment stands behind it is orders' to check (ADR 0006).
  RecordSale: buyers,
};
