import type { OwnRemovedListing } from '@tv-shop/contracts';
import { atom } from 'jotai';
import { apiRead } from '@/lib/api-client';

interface OwnRemoved {
  sellerId: string;
  list: OwnRemovedListing[];
  /** The log position the read model had reached when the list was read. */
  position: number;
}

/**
 * The signed-in seller's listings taken off the shop, newest first, as last read: My Products
 * reads them when it opens, and a removal pushed while the seller is here reads them again (it
 * says why, which the push does not).
 */
export const ownRemovedAtom = atom<OwnRemoved | null>(null);

/**
 * Reads them and hands them to `keep`, unless what it keeps was read further on in the log (an
 * answer that arrives late may lack the removal just pushed). Answers the list read.
 */
export async function readOwnRemoved(sellerId: string, keep: (update: (kept: OwnRemoved | null) => OwnRemoved | null) => void) {
  const { data: list, position } = await apiRead<OwnRemovedListing[]>('/seller_removed_products');
  keep((kept) => (kept?.sellerId === sellerId && kept.position > position ? kept : { sellerId, list, position }));
  return list;
}
