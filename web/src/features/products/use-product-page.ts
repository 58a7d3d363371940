import type { Product, SellerProfile } from '@tv-shop/contracts';
import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { noteListRead } from '@/lib/live-socket';
import { listsReloadAtom, useWatchView } from '@/lib/use-live-list';
import { usePageRead } from '@/lib/use-page-read';
import type { readProductPage } from './api/read-product-page';
import { productsStore } from './atoms';
import { mayChangeCount, useReadAgainSoon, useSellerPushes } from './use-seller-pushes';

/**
 * One page's read (a 404 is its `notFound`); a resync (the server cannot replay what the tab
 * missed) reads it again in the background.
 */
export const usePageReadLive = (load: () => Promise<void>, again = 0) => usePageRead(load, useAtomValue(listsReloadAtom) + again);

/**
 * The product (live: a push changes it in place, a removal empties it) and its seller's profile
 * (its name and tick live too). With `followSeller` (the product page; not the edit form), the
 * page also hears the seller's listings and reads itself again, in the background, when one of
 * them may change the count of their TVs for sale (ADR 0067). `refresh` reads it again in the
 * background, the page staying up.
 */
export function useProductPage(
  id: string,
  {
    followSeller = true,
    read: readPage,
  }: {
    followSeller?: boolean;
    /** How the page is read: the product page's `getProductPage` also fetches its first photo at once. */
    read: typeof readProductPage;
  },
) {
  const loadIntoStore = useSetAtom(productsStore.loadAtom);
  const [seller, setSeller] = useState<{ id: string; profile: SellerProfile | null } | null>(null);
  const view = useMemo(() => ({ kind: 'product' as const, id }), [id]);
  useWatchView(view);
  const load = useCallback(async () => {
    const { data, position } = await readPage(id);
    loadIntoStore({ rows: [data.product], position, inScope: (p) => p._id === id });
    noteListRead(position, view);
    // What the seller's view may have missed between this read and its subscription is caught up from here.
    if (followSeller) noteListRead(position, { kind: 'seller', id: data.product.sellerId });
    setSeller({ id, profile: data.seller });
  }, [id, followSeller, readPage, loadIntoStore]);
  const product: Product | undefined = useAtomValue(productsStore.stateAtom).rows.get(id);
  // The seller's listings (heard after this listing's own removal too: the seller is the page's as read).
  const sellerId = followSeller ? (product?.sellerId ?? (seller?.id === id ? (seller.profile?._id ?? null) : null)) : null;
  useWatchView(useMemo(() => (sellerId ? { kind: 'seller' as const, id: sellerId } : null), [sellerId]));
  const [again, readAgainSoon] = useReadAgainSoon(id);
  useSellerPushes(sellerId, (pushed) => {
    // This listing's own removal is said on the page as it is (and read again for why, below).
    if (pushed.push.op === 'remove' && pushed.push.id === id) return;
    if (mayChangeCount(pushed)) readAgainSoon();
  });
  const read = usePageReadLive(load, again);
  // Whether the page showed this listing (then its absence is a removal: ProductPage says why).
  const [shownId, setShownId] = useState<string | null>(null);
  const showing = product !== undefined && !read.notFound;
  useEffect(() => {
    if (showing) setShownId(id);
  }, [showing, id]);
  const live = useProfileAsListed(seller?.id === id ? seller.profile : null, product);
  return { ...read, product: read.notFound ? undefined : product, seller: live, refresh: load, wasShown: shownId === id, readAgainSoon };
}

/**
 * A seller's profile as read with a page, its name and tick as `listing` (one of theirs) now
 * carries them: a seller's new name or verification reaches their listings by push.
 */
export function useProfileAsListed(profile: SellerProfile | null, listing: Product | undefined): SellerProfile | null {
  const verified = listing?.sellerVerified;
  const name = listing?.seller;
  return useMemo(() => {
    if (!profile) return null;
    const nowVerified = verified ?? profile.verified;
    const nowName = name || profile.name;
    return nowVerified === profile.verified && nowName === profile.name ? profile : { ...profile, verified: nowVerified, name: nowName };
  }, [profile, verified, name]);
}
