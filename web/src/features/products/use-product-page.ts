import type { Product, SellerProfile } from '@tv-shop/contracts';
import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { noteListRead } from '@/lib/live-socket';
import { listsReloadAtom, useWatchView } from '@/lib/use-live-list';
import { usePageRead } from '@/lib/use-page-read';
import { getProductPage } from './api/get-product-page';
import { getSellerPage } from './api/get-seller-page';
import { productsStore } from './atoms';
import { useIdList } from './use-id-list';
import { useNewlyListed } from './use-newly-listed';
import { mayChangeCount, useReadAgainSoon, useSellerPushes } from './use-seller-pushes';

/**
 * One page's read (a 404 is its `notFound`); a resync (the server cannot replay what the tab
 * missed) reads it again in the background.
 */
const usePageReadLive = (load: () => Promise<void>, again = 0) => usePageRead(load, useAtomValue(listsReloadAtom) + again);

/**
 * The product (live: a push changes it in place, a removal empties it) and its seller's profile
 * (its name and tick live too). With `followSeller` (the product page; not the edit form), the
 * page also hears the seller's listings and reads itself again, in the background, when one of
 * them may change the count of their TVs for sale (ADR 0067). `refresh` reads it again in the
 * background, the page staying up.
 */
export function useProductPage(id: string, { followSeller = true }: { followSeller?: boolean } = {}) {
  const loadIntoStore = useSetAtom(productsStore.loadAtom);
  const [seller, setSeller] = useState<{ id: string; profile: SellerProfile | null } | null>(null);
  const view = useMemo(() => ({ kind: 'product' as const, id }), [id]);
  useWatchView(view);
  const load = useCallback(async () => {
    const { data, position } = await getProductPage(id);
    loadIntoStore({ rows: [data.product], position, inScope: (p) => p._id === id });
    noteListRead(position, view);
    // What the seller's view may have missed between this read and its subscription is caught up from here.
    if (followSeller) noteListRead(position, { kind: 'seller', id: data.product.sellerId });
    setSeller({ id, profile: data.seller });
  }, [id, followSeller, loadIntoStore]);
  const product: Product | undefined = useAtomValue(productsStore.stateAtom).rows.get(id);
  // The seller's listings (heard after this listing's own removal too: the seller is the page's as read).
  const sellerId = followSeller ? (product?.sellerId ?? (seller?.id === id ? (seller.profile?._id ?? null) : null)) : null;
  useWatchView(useMemo(() => (sellerId ? { kind: 'seller' as const, id: sellerId } : null), [sellerId]));
  const [again, readAgainSoon] = useReadAgainSoon(id);
  useSellerPushes(sellerId, (pushed) => {
    // This listing's own removal is said on the page as it is; there is nothing to read.
    if (pushed.push.op === 'remove' && pushed.push.id === id) return;
    if (mayChangeCount(pushed)) readAgainSoon();
  });
  const read = usePageReadLive(load, again);
  // Read again after the page showed it, a 404 is this listing removed (with its seller, say),
  // which the page says as such, not as a page that never was.
  const [shownId, setShownId] = useState<string | null>(null);
  const showing = product !== undefined && !read.notFound;
  useEffect(() => {
    if (showing) setShownId(id);
  }, [showing, id]);
  const gone = read.notFound && shownId === id;
  const state = gone ? { ...read, notFound: false } : read;
  const live = useProfileAsListed(seller?.id === id ? seller.profile : null, product);
  return { ...state, product: gone ? undefined : product, seller: live, refresh: load };
}

/**
 * A seller's profile as read with a page, its name and tick as `listing` (one of theirs) now
 * carries them: a seller's new name or verification reaches their listings by push.
 */
function useProfileAsListed(profile: SellerProfile | null, listing: Product | undefined): SellerProfile | null {
  const verified = listing?.sellerVerified;
  const name = listing?.seller;
  return useMemo(() => {
    if (!profile) return null;
    const nowVerified = verified ?? profile.verified;
    const nowName = name || profile.name;
    return nowVerified === profile.verified && nowName === profile.name ? profile : { ...profile, verified: nowVerified, name: nowName };
  }, [profile, verified, name]);
}

const available = (p: Product) => !p.sold;

/**
 * A seller's profile and their listings still for sale, live: one sold drops out by push, and one
 * they list after the page was read (the seller's view, by their id, hears it even when they had
 * none) joins at the top. Their name and tick follow their newest listing's. A listing removed
 * (by the admin, or with the seller's account) reads the page again in the background: a deleted
 * seller's page then says the seller is not found.
 */
export function useSellerPage(id: string) {
  const loadIntoStore = useSetAtom(productsStore.loadAtom);
  const [page, setPage] = useState<{ id: string; seller: SellerProfile; ids: string[]; readAt: number } | null>(null);
  const view = useMemo(() => ({ kind: 'seller' as const, id }), [id]);
  useWatchView(view);
  const load = useCallback(async () => {
    const { data, position } = await getSellerPage(id);
    loadIntoStore({ rows: data.listings, position, inScope: () => false });
    noteListRead(position, view);
    setPage({ id, seller: data.seller, ids: data.listings.map((p) => p._id), readAt: position });
  }, [id, view, loadIntoStore]);
  const [again, readAgainSoon] = useReadAgainSoon(id);
  useSellerPushes(id, ({ push }) => {
    if (push.op === 'remove') readAgainSoon();
  });
  const state = usePageReadLive(load, again);
  const current = page?.id === id ? page : null;
  const ids = useMemo(() => current?.ids ?? [], [current]);
  const read = useIdList(ids, available);
  // Listed after the read, by this seller: new since, newest first, above the ones read.
  const matches = useCallback((p: Product) => p.sellerId === id && available(p), [id]);
  const added = useNewlyListed(current, matches);
  const listings = useMemo(() => (added.length === 0 ? read : [...added, ...read]), [added, read]);
  const seller = useProfileAsListed(current?.seller ?? null, listings[0]);
  return { ...state, seller, listings };
}
